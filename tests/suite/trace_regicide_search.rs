//! `sim trace regicide` of the search players that `tests/suite/trace_regicide.rs` leaves out for
//! time: ISMCTS with a small budget over 1,000 games at 1 and 3 players, and the clairvoyant
//! solver with a small budget of states over 1,000 solo deals.

use crate::common::regicide_traces::{assert_none, failures_at, regicide, trace_failures};

const SEED: u64 = 7;

/// ISMCTS through the search's own loop, with a small budget (the same code as the default's:
/// the budget is a parameter), at 1 and 3 players.
#[test]
fn ismcts_traces_are_the_games_of_the_run_at_1_and_3_players() {
    assert_none(&failures_at(&[1, 3], "ismcts-50", SEED, 1000));
}

/// The clairvoyant's budget counts states, not time, so every deal replays exactly, unsolved
/// and unproved ones included. A small budget (20 thousand states, the same code as the
/// default's) keeps 1,000 deals to under a minute and leaves some deals unsolved or unproved.
#[test]
fn clairvoyant_traces_are_the_games_of_the_run() {
    let game = regicide(1, "clairvoyant-20", &[]);
    assert_none(&trace_failures(&game, SEED, 0..1000));
}
