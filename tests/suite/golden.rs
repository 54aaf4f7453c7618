//! Pinned results: a fixed set of `sim` commands (every game, every policy fast enough for a test,
//! the search players on small budgets, compare, sweep, a duel tournament, shards merged,
//! `--per-game`) whose files must equal the expected text in `tests/golden/<case>.txt`.
//!
//! An engine or rule change that moves any figure fails here; a deliberate one updates the
//! expectations in the same commit, with
//!
//! ```sh
//! SIM_UPDATE_GOLDEN=1 cargo test --release --test suite -- golden
//! ```
//!
//! and the diff of `tests/golden/` shows what moved. Each Parquet file of a command's `--out`
//! folder is written as canonical text ([`canonical`]): `summary.parquet` one line per column
//! (one value per row), `distributions.parquet` one line per (cell, metric), `games.parquet` its
//! row count, a digest of every row and its first rows, any other file (a tournament's matrix and
//! ratings) every row. What is not a result is left out: the `version` column, and the search
//! players' decision times (`mean_decision_ms`, `p99_decision_ms`, the
//! `decision_time_bin` metric, the per-game `search_us`), which are wall-clock measurements.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::{AnyValue, Column, DataFrame};

use crate::common::*;

/// The command that rewrites every expectation.
const UPDATE: &str = "SIM_UPDATE_GOLDEN=1 cargo test --release --test suite -- golden";

/// Columns that are not results: they differ with the machine or the build, not the seed.
const DROPPED_COLUMNS: &[&str] = &[
    "version",
    "mean_decision_ms",
    "p99_decision_ms",
    "search_us",
];
/// Metrics of `distributions.parquet` that are not results (a wall-clock measurement).
const DROPPED_METRICS: &[&str] = &["decision_time_bin"];
/// Rows of a per-game file written out in full; the digest covers them all.
const FIRST_ROWS: usize = 8;

/// One test per case: `name: [arguments of sim, without --out]`. The case's expectation is
/// `tests/golden/<name>.txt`.
macro_rules! golden {
    ($($name:ident: [$($arg:expr),* $(,)?],)*) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name), &[$($arg),*]);
            }
        )*
        /// Every case's name (the shards' cases included), for the check that no expected file
        /// is left without its case.
        const CASES: &[&str] = &[$(stringify!($name),)* "crownfall_shards_merged", "junkyard_tournament_shards_merged"];
    };
}

