//! Junkyard's search players at the command line: their strategy files are the built-ins, `sim
//! list` names them, bad search settings exit 2 in one line and write nothing, and a duel with a
//! search seat (in either seat, both seat orders on every deal) is the same on any thread count.

use crate::common::*;
use sim::games::junkyard::Rules;
use sim::games::junkyard::search::{DEFAULTS, parse};
use sim::search::{Algorithm, Searcher};

/// The search player a `--policy` value names.
fn searcher(spec: &str) -> Searcher<sim::games::junkyard::PolicyKind> {
    parse(spec, &Rules::default())
        .unwrap()
        .unwrap_or_else(|| panic!("{spec} names no search player"))
}

#[test]
fn the_strategy_files_are_the_built_in_players() {
    for (file, algorithm) in [("ismcts", Algorithm::Ismcts), ("pimc", Algorithm::Pimc)] {
        let path = format!(
            "{}/strategies/junkyard/{file}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let from_file = searcher(&path);
        assert_eq!(from_file.settings, DEFAULTS.settings(algorithm));
        assert_eq!(from_file, searcher(file));
    }
    assert_eq!(searcher("ismcts-77").settings.simulations, 77);
    assert_eq!(searcher("pimc-5").settings.simulations, 5);
    assert!(parse("greedy", &Rules::default()).unwrap().is_none());
    let list = stdout(&run(&["list"]));
    let junkyard = &list[list.find("junkyard").expect("junkyard listed")..];
    assert!(
        junkyard.contains("ismcts[-N]") && junkyard.contains("pimc[-N]"),
        "{list}"
    );
}

#[test]
fn bad_search_players_exit_2_in_one_line_and_write_nothing() {
    let tmp = TempDir::new("junkyard_search_bad_input");
    let bad = tmp.write("bad.toml", "[search]\ncredit = 2.0\n");
    let bad = bad.to_str().unwrap().to_string();
    let rollout = tmp.write("rollout.toml", "[search]\nrollout = \"nonsense\"\n");
    let rollout = rollout.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--policy", "ismcts-0"], "ismcts-N takes N from 1"),
        (vec!["--vs", "pimc-lots"], "pimc-N takes N from 1"),
        (vec!["--policy", &bad], "search settings out of range"),
        (vec!["--policy", &rollout], "its rollout policy"),
        (vec!["--policy", "mcts"], "ismcts[-N]"),
    ];
    assert_each_refused_naming("junkyard", &tmp, "4", cases);
}

#[test]
fn a_duel_with_a_search_seat_is_the_same_on_any_thread_count() {
    // The search player first (seat 0 of even games, seat 1 of odd ones) and second.
    for (name, seating) in [
        ("ismcts", ["--policy", "ismcts-40", "--vs", "greedy"]),
        ("pimc", ["--policy", "greedy", "--vs", "pimc-4"]),
    ] {
        let tmp = TempDir::new(&format!("junkyard_search_threads_{name}"));
        let mut args = vec!["junkyard"];
        args.extend(seating);
        args.extend(["--games", "12", "--seed", "3", "--per-game"]);
        let runs = on_1_and_2_threads(&tmp, &args);
        assert_same_files_on_1_and_2_threads(
            &runs,
            &["games.parquet", "summary.parquet", "distributions.parquet"],
        );
        let games = read_parquet(&runs[0].0.join("games.parquet"));
        let seats: Vec<u32> = (0..12)
            .map(|r| match value_at(&games, "first_policy_seat", r) {
                polars::prelude::AnyValue::UInt32(s) => s,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(seats, [0, 1].repeat(6), "both seat orders on every deal");
    }
}
