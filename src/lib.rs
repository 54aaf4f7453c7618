//! `sim`: plays card games millions of times, seeded and in parallel, under pluggable policies,
//! and writes win rates and distributions to Parquet.
//!
//! Flow: [`cli`] parses and dispatches; [`sim::runner`] splits game indices into chunks played in
//! parallel; each game is a pure function of its rules, policy and per-game generators
//! ([`rng`]); integer tallies merge in chunk order; [`report`] writes tables and Parquet.

pub mod balance;
pub mod cards;
pub mod cli;
pub mod error;
pub mod evaluate;
pub mod games;
pub mod report;
pub mod rng;
pub mod rules;
pub mod search;
pub mod sim;
pub mod stats;
pub mod trace;
