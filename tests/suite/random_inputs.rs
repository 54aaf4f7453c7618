//! Random strategy files, as a careless or hostile user writes them (random rule sets are a check
//! of the conformance suite, built on the mutations here): every run either plays (exit 0, its
//! files written) or is refused (exit 2, nothing written); none panics. Seeded, so a failure is
//! reproduced by its case number.
//!
//! The cases run in this process through the binary's own entry, with `-q`: a panic is caught
//! and reported with its case.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sim::registry::Games;
use toml::{Table, Value};

use crate::common::*;
use crate::conformance::in_process;

/// A small seeded generator (SplitMix64): the cases are the same on every run.
pub struct Rand(u64);

impl Rand {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// A value like `v` but changed as a user might: nearby, zero, negative, huge, of another type.
fn mutate(rng: &mut Rand, v: &Value) -> Value {
    let other_type = [
        Value::String("lots".into()),
        Value::Boolean(true),
        Value::Float(0.5),
        Value::Integer(-1),
        Value::Array(vec![Value::Integer(1)]),
        Value::Table(Table::new()),
    ];
    if rng.one_in(8) {
        return rng.pick(&other_type).clone();
    }
    match v {
        Value::Integer(i) => Value::Integer(match rng.below(7) {
            0 => i + 1,
            1 => i - 1,
            2 => 0,
            3 => -(rng.below(5) as i64) - 1,
            4 => i.saturating_mul(2) + rng.below(10) as i64,
            5 => rng.below(300) as i64,
            _ => [255, 256, 65_535, 65_536, i64::MAX, i64::MIN][rng.below(6) as usize],
        }),
        Value::Float(f) => Value::Float(match rng.below(5) {
            0 => f * 2.0,
            1 => -f,
            2 => 0.0,
            3 => f64::MAX,
            _ => (rng.below(2000) as f64 - 1000.0) / 10.0,
        }),
        Value::Boolean(b) => Value::Boolean(!b),
        Value::String(s) => Value::String(match rng.below(4) {
            0 => String::new(),
            1 => s.to_uppercase(),
            2 => format!("{s}x"),
            _ => s.chars().rev().collect(),
        }),
        Value::Array(items) => {
            let mut items = items.clone();
            match rng.below(4) {
                0 => {
                    items.pop();
                }
                1 => items.push(items.first().cloned().unwrap_or(Value::Integer(1))),
                2 if !items.is_empty() => {
                    let i = rng.below(items.len() as u64) as usize;
                    items[i] = mutate(rng, &items[i]);
                }
                _ => items.clear(),
            }
            Value::Array(items)
        }
        Value::Table(t) => Value::Table(mutate_table(rng, t, 2)),
        other => other.clone(),
    }
}

/// `table` with some of its values changed, and now and then a key dropped or one added.
pub fn mutate_table(rng: &mut Rand, table: &Table, rate: u64) -> Table {
    let mut out = Table::new();
    for (key, value) in table {
        if rng.one_in(25) {
            continue;
        }
        let value = if rng.one_in(rate) {
            mutate(rng, value)
        } else {
            value.clone()
        };
        out.insert(key.clone(), value);
    }
    if rng.one_in(20) {
        out.insert("surprise".into(), Value::Integer(rng.below(10) as i64));
    }
    out
}

/// Checks one case, run by `run`: played (exit 0, a summary written) or refused (exit 2,
/// nothing written); counts each kind in `counts`.
pub fn check_case(
    case: &str,
    args: &[OsString],
    out: &Path,
    counts: &mut [u64; 2],
    run: impl Fn(&[OsString]) -> Result<ExitCode, String>,
) -> Option<String> {
    match run(args) {
        Err(panic) => Some(format!("{case}: panicked: {panic}")),
        Ok(code) if code == ExitCode::SUCCESS => {
            counts[0] += 1;
            (!out.join("summary.parquet").exists())
                .then(|| format!("{case}: exit 0 but no summary.parquet"))
        }
        Ok(code) if code == ExitCode::from(2) => {
            counts[1] += 1;
            out.exists()
                .then(|| format!("{case}: refused but made {}", out.display()))
        }
        Ok(code) => Some(format!("{case}: exit {code:?}")),
    }
}

/// Prints the count of cases played and refused, and fails on any failure (or if either kind never
/// occurred: the cases would not be testing both).
fn conclude(what: &str, counts: [u64; 2], failures: &[String]) {
    eprintln!(
        "{what}: {} cases, {} played, {} refused",
        counts[0] + counts[1],
        counts[0],
        counts[1]
    );
    assert!(
        counts[0] > 0 && counts[1] > 0,
        "both kinds occur: {counts:?}"
    );
    assert_no_failures(failures);
}

/// Strategy files per sample strategy file.
const STRATEGIES: u64 = 30;

/// Keeps a search player's budget small (a strategy file may ask for any number of
/// simulations, and a big one is slow, not wrong): the cases test what is refused.
fn bound_search(strategy: &mut Table) {
    if let Some(Value::Table(search)) = strategy.get_mut("search") {
        for (key, most) in [("simulations", 12), ("max_covers", 6)] {
            if let Some(Value::Integer(n)) = search.get_mut(key) {
                *n = (*n).min(most);
            }
        }
    }
}

/// The sample strategy files of a game.
fn strategy_files(game: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("strategies")
        .join(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn random_strategy_files_play_or_are_refused_and_never_panic() {
    let tmp = TempDir::new("random_strategies");
    let mut rng = Rand::new(7_051_226);
    let mut failures = Vec::new();
    let mut counts = [0u64; 2];
    for game in sim::registry::names::<Games>() {
        for sample in strategy_files(game) {
            let text = std::fs::read_to_string(&sample).unwrap();
            let table: Table = toml::from_str(&text).unwrap();
            let stem = sample.file_stem().unwrap().to_string_lossy().into_owned();
            for case in 0..STRATEGIES {
                let name = format!("{game}-{stem}-{case}");
                let file = tmp.join(&format!("{name}.toml"));
                let body = if rng.one_in(10) {
                    // Broken TOML: the file cut short.
                    let cut = rng.below(text.len() as u64) as usize;
                    text.get(..cut).unwrap_or("").to_string()
                } else {
                    let mut mutated = mutate_table(&mut rng, &table, 2);
                    bound_search(&mut mutated);
                    toml::to_string(&mutated).unwrap_or_default()
                };
                std::fs::write(&file, body).unwrap();
                let out = tmp.join(&format!("out-{name}"));
                // A search player's game takes many decisions' worth of searching: one game.
                let games = if game == "regicide" { "1" } else { "24" };
                let args = argv![
                    game,
                    "--policy",
                    &file,
                    "--games",
                    games,
                    "--threads",
                    "1",
                    "-q",
                    "--out",
                    &out
                ];
                failures.extend(check_case(
                    &name,
                    &args,
                    &out,
                    &mut counts,
                    in_process::<Games>,
                ));
            }
        }
    }
    conclude("random strategy files", counts, &failures);
}
