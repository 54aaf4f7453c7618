//! Files `sim` reads back, edited by a hostile user: shards of every kind re-signed (the digest
//! made anew, as a forger would) with tallies no games can give, and an evaluation whose figures
//! were emptied. Each is refused by name (the folder or file, and the field) with exit code 2
//! and nothing written: none panics, none merges into wrong numbers. And every figure that
//! leaves `sim` over random rule sets and tiny game counts is a number or null (never NaN), its
//! interval inside the figure's range.

use std::ffi::OsString;
use std::fs;
use std::path::Path;

use polars::prelude::{AnyValue, DataFrame, DataType, ParquetWriter};
use serde_json::Value;

use sim::rules::RuleSet;

use crate::common::*;
use crate::conformance::in_process;
use crate::random_inputs::{Rand, mutate_table};
use sim::registry::Games;

/// A forged shard: its name, the edit of its record's JSON, and the words its refusal must hold.
struct Forgery {
    name: &'static str,
    edit: fn(&mut Value),
    named: &'static [&'static str],
    /// True to forge both shards alike (an edit that must also pass the check that the shards
    /// are of one run).
    both: bool,
}

impl Forgery {
    const fn one(name: &'static str, edit: fn(&mut Value), named: &'static [&'static str]) -> Self {
        Self {
            name,
            edit,
            named,
            both: false,
        }
    }

    const fn both(
        name: &'static str,
        edit: fn(&mut Value),
        named: &'static [&'static str],
    ) -> Self {
        Self {
            name,
            edit,
            named,
            both: true,
        }
    }
}

/// Plays `args` as 2 shards into `tmp/KIND`, then for each forgery merges shard 0 (forged too
/// if `both`) and a forged copy of shard 1: each must be refused, naming the forged folder and
/// the forgery's words, with no `--out` made. The good shards must merge. Returns the cases.
fn refuses_forgeries(
    tmp: &TempDir,
    kind: &str,
    args: &[&str],
    forgeries: &[Forgery],
    failures: &mut Vec<String>,
) -> usize {
    let root = tmp.join(kind);
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    let good = play_shards(&root, &args, 2, 0..2);
    let copy = |from: &Path, to: &Path| {
        fs::create_dir_all(to).unwrap();
        for f in files_in(from) {
            fs::copy(from.join(&f), to.join(&f)).unwrap();
        }
    };
    for f in forgeries {
        let mut dirs = good.clone();
        let forged = root.join(format!("forged-{}", f.name));
        copy(&good[1], &forged);
        forge(&forged, f.edit);
        dirs[1] = forged.clone();
        if f.both {
            let first = root.join(format!("forged-first-{}", f.name));
            copy(&good[0], &first);
            forge(&first, f.edit);
            dirs[0] = first;
        }
        let out_dir = root.join(format!("merged-{}", f.name));
        let out = merge_to(&dirs, &out_dir);
        let case = format!("{kind} {}", f.name);
        match usage_error(&out, Some(&out_dir)) {
            Err(e) => failures.push(format!("{case}: {e}")),
            Ok(err) => {
                let folder = if f.both { "forged-first-" } else { "forged-" };
                for word in f.named.iter().copied().chain([folder]) {
                    if !err.contains(word) {
                        failures.push(format!("{case}: {err:?} does not name {word:?}"));
                    }
                }
            }
        }
        if out_dir.exists() {
            failures.push(format!("{case}: the merge made {}", out_dir.display()));
        }
    }
    let merged = merge_to(&good, &root.join("merged"));
    if !merged.status.success() {
        failures.push(format!(
            "{kind}: the good shards do not merge: {}",
            stderr(&merged)
        ));
    }
    forgeries.len()
}

/// Cell `i`'s tally in a shard record.
fn tally(v: &mut Value, i: usize) -> &mut Value {
    &mut v["cells"][i]["tally"]
}

