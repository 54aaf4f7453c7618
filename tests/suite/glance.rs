//! Answers at a glance in the terminal and the files: verdict lines built from the intervals
//! the tables show, the rules a run changed under its header, differences against a base for
//! sweeps and evaluations, self-play seat figures, and `sim list GAME`.

use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// Runs `sim ARGS --out OUT`, asserts it succeeded and returns its standard output.
fn ok_to(args: &[&str], out: &Path) -> String {
    let output = sim()
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run the sim binary");
    assert!(output.status.success(), "sim {args:?}: {}", stderr(&output));
    stdout(&output)
}

/// The line of `text` starting (after its indent) with `start`, if any.
fn line_with<'a>(text: &'a str, start: &str) -> Option<&'a str> {
    text.lines().find(|l| l.trim_start().starts_with(start))
}

/// A column of `df` as f64s (nulls as NaN).
fn f64s(df: &polars::prelude::DataFrame, column: &str) -> Vec<f64> {
    use polars::prelude::AnyValue;
    (0..df.height())
        .map(|row| match value_at(df, column, row) {
            AnyValue::Float64(x) => x,
            AnyValue::Null => f64::NAN,
            other => panic!("{column}[{row}] is {other:?}, not a f64"),
        })
        .collect()
}

/// What a difference's interval supports: "over" (above 0), "under" (below 0) or "no clear".
fn supported(low: f64, high: f64) -> &'static str {
    if low > 0.0 {
        "over it"
    } else if high < 0.0 {
        "under it"
    } else {
        "no clear difference"
    }
}

#[test]
fn self_play_seat_figures_are_the_seats_own() {
    let tmp = TempDir::new("glance_self_play");
    let text = ok_to(
        &["junkyard", "--policy", "greedy", "--games", "3000"],
        &tmp.join("run"),
    );
    let summary = read_parquet(&tmp.join("run").join("summary.parquet"));
    let one = |c: &str| f64s(&summary, c)[0];
    // One policy in both seats: as seat 1 it wins whenever seat 1 wins.
    let seat1 = 1.0 - one("seat0_win_rate") - one("draw_rate");
    assert!(seat1 > 0.1, "seat 1 wins some games: {seat1}");
    assert!((one("win_as_seat1") - seat1).abs() < 1e-12, "{text}");
    assert!(one("win_as_seat1_low") < seat1 && seat1 < one("win_as_seat1_high"));
    assert!((one("win_as_seat0") - one("seat0_win_rate")).abs() < 1e-12);
    let line = line_with(&text, "win as seat1").expect("a seat-1 line");
    assert!(!line.contains("0.0000"), "{line}");
    // Two policies still count the first policy's games in each seat.
    let duel = ok_to(
        &[
            "junkyard", "--policy", "greedy", "--vs", "simple", "--games", "2000",
        ],
        &tmp.join("duel"),
    );
    let summary = read_parquet(&tmp.join("duel").join("summary.parquet"));
    let (as0, as1) = (
        f64s(&summary, "win_as_seat0")[0],
        f64s(&summary, "win_as_seat1")[0],
    );
    let wins = f64s(&summary, "win_rate")[0];
    assert!((wins - (as0 + as1) / 2.0).abs() < 1e-9, "{duel}");
}

