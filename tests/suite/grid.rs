//! `sim compare` and `sim sweep` end to end: common random numbers, cells equal to plain runs,
//! precision targets, and bad `--vary` flags.

use std::path::Path;
use std::process::Output;

use crate::common::*;
use polars::prelude::DataFrame;

fn sim_to(out: &Path, args: &[&str]) -> Output {
    let mut cmd = sim();
    cmd.args(args).arg("--out").arg(out);
    cmd.output().expect("run the sim binary")
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

fn f64_at(df: &DataFrame, column: &str, row: usize) -> f64 {
    match value_at(df, column, row) {
        polars::prelude::AnyValue::Float64(v) => v,
        other => panic!("{column}[{row}] is {other:?}, not an f64"),
    }
}

/// The row of `summary` whose `column` holds `value` (as text).
fn row_where(df: &DataFrame, column: &str, value: &str) -> usize {
    (0..df.height())
        .find(|&r| value_at(df, column, r).to_string().trim_matches('"') == value)
        .unwrap_or_else(|| panic!("no row with {column} = {value}"))
}

/// The (metric, value, count) rows of one cell of a distributions table.
fn cell_distribution(df: &DataFrame, cell: u64) -> Vec<(String, i64, u64)> {
    (0..df.height())
        .filter(|&r| u64_at(df, "cell", r) == cell)
        .map(|r| {
            let value = match value_at(df, "value", r) {
                polars::prelude::AnyValue::Int64(v) => v,
                other => panic!("value is {other:?}"),
            };
            (str_at(df, "metric", r), value, u64_at(df, "count", r))
        })
        .collect()
}

/// The columns a plain run and a grid cell share, as text, for one row.
fn shared_figures(df: &DataFrame, row: usize) -> Vec<String> {
    [
        "policy",
        "games",
        "wins",
        "win_rate",
        "win_ci_low",
        "win_ci_high",
        "mean_final_hp",
        "mean_cleared",
        "seed",
        "first_game",
        "complete",
        "rules",
    ]
    .iter()
    .map(|c| value_at(df, c, row).to_string())
    .collect()
}

#[test]
fn common_random_numbers_narrow_the_interval_of_a_difference() {
    let dir = TempDir::new("crn");
    ok(&sim_to(
        dir.path(),
        &[
            "compare",
            "crownfall",
            "--policy",
            "bank-at-16",
            "--policy",
            "bank-at-17",
            "--games",
            "200K",
        ],
    ));
    let summary = read_parquet(&dir.join("summary.parquet"));
    assert_eq!(summary.height(), 2);
    let best = if f64_at(&summary, "win_rate", 0) >= f64_at(&summary, "win_rate", 1) {
        0
    } else {
        1
    };
    let other = 1 - best;
    let baseline = str_at(&summary, "policy", best);
    assert_eq!(str_at(&summary, "baseline", other), baseline);
    let diff = f64_at(&summary, "diff", other);
    let expected = f64_at(&summary, "win_rate", other) - f64_at(&summary, "win_rate", best);
    assert!((diff - expected).abs() < 1e-12, "{diff} vs {expected}");
    let paired = f64_at(&summary, "diff_ci_high", other) - f64_at(&summary, "diff_ci_low", other);
    let unpaired = f64_at(&summary, "diff_unpaired_ci_high", other)
        - f64_at(&summary, "diff_unpaired_ci_low", other);
    assert!(
        paired < unpaired,
        "paired width {paired} is not narrower than unpaired {unpaired}"
    );
    assert!(f64_at(&summary, "diff", best).abs() < 1e-15);
}

#[test]
fn compare_expands_ranges_adds_the_baseline_and_ranks() {
    let dir = TempDir::new("ranks");
    let out = sim_to(
        dir.path(),
        &[
            "compare",
            "crownfall",
            "--policy",
            "bank-at-15..17",
            "--baseline",
            "bank-at-target",
            "--games",
            "20K",
        ],
    );
    ok(&out);
    let summary = read_parquet(&dir.join("summary.parquet"));
    let policies: Vec<String> = (0..4).map(|r| str_at(&summary, "policy", r)).collect();
    assert_eq!(
        policies,
        ["bank-at-15", "bank-at-16", "bank-at-17", "bank-at-target"]
    );
    for r in 0..4 {
        assert_eq!(str_at(&summary, "baseline", r), "bank-at-target");
    }
    let text = stdout(&out);
    let rank_of = |p: &str| {
        text.lines()
            .filter(|l| !l.trim_start().starts_with("verdict:"))
            .find(|l| l.split_whitespace().nth(1) == Some(p))
            .and_then(|l| l.split_whitespace().next())
            .map(String::from)
    };
    let mut by_rate: Vec<usize> = (0..4).collect();
    by_rate.sort_by(|&a, &b| {
        f64_at(&summary, "win_rate", b).total_cmp(&f64_at(&summary, "win_rate", a))
    });
    for (rank, &r) in by_rate.iter().enumerate() {
        assert_eq!(
            rank_of(&policies[r]),
            Some((rank + 1).to_string()),
            "{text}"
        );
    }
}

#[test]
fn a_sweep_cell_equals_a_plain_run_bit_for_bit() {
    let dir = TempDir::new("cell");
    let sweep = dir.join("sweep");
    ok(&sim_to(
        &sweep,
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--vary",
            "guard_zone=1..3",
            "--vary",
            "start_hp=15,20",
            "--games",
            "40K",
            "--seed",
            "9",
        ],
    ));
    let plain = dir.join("plain");
    ok(&sim_to(
        &plain,
        &[
            "crownfall",
            "--policy",
            "bank-at-17",
            "--set",
            "start_hp=15",
            "--set",
            "guard_zone=3",
            "--games",
            "40K",
            "--seed",
            "9",
        ],
    ));
    let grid = read_parquet(&sweep.join("summary.parquet"));
    assert_eq!(grid.height(), 6);
    let cell = (0..6)
        .find(|&r| {
            value_at(&grid, "guard_zone", r).to_string() == "3"
                && value_at(&grid, "start_hp", r).to_string() == "15"
        })
        .expect("the cell guard_zone=3, start_hp=15");
    let single = read_parquet(&plain.join("summary.parquet"));
    assert_eq!(shared_figures(&grid, cell), shared_figures(&single, 0));
    let grid_dist = read_parquet(&sweep.join("distributions.parquet"));
    let single_dist = read_parquet(&plain.join("distributions.parquet"));
    assert_eq!(
        cell_distribution(&grid_dist, cell as u64),
        cell_distribution(&single_dist, 0)
    );
}

