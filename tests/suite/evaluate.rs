//! `sim evaluate` end to end: bad input refused (exit 2, one line, nothing written); a plain
//! rung's win rate is the very figure `sim <game> --policy` gives on the same seed (the ladder
//! plays the game's own games; a duel's steps are `sim junkyard --policy A --vs B`'s games);
//! the files are the same on 1 and 2 threads and after shards are merged, for every game; a
//! stopped shard is refused by `sim merge` with what to do; `--vary` gives one profile per
//! value, each the profile of `--set` with that value.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// A small, fast Crownfall ladder: the plain rungs, two search budgets, the solved game.
const SMALL: [&str; 4] = ["--games", "200", "--budgets", "2,4"];

/// Small, fast Scoundrel and Junkyard ladders: few deals, two tiny search budgets.
const SMALL_SCOUNDREL: [&str; 5] = ["scoundrel", "--games", "40", "--budgets", "2,4"];
const SMALL_JUNKYARD: [&str; 5] = ["junkyard", "--games", "16", "--budgets", "2,4"];

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

/// Asserts that each of `rungs` won, in the first variant of `doc`, as many of its `games` deals
/// as `sim GAME --policy RUNG --games GAMES` wins on the same seed.
fn assert_rungs_are_plain_runs(doc: &Value, game: &str, rungs: &[&str], games: u64, tmp: &TempDir) {
    let mut failures = Vec::new();
    for policy in rungs {
        let n = games.to_string();
        let wins = plain_wins(game, policy, &n, &[], &tmp.join(policy));
        let rate = rung(doc, 0, policy)["result"]["value"].as_f64().unwrap();
        if (rate * games as f64).round() as u64 != wins {
            failures.push(format!(
                "{policy}: ladder {rate}, sim {game} {wins} of {games}"
            ));
        }
    }
    assert_no_failures(&failures);
}

