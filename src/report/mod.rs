//! Reports: terminal tables, Parquet files, the JSON report and the HTML report.

pub mod balance;
pub mod differences;
pub mod evaluate;
pub mod files;
pub mod games_file;
pub mod html;
pub mod json;
pub mod manifest;
pub mod parquet;
pub mod result_set;
pub mod summary;
pub mod tables;
pub mod terminal;
pub mod verdict;