#[test]
fn changed_rules_stand_under_the_header_of_run_compare_sweep_and_balance() {
    let tmp = TempDir::new("glance_rules");
    let set = ["--set", "deck=infinite", "--set", "guard_zone=3"];
    let want = "  rules: deck=infinite, guard_zone=3 (the rest the defaults)";
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("run", vec!["crownfall", "--games", "2000"]),
        (
            "compare",
            vec![
                "compare",
                "crownfall",
                "--policy",
                "bank-at-16..17",
                "--games",
                "2000",
            ],
        ),
        (
            "sweep",
            vec![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                "start_hp=18,20",
                "--games",
                "2000",
            ],
        ),
        (
            "balance",
            vec![
                "balance",
                "crownfall",
                "--target",
                "win_rate=0.5",
                "--vary",
                "guard_damage.king=0..6",
                "--games",
                "40K",
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (name, args) in cases {
        let plain = ok_to(&args, &tmp.join(&format!("{name}-plain")));
        if plain.contains("  rules:") {
            failures.push(format!("{name}: a default run names rules:\n{plain}"));
        }
        let with: Vec<&str> = args.iter().copied().chain(set).collect();
        let text = ok_to(&with, &tmp.join(name));
        if text.lines().nth(1) != Some(want) {
            failures.push(format!("{name}: line 2 is not {want:?}:\n{text}"));
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn compare_opens_with_a_verdict_the_paired_intervals_support() {
    let tmp = TempDir::new("glance_compare");
    let dir = tmp.join("compare");
    let text = ok_to(
        &[
            "compare",
            "crownfall",
            "--policy",
            "bank-at-15..17",
            "--baseline",
            "bank-at-16",
            "--games",
            "30000",
        ],
        &dir,
    );
    let verdict = text.lines().nth(1).expect("a second line");
    assert!(verdict.starts_with("  verdict: bank-at-16 wins "), "{text}");
    let summary = read_parquet(&dir.join("summary.parquet"));
    let (low, high) = (
        f64s(&summary, "diff_ci_low"),
        f64s(&summary, "diff_ci_high"),
    );
    for row in 0..summary.height() {
        let policy = str_at(&summary, "policy", row);
        if policy == "bank-at-16" {
            continue;
        }
        let clause = verdict
            .split("; ")
            .find(|c| c.starts_with(&format!("{policy} ")))
            .unwrap_or_else(|| panic!("{policy} is not in {verdict}"));
        assert!(
            clause.contains(supported(low[row], high[row])),
            "{clause} for the interval {} to {}",
            low[row],
            high[row]
        );
    }
}

#[test]
fn sweep_measures_each_cell_against_its_base_deal_by_deal() {
    let tmp = TempDir::new("glance_sweep");
    let args = [
        "sweep",
        "crownfall",
        "--policy",
        "bank-at-17",
        "--policy",
        "bank-at-15",
        "--vary",
        "start_hp=16,18,20",
        "--games",
        "20000",
    ];
    let dir = tmp.join("first");
    let text = ok_to(&args, &dir);
    let summary = read_parquet(&dir.join("summary.parquet"));
    for c in ["baseline", "diff", "diff_ci_low", "diff_ci_high"] {
        assert!(column_names(&summary).contains(&c.to_string()), "{c}");
    }
    let rate = f64s(&summary, "win_rate");
    let diff = f64s(&summary, "diff");
    // Cells per policy: 3, the first value the base; every cell plays the same games, so the
    // paired difference is the difference of the win rates.
    for row in 0..6 {
        let base = row / 3 * 3;
        assert_eq!(str_at(&summary, "baseline", row), "start_hp=16");
        assert!(
            (diff[row] - (rate[row] - rate[base])).abs() < 1e-12,
            "row {row}"
        );
    }
    assert!(
        line_with(&text, "verdict (bank-at-17): start_hp=16 wins").is_some(),
        "{text}"
    );
    assert!(
        line_with(&text, "verdict (bank-at-15): start_hp=16 wins").is_some(),
        "{text}"
    );
    // --base names another cell.
    let mut with_base = args.to_vec();
    with_base.extend(["--base", "start_hp=20", "--format", "json"]);
    let doc: Value = serde_json::from_str(&ok_to(&with_base, &tmp.join("base"))).unwrap();
    let cells = doc.as_array().expect("one object per cell");
    for cell in cells {
        assert_eq!(cell["baseline"], "start_hp=20", "{cell}");
    }
    assert_eq!(cells[2]["diff"].as_f64(), Some(0.0));
    // A --base that is not a cell is refused with one line.
    let refused = sim()
        .args(args)
        .args(["--base", "start_hp=17", "--out"])
        .arg(tmp.join("refused"))
        .output()
        .unwrap();
    let why = usage_error(&refused, Some(&tmp.join("refused"))).unwrap();
    assert!(why.contains("--base start_hp=17"), "{why}");
}

#[test]
fn list_game_shows_every_rule_with_its_default_range_and_meaning() {
    let out = run(&["list", "crownfall"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("crownfall: "), "{text}");
    for other in ["scoundrel:", "regicide:", "junkyard:"] {
        assert!(!text.contains(other), "{text}");
    }
    let row = |rule: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(rule))
            .unwrap_or_else(|| panic!("no row for {rule}:\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(row("guard_damage.king")[1..3], ["3", "0..=99"]);
    assert_eq!(row("start_hp")[1..3], ["20", "1..=20"]);
    assert_eq!(row("deck")[1..4], ["finite", "finite", "or"]);
    // The range listed is the one the error for a value outside it states.
    let refused = run(&[
        "crownfall",
        "--set",
        "start_hp=0",
        "--games",
        "1",
        "--out",
        "/nonexistent/x",
    ]);
    assert!(
        stderr(&refused).contains("allowed 1..=20"),
        "{}",
        stderr(&refused)
    );
    // Every rule of every game has a meaning.
    for game in ["crownfall", "scoundrel", "regicide", "junkyard"] {
        let out = run(&["list", game]);
        let text = stdout(&out);
        let rules: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("rule "))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .collect();
        assert!(rules.len() > 5, "{game}: {text}");
        for line in rules {
            assert!(line.split_whitespace().count() >= 4, "{game}: {line}");
        }
    }
    let all = stdout(&run(&["list"]));
    for game in ["crownfall:", "scoundrel:", "regicide:", "junkyard:"] {
        assert!(all.contains(game), "{all}");
    }
    let unknown = run(&["list", "chess"]);
    let why = usage_error(&unknown, None).unwrap();
    assert!(why.contains("unknown game chess"), "{why}");
}

#[test]
fn evaluate_vary_gives_each_figure_s_difference_and_a_verdict_per_rule_set() {
    let tmp = TempDir::new("glance_evaluate");
    let dir = tmp.join("eval");
    let args = [
        "evaluate",
        "scoundrel",
        "--games",
        "40",
        "--budgets",
        "2,4",
        "--vary",
        "weapon_wear=lenient,strict",
    ];
    let text = ok_to(&args, &dir);
    let verdict = text.lines().nth(1).expect("a second line");
    assert!(
        verdict.starts_with("  verdict: weapon_wear=strict: "),
        "{text}"
    );
    assert!(
        text.contains("differences from weapon_wear=lenient"),
        "{text}"
    );
    let figures = read_parquet(&dir.join("evaluate.parquet"));
    let (value, diff) = (f64s(&figures, "value"), f64s(&figures, "diff"));
    let (low, high) = (
        f64s(&figures, "diff_ci_low"),
        f64s(&figures, "diff_ci_high"),
    );
    let key = |row: usize| {
        (
            str_at(&figures, "metric", row),
            value_at(&figures, "rung", row).to_string(),
        )
    };
    let first: Vec<usize> = (0..figures.height())
        .filter(|&r| str_at(&figures, "variant", r) == "weapon_wear=lenient")
        .collect();
    let mut compared = 0;
    for row in 0..figures.height() {
        if first.contains(&row) {
            assert!(diff[row].is_nan(), "the base has no difference: row {row}");
            continue;
        }
        let Some(&base) = first.iter().find(|&&b| key(b) == key(row)) else {
            continue;
        };
        if value[row].is_finite() && value[base].is_finite() {
            assert!(
                (diff[row] - (value[row] - value[base])).abs() < 1e-9,
                "{:?}",
                key(row)
            );
            if low[row].is_finite() {
                assert!(
                    low[row] <= diff[row] && diff[row] <= high[row],
                    "{:?}",
                    key(row)
                );
            }
            compared += 1;
        }
    }
    assert!(compared > 5, "{compared} figures compared");
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let doc: Value = serde_json::from_str(&ok_to(&json_args, &tmp.join("json"))).unwrap();
    assert!(doc["variants"][0]["differences"].is_null());
    assert!(
        doc["variants"][1]["differences"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    );
    assert_eq!(
        doc["variants"][1]["verdict"].as_str(),
        verdict.strip_prefix("  verdict: ")
    );
}

#[test]
fn balance_opens_with_the_bracket_and_says_the_tolerance_in_points() {
    let tmp = TempDir::new("glance_balance");
    let args = [
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
    ];
    let text = ok_to(&args, &tmp.join("text"));
    let verdict = text.lines().nth(1).expect("a second line");
    assert!(
        verdict.starts_with("  verdict: win_rate = 0.5 lies between guard_damage.king = "),
        "{text}"
    );
    assert!(
        verdict.contains("; answer: guard_damage.king = "),
        "{verdict}"
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--tolerance", "0.02", "--format", "json"]);
    let doc: Value = serde_json::from_str(&ok_to(&json_args, &tmp.join("json"))).unwrap();
    assert_eq!(doc["target"]["tolerance_shown"], "+-2.00 pts");
    assert!(
        doc["verdict"]
            .as_str()
            .is_some_and(|v| v.starts_with("win_rate = 0.5 +-2.00 pts")),
        "{}",
        doc["verdict"]
    );
}
