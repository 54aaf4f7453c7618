//! `sim merge DIR... --out DIR`: adds up the shards of one run into the files the run would have
//! written in one process, bit for bit.
//!
//! Every shard folder holds a `shard.json` (see [`crate::report::manifest`]). The merge first
//! checks that the shards fit together: the same sim version, game, command, seed, whole run,
//! cells (policy, varied values, rules) and baseline, every shard complete, and ranges that tile
//! the run without gap or overlap. A shard that does not fit is refused by name, before anything
//! is written. It then adds the shards' integer tallies (and a comparison's win pairs), and
//! writes the summary, the distributions and (when every shard has them) the per-game rows
//! through the same code as the commands, so the files are those of a single run.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use polars::prelude::{DataFrame, ParquetReader, SerReader};
use serde::de::IgnoredAny;

use crate::error::{Result, SimError};
use crate::games::{Game, Tally};
use crate::report::files::ensure_writable_dir;
use crate::report::games_file::{GamesWriter, ROW_GROUP};
use crate::report::manifest::{self, Command, FORMAT, Manifest};
use crate::report::summary::{RunInfo, SummaryRow};
use crate::report::{tables, terminal};
use crate::sim::grid::GridRun;
use crate::sim::pairs::PairCounts;

use super::GameEntry;
use super::grid::{self, Played};
use super::{compare, run, sweep};

/// `sim merge`: shard folders in, one run's files out.
#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// Shard folders, each with a shard.json, in any order (e.g. results/big/shard-*)
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// Folder for the merged files
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
}

/// A shard folder and its manifest, read but for the tallies (which need the game's type).
pub struct Loaded {
    /// The folder.
    pub dir: PathBuf,
    /// Its `shard.json`, the tallies skipped.
    pub manifest: Manifest<IgnoredAny>,
    /// The text of its `shard.json`.
    text: String,
}

impl Loaded {
    fn name(&self) -> String {
        self.dir.display().to_string()
    }
}

