//! Junkyard's search players at the command line: their strategy files are the built-ins, `sim
//! list` names them, bad search settings exit 2 in one line and write nothing (a duel with a
//! search seat on any thread count: `search_players.rs`).

use crate::common::*;
use sim::games::junkyard::Rules;
use sim::games::junkyard::search::{DEFAULTS, parse};
use sim::search::Searcher;

/// The search player a `--policy` value names.
fn searcher(spec: &str) -> Searcher<sim::games::junkyard::PolicyKind> {
    parse(spec, &Rules::default())
        .unwrap()
        .unwrap_or_else(|| panic!("{spec} names no search player"))
}

#[test]
fn the_strategy_files_are_the_built_in_players() {
    assert_strategy_files_are_built_in("junkyard", &DEFAULTS, searcher);
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
