//! Reports: terminal tables, Parquet files and the JSON report.

pub mod files;
pub mod json;
pub mod parquet;
pub mod summary;
pub mod tables;
pub mod terminal;
