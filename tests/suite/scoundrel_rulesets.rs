//! The shipped rule sets of peers' projects (`rulesets/scoundrel/`) load, cite their project
//! and play; the policies that cannot play a rule set say so.

use crate::common::{run, usage_error};
use sim::games::Game;
use sim::games::scoundrel::{Rules, Scoundrel};
use sim::rules::load;

#[test]
fn the_shipped_rule_sets_load_cite_their_project_and_play() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/scoundrel");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("https://github.com/"),
            "{path:?} cites no project"
        );
        let rules: Rules = load(Some(path.as_path()), &[]).unwrap();
        assert_ne!(rules, Rules::default(), "{path:?} changes no rule");
        let game = Scoundrel::with_policy(rules, "heuristic").unwrap();
        let won = (0..200).filter(|&i| game.play(1, i).win).count();
        assert!(won > 0, "{path:?}: no game of 200 won");
    }
}

#[test]
fn the_solver_refuses_the_monsters_end_and_tuned_lookahead_a_bad_budget() {
    for args in [
        [
            "scoundrel",
            "--policy",
            "clairvoyant",
            "--set",
            "end=monsters",
            "--games",
            "10",
        ],
        [
            "scoundrel",
            "--policy",
            "tuned-lookahead-65",
            "--games",
            "10",
            "--threads",
            "1",
        ],
    ] {
        let err = usage_error(&run(&args), None).unwrap();
        assert!(err.contains("monsters") || err.contains("1..=64"), "{err}");
    }
}
