//! Statistics: histograms of per-game values, Wilson intervals and paired differences, and the
//! estimates with their 95% intervals that every figure is reported as. A leaf: it uses nothing
//! else of the crate.

pub mod estimate;
pub mod histogram;
pub mod interval;
