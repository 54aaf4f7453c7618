//! The integration tests, one binary: each module is one area (a game, a command, the docs).
//! `cargo test --release` runs them all; `cargo test --release --test suite -- trace::` one area.

#[macro_use]
mod common;
mod bad_input;
mod balance;
mod cli;
mod crownfall_exact;
mod crownfall_properties;
mod crownfall_solver;
mod defects;
mod deploy;
mod docs_links;
mod fairness;
mod frontdoor;
mod fuzz_readers;
mod golden;
mod grid;
mod invariants;
mod junkyard;
mod junkyard_reference;
mod junkyard_search;
mod play;
mod play_hints;
mod random_inputs;
mod regicide;
mod regicide_search;
mod resume;
mod scoundrel_fair;
mod scoundrel_properties;
mod scoundrel_rulesets;
mod scoundrel_solver;
mod search_players;
mod seats;
mod shards;
mod slurm;
mod speed_figures;
mod trace;
mod trace_junkyard;
mod trace_regicide;
mod trace_regicide_search;
mod trace_seats;
mod user_words;
