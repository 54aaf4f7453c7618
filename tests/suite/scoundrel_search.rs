//! Scoundrel's search players at the command line: their strategy files are the built-ins, bad
//! search settings exit 2 in one line and write nothing, and `sim list` and `sim compare` know
//! them (the same games on any thread count: `search_players.rs`).

use crate::common::*;
use sim::games::scoundrel::Rules;
use sim::games::scoundrel::search::{DEFAULTS, parse};
use sim::search::Searcher;

/// The search player a `--policy` value names.
fn searcher(spec: &str) -> Searcher<sim::games::scoundrel::PolicyKind> {
    parse(spec, &Rules::default())
        .unwrap()
        .unwrap_or_else(|| panic!("{spec} names no search player"))
}

#[test]
fn the_strategy_files_are_the_built_in_players() {
    assert_strategy_files_are_built_in("scoundrel", &DEFAULTS, searcher);
    assert_eq!(searcher("ismcts-77").settings.simulations, 77);
    assert_eq!(searcher("pimc-5").settings.simulations, 5);
    assert!(parse("tuned", &Rules::default()).unwrap().is_none());
    // A heuristic strategy file is no search player.
    let bold = format!(
        "{}/strategies/scoundrel/bold.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    assert!(parse(&bold, &Rules::default()).unwrap().is_none());
}

#[test]
fn bad_search_players_exit_2_in_one_line_and_write_nothing() {
    let tmp = TempDir::new("scoundrel_search_bad_input");
    let file = |name: &str, text: &str| tmp.write(name, text).to_str().unwrap().to_string();
    let bad = file("bad.toml", "[search]\nexploration = -1.0\n");
    let unknown = file("unknown.toml", "[search]\ndepth = 3\n");
    let cheat = file("cheat.toml", "[search]\nrollout = \"clairvoyant\"\n");
    let nonsense = file("nonsense.toml", "[search]\nrollout = \"nonsense\"\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--policy", "ismcts-0"], "ismcts-N takes N from 1"),
        (vec!["--policy", "pimc-lots"], "pimc-N takes N from 1"),
        (vec!["--policy", "pimc-"], "pimc-N"),
        (vec!["--policy", &bad], "search settings out of range"),
        (vec!["--policy", &unknown], "depth"),
        (vec!["--policy", &cheat], "a rollout must be a fair policy"),
        (vec!["--policy", &nonsense], "unknown policy nonsense"),
        (vec!["--policy", "expectimax"], "tuned-lookahead"),
        (vec!["--policy", "expectimax-8"], "tuned-lookahead"),
    ];
    assert_each_refused_naming("scoundrel", &tmp, "10", cases);
}

#[test]
fn list_names_the_search_players_and_compare_pairs_them_with_the_plain_ones() {
    let list = stdout(&run(&["list"]));
    let from = list.find("\nscoundrel: ").expect("scoundrel listed");
    let scoundrel = &list[from..from + list[from + 1..].find("\n\n").unwrap_or(list.len() - from)];
    for name in ["ismcts[-N]", "pimc[-N]", "tuned-lookahead[-N]"] {
        assert!(scoundrel.contains(name), "{name} in sim list");
    }
    let tmp = TempDir::new("scoundrel_search_compare");
    let out = sim()
        .args([
            "compare",
            "scoundrel",
            "--policy",
            "heuristic",
            "--policy",
            "pimc-2",
            "--baseline",
            "heuristic",
            "--games",
            "12",
            "--out",
        ])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = read_parquet(&tmp.join("summary.parquet"));
    assert_eq!(summary.height(), 2);
    assert_eq!(str_at(&summary, "policy", 1), "pimc-2");
}
