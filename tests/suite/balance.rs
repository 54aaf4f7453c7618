//! `sim balance` end to end: answers checked against the solver's exact win probabilities, the
//! games it saves over a sweep, common random numbers, the scan of a metric that is not
//! monotone, the contour of two rules, reproducibility, and bad targets and ranges.
//!
//! The truth test runs 2 seeds by default; `SIM_BALANCE_SEEDS=100 cargo test --release --test
//! suite -- balance::answers_bracket --nocapture` runs the big one and prints each question's
//! figures (docs/balance.md has them).

use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// Runs `sim balance ARGS --format json --out OUT` and returns its report.
fn balance(out: &Path, args: &[&str]) -> Value {
    let run = sim()
        .arg("balance")
        .args(args)
        .args(["--format", "json", "--out"])
        .arg(out)
        .output()
        .expect("run the sim binary");
    assert!(
        run.status.success(),
        "sim balance {args:?}: {:?}\n{}",
        run.status,
        stderr(&run)
    );
    serde_json::from_str(&stdout(&run)).expect("the report is JSON")
}

/// `crownfall --policy optimal --set deck=infinite` followed by `args`: the solver's own
/// policy where the solver's win probabilities are exact.
fn exact_crownfall<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["crownfall", "--policy", "optimal", "--set", "deck=infinite"];
    all.extend(args);
    all
}

/// The fresh-odds win probability of `optimal` under `deck = "infinite"` and the rule values
/// `sets` (`start_hp=12`): exact, from the solver.
fn exact(sets: &[String]) -> f64 {
    let mut args = vec![
        "solve",
        "crownfall",
        "--set",
        "deck=infinite",
        "--format",
        "json",
    ];
    for set in sets {
        args.extend(["--set", set]);
    }
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    doc["win_probability"].as_f64().expect("a win probability")
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26, error < 2e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-z * z).exp();
    if x >= 0.0 {
        1.0 - erfc / 2.0
    } else {
        erfc / 2.0
    }
}

