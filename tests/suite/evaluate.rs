//! `sim evaluate` end to end: bad input refused (exit 2, one line, nothing written); a plain
//! rung's win rate is the very figure `sim <game> --policy` gives on the same seed (the ladder
//! plays the game's own games); the files are the same on 1 and 2 threads and after shards are
//! merged; `--vary` gives one profile per value, each rung again `sim <game>`'s own figure.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// A small, fast Crownfall ladder: the plain rungs, two search budgets, the solved game.
const SMALL: [&str; 4] = ["--games", "200", "--budgets", "2,4"];

/// Runs `sim evaluate ARGS --format json --out OUT` and returns the parsed report.
fn evaluate_json(out: &Path, args: &[&str]) -> Value {
    let output = sim()
        .arg("evaluate")
        .args(args)
        .args(["--format", "json", "--out"])
        .arg(out)
        .output()
        .expect("run the sim binary");
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("the report is JSON")
}

/// `sim GAME --policy POLICY --games N ARGS --format json`'s win count.
fn plain_wins(game: &str, policy: &str, games: &str, args: &[&str], out: &Path) -> u64 {
    let output = sim()
        .args([
            game, "--policy", policy, "--games", games, "--format", "json",
        ])
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run the sim binary");
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    doc["wins"].as_u64().expect("wins")
}

/// The ladder row of `rung` in variant `v` of a report.
fn rung<'a>(doc: &'a Value, v: usize, name: &str) -> &'a Value {
    doc["variants"][v]["ladder"]
        .as_array()
        .expect("a ladder")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no rung {name}"))
}

#[test]
fn bad_input_exits_2_with_one_line_and_writes_nothing() {
    let tmp = TempDir::new("evaluate_bad_input");
    let cases: &[(&[&str], &str)] = &[
        (&["nosuch"], "crownfall"),
        (&["junkyard"], "evaluate knows crownfall, regicide"),
        (&["crownfall", "--vary", "guard_damage.king"], "--vary"),
        (
            &["crownfall", "--vary", "no_such_rule=1..3"],
            "no_such_rule",
        ),
        (
            &["crownfall", "--ideal-turns", "20..12"],
            "--ideal-turns 20..12",
        ),
        (
            &["crownfall", "--ideal-turns", "twelve"],
            "--ideal-turns twelve",
        ),
        (
            &["crownfall", "--budgets", "25..1000"],
            "--budgets 25..1000",
        ),
        (&["crownfall", "--budgets", "50,25"], "--budgets 50,25"),
        (&["crownfall", "--precision", "0.7"], "--precision 0.7"),
        (&["crownfall", "--games", "0"], "'0'"),
    ];
    let mut failures = Vec::new();
    for (i, (args, named)) in cases.iter().enumerate() {
        let dir = tmp.join(&format!("out{i}"));
        let out = sim()
            .arg("evaluate")
            .args(*args)
            .arg("--out")
            .arg(&dir)
            .output()
            .expect("run the sim binary");
        failures.extend(refused_naming(
            &out,
            Some(&dir),
            named,
            &format!("{args:?}"),
        ));
    }
    assert_no_failures(&failures);
}

