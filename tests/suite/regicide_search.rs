//! Regicide's search players at the command line: their strategy files are the built-ins, bad
//! search settings exit 2 in one line and write nothing, and a run is the same on any thread
//! count (all but the timing column).

use crate::common::*;
use sim::games::regicide::search::{DEFAULTS, Seat, parse};
use sim::search::Searcher;

/// The search player a `--policy` value names.
fn searcher(spec: &str) -> Searcher<sim::games::regicide::PolicyKind> {
    match parse(spec).unwrap() {
        Some(Seat::Search(s)) => s,
        other => panic!("{spec} names no search player: {other:?}"),
    }
}

#[test]
fn the_strategy_files_are_the_built_in_players() {
    assert_strategy_files_are_built_in("regicide", &DEFAULTS, searcher);
    assert_eq!(searcher("ismcts-77").settings.simulations, 77);
    assert_eq!(searcher("pimc-5").settings.simulations, 5);
    assert!(parse("heuristic").unwrap().is_none());
}

#[test]
fn bad_search_players_exit_2_in_one_line_and_write_nothing() {
    let tmp = TempDir::new("regicide_search_bad_input");
    let bad = tmp.write("bad.toml", "[search]\nexploration = -1.0\n");
    let bad = bad.to_str().unwrap().to_string();
    let unknown = tmp.write("unknown.toml", "[search]\ndepth = 3\n");
    let unknown = unknown.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--policy", "ismcts-0"], "ismcts-N takes N from 1"),
        (vec!["--policy", "pimc-lots"], "pimc-N takes N from 1"),
        (vec!["--policy", "ismcts-"], "ismcts-N"),
        (
            vec!["--players", "2", "--policy", "clairvoyant"],
            "solves solo games only",
        ),
        (vec!["--policy", &bad], "search settings out of range"),
        (vec!["--policy", &unknown], "depth"),
    ];
    assert_each_refused_naming("regicide", &tmp, "10", cases);
}

#[test]
fn a_search_run_is_the_same_on_any_thread_count_but_for_its_times() {
    let tmp = TempDir::new("regicide_search_threads");
    let runs = on_1_and_2_threads(
        &tmp,
        &[
            "regicide",
            "--players",
            "2",
            "--policy",
            "ismcts-30",
            "--seat",
            "1=pimc-2",
            "--games",
            "6",
            "--seed",
            "3",
            "--per-game",
        ],
    );
    let frames = runs.each_ref().map(|(dir, _)| {
        let games = read_parquet(&dir.join("games.parquet"));
        assert!(column_names(&games).contains(&"search_us".to_string()));
        games.drop("search_us").unwrap()
    });
    assert!(
        frames[0].equals(&frames[1]),
        "{:?}\n{:?}",
        frames[0],
        frames[1]
    );
}
