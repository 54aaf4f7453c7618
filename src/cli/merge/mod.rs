//! `sim merge DIR... --out DIR`: adds up the shards of one run into the files the run would have
//! written in one process, bit for bit.
//!
//! Every shard folder holds a `shard.json` (see [`crate::results::manifest`]). The merge trusts
//! none of it blindly: each record must be of this sim's format and version and match its own
//! digest, and each shard must be complete, its tallies must count its games and keep every
//! invariant of a tally (and a comparison's win pairs theirs), and its per-game files must match
//! their hashes. The shards must then fit together: the same game, command, seed, whole run,
//! cells (policy, varied values, rules) and baseline, and ranges that tile the run without gap
//! or overlap. A shard that fails is refused by name, before anything is written. The merge then
//! adds the integer tallies (and a comparison's win pairs), and writes the summary, the
//! distributions and (when every shard has them) the per-game rows through the same code as the
//! commands, into one result set, so the files are those of a single run.

mod evaluate;
mod fit;
mod games;

pub use games::checked_files;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::error::{Result, SimError};
use crate::games::{Game, Tally};
use crate::report::{tables, terminal};
use crate::results::manifest::{self, Command, Manifest, SHARD_FILE};
use crate::results::result_set::ResultSet;
use crate::results::summary::{RunInfo, SummaryRow};
use crate::sim::grid::GridRun;
use crate::sim::pairs::PairCounts;

use super::GameEntry;
use super::grid::{self, Played};
use super::outputs::{Paths, Shape};
use super::tournament::Standings;
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

/// A shard folder and the text of its `shard.json`, of this sim's format and version.
pub struct Raw {
    /// The folder.
    pub dir: PathBuf,
    /// The text of its `shard.json`.
    text: String,
}

/// A shard folder and its record, read with its game's tally `T` and its digest checked.
pub struct Loaded<T> {
    /// The folder.
    pub dir: PathBuf,
    /// Its `shard.json`.
    pub manifest: Manifest<T>,
}

impl<T> Loaded<T> {
    fn name(&self) -> String {
        self.dir.display().to_string()
    }
}

