//! `sim trace regicide` of the search players that `tests/trace_regicide.rs` leaves out for
//! time: ISMCTS with a small budget over 1,000 games at 1 and 3 players, and the clairvoyant
//! solver over solo deals it solves well inside its time limit.

#[path = "common/regicide_traces.rs"]
mod regicide_traces;

use regicide_traces::{assert_none, regicide, trace_failures};

const SEED: u64 = 7;

/// ISMCTS through the search's own loop, with a small budget (the same code as the default's:
/// the budget is a parameter), at 1 and 3 players.
#[test]
fn ismcts_traces_are_the_games_of_the_run_at_1_and_3_players() {
    let mut failures = Vec::new();
    for players in [1, 3] {
        failures.extend(trace_failures(
            &regicide(players, "ismcts-50", &[]),
            SEED,
            0..1000,
        ));
    }
    assert_none(&failures);
}

/// The clairvoyant's result depends on the CPU time only for a deal whose search reaches its
/// limit (10 s a deal): these seed-7 deals are solved in under a fifth of a second each (a
/// probe run), so their traces must be the run's games, the unsolved flag included.
#[test]
fn clairvoyant_traces_are_the_games_of_the_run_for_deals_solved_inside_the_limit() {
    let game = regicide(1, "clairvoyant", &[]);
    let failures = trace_failures(&game, SEED, CLAIRVOYANT_QUICK.iter().copied());
    assert_none(&failures);
}

/// Seed-7 solo deals the clairvoyant solved in under 0.2 s of CPU each (won or proved lost).
const CLAIRVOYANT_QUICK: [u64; 47] = [
    1, 2, 3, 4, 5, 9, 13, 14, 21, 23, 30, 32, 33, 40, 42, 43, 47, 48, 49, 52, 55, 56, 57, 59, 61,
    62, 65, 68, 73, 74, 82, 83, 85, 88, 90, 96, 101, 103, 106, 109, 111, 113, 114, 119, 120, 126,
    127,
];