golden! {
    crownfall_bank_at_17: ["crownfall", "--policy", "bank-at-17", "--games", "5000", "--per-game"],
    crownfall_bank_at_target: ["crownfall", "--policy", "bank-at-target", "--games", "5000"],
    crownfall_optimal: ["crownfall", "--policy", "optimal", "--games", "5000", "--per-game"],
    crownfall_expectimax: ["crownfall", "--policy", "expectimax", "--games", "3000"],
    crownfall_strategy_file: ["crownfall", "--policy", "strategies/crownfall/cautious.toml", "--games", "5000"],
    crownfall_rules_set: ["crownfall", "--policy", "bank-at-15", "--set", "deck=infinite", "--set", "guard_zone=3", "--seed", "9", "--games", "5000"],
    crownfall_compare: ["compare", "crownfall", "--policy", "bank-at-15..18", "--baseline", "bank-at-target", "--games", "4000"],
    crownfall_sweep: ["sweep", "crownfall", "--policy", "bank-at-16..17", "--vary", "guard_damage.king=2..3", "--vary", "start_hp=16,20", "--games", "2000"],
    crownfall_sweep_precision: ["sweep", "crownfall", "--policy", "bank-at-17", "--vary", "start_hp=16,20", "--precision", "0.01", "--games", "100K"],

    scoundrel_greedy: ["scoundrel", "--policy", "greedy", "--games", "5000", "--per-game"],
    scoundrel_heuristic: ["scoundrel", "--policy", "heuristic", "--games", "5000"],
    scoundrel_random: ["scoundrel", "--policy", "random", "--games", "5000"],
    scoundrel_lookahead: ["scoundrel", "--policy", "lookahead", "--games", "500"],
    scoundrel_tuned_lookahead: ["scoundrel", "--policy", "tuned-lookahead", "--games", "300"],
    scoundrel_tuned: ["scoundrel", "--policy", "tuned", "--games", "5000"],
    scoundrel_clairvoyant: ["scoundrel", "--policy", "clairvoyant", "--games", "60", "--per-game"],
    scoundrel_clairvoyant_win: ["scoundrel", "--policy", "clairvoyant-win", "--games", "60"],
    scoundrel_strategy_file: ["scoundrel", "--policy", "strategies/scoundrel/bold.toml", "--games", "3000"],
    scoundrel_rules_set: ["scoundrel", "--policy", "heuristic", "--set", "weapon_wear=strict", "--set", "potions_per_turn=2", "--games", "3000"],
    scoundrel_compare: ["compare", "scoundrel", "--policy", "greedy", "--policy", "heuristic", "--policy", "tuned", "--baseline", "greedy", "--games", "3000"],

    regicide_players_1_to_4: ["sweep", "regicide", "--policy", "simple", "--policy", "heuristic", "--policy", "random", "--vary", "players=1..4", "--games", "1500"],
    regicide_heuristic: ["regicide", "--policy", "heuristic", "--games", "5000", "--per-game"],
    regicide_simple_3_players: ["regicide", "--players", "3", "--policy", "simple", "--games", "3000", "--per-game"],
    regicide_seats: ["regicide", "--players", "3", "--policy", "heuristic", "--seat", "2=simple", "--games", "2000"],
    regicide_strategy_file: ["regicide", "--policy", "strategies/regicide/untuned.toml", "--games", "2000"],
    regicide_pimc: ["regicide", "--policy", "pimc-5", "--games", "100", "--per-game"],
    regicide_pimc_2_players: ["regicide", "--players", "2", "--policy", "pimc-5", "--games", "60"],
    regicide_ismcts: ["regicide", "--policy", "ismcts-20", "--games", "100", "--per-game"],
    regicide_ismcts_3_players: ["regicide", "--players", "3", "--policy", "ismcts-20", "--games", "60"],
    regicide_clairvoyant: ["regicide", "--policy", "clairvoyant-20", "--games", "40", "--per-game"],
    crownfall_pimc: ["crownfall", "--policy", "pimc-10", "--games", "200", "--per-game"],
    crownfall_ismcts: ["crownfall", "--policy", "ismcts-50", "--games", "200", "--per-game"],
    crownfall_clairvoyant: ["crownfall", "--policy", "clairvoyant-1", "--games", "500", "--per-game"],
    scoundrel_pimc: ["scoundrel", "--policy", "pimc-4", "--games", "100", "--per-game"],
    scoundrel_ismcts: ["scoundrel", "--policy", "ismcts-30", "--games", "100", "--per-game"],
    junkyard_search: ["junkyard", "--policy", "ismcts-20", "--vs", "pimc-3", "--games", "20", "--per-game"],
    regicide_compare: ["compare", "regicide", "--policy", "simple", "--policy", "heuristic", "--baseline", "simple", "--games", "3000"],

    junkyard_simple: ["junkyard", "--policy", "simple", "--games", "5000", "--per-game"],
    junkyard_greedy: ["junkyard", "--policy", "greedy", "--games", "3000"],
    junkyard_random: ["junkyard", "--policy", "random", "--games", "3000"],
    junkyard_lookahead: ["junkyard", "--policy", "lookahead", "--games", "300"],
    junkyard_strategy_file: ["junkyard", "--policy", "strategies/junkyard/rush.toml", "--games", "3000"],
    junkyard_rules_set: ["junkyard", "--policy", "simple", "--set", "second_seat_hp_bonus=5", "--set", "draw_per_turn=2", "--games", "3000"],
    junkyard_duel: ["junkyard", "--policy", "greedy", "--vs", "simple", "--games", "4000", "--per-game"],
    junkyard_duel_lookahead: ["junkyard", "--policy", "lookahead-2", "--vs", "greedy", "--games", "200"],
    junkyard_tournament: ["compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--policy", "aggressive", "--games", "1000"],
    junkyard_sweep: ["sweep", "junkyard", "--policy", "simple", "--vary", "start_hp=20,25", "--games", "2000"],
}

