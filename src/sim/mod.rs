//! Running games: the parallel runner, progress, tallies and statistics.

pub mod histogram;
pub mod progress;
pub mod runner;
pub mod stats;
pub mod stop;
