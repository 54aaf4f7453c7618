//! The command-line conventions of issue 13, through the real binary: `-q/--quiet`,
//! `--format json` (checked against the Parquet files), `sim completions` (bash driven for real),
//! `sim man`, and errors for rule values of the wrong type.

use std::path::Path;
use std::process::{Command, Output};

use polars::prelude::{AnyValue, DataFrame};
use serde_json::{Value, json};

use crate::common::*;

/// Runs `sim ARGS --out OUT`.
fn run_to(out: &Path, args: &[&str]) -> Output {
    sim()
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run the sim binary")
}

fn succeeded(out: &Output) {
    assert!(
        out.status.success(),
        "{:?}\nstdout: {}\nstderr: {}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

/// A Parquet value as JSON, to compare with the JSON report.
fn as_json(value: AnyValue) -> Value {
    match value {
        AnyValue::UInt64(v) => json!(v),
        AnyValue::Int64(v) => json!(v),
        AnyValue::Float64(v) => json!(v),
        AnyValue::Boolean(v) => json!(v),
        AnyValue::String(v) => json!(v),
        AnyValue::StringOwned(v) => json!(v.as_str()),
        other => panic!("unexpected Parquet value {other:?}"),
    }
}

/// Checks that `doc` holds every column of row `row` of `summary` with the same value (floats
/// to 1e-12, the rules as the JSON object the column's text is); lists what differs.
fn same_as_summary(doc: &Value, summary: &DataFrame, row: usize) -> Vec<String> {
    let mut problems = Vec::new();
    for name in column_names(summary) {
        let want = as_json(value_at(summary, &name, row));
        let want = if name == "rules" {
            serde_json::from_str(want.as_str().expect("rules is text")).expect("rules is JSON")
        } else {
            want
        };
        let got = &doc[name.as_str()];
        let same = match (got.as_f64(), want.as_f64()) {
            (Some(a), Some(b)) if want.is_f64() => (a - b).abs() <= 1e-12 * b.abs().max(1.0),
            _ => *got == want,
        };
        if !same {
            problems.push(format!("{name}: JSON {got}, summary.parquet {want}"));
        }
    }
    problems
}

/// The (metric, value, count) rows of a distributions table for `cell`.
fn distribution_rows(df: &DataFrame, cell: u64) -> Vec<(String, i64, u64)> {
    (0..df.height())
        .filter(|&i| u64_at(df, "cell", i) == cell)
        .map(|i| {
            let value = match value_at(df, "value", i) {
                AnyValue::Int64(v) => v,
                other => panic!("value is {other:?}"),
            };
            (str_at(df, "metric", i), value, u64_at(df, "count", i))
        })
        .collect()
}

/// The same rows from a JSON report's `distributions` object.
fn json_distribution_rows(doc: &Value) -> Vec<(String, i64, u64)> {
    let metrics = doc["distributions"].as_object().expect("distributions");
    let mut rows = Vec::new();
    for (metric, counts) in metrics {
        for entry in counts.as_array().expect("an array per metric") {
            rows.push((
                metric.clone(),
                entry["value"].as_i64().expect("value"),
                entry["count"].as_u64().expect("count"),
            ));
        }
    }
    rows
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

#[test]
fn quiet_prints_nothing_and_writes_the_same_files() {
    let tmp = TempDir::new("fd-quiet");
    let loud = tmp.join("loud");
    succeeded(&run_to(&loud, &["crownfall", "--games", "40K"]));
    let mut failures = Vec::new();
    let cases: [(&str, Vec<&str>); 5] = [
        ("run", vec!["crownfall", "--games", "40K", "-q"]),
        ("scoundrel", vec!["scoundrel", "--games", "5K", "--quiet"]),
        (
            "compare",
            vec![
                "compare",
                "crownfall",
                "-p",
                "bank-at-16..17",
                "-g",
                "20K",
                "-q",
            ],
        ),
        (
            "sweep",
            vec![
                "sweep",
                "crownfall",
                "-p",
                "bank-at-17",
                "--vary",
                "guard_zone=1,2",
                "-g",
                "20K",
                "-q",
            ],
        ),
        (
            "per-game",
            vec!["crownfall", "-g", "10K", "--per-game", "-q"],
        ),
    ];
    for (name, args) in cases {
        let dir = tmp.join(name);
        let out = run_to(&dir, &args);
        if !out.status.success() || !out.stdout.is_empty() || !out.stderr.is_empty() {
            failures.push(format!(
                "{args:?}: {:?}, stdout {:?}, stderr {:?}",
                out.status,
                stdout(&out),
                stderr(&out)
            ));
        }
        let want: &[&str] = if name == "per-game" {
            &["distributions.parquet", "games.parquet", "summary.parquet"]
        } else {
            &["distributions.parquet", "summary.parquet"]
        };
        if files_in(&dir) != want {
            failures.push(format!("{args:?}: files {:?}", files_in(&dir)));
        }
    }
    for file in ["summary.parquet", "distributions.parquet"] {
        let a = std::fs::read(loud.join(file)).expect("read the loud run's file");
        let b = std::fs::read(tmp.join("run").join(file)).expect("read the quiet run's file");
        if a != b {
            failures.push(format!("{file} differs between -q and a plain run"));
        }
    }
    // Errors still show, one line, exit code 2.
    let dir = tmp.join("bad");
    let out = run_to(&dir, &["crownfall", "-q", "--set", "start_hp=0"]);
    if let Err(e) = usage_error(&out, Some(&dir)) {
        failures.push(format!("-q with a bad rule: {e}"));
    }
    assert_no_failures(&failures);
}

#[test]
fn run_json_is_one_document_with_the_summary_distributions_and_speed() {
    let tmp = TempDir::new("fd-json-run");
    let mut failures = Vec::new();
    for (game, games) in [("crownfall", 50_000u64), ("scoundrel", 5_000)] {
        let dir = tmp.join(game);
        let out = run_to(
            &dir,
            &[game, "--games", &games.to_string(), "--format", "json"],
        );
        succeeded(&out);
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{game}: stdout is not one JSON document: {e}"));
        let summary = read_parquet(&dir.join("summary.parquet"));
        let dist = read_parquet(&dir.join("distributions.parquet"));
        assert_eq!(
            doc["win_rate"].as_f64(),
            summary
                .column("win_rate")
                .and_then(|c| c.f64().cloned())
                .ok()
                .and_then(|c| c.get(0)),
            "{game}: the JSON win rate is summary.parquet's"
        );
        failures.extend(
            same_as_summary(&doc, &summary, 0)
                .into_iter()
                .map(|p| format!("{game}: {p}")),
        );
        if sorted(json_distribution_rows(&doc)) != sorted(distribution_rows(&dist, 0)) {
            failures.push(format!(
                "{game}: distributions differ from the Parquet file"
            ));
        }
        if doc["speed"]["games"] != json!(games)
            || !doc["speed"]["games_per_second"]
                .as_f64()
                .is_some_and(|r| r > 0.0)
        {
            failures.push(format!("{game}: speed {}", doc["speed"]));
        }
        if doc["files"].as_array().map(Vec::len) != Some(2) {
            failures.push(format!("{game}: files {}", doc["files"]));
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn compare_and_sweep_json_are_arrays_of_rows_matching_the_summary() {
    let tmp = TempDir::new("fd-json-grid");
    let dir = tmp.join("compare");
    let out = run_to(
        &dir,
        &[
            "compare",
            "crownfall",
            "--policy",
            "bank-at-15..18",
            "--baseline",
            "bank-at-16",
            "--games",
            "30K",
            "--format",
            "json",
        ],
    );
    succeeded(&out);
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).expect("an array of rows");
    let summary = read_parquet(&dir.join("summary.parquet"));
    let dist = read_parquet(&dir.join("distributions.parquet"));
    assert_eq!(rows.len(), 4);
    let mut failures = Vec::new();
    let mut last = f64::INFINITY;
    for (i, row) in rows.iter().enumerate() {
        let cell = row["cell"].as_u64().expect("cell") as usize;
        failures.extend(same_as_summary(row, &summary, cell));
        if row["rank"] != json!(i + 1) {
            failures.push(format!("row {i} has rank {}", row["rank"]));
        }
        let rate = row["win_rate"].as_f64().expect("win_rate");
        if rate > last {
            failures.push(format!("row {i} ranks above a better one"));
        }
        last = rate;
        if row["baseline"] != json!("bank-at-16") || row["diff"].as_f64().is_none() {
            failures.push(format!("row {i}: baseline {}", row["baseline"]));
        }
        if sorted(json_distribution_rows(row)) != sorted(distribution_rows(&dist, cell as u64)) {
            failures.push(format!("row {i}: distributions differ"));
        }
        if row["speed"]["games"] != json!(4 * 30_000) {
            failures.push(format!("row {i}: speed {}", row["speed"]));
        }
    }

    let dir = tmp.join("sweep");
    let out = run_to(
        &dir,
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--vary",
            "start_hp=10,20",
            "--vary",
            "deck=finite,infinite",
            "--games",
            "20K",
            "--format",
            "json",
        ],
    );
    succeeded(&out);
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).expect("an array of cells");
    let summary = read_parquet(&dir.join("summary.parquet"));
    assert_eq!(rows.len(), 4);
    for (i, row) in rows.iter().enumerate() {
        failures.extend(same_as_summary(row, &summary, i));
        if row["cell"] != json!(i) || !row["start_hp"].is_i64() || !row["deck"].is_string() {
            failures.push(format!("sweep row {i}: {row}"));
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn solve_json_gives_the_win_probability_the_text_prints() {
    let text = run(&["solve", "crownfall", "--evaluate", "bank-at-17"]);
    let json = run(&[
        "solve",
        "crownfall",
        "--evaluate",
        "bank-at-17",
        "--format",
        "json",
    ]);
    succeeded(&text);
    succeeded(&json);
    let doc: Value = serde_json::from_slice(&json.stdout).expect("one JSON document");
    // The text prints it as "...: 82.36%  (0.823624)".
    let printed: f64 = stdout(&text)
        .lines()
        .find(|l| l.starts_with("optimal win probability"))
        .and_then(|l| l.rsplit_once('(')?.1.strip_suffix(')')?.parse().ok())
        .expect("the text's win probability");
    let win = doc["win_probability"].as_f64().expect("win_probability");
    assert!((win - printed).abs() < 1e-6, "{win} vs {printed}");
    let evaluated = &doc["evaluated"][0];
    assert_eq!(evaluated["policy"], json!("bank-at-17"));
    let diff = evaluated["win_probability"].as_f64().unwrap() - win;
    assert!((evaluated["diff"].as_f64().unwrap() - diff).abs() < 1e-12);
    assert_eq!(doc["rules"]["start_hp"], json!(20));
    let quiet = run(&["solve", "crownfall", "-q"]);
    succeeded(&quiet);
    assert!(quiet.stdout.is_empty() && quiet.stderr.is_empty());
}

#[test]
fn completions_and_man_pages_generate_from_the_command_line() {
    let mut failures = Vec::new();
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        let text = stdout(&out);
        if !out.status.success() || !text.contains("crownfall") || !text.contains("--policy") {
            failures.push(format!(
                "completions {shell}: {:?}, {} bytes, stderr {}",
                out.status,
                text.len(),
                stderr(&out)
            ));
        }
    }
    let out = run(&["man"]);
    let page = stdout(&out);
    if !out.status.success() || !page.contains(".TH sim 1") || !page.contains("crownfall") {
        failures.push(format!("man: {:?}\n{page}", out.status));
    }
    let out = run(&["man", "crownfall"]);
    let page = stdout(&out);
    if !out.status.success() || !page.contains("sim\\-crownfall") || !page.contains("policy") {
        failures.push(format!("man crownfall: {:?}\n{page}", out.status));
    }
    for bad in [vec!["man", "blackjack"], vec!["completions", "tcsh"]] {
        if let Err(e) = usage_error(&run(&bad), None) {
            failures.push(format!("{bad:?}: {e}"));
        }
    }
    assert_no_failures(&failures);
}

/// What bash's completion function offers for the words of `line` (the last one being
/// completed), with the script `sim completions bash` prints sourced.
fn bash_offers(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n\
         _sim sim '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let out = Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(&program)
        .output()
        .expect("run bash");
    assert!(out.status.success(), "bash: {}", stderr(&out));
    stdout(&out).lines().map(str::to_string).collect()
}

#[test]
fn bash_completion_offers_the_games_after_sim() {
    let tmp = TempDir::new("fd-bash");
    let out = run(&["completions", "bash"]);
    succeeded(&out);
    let script = tmp.write("sim.bash", &stdout(&out));
    let offered = bash_offers(&script, &["sim", ""]);
    for want in [
        "crownfall",
        "scoundrel",
        "compare",
        "sweep",
        "solve",
        "list",
    ] {
        assert!(
            offered.iter().any(|w| w == want),
            "`sim <TAB>` does not offer {want}: {offered:?}"
        );
    }
    let offered = bash_offers(&script, &["sim", "cr"]);
    assert_eq!(offered, ["crownfall"], "`sim cr<TAB>`");
    let offered = bash_offers(&script, &["sim", "crownfall", "--po"]);
    assert_eq!(offered, ["--policy"], "`sim crownfall --po<TAB>`");
    let offered = bash_offers(&script, &["sim", "crownfall", "--format", ""]);
    assert_eq!(sorted(offered), ["json", "text"], "`--format <TAB>`");
}

#[test]
fn a_rule_value_of_the_wrong_type_names_the_rule_and_the_type() {
    let tmp = TempDir::new("fd-types");
    let rules = tmp.write("variant.toml", "guard_zone = 3\nstart_hp = \"abc\"\n");
    let cases: Vec<(Vec<std::ffi::OsString>, Vec<String>)> = vec![
        (
            argv!["crownfall", "--set", "start_hp=abc"].to_vec(),
            vec!["rule start_hp".into(), "u8".into(), "\"abc\"".into()],
        ),
        (
            argv!["crownfall", "--rules", &rules].to_vec(),
            vec![
                rules.display().to_string(),
                "rule start_hp".into(),
                "u8".into(),
            ],
        ),
        (
            argv!["crownfall", "--set", "guard_damage.king=1.5"].to_vec(),
            vec!["rule guard_damage.king".into(), "u8".into()],
        ),
        (
            argv!["scoundrel", "--set", "potion_bonus=3"].to_vec(),
            vec!["rule potion_bonus".into(), "boolean".into()],
        ),
        (
            argv![
                "sweep",
                "crownfall",
                "-p",
                "bank-at-17",
                "--vary",
                "start_hp=10,abc"
            ]
            .to_vec(),
            vec!["--vary start_hp=abc".into(), "u8".into()],
        ),
    ];
    let mut failures = Vec::new();
    for (i, (args, wants)) in cases.iter().enumerate() {
        let dir = tmp.join(&format!("out{i}"));
        let out = sim()
            .args(args)
            .arg("--out")
            .arg(&dir)
            .output()
            .expect("run sim");
        match usage_error(&out, Some(&dir)) {
            Err(e) => failures.push(format!("{args:?}: {e}")),
            Ok(err) => {
                for want in wants {
                    if !err.contains(want.as_str()) {
                        failures.push(format!("{args:?}: stderr lacks {want:?}: {err:?}"));
                    }
                }
            }
        }
    }
    assert_no_failures(&failures);
}