/// The names of a variant's rungs, weakest first.
fn rung_names(variant: &Value) -> Vec<&str> {
    variant["ladder"]
        .as_array()
        .expect("a ladder")
        .iter()
        .map(|r| r["name"].as_str().expect("a name"))
        .collect()
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
        (&["junkyard", "--budgets", "0"], "--budgets 0"),
        (&["scoundrel", "--vary", "weapon_wear=blunt"], "weapon_wear"),
        (
            &["junkyard", "--set", "second_seat_hp_bonus=-30"],
            "second_seat_hp_bonus",
        ),
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
    let names = rung_names(v);
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
    let rungs = [
        "bank-at-17",
        "bank-at-target",
        "optimal",
        "expectimax",
        "pimc-4",
    ];
    assert_rungs_are_plain_runs(&doc, "crownfall", &rungs, 200, &tmp);
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

/// Plays `sim evaluate ARGS` on 1 and 2 threads and as 3 shards merged, and asserts the
/// files are the same bit for bit.
fn same_files_on_threads_and_shards(name: &str, args: &[&str]) {
    let tmp = TempDir::new(name);
    let mut args: Vec<&str> = [&["evaluate"], args].concat();
    args.push("--quiet");
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
    let out = merge_to(&shards, &merged);
    assert!(out.status.success(), "{}", stderr(&out));
    for name in ["evaluate.parquet", "ladder.parquet"] {
        let single = fs::read(runs[0].0.join(name)).expect("the single run's file");
        assert!(
            fs::read(merged.join(name)).ok() == Some(single),
            "{args:?}: merged {name} differs"
        );
    }
}

#[test]
fn the_same_files_on_any_thread_count_and_after_shards_are_merged() {
    let mut args = vec!["crownfall", "--ideal-turns", "12..16"];
    args.extend(SMALL);
    same_files_on_threads_and_shards("evaluate_threads_shards", &args);
}

#[test]
fn scoundrel_and_junkyard_give_the_same_files_on_any_thread_count_and_sharding() {
    same_files_on_threads_and_shards("evaluate_threads_scoundrel", &SMALL_SCOUNDREL);
    same_files_on_threads_and_shards("evaluate_threads_junkyard", &SMALL_JUNKYARD);
}

#[test]
fn a_stopped_evaluation_shard_is_refused_with_how_to_finish_it() {
    let tmp = TempDir::new("evaluate_stopped_shard");
    let args = [
        "evaluate",
        "scoundrel",
        "--games",
        "100K",
        "--budgets",
        "2",
        "--shard",
        "0/2",
        "--quiet",
    ];
    let complete = |dir: &Path| {
        let text = fs::read_to_string(dir.join("shard.json")).expect("the shard's record");
        let doc: Value = serde_json::from_str(&text).expect("JSON");
        doc["complete"].as_bool().expect("complete")
    };
    let dir = tmp.join("stopped");
    let mut a: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    a.extend(["--out".into(), dir.clone().into()]);
    let stopped = signalled(&a, libc::SIGTERM, std::time::Duration::from_millis(800));
    assert_eq!(stopped.code, Some(TERMINATED), "{}", stopped.stderr);
    assert!(!complete(&dir), "a stopped shard's record says incomplete");
    let err = usage_error(&merge_to(&[dir], &tmp.join("merged")), None).expect("refused");
    assert!(
        err.contains("incomplete") && err.contains("play it again") && !err.contains("--resume "),
        "{err}"
    );
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

#[test]
fn scoundrels_ladder_is_the_games_own_runs_with_the_clairvoyant_on_top() {
    let tmp = TempDir::new("evaluate_scoundrel");
    let doc = evaluate_json(&tmp.join("eval"), &SMALL_SCOUNDREL);
    let v = &doc["variants"][0];
    let names = rung_names(v);
    assert_eq!(
        names,
        [
            "random",
            "greedy",
            "heuristic",
            "tuned",
            "lookahead",
            "tuned-lookahead",
            "ismcts-2",
            "ismcts-4",
            "clairvoyant"
        ]
    );
    let rungs = [
        "random",
        "greedy",
        "heuristic",
        "lookahead",
        "tuned-lookahead",
        "ismcts-4",
        "clairvoyant",
    ];
    assert_rungs_are_plain_runs(&doc, "scoundrel", &rungs, 40, &tmp);
    assert_eq!(rung(&doc, 0, "clairvoyant")["fair"], false);
    assert_eq!(rung(&doc, 0, "tuned-lookahead")["fair"], true);
    // A ruleset the solver cannot see through has no ceiling; the fair ladder is the same.
    let shuffled = evaluate_json(
        &tmp.join("shuffled"),
        &[
            SMALL_SCOUNDREL.as_slice(),
            &["--set", "avoid_order=shuffle"],
        ]
        .concat(),
    );
    let last = shuffled["variants"][0]["ladder"].as_array().unwrap();
    assert_eq!(last.len(), names.len() - 1);
    assert_eq!(last.last().unwrap()["name"], "ismcts-4");
}

#[test]
fn vary_gives_each_value_the_profile_of_set_with_that_value() {
    let tmp = TempDir::new("evaluate_vary_set");
    let cases: [(&[&str], &str, &str, &str); 2] = [
        (&SMALL_SCOUNDREL, "weapon_wear", "lenient,strict", "strict"),
        (&SMALL_JUNKYARD, "second_seat_hp_bonus", "0,5", "5"),
    ];
    for (small, rule, values, value) in cases {
        let vary = format!("{rule}={values}");
        let varied = evaluate_json(
            &tmp.join(&format!("{rule}-vary")),
            &[small, &["--vary", &vary]].concat(),
        );
        let set = format!("{rule}={value}");
        let single = evaluate_json(
            &tmp.join(&format!("{rule}-set")),
            &[small, &["--set", &set]].concat(),
        );
        let (a, b) = (&varied["variants"][1], &single["variants"][0]);
        assert_eq!(a["params"][rule], value);
        for part in ["figures", "ladder", "lengths"] {
            assert_eq!(a[part], b[part], "{set}: {part}");
        }
    }
}

/// `sim junkyard ARGS --games N --format json`'s report.
fn junkyard_json(args: &[&str], games: u64, out: &Path) -> Value {
    let output = sim()
        .arg("junkyard")
        .args(args)
        .args(["--games", &games.to_string(), "--format", "json", "--out"])
        .arg(out)
        .output()
        .expect("run the sim binary");
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("JSON")
}

#[test]
fn junkyards_duel_steps_are_the_games_of_policy_against_vs() {
    let tmp = TempDir::new("evaluate_junkyard");
    let doc = evaluate_json(&tmp.join("eval"), &SMALL_JUNKYARD);
    let v = &doc["variants"][0];
    let deals = v["deals"].as_u64().unwrap();
    assert_eq!(deals, 16);
    let names = rung_names(v);
    assert_eq!(
        names,
        [
            "random",
            "simple",
            "greedy",
            "lookahead",
            "ismcts-2",
            "ismcts-4"
        ]
    );
    // Each step, both seat orders on each deal, is `sim junkyard --policy UPPER --vs LOWER` on
    // twice the deals (game 2i plays deal i as seated, game 2i + 1 swapped): the same score.
    let mut failures = Vec::new();
    for pair in names.windows(2) {
        let (lower, upper) = (pair[0], pair[1]);
        let plain = junkyard_json(
            &["--policy", upper, "--vs", lower],
            2 * deals,
            &tmp.join(upper),
        );
        let wins = plain["wins"].as_u64().unwrap();
        let draws = (plain["draw_rate"].as_f64().unwrap() * 2.0 * deals as f64).round() as u64;
        let row = rung(&doc, 0, upper);
        assert_eq!(row["games"].as_u64().unwrap(), 2 * deals);
        let score = row["result"]["value"].as_f64().unwrap();
        // The score counts a win 1 and a draw 1/2: in half points, 2 x wins + draws.
        if (score * 4.0 * deals as f64).round() as u64 != 2 * wins + draws {
            failures.push(format!(
                "{upper} vs {lower}: ladder score {score}, sim junkyard {wins} wins and {draws} draws of {}",
                2 * deals
            ));
        }
    }
    assert_no_failures(&failures);
    // The seats are the top fair rung against itself: `sim junkyard --policy ismcts-4`.
    let plain = junkyard_json(&["--policy", "ismcts-4"], deals, &tmp.join("self"));
    let figures = v["figures"].as_array().unwrap();
    let seat0 = figures
        .iter()
        .find(|f| f["metric"] == "seat_win_rate" && f["rung"] == "ismcts-4, seat 0")
        .expect("seat 0's win rate");
    assert_eq!(
        seat0["value"].as_f64().unwrap(),
        plain["seat0_win_rate"].as_f64().unwrap()
    );
    // Lead changes and drama read the search's own estimates (ismcts, with the credit for
    // progress left out).
    for metric in [
        "lead_changes",
        "decisiveness",
        "first_move_advantage",
        "balance",
    ] {
        assert!(figures.iter().any(|f| f["metric"] == metric), "no {metric}");
    }
    // A score's interval stays within 0..1.
    for row in v["ladder"].as_array().unwrap().iter().skip(1) {
        let (lo, hi) = (
            row["result"]["ci_low"].as_f64().unwrap(),
            row["result"]["ci_high"].as_f64().unwrap(),
        );
        assert!(
            (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi),
            "{row}"
        );
    }
}
