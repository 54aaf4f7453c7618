//! `sim evaluate`: what a rule set does to a game, for players of every strength.
//!
//! A game's ladder ([`ladder`]) is played on the same deals, rung by rung ([`collect`]), kept
//! as integers ([`data`]), and read as a profile ([`profile`]) of parts: the skill ladder
//! ([`skill`]), luck ([`luck`]), fairness between seats ([`seats`]), duration ([`duration`])
//! and tension ([`tension`]), every figure with its 95% interval ([`Estimate`](crate::stats::estimate::Estimate)) and sample
//! size. The core runs on any [`GameState`](crate::games::state::GameState) with players;
//! each game gives its ladder ([`ladder::Evaluable`]) in its own folder (`src/games/<game>/ladder.rs`). See docs/evaluate.md.

pub mod collect;
pub mod data;
pub mod duration;
pub mod ladder;
pub mod luck;
pub mod profile;
pub mod seats;
pub mod skill;
pub mod tension;
