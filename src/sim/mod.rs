//! Running games: the parallel runner, progress, tallies and statistics.

pub mod grid;
pub mod histogram;
pub mod pairs;
pub mod progress;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod stop;
