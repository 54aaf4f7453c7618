//! Reports: terminal tables and Parquet files.

pub mod files;
pub mod games_file;
pub mod manifest;
pub mod parquet;
pub mod summary;
pub mod tables;
pub mod terminal;