#[test]
fn the_plain_rungs_are_the_games_own_runs_and_the_files_say_so() {
    let tmp = TempDir::new("evaluate_plain_rungs");
    let doc = evaluate_json(
        &tmp.join("eval"),
        &["crownfall", SMALL[0], SMALL[1], SMALL[2], SMALL[3]],
    );
    let v = &doc["variants"][0];
    assert_eq!(v["deals"], 200);
    let names: Vec<&str> = v["ladder"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "random",
            "bank-at-17",
            "bank-at-target",
            "pimc-2",
            "pimc-4",
            "optimal",
            "expectimax"
        ]
    );
    // Each plain rung's wins are `sim crownfall --policy`'s on the same seed and games.
    let mut failures = Vec::new();
    for policy in [
        "bank-at-17",
        "bank-at-target",
        "optimal",
        "expectimax",
        "pimc-4",
    ] {
        let wins = plain_wins("crownfall", policy, "200", &[], &tmp.join(policy));
        let rate = rung(&doc, 0, policy)["result"]["value"].as_f64().unwrap();
        if (rate * 200.0).round() as u64 != wins {
            failures.push(format!(
                "{policy}: ladder {rate}, sim crownfall {wins} of 200"
            ));
        }
    }
    assert_no_failures(&failures);
    // The gain on the rung below is the difference of the two win rates (paired: same deals).
    let rate = |n| rung(&doc, 0, n)["result"]["value"].as_f64().unwrap();
    let gain = rung(&doc, 0, "bank-at-target")["gain"]["value"]
        .as_f64()
        .unwrap();
    assert!((gain - (rate("bank-at-target") - rate("bank-at-17"))).abs() < 1e-12);
    // Tension reads the solver's exact values: there is a figure for it.
    let figures = v["figures"].as_array().unwrap();
    let metric = |m: &str| figures.iter().find(|f| f["metric"] == m);
    assert!(
        metric("decisiveness").is_some(),
        "tension from the solved game's values"
    );
    for m in [
        "skill_headroom",
        "deals_no_rung_wins",
        "completion",
        "length_median",
    ] {
        let f = metric(m).unwrap_or_else(|| panic!("no {m}"));
        assert!(
            f["ci_low"].as_f64().unwrap() <= f["value"].as_f64().unwrap(),
            "{m}"
        );
    }
    // The Parquet files: a row per figure, a row per rung.
    let figures_file = read_parquet(&tmp.join("eval").join("evaluate.parquet"));
    assert_eq!(figures_file.height(), figures.len());
    for column in [
        "variant", "part", "metric", "rung", "value", "ci_low", "ci_high", "games",
    ] {
        assert!(
            column_names(&figures_file).contains(&column.to_string()),
            "{column}"
        );
    }
    let ladder_file = read_parquet(&tmp.join("eval").join("ladder.parquet"));
    assert_eq!(ladder_file.height(), names.len());
    assert_eq!(str_at(&ladder_file, "name", 1), "bank-at-17");
}

#[test]
fn the_same_files_on_any_thread_count_and_after_shards_are_merged() {
    let tmp = TempDir::new("evaluate_threads_shards");
    let mut args = vec!["evaluate", "crownfall", "--ideal-turns", "12..16"];
    args.extend(SMALL);
    let runs = on_1_and_2_threads(&tmp, &args);
    assert_same_files_on_1_and_2_threads(&runs, &["evaluate.parquet", "ladder.parquet"]);
    let shards: Vec<_> = (0..3)
        .map(|i| {
            let dir = tmp.join(&format!("shard-{i}"));
            let out = sim()
                .args(&args)
                .args(["--shard", &format!("{i}/3"), "--out"])
                .arg(&dir)
                .output()
                .expect("run the sim binary");
            assert!(out.status.success(), "{}", stderr(&out));
            dir
        })
        .collect();
    let merged = tmp.join("merged");
    let out = sim()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .output()
        .expect("run the sim binary");
    assert!(out.status.success(), "{}", stderr(&out));
    for name in ["evaluate.parquet", "ladder.parquet"] {
        let single = fs::read(runs[0].0.join(name)).expect("the single run's file");
        assert!(
            fs::read(merged.join(name)).ok() == Some(single),
            "merged {name} differs"
        );
    }
}

#[test]
fn vary_gives_one_profile_per_value_each_the_games_own() {
    let tmp = TempDir::new("evaluate_vary");
    let mut args = vec!["crownfall", "--vary", "guard_damage.king=1,5"];
    args.extend(SMALL);
    let doc = evaluate_json(&tmp.join("eval"), &args);
    let variants = doc["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    let mut failures = Vec::new();
    for (v, value) in ["1", "5"].iter().enumerate() {
        assert_eq!(variants[v]["params"]["guard_damage.king"], *value);
        let set = format!("guard_damage.king={value}");
        let wins = plain_wins(
            "crownfall",
            "bank-at-17",
            "200",
            &["--set", &set],
            &tmp.join(value),
        );
        let rate = rung(&doc, v, "bank-at-17")["result"]["value"]
            .as_f64()
            .unwrap();
        if (rate * 200.0).round() as u64 != wins {
            failures.push(format!("{set}: ladder {rate}, sim crownfall {wins} of 200"));
        }
    }
    assert_no_failures(&failures);
    let file = read_parquet(&tmp.join("eval").join("ladder.parquet"));
    assert!(column_names(&file).contains(&"guard_damage.king".to_string()));
    assert_eq!(file.height(), 14, "seven rungs for each of two values");
}
