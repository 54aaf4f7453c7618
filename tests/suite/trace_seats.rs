//! `sim trace` and `sim play` with `--vs` and `--seat K=POLICY`, as a run seats them: a trace
//! of a duel of two policies (odd games swapped) or of a table of mixed seats is the run's game
//! (over 1,000 indices each, and through the binary against its `--per-game` rows); `sim play`
//! keeps seat 0 for the person.

use crate::common::regicide_traces::{assert_none, regicide, trace_failures};
use crate::common::{
    TempDir, assert_no_failures, outcome_differences, read_parquet, refused_naming, run, stderr,
    stdout,
};
use sim::games::Game;
use sim::games::junkyard::{Junkyard, Rules};
use sim::games::seats::{Seating, Table};
use sim::trace::{Traceable, outcome_fields};

const SEED: u64 = 7;

#[test]
fn a_junkyard_duel_of_two_policies_traces_the_runs_games_swapped_seats_included() {
    let seating = Seating::assign(Table::Duel, 2, "greedy", Some("simple"), &[]).unwrap();
    assert!(seating.swap);
    let game = Junkyard::new(Rules::default(), &seating).unwrap();
    let mut failures = Vec::new();
    let mut swapped = 0;
    game.play_range(SEED, 0..1000, |i, played| {
        let traced = game.trace(SEED, i);
        swapped += usize::from(played.swapped);
        if outcome_fields(&traced.outcome) != outcome_fields(&played) {
            failures.push(format!(
                "game {i}: trace {:?}, run {:?}",
                outcome_fields(&traced.outcome),
                outcome_fields(&played)
            ));
        }
    });
    assert_eq!(swapped, 500, "every odd game swaps the seats");
    assert_none(&failures);
}

#[test]
fn a_regicide_table_with_a_seat_set_apart_traces_the_runs_games() {
    let game = regicide(3, "heuristic", &["1=simple"]);
    assert_eq!(game.policy_name(), "heuristic; seat 1 simple");
    assert_none(&trace_failures(&game, SEED, 0..1000));
}

/// `sim trace --json` with the run's seat flags gives the row `--per-game` wrote for each game
/// (the search players' `search_us`, a CPU time, aside).
#[test]
fn the_binary_traces_with_the_seat_flags_of_the_run() {
    let tmp = TempDir::new("trace_seats");
    let mut failures = Vec::new();
    for (game, flags) in [
        ("junkyard", &["--policy", "greedy", "--vs", "simple"][..]),
        (
            "junkyard",
            &["--policy", "lookahead", "--seat", "1=random"][..],
        ),
        (
            "regicide",
            &[
                "--players",
                "3",
                "--policy",
                "heuristic",
                "--seat",
                "1=simple",
            ][..],
        ),
        (
            "regicide",
            &["--players", "2", "--policy", "simple", "--seat", "1=pimc-4"][..],
        ),
        ("regicide", &["--policy", "ismcts-50"][..]),
    ] {
        let dir = tmp.join(&format!(
            "{game}-{}",
            flags.join("-").replace(['/', '='], "-")
        ));
        let mut args = vec![
            game,
            "--games",
            "24",
            "--seed",
            "11",
            "--per-game",
            "--quiet",
        ];
        args.extend_from_slice(flags);
        args.extend(["--out", dir.to_str().unwrap()]);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let rows = read_parquet(&dir.join("games.parquet"));
        for index in [0u64, 1, 2, 7, 22, 23] {
            let i = index.to_string();
            let mut trace = vec!["trace", game, "--seed", "11", "--json", "--game", &i];
            trace.extend_from_slice(flags);
            let out = run(&trace);
            assert!(out.status.success(), "{}", stderr(&out));
            for (name, want, cell) in
                outcome_differences(&stdout(&out), &rows, index as usize, &["search_us"])
            {
                failures.push(format!(
                    "{game} {flags:?} game {index}: {name} traced {want}, row {cell}"
                ));
            }
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn play_keeps_seat_0_for_the_person_and_refuses_bad_seat_flags() {
    let mut failures = Vec::new();
    for (args, named) in [
        (
            &["play", "regicide", "--players", "2", "--seat", "0=random"][..],
            "--seat 0=random",
        ),
        (&["play", "regicide", "--vs", "simple"][..], "--vs simple"),
        (
            &["play", "junkyard", "--seat", "2=simple"][..],
            "--seat 2=simple",
        ),
        (
            &["trace", "regicide", "--players", "2", "--seat", "x"][..],
            "--seat x",
        ),
        (&["trace", "scoundrel", "--vs", "greedy"][..], "--vs greedy"),
    ] {
        failures.extend(refused_naming(&run(args), None, named, &args.join(" ")));
    }
    assert_no_failures(&failures);
}