/// A plain run with its per-game rows, in three shards merged.
#[test]
fn crownfall_shards_merged() {
    check_shards(
        "crownfall_shards_merged",
        &[
            "crownfall",
            "--policy",
            "bank-at-17",
            "--games",
            "6000",
            "--per-game",
        ],
        3,
    );
}

/// A duel tournament in two shards merged.
#[test]
fn junkyard_tournament_shards_merged() {
    check_shards(
        "junkyard_tournament_shards_merged",
        &[
            "compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--games", "2000",
        ],
        2,
    );
}

#[test]
fn every_expected_file_has_its_case() {
    let stale: Vec<String> = fs::read_dir(expected_dir())
        .expect("read tests/golden")
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| {
            name.strip_suffix(".txt")
                .is_none_or(|case| !CASES.contains(&case))
        })
        .collect();
    assert!(
        stale.is_empty(),
        "files in tests/golden/ with no case in tests/suite/golden.rs: {stale:?}"
    );
}

fn expected_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Runs `sim ARGS --out DIR` (on 2 threads: any count gives the same files) and panics unless it
/// succeeds.
fn sim_ok(args: &[&str], out: &Path) {
    let output = sim()
        .args(args)
        .args(["--threads", "2", "-q", "--out"])
        .arg(out)
        .output()
        .expect("run the sim binary");
    assert!(
        output.status.success(),
        "sim {} failed: {}",
        args.join(" "),
        stderr(&output)
    );
}

/// Plays `sim ARGS` and compares its files with the case's expectation.
fn check(case: &str, args: &[&str]) {
    let tmp = TempDir::new(&format!("golden-{case}"));
    let out = tmp.join("out");
    sim_ok(args, &out);
    compare(case, &format!("sim {}", args.join(" ")), &out);
}

/// Plays `sim ARGS` in `shards` shards, merges them, and compares the merged files with the
/// case's expectation.
fn check_shards(case: &str, args: &[&str], shards: u32) {
    let tmp = TempDir::new(&format!("golden-{case}"));
    let mut merge = vec!["merge".to_string()];
    for i in 0..shards {
        let dir = tmp.join(&format!("shard-{i}"));
        let shard = format!("{i}/{shards}");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard]);
        sim_ok(&a, &dir);
        merge.push(dir.display().to_string());
    }
    let out = tmp.join("merged");
    let output = sim()
        .args(&merge)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run sim merge");
    assert!(
        output.status.success(),
        "sim merge failed: {}",
        stderr(&output)
    );
    let command = format!(
        "sim {} --shard I/{shards} (I from 0), then sim merge",
        args.join(" ")
    );
    compare(case, &command, &out);
}

