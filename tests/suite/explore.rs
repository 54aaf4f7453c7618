//! `sim explore`, checked against the truth: Crownfall with an infinite deck, whose solver gives
//! `optimal`'s and `bank-at-17`'s exact win probabilities for every value of every rule. The
//! exact swing of each of ten rules (one of them moving nothing) is computed by solving every
//! value; `sim explore` must rank the rules as the exact swings do wherever those differ by
//! more than the intervals, and every rule's interval must hold its exact swing. Then bad
//! input: one line, exit 2, nothing written.

use serde_json::Value;

use crate::common::*;

/// The rules explored and their values.
const RULES: [(&str, &[&str]); 10] = [
    ("target.king", &["15", "17", "19", "21"]),
    ("start_hp", &["8", "12", "16", "20"]),
    ("damage.king", &["3", "5", "7"]),
    ("guard_damage.king", &["1", "3", "5"]),
    ("guard_zone", &["0", "2", "4"]),
    ("heal.king", &["1", "3", "5"]),
    ("target.jack", &["10", "12", "14"]),
    ("joker_damage", &["2", "4", "6"]),
    ("crushing_damage", &["6", "8", "10"]),
    ("max_strikes", &["500", "1000"]),
];

/// `optimal`'s and `bank-at-17`'s exact win probabilities under `deck = "infinite"` and `sets`.
fn exact(sets: &[String]) -> [f64; 2] {
    let mut args: Vec<String> = ["solve", "crownfall", "--set", "deck=infinite"]
        .map(String::from)
        .to_vec();
    for set in sets {
        args.extend(["--set".into(), set.clone()]);
    }
    let out_dir = std::env::temp_dir().join(format!("sim-explore-solve-{}", std::process::id()));
    args.extend(
        ["--evaluate", "bank-at-17", "--format", "json", "--out"]
            .map(String::from)
            .into_iter()
            .chain([out_dir.display().to_string()]),
    );
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    [
        doc["win_probability"].as_f64().unwrap(),
        doc["evaluated"][0]["win_probability"].as_f64().unwrap(),
    ]
}

/// Each rule's exact swing for `[optimal, bank-at-17]`: the greatest exact value minus the least.
fn exact_swings() -> Vec<[f64; 2]> {
    RULES
        .iter()
        .map(|(path, values)| {
            let exact: Vec<[f64; 2]> = values
                .iter()
                .map(|v| exact(&[format!("{path}={v}")]))
                .collect();
            [0, 1].map(|p| {
                let (lo, hi) = exact
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), e| {
                        (a.min(e[p]), b.max(e[p]))
                    });
                hi - lo
            })
        })
        .collect()
}

/// What explore said of one rule on one figure: its swing, interval and rank.
#[derive(Debug)]
struct Said {
    swing: f64,
    low: f64,
    high: f64,
    rank: u64,
}