/// Moves one game of histogram `h` from the first bin that counts one at or below `at_most` to
/// its top bin.
fn move_to_top(h: &mut Value, at_most: i64) {
    let min = h["min"].as_i64().unwrap();
    let counts = h["counts"].as_array_mut().unwrap();
    let last = counts.len() - 1;
    let from = (0..counts.len())
        .find(|&i| min + i as i64 <= at_most && counts[i].as_u64().unwrap() > 0)
        .expect("a game at or below the value");
    counts[from] = (counts[from].as_u64().unwrap() - 1).into();
    counts[last] = (counts[last].as_u64().unwrap() + 1).into();
}

/// The tension tally of the first line of an evaluation shard's rule set 0 whose figure
/// `metric` counts a game.
fn tension_line<'a>(v: &'a mut Value, metric: &str) -> &'a mut Value {
    let lines = v["cells"][0]["tally"]["tally"]["lines"]
        .as_array_mut()
        .unwrap();
    let line = lines
        .iter_mut()
        .find(|l| l["tension"][metric]["n"].as_u64().unwrap_or(0) > 0)
        .expect("a line with the figure");
    &mut line["tension"]
}

#[test]
fn re_signed_shards_of_every_kind_with_impossible_tallies_are_refused_by_name() {
    let tmp = TempDir::new("forged_kinds");
    let mut failures = Vec::new();
    let mut cases = 0;
    cases += refuses_forgeries(
        &tmp,
        "run-crownfall",
        &["crownfall", "--games", "4000"],
        &[
            Forgery::one(
                "cards-drawn-max",
                |v| tally(v, 0)["cards_drawn"] = u64::MAX.into(),
                &["cards_drawn"],
            ),
            Forgery::one(
                "damage-max",
                |v| tally(v, 0)["damage"][2] = u64::MAX.into(),
                &["damage"],
            ),
            Forgery::one(
                "loss-moved-to-full-hp",
                |v| move_to_top(&mut tally(v, 0)["final_hp"], 0),
                &["games lost to a blow", "0 HP"],
            ),
        ],
        &mut failures,
    );
    cases += refuses_forgeries(
        &tmp,
        "run-scoundrel",
        &["scoundrel", "--games", "2000"],
        &[
            Forgery::one(
                "damage-taken-max",
                |v| tally(v, 0)["damage_taken"] = u64::MAX.into(),
                &["damage_taken"],
            ),
            Forgery::one(
                "loss-moved-to-full-hp",
                |v| move_to_top(&mut tally(v, 0)["final_hp"], 0),
                &["games ended with HP left"],
            ),
        ],
        &mut failures,
    );
    cases += refuses_forgeries(
        &tmp,
        "run-regicide",
        &["regicide", "--games", "400"],
        &[Forgery::one(
            "turns-sum-zero",
            |v| tally(v, 0)["turns_sum"] = 0.into(),
            &["turns_sum"],
        )],
        &mut failures,
    );
    cases += refuses_forgeries(
        &tmp,
        "compare",
        &[
            "compare",
            "crownfall",
            "--policy",
            "bank-at-15..17",
            "--games",
            "2000",
        ],
        &[
            Forgery::both(
                "baseline-out-of-range",
                |v| v["baseline"] = 99.into(),
                &["baseline", "99"],
            ),
            Forgery::one(
                "reshuffles-max",
                |v| tally(v, 1)["reshuffles"] = u64::MAX.into(),
                &["cell 1", "reshuffles"],
            ),
        ],
        &mut failures,
    );
    cases += refuses_forgeries(
        &tmp,
        "sweep",
        &[
            "sweep",
            "scoundrel",
            "--policy",
            "greedy",
            "--vary",
            "start_hp=5,9",
            "--games",
            "2000",
        ],
        &[Forgery::one(
            "healed-max",
            |v| tally(v, 1)["healed"] = u64::MAX.into(),
            &["cell 1", "healed"],
        )],
        &mut failures,
    );
    cases += refuses_forgeries(
        &tmp,
        "tournament",
        &[
            "compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--games", "200",
        ],
        &[
            Forgery::one(
                "built-max",
                |v| tally(v, 0)["built"][0] = u64::MAX.into(),
                &["built"],
            ),
            Forgery::one(
                "hp-sum-min",
                |v| tally(v, 1)["hp_sum"][1] = i64::MIN.into(),
                &["hp_sum"],
            ),
        ],
        &mut failures,
    );
    cases += refuses_forgeries(
        &tmp,
        "evaluate",
        &[
            "evaluate",
            "crownfall",
            "--games",
            "60",
            "--budgets",
            "2,4",
            "--quiet",
        ],
        &[
            Forgery::both(
                "baseline-out-of-range",
                |v| v["cells"][0]["tally"]["setup"]["baseline"] = 99.into(),
                &["setup.baseline", "99"],
            ),
            Forgery::one(
                "decisiveness-25-million",
                |v| {
                    let t = tension_line(v, "decisiveness");
                    let n = t["decisiveness"]["n"].as_u64().unwrap();
                    t["decisiveness"]["sum"] = (n * 25_000_000).into();
                },
                &["decisiveness"],
            ),
            Forgery::one(
                "comebacks-above-drama",
                |v| {
                    let t = tension_line(v, "drama");
                    t["comebacks"] = (t["drama"]["n"].as_u64().unwrap() + 1).into();
                },
                &["comebacks"],
            ),
            Forgery::one(
                "drama-over-a-million-games",
                |v| tension_line(v, "drama")["drama"]["n"] = 1_000_017.into(),
                &["drama"],
            ),
            Forgery::one(
                "capped-draws-above-capped",
                |v| {
                    v["cells"][0]["tally"]["tally"]["lines"][0]["capped_draws"] = 1.into();
                },
                &["capped_draws"],
            ),
        ],
        &mut failures,
    );
    eprintln!("re-signed shards: {cases} forgeries over 7 kinds of shard");
    assert_no_failures(&failures);
}