/// Reads every shard's manifest and merges them with their game's code.
pub fn execute(args: &MergeArgs, games: &[GameEntry]) -> Result<ExitCode> {
    let shards = args
        .shards
        .iter()
        .map(|dir| {
            let text = manifest::read_text(dir)?;
            Ok(Loaded {
                dir: dir.clone(),
                manifest: Manifest::parse(dir, &text)?,
                text,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let game = &shards[0].manifest.game;
    let entry = games.iter().find(|g| g.name == game).ok_or_else(|| {
        SimError::input(format!(
            "{}: a shard of {game}, a game this sim does not know",
            shards[0].name()
        ))
    })?;
    (entry.merge)(args, shards)
}

/// Merges `shards` of game `G` into `args.out`.
pub fn merge<G: Game>(args: &MergeArgs, mut shards: Vec<Loaded>) -> Result<ExitCode> {
    check_alike(&shards)?;
    check_tiling(&mut shards)?;
    let out = &args.out;
    refuse_shard_as_out(out, &shards)?;
    let tallies = add_tallies::<G>(&shards)?;
    let first = &shards[0].manifest;
    let pairs = add_pairs(&shards)?;
    let games_input = games_files(&shards)?;

    let info = RunInfo {
        seed: first.seed,
        first_game: first.run_first_game,
        complete: true,
    };
    let mut rows: Vec<SummaryRow> = first
        .cells
        .iter()
        .zip(&tallies)
        .map(|(cell, tally)| {
            let mut row = SummaryRow::of(G::NAME, &cell.policy, cell.rules.clone(), tally, &info);
            row.params = cell.params.clone();
            row
        })
        .collect();
    ensure_writable_dir(out)?;
    let mut text = String::new();
    let written = match first.command {
        Command::Run => {
            let games_file = match &games_input {
                Some(input) => Some(concatenate(out, first, input)?),
                None => None,
            };
            let written = run::write_outputs(out, &rows[0], &tallies[0], games_file)
                .map_err(SimError::into_output)?;
            text.push_str(&terminal::summary(&rows[0]));
            if let Some((title, hist)) = tallies[0].distributions().first() {
                text.push_str(&terminal::bars(&title.replace('_', " "), hist));
            }
            written
        }
        Command::Compare | Command::Sweep => {
            let order = match &pairs {
                Some(pairs) => compare::rank(&mut rows, pairs, first.baseline),
                None => Vec::new(),
            };
            let cells = rows.len();
            let played = Played {
                run: GridRun {
                    tallies,
                    met: vec![true; cells],
                    pairs,
                    complete: true,
                },
                rows,
                seconds: 0.0,
            };
            let written = grid::write::<G>(out, &played)?;
            let rows = &played.rows;
            if first.command == Command::Compare {
                text.push_str(&format!(
                    "{} compare | {cells} policies on the same deals | seed {}\n",
                    G::NAME,
                    first.seed
                ));
                text.push_str(&tables::ranked(rows, &order));
            } else {
                text.push_str(&format!(
                    "{} sweep | {cells} cells | seed {}\n",
                    G::NAME,
                    first.seed
                ));
                text.push_str(&tables::cells(rows));
                let policies = {
                    let mut names: Vec<&str> = rows.iter().map(|r| r.policy.as_str()).collect();
                    names.dedup();
                    names.len()
                };
                if let Some(grid) = sweep::two_way(rows, policies) {
                    text.push_str("  win rate:\n");
                    text.push_str(&grid);
                }
            }
            written
        }
    };
    super::output::text(&text);
    outln!(
        "  merged {} shards: games {}..{} of seed {}",
        shards.len(),
        first.run_first_game,
        first.run_first_game + first.run_games,
        first.seed
    );
    if games_input.is_none() && shards.iter().any(|s| !s.manifest.games_files.is_empty()) {
        outln!("  games.parquet not merged: not every shard has per-game rows");
    }
    for path in &written {
        outln!("  wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn refuse(message: String) -> SimError {
    SimError::input(message)
}

/// Each shard on its own, then each against the first: the same everything but the range.
fn check_alike(shards: &[Loaded]) -> Result<()> {
    let this = env!("CARGO_PKG_VERSION");
    for s in shards {
        let (m, name) = (&s.manifest, s.name());
        if m.format != FORMAT {
            return Err(refuse(format!(
                "{name}: shard.json format {}, but this sim reads format {FORMAT}",
                m.format
            )));
        }
        if m.version != this {
            return Err(refuse(format!(
                "{name}: played by sim {}, but this is sim {this}; merge with the version that played the shards",
                m.version
            )));
        }
        if !m.complete {
            return Err(refuse(format!(
                "{name}: shard {} is incomplete (stopped early); play it again",
                m.shard
            )));
        }
        if (m.start..m.end) != m.shard.range(m.run_first_game, m.run_games) {
            return Err(refuse(format!(
                "{name}: games {}..{} are not shard {} of games {}..{}",
                m.start,
                m.end,
                m.shard,
                m.run_first_game,
                m.run_first_game + m.run_games
            )));
        }
    }
    let (a, a_name) = (&shards[0].manifest, shards[0].name());
    for s in &shards[1..] {
        let (b, name) = (&s.manifest, s.name());
        let differ = |what: &str, theirs: String, ours: String| {
            Err(refuse(format!(
                "{name}: {what} {theirs}, but {a_name} has {what} {ours}"
            )))
        };
        if b.game != a.game {
            return differ("game", b.game.clone(), a.game.clone());
        }
        if b.command != a.command {
            return differ("command", b.command.name().into(), a.command.name().into());
        }
        if b.seed != a.seed {
            return differ("seed", b.seed.to_string(), a.seed.to_string());
        }
        if (b.run_first_game, b.run_games) != (a.run_first_game, a.run_games) {
            let run = |m: &Manifest<IgnoredAny>| {
                format!("{}..{}", m.run_first_game, m.run_first_game + m.run_games)
            };
            return differ("a run of games", run(b), run(a));
        }
        if b.cells.len() != a.cells.len() {
            return differ(
                "cells",
                b.cells.len().to_string(),
                a.cells.len().to_string(),
            );
        }
        for (i, (cb, ca)) in b.cells.iter().zip(&a.cells).enumerate() {
            let what = |field: &str| {
                if a.cells.len() == 1 {
                    field.to_string()
                } else {
                    format!("cell {i} {field}")
                }
            };
            if cb.policy != ca.policy {
                return differ(&what("policy"), cb.policy.clone(), ca.policy.clone());
            }
            if cb.params != ca.params {
                let show = |p: &[(String, String)]| {
                    p.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                return differ(&what("values"), show(&cb.params), show(&ca.params));
            }
            if cb.rules != ca.rules {
                let (theirs, ours) = rules_difference(&cb.rules, &ca.rules);
                return differ(&what("rule"), theirs, ours);
            }
        }
        if b.baseline != a.baseline {
            let show =
                |x: Option<usize>| x.map_or("the best".to_string(), |c| a.cells[c].policy.clone());
            return differ("baseline", show(b.baseline), show(a.baseline));
        }
    }
    Ok(())
}

/// The first rule that differs between two rule sets as JSON, as `path = value` of each.
fn rules_difference(theirs: &str, ours: &str) -> (String, String) {
    fn first(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<(String, String)> {
        match (a, b) {
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
                let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
                keys.filter_map(|k| {
                    let null = serde_json::Value::Null;
                    let sub = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    first(&sub, x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null))
                })
                .next()
            }
            _ if a == b => None,
            _ => Some((format!("{path} = {a}"), format!("{path} = {b}"))),
        }
    }
    let parse = |t: &str| serde_json::from_str(t).unwrap_or(serde_json::Value::String(t.into()));
    first("", &parse(theirs), &parse(ours))
        .unwrap_or_else(|| (theirs.to_string(), ours.to_string()))
}

/// Orders the shards by range and checks they cover the run exactly once.
fn check_tiling(shards: &mut [Loaded]) -> Result<()> {
    shards.sort_by_key(|s| (s.manifest.start, s.manifest.end));
    let m = &shards[0].manifest;
    let (run_start, run_end) = (m.run_first_game, m.run_first_game + m.run_games);
    let counts: Vec<u64> = shards.iter().map(|s| s.manifest.shard.count).collect();
    let count = counts.iter().all(|&c| c == counts[0]).then_some(counts[0]);
    let missing = |from: u64, to: u64| {
        let named = count.map(|n| {
            (0..n)
                .map(|index| crate::sim::shard::Shard { index, count: n })
                .filter(|s| {
                    let r = s.range(run_start, run_end - run_start);
                    r.start >= from && r.end <= to
                })
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        });
        let what = match named {
            Some(names) if names.len() == 1 => format!("shard {} is missing", names[0]),
            Some(names) if !names.is_empty() && names.len() <= 4 => {
                format!("shards {} are missing", names.join(", "))
            }
            Some(names) if !names.is_empty() => format!(
                "{} shards are missing ({} to {})",
                names.len(),
                names[0],
                names[names.len() - 1]
            ),
            _ => "a shard is missing".to_string(),
        };
        refuse(format!("{what}: no shard given covers games {from}..{to}"))
    };
    if shards[0].manifest.start > run_start {
        return Err(missing(run_start, shards[0].manifest.start));
    }
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0].manifest, &pair[1].manifest);
        let (a_name, b_name) = (pair[0].name(), pair[1].name());
        if (a.start, a.end) == (b.start, b.end) {
            return Err(refuse(format!(
                "{b_name}: shard {} (games {}..{}) is given twice, also as {a_name}",
                b.shard, b.start, b.end
            )));
        }
        if b.start < a.end {
            return Err(refuse(format!(
                "{b_name}: games {}..{} overlap {a_name} (games {}..{}): games {}..{} would count twice",
                b.start,
                b.end,
                a.start,
                a.end,
                b.start,
                a.end.min(b.end)
            )));
        }
        if b.start > a.end {
            return Err(missing(a.end, b.start));
        }
    }
    let last = &shards[shards.len() - 1].manifest;
    if last.end < run_end {
        return Err(missing(last.end, run_end));
    }
    Ok(())
}

/// The `--out` folder must not be a shard's own.
fn refuse_shard_as_out(out: &Path, shards: &[Loaded]) -> Result<()> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if let Some(s) = shards.iter().find(|s| same(&s.dir, out)) {
        return Err(refuse(format!(
            "--out {}: that is a shard folder; give the merge a folder of its own",
            s.name()
        )));
    }
    Ok(())
}

/// Every shard's tallies, checked and added up in game order, one per cell.
fn add_tallies<G: Game>(shards: &[Loaded]) -> Result<Vec<G::Tally>> {
    let mut total: Option<Vec<G::Tally>> = None;
    for s in shards {
        let m: Manifest<G::Tally> = Manifest::parse(&s.dir, &s.text)?;
        let (start, end) = (m.start, m.end);
        let mut tallies = Vec::with_capacity(m.cells.len());
        for (i, cell) in m.cells.into_iter().enumerate() {
            let tally = cell.tally;
            if tally.games() != end - start {
                return Err(refuse(format!(
                    "{}: cell {i} counts {} games, but the shard played games {}..{}",
                    s.name(),
                    tally.games(),
                    start,
                    end
                )));
            }
            tallies.push(tally);
        }
        match total.as_mut() {
            None => total = Some(tallies),
            Some(total) => {
                for (i, (sum, tally)) in total.iter_mut().zip(tallies).enumerate() {
                    let fits = sum.distributions().len() == tally.distributions().len()
                        && sum
                            .distributions()
                            .iter()
                            .zip(tally.distributions())
                            .all(|((n, a), (m, b))| *n == m && a.same_range(b));
                    if !fits {
                        return Err(refuse(format!(
                            "{}: cell {i}: the distributions do not match those of {}",
                            s.name(),
                            shards[0].name()
                        )));
                    }
                    sum.merge(tally);
                }
            }
        }
    }
    Ok(total.expect("at least one shard"))
}

/// A comparison's win pairs added up; `None` for other commands.
fn add_pairs(shards: &[Loaded]) -> Result<Option<PairCounts>> {
    let first = &shards[0].manifest;
    if first.command != Command::Compare {
        return Ok(None);
    }
    let mut total: Option<PairCounts> = None;
    for s in shards {
        let pairs = s
            .manifest
            .pairs
            .as_ref()
            .filter(|p| p.fits(first.cells.len()))
            .ok_or_else(|| {
                refuse(format!(
                    "{}: a comparison without win pairs for its {} cells",
                    s.name(),
                    first.cells.len()
                ))
            })?;
        match total.as_mut() {
            None => total = Some(pairs.clone()),
            Some(t) => t.merge(pairs),
        }
    }
    Ok(total)
}

/// The per-game files of every shard, in game order, checked (columns and rows), if every
/// shard has them; `None` if any has none.
fn games_files(shards: &[Loaded]) -> Result<Option<Vec<PathBuf>>> {
    if shards.iter().any(|s| s.manifest.games_files.is_empty()) {
        return Ok(None);
    }
    let mut files = Vec::new();
    let mut columns: Option<DataFrame> = None;
    for s in shards {
        let mut rows = 0u64;
        for name in &s.manifest.games_files {
            let path = s.dir.join(name);
            let empty = read_rows(&path, 0, 0)?;
            match &columns {
                None => columns = Some(empty),
                Some(c) if c.schema() != empty.schema() => {
                    return Err(refuse(format!(
                        "{}: other per-game columns than {}",
                        path.display(),
                        shards[0].name()
                    )));
                }
                Some(_) => {}
            }
            rows += count_rows(&path)?;
            files.push(path);
        }
        let m = &s.manifest;
        if rows != m.end - m.start {
            return Err(refuse(format!(
                "{}: the per-game files hold {rows} rows, but the shard played {} games",
                s.name(),
                m.end - m.start
            )));
        }
    }
    Ok(Some(files))
}

/// The merged per-game files: every shard's rows, a row group at a time, through the writer a
/// single run uses.
fn concatenate(out: &Path, first: &Manifest<IgnoredAny>, files: &[PathBuf]) -> Result<GamesWriter> {
    let empty = read_rows(&files[0], 0, 0)?;
    let mut writer = GamesWriter::with_columns(out, first.run_first_game, first.run_games, empty);
    for path in files {
        let rows = count_rows(path)?;
        let mut offset = 0;
        while offset < rows {
            let len = ROW_GROUP.min(rows - offset);
            writer.push(&read_rows(path, offset, len)?)?;
            offset += len;
        }
    }
    Ok(writer)
}

fn open(path: &Path) -> Result<ParquetReader<File>> {
    let file = File::open(path).map_err(|source| SimError::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    })?;
    Ok(ParquetReader::new(file))
}

fn unreadable(path: &Path, e: impl std::fmt::Display) -> SimError {
    refuse(format!("{}: unreadable per-game file: {e}", path.display()))
}

fn count_rows(path: &Path) -> Result<u64> {
    Ok(open(path)?.num_rows().map_err(|e| unreadable(path, e))? as u64)
}

/// Rows `offset .. offset + len` of a per-game file.
fn read_rows(path: &Path, offset: u64, len: u64) -> Result<DataFrame> {
    open(path)?
        .with_slice(Some((offset as usize, len as usize)))
        .finish()
        .map_err(|e| unreadable(path, e))
}