#[test]
fn explore_ranks_crownfall_rules_as_their_exact_swings_and_every_interval_holds() {
    let tmp = TempDir::new("explore-truth");
    let mut args: Vec<String> = [
        "explore",
        "crownfall",
        "--set",
        "deck=infinite",
        "--policy",
        "optimal",
        "--policy",
        "bank-at-17",
        "--games",
        "200K",
        "--format",
        "json",
    ]
    .map(String::from)
    .to_vec();
    for (path, values) in RULES {
        args.extend(["--vary".into(), format!("{path}={}", values.join(","))]);
    }
    args.extend(["--out".into(), tmp.join("out").display().to_string()]);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(tmp.join("out/explore.parquet").exists());
    let truth = exact_swings();
    let mut failures = Vec::new();
    let mut table = String::from("figure | rule | exact swing | explore swing | interval | rank\n");
    for (p, label) in ["win_rate[optimal]", "win_rate[bank-at-17]"]
        .iter()
        .enumerate()
    {
        let figure = doc["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["figure"] == *label)
            .unwrap_or_else(|| panic!("no figure {label}"));
        let said: Vec<Said> = RULES
            .iter()
            .map(|(path, _)| {
                let r = figure["rules"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r["rule"] == *path)
                    .unwrap();
                let f = |k: &str| r[k].as_f64().unwrap_or(f64::INFINITY);
                Said {
                    swing: f("swing"),
                    low: f("swing_low"),
                    high: f("swing_high"),
                    rank: r["rank"].as_u64().unwrap(),
                }
            })
            .collect();
        for (r, s) in said.iter().enumerate() {
            let t = truth[r][p];
            table.push_str(&format!(
                "{label} | {} | {:.2} pts | {:.2} pts | {:.2} to {:.2} pts | {}\n",
                RULES[r].0,
                100.0 * t,
                100.0 * s.swing,
                100.0 * s.low,
                100.0 * s.high,
                s.rank
            ));
            if !(s.low - 1e-9 <= t && t <= s.high + 1e-9) {
                failures.push(format!(
                    "{label} {}: exact swing {t} outside {:?}",
                    RULES[r].0, s
                ));
            }
            for (q, o) in said.iter().enumerate() {
                let u = truth[q][p];
                let halves = (s.high - s.low) / 2.0 + (o.high - o.low) / 2.0;
                if t - u > halves && s.rank >= o.rank {
                    failures.push(format!(
                        "{label}: {} (exact {t}) ranked {} at or after {} (exact {u}) ranked {}",
                        RULES[r].0, s.rank, RULES[q].0, o.rank
                    ));
                }
            }
        }
        // The rule that changes nothing: identical games, a swing of exactly nothing.
        let nil = &said[RULES.len() - 1];
        assert_eq!((nil.swing, nil.high), (0.0, 0.0), "{label}: {nil:?}");
    }
    eprintln!("{table}");
    assert_no_failures(&failures);
}

#[test]
fn bad_explorations_exit_2_with_one_line_and_write_nothing() {
    let tmp = TempDir::new("explore-bad");
    let out = tmp.join("out");
    for (extra, why) in [
        (
            vec!["--vary", "no_such_rule=1,2"],
            "unknown rule no_such_rule",
        ),
        (vec!["--vary", "start_hp=20"], "at least two values"),
        (
            vec!["--figure", "first_move_adv[optimal]"],
            "it is a duel's figure",
        ),
        (vec!["--figure", "wins[optimal]"], "unknown figure wins"),
        (vec!["--budget", "1000"], "--budget 1000: too small"),
        (vec!["--precision", "0"], "--precision 0"),
    ] {
        let mut args = vec!["explore", "crownfall", "--out", out.to_str().unwrap()];
        args.extend(&extra);
        let err = rejected(&run(&args), None);
        assert!(err.contains(why), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?} wrote {}", out.display());
    }
}

#[test]
fn an_interaction_interval_holds_the_exact_departure_from_the_sum_of_two_effects() {
    let tmp = TempDir::new("explore-interactions");
    let (hp, king) = (["12", "16", "20"], ["3", "5", "7"]);
    let out = run(&[
        "explore",
        "crownfall",
        "--set",
        "deck=infinite",
        "--policy",
        "optimal",
        "--policy",
        "bank-at-17",
        "--vary",
        "start_hp=12,16,20",
        "--vary",
        "damage.king=3,5,7",
        "--interactions",
        "2",
        "--games",
        "100K",
        "--format",
        "json",
        "--out",
        tmp.join("out").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let grid: Vec<Vec<[f64; 2]>> = hp
        .iter()
        .map(|h| {
            king.iter()
                .map(|k| exact(&[format!("start_hp={h}"), format!("damage.king={k}")]))
                .collect()
        })
        .collect();
    let pair = &doc["interactions"][0];
    let mut rules: Vec<&str> = pair["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    rules.sort();
    assert_eq!(rules, ["damage.king", "start_hp"]);
    for (p, label) in ["win_rate[optimal]", "win_rate[bank-at-17]"]
        .iter()
        .enumerate()
    {
        // The base is start_hp = 20 (index 2), damage.king = 5 (index 1).
        let mut exact_size: f64 = 0.0;
        for i in [0, 1] {
            for j in [0, 2] {
                let d = grid[i][j][p] - grid[i][1][p] - grid[2][j][p] + grid[2][1][p];
                exact_size = exact_size.max(d.abs());
            }
        }
        let f = pair["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["figure"] == *label)
            .unwrap();
        let (low, high) = (
            f["interaction_low"].as_f64().unwrap(),
            f["interaction_high"].as_f64().unwrap(),
        );
        eprintln!(
            "{label}: exact interaction {:.2} pts, explore {:.2} pts ({:.2} to {:.2})",
            100.0 * exact_size,
            100.0 * f["interaction"].as_f64().unwrap(),
            100.0 * low,
            100.0 * high
        );
        assert!(
            low <= exact_size + 1e-9 && exact_size <= high + 1e-9,
            "{label}: {f}"
        );
    }
}
