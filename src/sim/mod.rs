//! Running games: the parallel runner, progress, grids of cells, paired wins, ratings, shards.

pub mod grid;
pub mod pairs;
pub mod progress;
pub mod ratings;
pub mod runner;
pub mod shard;