/// Reads every shard's record, checks its format and version, and merges them with their game's
/// code.
pub fn execute(args: &MergeArgs, games: &[GameEntry]) -> Result<ExitCode> {
    args.shards
        .iter()
        .fold(
            Paths::new().output("--out", &args.out, Shape::Folder),
            |p, dir| p.input("the shard", dir),
        )
        .check()?;
    let mut game = None;
    let shards = args
        .shards
        .iter()
        .map(|dir| {
            let text = manifest::read_text(dir, SHARD_FILE).map_err(|e| {
                SimError::input(format!(
                    "{e}: not a shard folder; shards are played with --shard I/N"
                ))
            })?;
            let header = manifest::header(&dir.join(SHARD_FILE), &text)?;
            game.get_or_insert((dir.clone(), header.game));
            Ok(Raw {
                dir: dir.clone(),
                text,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let (first, game) = game.expect("at least one shard");
    let entry = games.iter().find(|g| g.name == game).ok_or_else(|| {
        SimError::input(format!(
            "{}: a shard of {game}, a game this sim does not know",
            first.display()
        ))
    })?;
    (entry.merge)(args, shards)
}

/// Merges `shards` of game `G` into `args.out`.
pub fn merge<G: Game>(args: &MergeArgs, raw: Vec<Raw>) -> Result<ExitCode> {
    if evaluate::is_evaluation(&raw[0])? {
        return evaluate::merge(args, raw);
    }
    let mut shards = raw
        .into_iter()
        .map(|r| {
            let manifest = Manifest::parse(&r.dir.join(SHARD_FILE), &r.text)?;
            Ok(Loaded {
                dir: r.dir,
                manifest,
            })
        })
        .collect::<Result<Vec<Loaded<G::Tally>>>>()?;
    fit::check_each(&shards)?;
    fit::check_alike(&shards)?;
    fit::check_tiling(&mut shards)?;
    let out = &args.out;
    refuse_shard_as_out(out, &shards)?;
    let games_input = games::games_files(&shards)?;
    let tallies = add_tallies(&shards)?;
    let pairs = add_pairs(&shards)?;
    let first = &shards[0].manifest;

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
    let set = ResultSet::create(out)?;
    let dir = set.dir();
    let mut text = String::new();
    let written = match first.command {
        Command::Run => {
            let games_file = match &games_input {
                Some(input) => Some(games::concatenate(dir, first, input)?),
                None => None,
            };
            let written = run::write_outputs(dir, &rows[0], &tallies[0], games_file)?;
            text.push_str(&terminal::summary(&rows[0]));
            if let Some((title, hist)) = tallies[0].distributions().first() {
                text.push_str(&terminal::bars(&title.replace('_', " "), hist));
            }
            written
        }
        Command::Compare | Command::Sweep => {
            let order = match (&pairs, first.command) {
                (Some(pairs), Command::Compare) => compare::rank(&mut rows, pairs, first.baseline),
                (Some(pairs), _) => {
                    sweep::against_base(&mut rows, pairs, first.baseline.unwrap_or(0));
                    Vec::new()
                }
                (None, _) => Vec::new(),
            };
            let cells = rows.len();
            let played = merged(tallies, rows, pairs);
            let written = grid::write::<G>(dir, &played)?;
            let rows = &played.rows;
            if first.command == Command::Compare {
                text.push_str(&format!(
                    "{} compare | {cells} policies on the same deals | seed {}\n",
                    G::NAME,
                    first.seed
                ));
                text.push_str(&compare::verdict_line(rows));
                text.push_str(&tables::ranked(rows, &order));
            } else {
                text.push_str(&format!(
                    "{} sweep | {cells} cells | seed {}\n",
                    G::NAME,
                    first.seed
                ));
                text.push_str(&sweep::verdicts(rows));
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
        Command::Evaluate => unreachable!("an evaluation's shards are merged above"),
        Command::Tournament => {
            let standings = Standings::new(&rows, &tallies)
                .map_err(|e| refuse(format!("{}: {e}", shards[0].name())))?;
            let played = merged(tallies, rows, pairs);
            let mut written = grid::write::<G>(dir, &played)?;
            written.extend(standings.write(dir)?);
            text.push_str(&standings.text(G::NAME, first.seed, ""));
            written
        }
    };
    let written = set.commit(&written)?;
    super::output::text(&text);
    say_merged(shards.len(), first);
    if games_input.is_none() && shards.iter().any(|s| !s.manifest.games_files.is_empty()) {
        outln!("  games.parquet not merged: not every shard has per-game rows");
    }
    for path in &written {
        outln!("  wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The merged grid, as a complete run of every cell would have played it.
fn merged<T>(tallies: Vec<T>, rows: Vec<SummaryRow>, pairs: Option<PairCounts>) -> Played<T> {
    let played = rows.first().map_or(0, |r| r.games);
    Played {
        run: GridRun {
            met: vec![true; tallies.len()],
            tallies,
            pairs,
            complete: true,
            played,
        },
        rows,
        seconds: 0.0,
        threads: 1,
        before: 0,
    }
}

/// A refusal: bad input, one line.
fn refuse(message: String) -> SimError {
    SimError::input(message)
}

/// The `--out` folder must not be a shard's own.
fn refuse_shard_as_out<T>(out: &Path, shards: &[Loaded<T>]) -> Result<()> {
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

/// Every shard's tallies added up in game order, one per cell (each shard's checked by
/// [`fit::check_each`]); refused if their histograms do not count the same values.
fn add_tallies<T: Tally + Clone>(shards: &[Loaded<T>]) -> Result<Vec<T>> {
    sum_cells(
        shards,
        |i, sum, tally| {
            (!sum.counts_like(tally))
                .then(|| format!("cell {i}: the distributions do not match those of"))
        },
        |sum, tally| sum.try_merge(tally),
    )
}

/// Every shard's cells added up in game order by `add`, one per cell, from the first shard's;
/// refused as "SHARD: WHY FIRST" where `mismatch` (given the cell's index, the sum so far and
/// the shard's cell) says why a cell cannot be added, and as "SHARD: cell I: WHY" where `add`
/// cannot add it (a count that would overflow).
fn sum_cells<T: Clone>(
    shards: &[Loaded<T>],
    mismatch: impl Fn(usize, &T, &T) -> Option<String>,
    mut add: impl FnMut(&mut T, &T) -> std::result::Result<(), String>,
) -> Result<Vec<T>> {
    let mut total: Vec<T> = shards[0]
        .manifest
        .cells
        .iter()
        .map(|c| c.tally.clone())
        .collect();
    for s in &shards[1..] {
        for (i, (sum, cell)) in total.iter_mut().zip(&s.manifest.cells).enumerate() {
            if let Some(why) = mismatch(i, sum, &cell.tally) {
                return Err(refuse(format!("{}: {why} {}", s.name(), shards[0].name())));
            }
            add(sum, &cell.tally).map_err(|e| {
                refuse(format!(
                    "{}: cell {i} cannot be added to the shards before it: {e}",
                    s.name()
                ))
            })?;
        }
    }
    Ok(total)
}

/// A comparison's win pairs added up, and a sweep's if every shard counted them; `None` for
/// other commands.
fn add_pairs<T>(shards: &[Loaded<T>]) -> Result<Option<PairCounts>> {
    let first = &shards[0].manifest;
    let counted = shards.iter().all(|s| s.manifest.pairs.is_some());
    if !(first.command == Command::Compare || first.command == Command::Sweep && counted) {
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
            Some(t) => t.try_merge(pairs).map_err(|e| {
                refuse(format!(
                    "{}: its win pairs cannot be added to the shards before it: {e}",
                    s.name()
                ))
            })?,
        }
    }
    Ok(total)
}

/// Says how many shards were merged and which games of which seed they cover.
fn say_merged<T>(count: usize, first: &Manifest<T>) {
    outln!(
        "  merged {count} shards: games {}..{} of seed {}",
        first.run_first_game,
        first.run_first_game.saturating_add(first.run_games),
        first.seed
    );
}