/// Compares the canonical text of the files in `out` with `tests/golden/<case>.txt`, or writes it
/// there under `SIM_UPDATE_GOLDEN=1`.
fn compare(case: &str, command: &str, out: &Path) {
    let got = canonical(command, out);
    let path = expected_dir().join(format!("{case}.txt"));
    if std::env::var_os("SIM_UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        fs::create_dir_all(expected_dir()).expect("create tests/golden");
        fs::write(&path, &got).expect("write the expectation");
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_default();
    if got != expected {
        panic!(
            "{case}: the results differ from {}\n{}\nIf the change is deliberate, update with\n  {UPDATE}\nand commit tests/golden/ with it.",
            path.display(),
            first_differences(&expected, &got)
        );
    }
}

/// The lines that differ, expected (`-`) and found (`+`), at most 12, each cut to 240 characters.
fn first_differences(expected: &str, got: &str) -> String {
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    let cut = |s: &str| s.chars().take(240).collect::<String>();
    let mut text = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(g.len()) {
        let (a, b) = (e.get(i).copied(), g.get(i).copied());
        if a == b {
            continue;
        }
        if shown == 12 {
            text.push_str("  ...\n");
            break;
        }
        shown += 1;
        let _ = writeln!(text, "line {}:", i + 1);
        let _ = writeln!(text, "  - {}", a.map_or("(none)".to_string(), cut));
        let _ = writeln!(text, "  + {}", b.map_or("(none)".to_string(), cut));
    }
    text
}

/// The canonical text of every Parquet file in `dir`, in name order, led by the command.
fn canonical(command: &str, dir: &Path) -> String {
    let mut text = format!("# {command}\n# update: {UPDATE}\n");
    for name in files_in(dir).iter().filter(|n| n.ends_with(".parquet")) {
        let df = read_parquet(&dir.join(name));
        let columns: Vec<&Column> = df
            .columns()
            .iter()
            .filter(|c| !DROPPED_COLUMNS.contains(&c.name().as_str()))
            .collect();
        let _ = writeln!(text, "\n== {name}");
        match name.as_str() {
            "summary.parquet" => summary_text(&mut text, &columns, df.height()),
            "distributions.parquet" => distributions_text(&mut text, &df),
            n if n.starts_with("games") => games_text(&mut text, &columns, df.height()),
            _ => table_text(&mut text, &columns, 0..df.height()),
        }
    }
    text
}

/// One value as text: floats to the last bit (the shortest text that reads back the same).
fn value(v: AnyValue) -> String {
    match v {
        AnyValue::Float64(x) => format!("{x:?}"),
        AnyValue::Float32(x) => format!("{x:?}"),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::Null => "null".to_string(),
        other => other.to_string(),
    }
}

fn cell(c: &Column, row: usize) -> String {
    value(
        c.get(row)
            .unwrap_or_else(|e| panic!("{}[{row}]: {e}", c.name())),
    )
}

/// One line per column: `name (type): row 0 | row 1 | ...`.
fn summary_text(text: &mut String, columns: &[&Column], rows: usize) {
    for c in columns {
        let values: Vec<String> = (0..rows).map(|r| cell(c, r)).collect();
        let _ = writeln!(text, "{} ({}): {}", c.name(), c.dtype(), values.join(" | "));
    }
}

/// One line per (cell, policy, metric): `value:count` pairs in file order.
fn distributions_text(text: &mut String, df: &DataFrame) {
    let col = |name: &str| df.column(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (policy, cell_no, metric, val, count) = (
        col("policy"),
        col("cell"),
        col("metric"),
        col("value"),
        col("count"),
    );
    let mut line_key = String::new();
    for r in 0..df.height() {
        let m = cell(metric, r);
        if DROPPED_METRICS.contains(&m.as_str()) {
            continue;
        }
        let key = format!("cell {} {} {m}:", cell(cell_no, r), cell(policy, r));
        if key != line_key {
            if !line_key.is_empty() {
                text.push('\n');
            }
            text.push_str(&key);
            line_key = key;
        }
        let _ = write!(text, " {}:{}", cell(val, r), cell(count, r));
    }
    if !line_key.is_empty() {
        text.push('\n');
    }
}

/// A header of `name:type`, then `rows`, tab-separated.
fn table_text(text: &mut String, columns: &[&Column], rows: std::ops::Range<usize>) {
    let header: Vec<String> = columns
        .iter()
        .map(|c| format!("{}:{}", c.name(), c.dtype()))
        .collect();
    let _ = writeln!(text, "{}", header.join("\t"));
    for r in rows {
        let _ = writeln!(text, "{}", row_text(columns, r));
    }
}

fn row_text(columns: &[&Column], row: usize) -> String {
    let values: Vec<String> = columns.iter().map(|c| cell(c, row)).collect();
    values.join("\t")
}

/// The digest of every row (FNV-1a over their text), then the first [`FIRST_ROWS`] as a table.
fn games_text(text: &mut String, columns: &[&Column], rows: usize) {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for r in 0..rows {
        for byte in row_text(columns, r).bytes().chain([b'\n']) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let _ = writeln!(text, "{rows} rows, digest of every row: {hash:016x}");
    table_text(text, columns, 0..rows.min(FIRST_ROWS));
}
