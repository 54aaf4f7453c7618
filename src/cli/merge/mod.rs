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

mod evaluate;
mod fit;
mod games;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::de::IgnoredAny;

use crate::error::{Result, SimError};
use crate::games::{Game, Tally};
use crate::report::files::ensure_writable_dir;
use crate::report::manifest::{self, Command, Manifest};
use crate::report::summary::{RunInfo, SummaryRow};
use crate::report::{tables, terminal};
use crate::sim::grid::GridRun;
use crate::sim::pairs::PairCounts;

use super::GameEntry;
use super::grid::{self, Played};
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
    fit::check_alike(&shards)?;
    fit::check_tiling(&mut shards)?;
    let out = &args.out;
    refuse_shard_as_out(out, &shards)?;
    if shards[0].manifest.command == Command::Evaluate {
        return evaluate::merge(args, &shards);
    }
    let tallies = add_tallies::<G>(&shards)?;
    let first = &shards[0].manifest;
    let pairs = add_pairs(&shards)?;
    let games_input = games::games_files(&shards)?;

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
                Some(input) => Some(games::concatenate(out, first, input)?),
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
            let played = merged(tallies, rows, pairs);
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
        Command::Evaluate => unreachable!("an evaluation's shards are merged above"),
        Command::Tournament => {
            let standings = Standings::new(&rows, &tallies)
                .map_err(|e| refuse(format!("{}: {e}", shards[0].name())))?;
            let played = merged(tallies, rows, pairs);
            let mut written = grid::write::<G>(out, &played)?;
            written.extend(standings.write(out)?);
            text.push_str(&standings.text(G::NAME, first.seed));
            written
        }
    };
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
    Played {
        run: GridRun {
            met: vec![true; tallies.len()],
            tallies,
            pairs,
            complete: true,
        },
        rows,
        seconds: 0.0,
    }
}

/// A refusal: bad input, one line.
fn refuse(message: String) -> SimError {
    SimError::input(message)
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

/// Says how many shards were merged and which games of which seed they cover.
fn say_merged<T>(count: usize, first: &Manifest<T>) {
    outln!(
        "  merged {count} shards: games {}..{} of seed {}",
        first.run_first_game,
        first.run_first_game + first.run_games,
        first.seed
    );
}