/// The `q` quantile of the standard normal, by bisection.
fn normal_quantile(q: f64) -> f64 {
    let (mut low, mut high) = (-10.0, 10.0);
    for _ in 0..100 {
        let mid = (low + high) / 2.0;
        if normal_cdf(mid) < q {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// A rule of Crownfall, its range and the targets searched in it.
struct Case {
    rule: &'static str,
    low: i64,
    high: i64,
    targets: &'static [f64],
}

/// Rules whose win probability rises (`start_hp`) or falls (`guard_damage.king`, flat from 5
/// on, and `target.king`) along the range, and targets that cross them at every distance from
/// the values either side.
const CASES: [Case; 3] = [
    Case {
        rule: "start_hp",
        low: 8,
        high: 20,
        targets: &[0.5, 0.7, 0.75],
    },
    Case {
        rule: "guard_damage.king",
        low: 0,
        high: 10,
        targets: &[0.87, 0.83],
    },
    Case {
        rule: "target.king",
        low: 12,
        high: 21,
        targets: &[0.9, 0.6, 0.5],
    },
];

/// What is wrong with one search's answer against the exact probabilities `p` of the values
/// `low..`: a settled verdict on the wrong side, or a main crossing that does not hold the
/// exact one (between values `crossing` and `crossing + 1`).
fn wrong(doc: &Value, rule: &str, low: i64, p: &[f64], t: f64, crossing: usize) -> Vec<String> {
    let mut wrong = Vec::new();
    for row in doc["candidates"].as_array().unwrap() {
        let i = (row[rule].as_i64().unwrap() - low) as usize;
        let verdict = row["verdict"].as_str().unwrap();
        if (verdict == "below" && p[i] >= t) || (verdict == "above" && p[i] <= t) {
            wrong.push(format!(
                "{rule}={} {verdict} with p={}",
                low + i as i64,
                p[i]
            ));
        }
    }
    let answer = &doc["answer"];
    if answer["kind"] != "found" {
        wrong.push(format!("answer {}", answer["kind"]));
        return wrong;
    }
    let value = answer["value"]["candidate"].as_u64().unwrap() as usize;
    let main: Vec<usize> = answer["crossings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            x.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as usize)
                .collect::<Vec<_>>()
        })
        .find(|x| x.contains(&value))
        .expect("the value is in a crossing");
    let (first, last) = (main[0], main[main.len() - 1]);
    if !(first <= crossing && crossing < last) {
        wrong.push(format!(
            "the answer's crossing {first}..={last} misses the exact one {crossing}..={}",
            crossing + 1
        ));
    }
    wrong
}

/// The truth test: Crownfall under `deck = "infinite"` with the solver's own policy, where the
/// solver's win probability of every rule value is exact. Over every case and seed, the answer
/// brackets the exact crossing and every verdict is right, at least 95% of the time (the stated
/// confidence); and the search plays at least 3 times fewer games than a sweep that reaches the
/// same decision: every value played as many games as the fixed-sample interval at the same
/// per-value error needs to settle both neighbours of the crossing (an oracle sweep, which knows
/// the exact probabilities and so plays exactly enough).
#[test]
fn answers_bracket_the_exact_crossing_of_the_solver() {
    let seeds: u64 = std::env::var("SIM_BALANCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let tmp = TempDir::new("balance-truth");
    let (mut runs, mut failures) = (0u64, Vec::new());
    let (mut played, mut sweep) = (0.0, 0.0);
    for case in CASES {
        let values: Vec<i64> = (case.low..=case.high).collect();
        let p: Vec<f64> = values
            .iter()
            .map(|v| exact(&[format!("{}={v}", case.rule)]))
            .collect();
        let k = values.len();
        let z = normal_quantile(1.0 - 0.05 / (2.0 * k as f64));
        for &t in case.targets {
            let crossing = (0..k - 1)
                .find(|&i| (p[i] - t) * (p[i + 1] - t) < 0.0)
                .expect("the target crosses the range once");
            let needs = |i: usize| z * z * p[i] * (1.0 - p[i]) / (p[i] - t).powi(2);
            let per_value = needs(crossing).max(needs(crossing + 1));
            let (before, played_before) = (failures.len(), played);
            for seed in 1..=seeds {
                let doc = balance(
                    &tmp.join("out"),
                    &exact_crownfall(&[
                        "--target",
                        &format!("win_rate={t}"),
                        "--vary",
                        &format!("{}={}..{}", case.rule, case.low, case.high),
                        "--seed",
                        &seed.to_string(),
                    ]),
                );
                runs += 1;
                played += doc["candidates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["games"].as_f64().unwrap())
                    .sum::<f64>();
                sweep += k as f64 * per_value;
                let wrong = wrong(&doc, case.rule, case.low, &p, t, crossing);
                if !wrong.is_empty() {
                    failures.push(format!("{} target {t} seed {seed}: {wrong:?}", case.rule));
                }
            }
            let mean = (played - played_before) / seeds as f64;
            eprintln!(
                "balance truth: {}={}..{} target {t}: {seeds} seeds, {} wrong; {mean:.0} games a search against {:.0} for the oracle sweep ({:.2}x fewer)",
                case.rule,
                case.low,
                case.high,
                failures.len() - before,
                k as f64 * per_value,
                k as f64 * per_value / mean
            );
        }
    }
    eprintln!(
        "balance truth: {runs} searches, {} wrong; {played} games against {sweep:.0} for the oracle sweeps ({:.2}x fewer)",
        failures.len(),
        sweep / played
    );
    assert!(
        failures.len() as f64 <= 0.05 * runs as f64,
        "{} of {runs} searches wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        sweep >= 3.0 * played,
        "{played} games against {sweep} for the sweeps"
    );
}

/// The one-rule search and the contour give the same answer and the same files, bit for bit,
/// on one thread and two.
#[test]
fn the_same_seed_gives_the_same_answer_and_files_on_any_threads() {
    let files = [
        "balance.parquet",
        "summary.parquet",
        "distributions.parquet",
    ];
    for (name, args) in [
        (
            "one",
            &[
                "balance",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--target",
                "win_rate=0.5",
                "--vary",
                "guard_damage.king=0..10",
                "--seed",
                "3",
                "--format",
                "json",
            ][..],
        ),
        (
            "contour",
            &[
                "balance",
                "crownfall",
                "--policy",
                "optimal",
                "--target",
                "win_rate=0.6",
                "--vary",
                "start_hp=10..15",
                "--vary",
                "guard_zone=0..2",
                "--tolerance",
                "0.03",
                "--format",
                "json",
            ][..],
        ),
    ] {
        let tmp = TempDir::new(&format!("balance-threads-{name}"));
        let runs = on_1_and_2_threads(&tmp, args);
        assert_same_files_on_1_and_2_threads(&runs, &files);
        let [a, b] = runs.each_ref().map(|(_, out)| {
            let doc: Value = serde_json::from_str(&stdout(out)).unwrap();
            (doc["answer"].clone(), doc["candidates"].clone())
        });
        assert_eq!(a, b, "{name}: the answers differ");
    }
}

/// Every candidate plays the first games of the seed, whatever the others play: its summary
/// row is the plain run's of as many games, bit for bit (a duel here, with the first-move
/// advantage as the target). Both ends are settled on the side the plain runs show.
#[test]
fn candidates_play_the_plain_runs_first_games() {
    let tmp = TempDir::new("balance-plain");
    let out = tmp.join("balance");
    let doc = balance(
        &out,
        &[
            "junkyard",
            "--policy",
            "simple",
            "--target",
            "first_move_adv=0",
            "--vary",
            "second_seat_hp_bonus=0,25",
            "--games",
            "20K",
        ],
    );
    let summary = read_parquet(&out.join("summary.parquet"));
    assert_eq!(summary.height(), 2);
    let rows = doc["candidates"].as_array().unwrap();
    for (row, (bonus, side)) in rows.iter().zip([(0, "above"), (25, "below")]) {
        assert_eq!(row["second_seat_hp_bonus"], bonus);
        assert_eq!(row["verdict"], side, "{row}");
        let games = row["games"].as_u64().unwrap();
        let plain = tmp.join(&format!("plain{bonus}"));
        let run = game_to(
            "junkyard",
            &plain,
            &[
                "--policy",
                "simple",
                "--set",
                &format!("second_seat_hp_bonus={bonus}"),
                "--games",
                &games.to_string(),
            ],
        );
        assert!(run.status.success(), "{}", stderr(&run));
        let plain = read_parquet(&plain.join("summary.parquet"));
        let cell = row["candidate"].as_u64().unwrap() as usize;
        for column in [
            "games",
            "wins",
            "first_move_adv",
            "seat0_win_rate",
            "mean_turns",
        ] {
            assert_eq!(
                value_at(&summary, column, cell).to_string(),
                value_at(&plain, column, 0).to_string(),
                "{column} of second_seat_hp_bonus={bonus}"
            );
        }
        let adv = row["value"].as_f64().unwrap();
        let plain_adv = match value_at(&plain, "first_move_adv", 0) {
            polars::prelude::AnyValue::Float64(v) => v,
            other => panic!("{other:?}"),
        };
        assert!((adv - plain_adv).abs() < 1e-12, "{adv} vs {plain_adv}");
    }
}

/// A gap target: each candidate seats the policy and the baseline on the same deals, and its
/// metric is the difference of their win rates.
#[test]
fn a_gap_is_the_difference_of_two_policies_on_the_same_deals() {
    let tmp = TempDir::new("balance-gap");
    let doc = balance(
        tmp.path(),
        &[
            "crownfall",
            "--policy",
            "bank-at-17",
            "--baseline",
            "bank-at-12",
            "--target",
            "gap=0.1",
            "--vary",
            "start_hp=5,20",
            "--games",
            "50K",
        ],
    );
    assert_eq!(doc["baseline"], "bank-at-12");
    let summary = read_parquet(&tmp.join("summary.parquet"));
    let rows = doc["candidates"].as_array().unwrap();
    assert_eq!(summary.height(), 2 * rows.len());
    for (k, row) in rows.iter().enumerate() {
        let rate = |r: usize| match value_at(&summary, "win_rate", r) {
            polars::prelude::AnyValue::Float64(v) => v,
            other => panic!("{other:?}"),
        };
        assert_eq!(str_at(&summary, "policy", 2 * k), "bank-at-17");
        assert_eq!(str_at(&summary, "policy", 2 * k + 1), "bank-at-12");
        let gap = rate(2 * k) - rate(2 * k + 1);
        let value = row["value"].as_f64().unwrap();
        assert!((value - gap).abs() < 1e-12, "{value} vs {gap}");
        assert_eq!(
            u64_at(&summary, "games", 2 * k),
            row["games"].as_u64().unwrap()
        );
    }
}

/// A metric that rises and falls along the rule (the share of games a King ends, as the
/// starting HP grows) crosses the target twice: the search sees the sides turn back, says the
/// metric is not monotone, plays every value and reports both crossings.
#[test]
fn a_metric_that_crosses_twice_is_scanned() {
    let tmp = TempDir::new("balance-scan");
    let out = sim()
        .args([
            "balance",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--target",
            "killed_by_king=0.46",
            "--vary",
            "start_hp=1..20",
            "--games",
            "100K",
            "--out",
        ])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("not monotone"), "{text}");
    assert!(text.contains("also crosses the target"), "{text}");
    let rows = read_parquet(&tmp.join("balance.parquet"));
    assert_eq!(rows.height(), 20, "every value played");
    assert_eq!(str_at(&rows, "search", 0), "scan");
}

/// A contour of two rules against the solver's exact grid (infinite deck, `optimal`): every
/// cell's verdict is right for the tolerance, and the games went to the cells near its edges.
#[test]
fn a_contour_agrees_with_the_exact_grid() {
    let tmp = TempDir::new("balance-contour");
    let (t, e) = (0.6, 0.03);
    let doc = balance(
        tmp.path(),
        &exact_crownfall(&[
            "--target",
            "win_rate=0.6",
            "--vary",
            "start_hp=10..15",
            "--vary",
            "guard_zone=0..2",
            "--tolerance",
            "0.03",
        ]),
    );
    assert_eq!(doc["search"], "elimination");
    let rows = doc["candidates"].as_array().unwrap();
    assert_eq!(rows.len(), 18);
    let mut failures = Vec::new();
    let mut most = (0, 0.0);
    for row in rows {
        let (hp, zone) = (
            row["start_hp"].as_i64().unwrap(),
            row["guard_zone"].as_i64().unwrap(),
        );
        let p = exact(&[format!("start_hp={hp}"), format!("guard_zone={zone}")]);
        let d = p - t;
        let verdict = row["verdict"].as_str().unwrap();
        let right = match verdict {
            "on target" => d.abs() <= e,
            "below" => d < -e,
            "above" => d > e,
            "edge" => (d.abs() - e).abs() <= e / 2.0,
            _ => false,
        };
        if !right {
            failures.push(format!(
                "start_hp={hp} guard_zone={zone}: {verdict} with p={p}"
            ));
        }
        assert_eq!(row["answer"], verdict == "on target");
        let games = row["games"].as_f64().unwrap();
        if games > most.1 {
            most = (hp, games);
        }
    }
    assert_no_failures(&failures);
    // Far cells (10% from the target and more) leave early; the most games go to a cell within
    // two tolerances of the target.
    let far = rows
        .iter()
        .find(|r| r["start_hp"] == 10)
        .map(|r| r["games"].as_f64().unwrap())
        .unwrap();
    assert!(most.1 > 10.0 * far, "{most:?} vs {far}");
    assert!([12, 13].contains(&most.0), "{most:?}");
}

/// A target beyond every value is outside the range: the answer names the nearest end.
#[test]
fn a_target_beyond_the_range_names_the_nearest_end() {
    let tmp = TempDir::new("balance-outside");
    let doc = balance(
        tmp.path(),
        &exact_crownfall(&["--target", "win_rate>=0.95", "--vary", "start_hp=8..20"]),
    );
    let answer = &doc["answer"];
    assert_eq!(answer["kind"], "outside");
    assert_eq!(answer["side"], "below");
    assert_eq!(answer["value"]["start_hp"], 20);
    assert_eq!(answer["value"]["answer"], true);
    let rows = read_parquet(&tmp.join("balance.parquet"));
    let answers: Vec<bool> = (0..rows.height())
        .map(|r| bool_at(&rows, "answer", r))
        .collect();
    assert_eq!(answers.iter().filter(|a| **a).count(), 1);
}

/// Bad targets and ranges: one line, exit 2, nothing written; the unknown column's error lists
/// the known ones.
#[test]
fn bad_targets_and_ranges_are_refused() {
    let tmp = TempDir::new("balance-bad");
    let hp = ["--vary", "start_hp=8..20"];
    let with = |target: &'static str| -> Vec<&'static str> {
        let mut v = vec!["crownfall", "--target", target];
        v.extend(hp);
        v
    };
    let mut cases: Vec<(Vec<&str>, &str)> = vec![
        (with("win_rate"), "expected COLUMN=VALUE"),
        (with("win_rate=,"), "is not a number"),
        (with("win_rate=high"), "high is not a number"),
        (with("win_rate=1.5"), "win_rate is a rate, between 0 and 1"),
        (with("win_rate>=-0.1"), "between 0 and 1"),
        (
            with("wins=0.5"),
            "unknown column wins; known columns: win_rate, mean_final_hp",
        ),
        (with("first_move_adv=0"), "unknown column first_move_adv"),
        (with("gap=0.2"), "give --baseline"),
        (with("=0.5"), "expected COLUMN=VALUE"),
    ];
    for (vary, named) in [
        ("start_hp=20..8", "empty range"),
        ("start_hp=12", "at least two values"),
        ("start_hp=0..20", "start_hp"),
        ("no_such_rule=1..3", "no_such_rule"),
        ("start_hp=8..20:0", "step"),
    ] {
        cases.push((
            vec!["crownfall", "--target", "win_rate=0.5", "--vary", vary],
            named,
        ));
    }
    for (flags, named) in [
        (
            &["--baseline", "bank-at-12"][..],
            "--baseline is for --target gap",
        ),
        (&["--confidence", "1.5"][..], "--confidence 1.5"),
        (&["--tolerance", "-0.1"][..], "--tolerance -0.1"),
        (&["--shard", "0/2"][..], "--shard 0/2"),
        (&["--policy", "bank-at-99"][..], "bank-at-99"),
        (&["--vary", "start_hp=1..3"][..], "varied twice"),
    ] {
        let mut v = with("win_rate=0.5");
        v.extend(flags);
        cases.push((v, named));
    }
    cases.push((
        vec![
            "crownfall",
            "--target",
            "mean_strikes=15",
            "--vary",
            "start_hp=8..10",
            "--vary",
            "guard_zone=0..1",
        ],
        "give --tolerance",
    ));
    cases.push((
        vec![
            "junkyard",
            "--target",
            "first_move_adv_low=0",
            "--vary",
            "second_seat_hp_bonus=0..5",
        ],
        "unknown column first_move_adv_low",
    ));
    assert_each_refused_naming("balance", &tmp, "10K", cases);
    // Too few games for a mean's spread, and none at all.
    let few = tmp.join("few");
    let out = sim()
        .args([
            "balance",
            "crownfall",
            "--target",
            "mean_strikes=15",
            "--vary",
            "start_hp=8..10",
            "--games",
            "1000",
            "--out",
        ])
        .arg(&few)
        .output()
        .unwrap();
    let err = rejected(&out, Some(&few));
    assert!(err.contains("needs at least 4096 games"), "{err}");
    let none = tmp.join("none");
    let out = sim()
        .args([
            "balance",
            "crownfall",
            "--target",
            "win_rate=0.5",
            "--vary",
            "start_hp=8..10",
            "--games",
            "0",
            "--out",
        ])
        .arg(&none)
        .output()
        .unwrap();
    rejected(&out, Some(&none));
}

/// A budget stops the search once spent (give or take a batch per candidate in play): what is
/// still open stays open, and the report says so.
#[test]
fn a_spent_budget_leaves_the_search_open() {
    let tmp = TempDir::new("balance-budget");
    let doc = balance(
        tmp.path(),
        &[
            "crownfall",
            "--policy",
            "bank-at-17",
            "--target",
            "win_rate=0.5",
            "--vary",
            "guard_damage.king=0..10",
            "--budget",
            "20K",
        ],
    );
    assert_eq!(doc["budget_spent"], true);
    let rows = doc["candidates"].as_array().unwrap();
    let games: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(games, doc["speed"]["games"].as_u64().unwrap());
    assert!((20_000..=20_000 + 2 * 128).contains(&games), "{games}");
    assert!(rows.iter().any(|r| r["verdict"] == "open"), "{rows:?}");
}

/// `-q` prints nothing and writes the same files; the text report leads with the answer.
#[test]
fn quiet_prints_nothing_and_the_text_leads_with_the_answer() {
    let tmp = TempDir::new("balance-quiet");
    let args = [
        "balance",
        "crownfall",
        "--policy",
        "optimal",
        "--target",
        "win_rate=0.5",
        "--vary",
        "start_hp=5..15",
        "--out",
    ];
    let quiet = sim()
        .args(args)
        .arg(tmp.join("quiet"))
        .arg("-q")
        .output()
        .unwrap();
    assert!(quiet.status.success() && quiet.stdout.is_empty() && quiet.stderr.is_empty());
    let text = sim().args(args).arg(tmp.join("text")).output().unwrap();
    let lines: Vec<String> = stdout(&text).lines().map(String::from).collect();
    assert!(lines[0].starts_with("crownfall balance | policy optimal | target win_rate = 0.5"));
    assert!(
        lines[1].starts_with("  verdict: win_rate = 0.5 lies between start_hp = "),
        "{lines:?}"
    );
    assert!(lines[2].starts_with("  answer: start_hp = "), "{lines:?}");
    assert!(lines[3].contains("the target lies between"), "{lines:?}");
    for file in [
        "balance.parquet",
        "summary.parquet",
        "distributions.parquet",
    ] {
        assert_eq!(
            std::fs::read(tmp.join("quiet").join(file)).unwrap(),
            std::fs::read(tmp.join("text").join(file)).unwrap(),
            "{file}"
        );
    }
}

/// Searches that cannot mean anything are refused before a game is played: a value given
/// twice (searched twice), a tolerance that puts every value of the metric on target.
#[test]
fn meaningless_searches_are_refused() {
    let tmp = TempDir::new("balance-meaningless");
    let target = ["--target", "win_rate=0.5"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            [&["crownfall"][..], &target, &["--vary", "start_hp=8,8"]].concat(),
            "--vary start_hp=8,8: 8 is given twice",
        ),
        (
            [&["crownfall"][..], &target, &["--vary", "start_hp=8,12,8"]].concat(),
            "--vary start_hp=8,12,8: 8 is given twice",
        ),
        (
            [
                &["crownfall"][..],
                &target,
                &["--vary", "start_hp=8,10", "--vary", "guard_zone=1,0,1"],
            ]
            .concat(),
            "--vary guard_zone=1,0,1: 1 is given twice",
        ),
        (
            [
                &["crownfall"][..],
                &target,
                &["--vary", "start_hp=8..12", "--tolerance", "2"],
            ]
            .concat(),
            "--tolerance 2: win_rate is a rate, between 0 and 1",
        ),
        (
            [
                &["crownfall"][..],
                &target,
                &["--vary", "start_hp=8..12", "--tolerance", "0.5"],
            ]
            .concat(),
            "every candidate would be on target",
        ),
        (
            vec![
                "junkyard",
                "--target",
                "first_move_adv=0",
                "--vary",
                "second_seat_hp_bonus=0..5",
                "--tolerance",
                "1",
            ],
            "--tolerance 1: first_move_adv is a difference of two rates",
        ),
    ];
    assert_each_refused_naming("balance", &tmp, "10K", cases);
    // A tolerance short of the whole range is a search.
    let doc = balance(
        &tmp.join("wide"),
        &[
            "crownfall",
            "--target",
            "win_rate=0.5",
            "--vary",
            "start_hp=8..12",
            "--tolerance",
            "0.45",
            "--games",
            "10K",
        ],
    );
    assert!(doc.is_object(), "{doc}");
}

/// `--threads 10000` took over a minute (ten thousand workers, each wave past every verdict):
/// the pool is at most one worker per core, and the answer is the same.
#[test]
fn a_balance_pool_is_at_most_one_worker_per_core() {
    let tmp = TempDir::new("balance-threads");
    let args = [
        "crownfall",
        "--target",
        "win_rate=0.5",
        "--vary",
        "start_hp=8..20",
        "--games",
        "20K",
    ];
    let started = std::time::Instant::now();
    let many = balance(
        &tmp.join("many"),
        &[&args[..], &["--threads", "10000"]].concat(),
    );
    let took = started.elapsed();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let threads = many["speed"]["threads"].as_u64().unwrap_or(u64::MAX);
    assert!(threads <= cores, "{threads} threads on {cores} cores");
    let one = balance(&tmp.join("one"), &[&args[..], &["--threads", "1"]].concat());
    assert_eq!(many["answer"], one["answer"]);
    assert!(took < std::time::Duration::from_secs(30), "took {took:?}");
}