/// Overwrites the Parquet file at `path` with `df`.
fn write_parquet(path: &Path, df: &mut DataFrame) {
    let file = fs::File::create(path).unwrap();
    ParquetWriter::new(file).finish(df).unwrap();
}

#[test]
fn a_report_of_an_evaluation_whose_files_have_no_rows_is_refused_by_name() {
    let tmp = TempDir::new("evaluate_no_rows");
    let dir = tmp.join("eval");
    let out = run(&argv![
        "evaluate",
        "crownfall",
        "--games",
        "20",
        "--budgets",
        "2",
        "-q",
        "--out",
        &dir
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for file in ["evaluate.parquet", "ladder.parquet"] {
        let case = tmp.join(&format!("empty-{file}"));
        fs::create_dir_all(&case).unwrap();
        for f in files_in(&dir) {
            fs::copy(dir.join(&f), case.join(&f)).unwrap();
        }
        let mut empty = read_parquet(&case.join(file)).head(Some(0));
        write_parquet(&case.join(file), &mut empty);
        let page = tmp.join(&format!("page-{file}.html"));
        let out = run(&argv!["report", &case, "--out", &page]);
        let err = rejected(&out, None);
        assert!(err.contains(file) && err.contains("no rows"), "{err}");
        assert!(!page.exists(), "{file}: a page was written");
    }
}

/// The range a summary column's values can take, if it is a rate or a difference of rates.
fn column_range(name: &str) -> Option<(f64, f64)> {
    let difference = ["diff", "first_move_adv"];
    if difference.iter().any(|d| name.starts_with(d)) {
        return Some((-1.0, 1.0));
    }
    let share = name.starts_with("win")
        || name.starts_with("seat0_win")
        || name.ends_with("_rate")
        || name.starts_with("killed_by");
    share.then_some((0.0, 1.0))
}

/// Every float of `df` (a result file at `path`) is a finite number or null, and every value of
/// a column `range` bounds lies within them.
fn floats_hold(
    path: &Path,
    df: &DataFrame,
    range: impl Fn(&str, usize) -> Option<(f64, f64)>,
) -> Vec<String> {
    let mut bad = Vec::new();
    for column in df.columns() {
        if column.dtype() != &DataType::Float64 {
            continue;
        }
        let name = column.name().to_string();
        for (row, x) in column.f64().unwrap().iter().enumerate() {
            let Some(x) = x else { continue };
            let inside = range(&name, row).is_none_or(|(lo, hi)| (lo..=hi).contains(&x));
            if !x.is_finite() || !inside {
                bad.push(format!("{}: {name} = {x} on row {row}", path.display()));
            }
        }
    }
    bad
}

/// The figures of an evaluation's `evaluate.parquet`: a share in 0..1, points in -1..1, and no
/// interval without a value.
fn evaluation_holds(dir: &Path) -> Vec<String> {
    let path = dir.join("evaluate.parquet");
    let df = read_parquet(&path);
    let units: Vec<String> = (0..df.height()).map(|i| str_at(&df, "unit", i)).collect();
    let mut bad = floats_hold(&path, &df, |name, row| {
        (["value", "ci_low", "ci_high"].contains(&name)).then_some(())?;
        match units[row].as_str() {
            "share" => Some((0.0, 1.0)),
            "points" => Some((-1.0, 1.0)),
            _ => None,
        }
    });
    for row in 0..df.height() {
        let null = |c: &str| matches!(value_at(&df, c, row), AnyValue::Null);
        if null("value") && !(null("ci_low") && null("ci_high")) {
            bad.push(format!(
                "{}: an interval without a value on row {row}",
                path.display()
            ));
        }
    }
    let ladder = dir.join("ladder.parquet");
    bad.extend(floats_hold(&ladder, &read_parquet(&ladder), |name, _| {
        if name.starts_with("result") {
            Some((0.0, 1.0))
        } else if name.starts_with("gain") {
            Some((-1.0, 1.0))
        } else {
            None
        }
    }));
    bad
}

/// Rule sets per game for the figures' property.
const FIGURE_RULE_SETS: u64 = 4;

#[test]
fn every_figure_over_random_rules_and_tiny_game_counts_is_a_number_in_range_or_null() {
    let tmp = TempDir::new("figures_in_range");
    let mut rng = Rand::new(40_2026);
    let mut failures = Vec::new();
    let (mut played, mut refused) = (0u64, 0u64);
    // Each game: its default rules, the policies compared, a rule the sweep varies.
    let games: [(&str, toml::Table, &[&str], &str); 4] = [
        (
            "crownfall",
            sim::games::crownfall::Rules::default().to_table(),
            &["--policy", "bank-at-15..17"],
            "max_hp=20,24",
        ),
        (
            "scoundrel",
            sim::games::scoundrel::Rules::default().to_table(),
            &["--policy", "greedy", "--policy", "heuristic"],
            "start_hp=5,9",
        ),
        (
            "regicide",
            sim::games::regicide::Rules::default().to_table(),
            &["--policy", "simple", "--policy", "heuristic"],
            "players=1,2",
        ),
        (
            "junkyard",
            sim::games::junkyard::Rules::default().to_table(),
            &["--policy", "simple", "--policy", "random"],
            "turn_cap=4,40",
        ),
    ];
    for (game, defaults, policies, vary) in &games {
        for case in 0..FIGURE_RULE_SETS {
            // The default rules, then random ones.
            let rules = if case == 0 {
                defaults.clone()
            } else {
                mutate_table(&mut rng, defaults, 10)
            };
            let file = tmp.join(&format!("{game}-{case}.toml"));
            fs::write(&file, toml::to_string(&rules).unwrap_or_default()).unwrap();
            for n in ["0", "1", "2"] {
                let name = format!("{game}-{case}-{n}");
                let common = argv!["--games", n, "--rules", &file, "--threads", "1", "-q"];
                let mut compare = argv!["compare", *game].to_vec();
                compare.extend(policies.iter().map(OsString::from));
                let commands: Vec<(&str, Vec<OsString>)> = vec![
                    ("run", argv![*game].to_vec()),
                    ("compare", compare),
                    (
                        "sweep",
                        argv!["sweep", *game, "--policy", &policies[1], "--vary", *vary].to_vec(),
                    ),
                    (
                        "evaluate",
                        argv!["evaluate", *game, "--budgets", "2"].to_vec(),
                    ),
                ];
                for (command, mut args) in commands {
                    let out = tmp.join(&format!("{command}-{name}"));
                    args.extend(common.iter().cloned());
                    args.extend(argv!["--out", &out]);
                    let case = format!("{command} {name}");
                    match in_process::<Games>(&args) {
                        Err(panic) => failures.push(format!("{case}: panicked: {panic}")),
                        Ok(code) if code == std::process::ExitCode::SUCCESS => {
                            played += 1;
                            if command == "evaluate" {
                                failures.extend(evaluation_holds(&out));
                            } else {
                                let path = out.join("summary.parquet");
                                let df = read_parquet(&path);
                                failures.extend(floats_hold(&path, &df, |c, _| column_range(c)));
                            }
                        }
                        Ok(_) => {
                            refused += 1;
                            if out.exists() {
                                failures
                                    .push(format!("{case}: refused but made {}", out.display()));
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "figures over random rules and 0, 1 or 2 games: {} cases, {played} played, {refused} refused",
        played + refused
    );
    assert!(played > 0);
    assert_no_failures(&failures);
}

/// Offsets of `summary.parquet` flipped, one at a time, spread over the whole file.
const FLIPS: usize = 80;

#[test]
fn a_byte_flipped_summary_is_refused_in_one_line_or_reads_back_as_written() {
    use sim::results::folder::Folder;
    use sim::results::read_back::Results;
    let tmp = TempDir::new("summary_flips");
    let dir = tmp.join("run");
    let out = crownfall_to(&dir, &argv!["--policy", "bank-at-17", "--games", "3000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let read = |d: &Path| Folder::open(d).and_then(|f| Results::read(&f));
    let written = format!("{:?}", read(&dir).expect("the run reads back"));
    let bytes = fs::read(dir.join("summary.parquet")).unwrap();
    let (mut refused, mut same) = (0, 0);
    let mut failures = Vec::new();
    for k in 0..FLIPS {
        let at = k * bytes.len() / FLIPS;
        let case = tmp.join(&format!("flip-{at}"));
        fs::create_dir_all(&case).unwrap();
        for f in files_in(&dir) {
            fs::copy(dir.join(&f), case.join(&f)).unwrap();
        }
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x5A;
        fs::write(case.join("summary.parquet"), &flipped).unwrap();
        let page = tmp.join(&format!("page-{at}.html"));
        let out = run(&argv!["report", &case, "--out", &page]);
        if out.status.success() {
            match read(&case) {
                Ok(r) if format!("{r:?}") == written => same += 1,
                _ => failures.push(format!("byte {at}: rendered, but not what was written")),
            }
        } else {
            match usage_error(&out, None) {
                Ok(err) if !page.exists() && err.contains("summary.parquet") => refused += 1,
                Ok(err) => failures.push(format!(
                    "byte {at}: refused, but {err:?} (page {})",
                    page.exists()
                )),
                Err(e) => failures.push(format!("byte {at}: {e}")),
            }
        }
    }
    eprintln!(
        "summary.parquet flipped at {FLIPS} offsets: {refused} refused, {same} read back as written"
    );
    assert_no_failures(&failures);
    assert!(refused > 0, "no flip was refused");
}
