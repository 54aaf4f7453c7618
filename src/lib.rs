//! `sim`: plays card games millions of times, seeded and in parallel, under pluggable policies,
//! and writes win rates and distributions to Parquet.
//!
//! Flow: [`cli`] parses and dispatches; [`sim::runner`] splits game indices into chunks played in
//! parallel; each game is a pure function of its rules, policy and per-game generators
//! ([`rng`]); integer tallies merge in chunk order; [`results`] writes them (Parquet, the run's
//! record) and [`report`] shows them (terminal, JSON, HTML).

pub mod balance;
pub mod cards;
pub mod cli;
pub mod error;
pub mod evaluate;
pub mod explore;
pub mod files;
pub mod games;
pub mod learn;
pub mod registry;
pub mod report;
pub mod results;
pub mod rng;
pub mod rules;
pub mod search;
pub mod sim;
pub mod stats;
pub mod stop;
pub mod trace;
