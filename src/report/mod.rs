//! Reports: terminal tables, the JSON report and the HTML report, made from results (see
//! [`crate::results`]); `sim evaluate`'s report.

pub mod differences;
pub mod evaluate;
pub mod html;
pub mod json;
pub mod tables;
pub mod terminal;
pub mod verdict;
