//! Results: what a command writes and what is read back from it. Summary and distribution rows,
//! Parquet files (summary, distributions, per-game rows, balance rows), the run's record
//! (`shard.json`, `resume.json`), the result set a command puts in place whole, and a results
//! folder's tables as read back.

pub mod balance;
pub mod explore;
pub mod folder;
pub mod games_file;
pub mod manifest;
pub mod parquet;
pub mod read_back;
pub mod result_set;
pub mod summary;
pub mod summary_check;