#[test]
fn sweeping_a_rule_to_its_default_reproduces_the_default_run() {
    let dir = TempDir::new("default");
    let sweep = dir.join("sweep");
    ok(&sim_to(
        &sweep,
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-target",
            "--vary",
            "guard_damage.king=3",
            "--games",
            "30K",
        ],
    ));
    let plain = dir.join("plain");
    ok(&sim_to(
        &plain,
        &["crownfall", "--policy", "bank-at-target", "--games", "30K"],
    ));
    let grid = read_parquet(&sweep.join("summary.parquet"));
    let single = read_parquet(&plain.join("summary.parquet"));
    assert_eq!(shared_figures(&grid, 0), shared_figures(&single, 0));
}

#[test]
fn precision_stops_each_cell_at_the_first_chunk_that_reaches_it() {
    let dir = TempDir::new("precision");
    let runs = on_1_and_2_threads(
        &dir,
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--vary",
            "start_hp=3,20",
            "--precision",
            "0.004",
        ],
    );
    assert_same_files_on_1_and_2_threads(&runs, &["summary.parquet", "distributions.parquet"]);
    let one = &runs[0].0;
    let summary = read_parquet(&one.join("summary.parquet"));
    let start_hp = row_where(&summary, "start_hp", "20");
    let games = u64_at(&summary, "games", start_hp);
    assert_eq!(games % CHUNK, 0);
    assert!(bool_at(&summary, "precision_met", start_hp));
    let half = (f64_at(&summary, "win_ci_high", start_hp)
        - f64_at(&summary, "win_ci_low", start_hp))
        / 2.0;
    assert!(half <= 0.004, "{half}");
    // One chunk fewer was not enough: the same policy, rules and seed over those games.
    let fewer = dir.join("fewer");
    let n = (games - CHUNK).to_string();
    ok(&sim_to(
        &fewer,
        &[
            "crownfall",
            "--policy",
            "bank-at-17",
            "--set",
            "start_hp=20",
            "--games",
            &n,
        ],
    ));
    let before = read_parquet(&fewer.join("summary.parquet"));
    let half_before = (f64_at(&before, "win_ci_high", 0) - f64_at(&before, "win_ci_low", 0)) / 2.0;
    assert!(
        half_before > 0.004,
        "{half_before} at {n} games already met the target"
    );
    // The two cells need different numbers of games.
    let other = row_where(&summary, "start_hp", "3");
    assert!(bool_at(&summary, "precision_met", other));
    assert_ne!(u64_at(&summary, "games", other), games);
}

#[test]
fn bad_vary_flags_fail_before_any_game_and_name_the_parameter() {
    let dir = TempDir::new("badvary");
    let mut failures = Vec::new();
    for (vary, expect) in [
        ("guard_zonee=1..3", "guard_zonee"),
        ("guard_zone=0..40", "guard_zone"),
        ("guard_damage.king=5..1", "guard_damage.king"),
        ("start_hp=", "start_hp"),
        ("guard_damage=1,2", "guard_damage"),
    ] {
        let out = dir.join("out");
        // A billion games per cell: if any game ran, this test would take minutes.
        let result = sim_to(
            &out,
            &[
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                vary,
                "--games",
                "1B",
            ],
        );
        match usage_error(&result, Some(&out)) {
            Ok(err) if err.contains(expect) => {}
            Ok(err) => failures.push(format!("{vary}: the error does not name {expect}: {err}")),
            Err(e) => failures.push(format!("{vary}: {e}")),
        }
    }
    let unknown_game = sim_to(
        &dir.join("x"),
        &["compare", "crownfal", "--policy", "bank-at-17"],
    );
    match usage_error(&unknown_game, None) {
        Ok(err) if err.contains("crownfall") => {}
        other => failures.push(format!("unknown game: {other:?}")),
    }
    assert_no_failures(&failures);
}
