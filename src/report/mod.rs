//! Reports: terminal tables, Parquet files and the JSON report.

pub mod balance;
pub mod files;
pub mod games_file;
pub mod json;
pub mod manifest;
pub mod parquet;
pub mod result_set;
pub mod summary;
pub mod tables;
pub mod terminal;
