//! `--resume DIR`: a run that Ctrl-C or SIGTERM stopped goes on where it stopped. The prefix's
//! record (`resume.json`, or a shard's `shard.json`) must be intact (its digest, its tallies'
//! invariants, its per-game files' hashes) and of the same command: the same sim version, game,
//! command, seed, games, shard, cells (policies, varied values, rules), baseline, precision
//! target and per-game rows. The run then plays the rest and writes the very files an
//! uninterrupted run would have, bit for bit: tallies are integers that add up, and the per-game
//! rows of the prefix are carried over into the new files.

use std::path::{Path, PathBuf};

use polars::prelude::DataFrame;

use crate::error::{Result, SimError};
use crate::games::Tally;
use crate::results::manifest::{self, Command, Manifest, RESUME_FILE, SHARD_FILE};
use crate::sim::pairs::PairCounts;

use super::merge::checked_files;
use super::same_run::prefix_difference;

/// What a stopped run had played, checked, to go on from.
#[derive(Debug)]
pub struct Prefix<T> {
    /// One past the last game index played: where the run goes on.
    pub next: u64,
    /// Each cell's tally so far.
    pub tallies: Vec<T>,
    /// A comparison's win pairs so far.
    pub pairs: Option<PairCounts>,
    /// The per-game files of the prefix, in game order (checked against their hashes).
    pub games_files: Vec<PathBuf>,
}

/// The prefix in `dir` of the run `ours` describes (with empty tallies, `fresh`, of the cells'
/// rules), played in chunks of `chunk` games; `columns` are the per-game files' columns if the
/// run writes them. Refused, naming what differs or does not hold, unless it is a prefix of
/// this very run.
pub fn load<T: Tally>(
    dir: &Path,
    ours: &Manifest<&T>,
    fresh: &[T],
    chunk: u64,
    columns: Option<&DataFrame>,
) -> Result<Prefix<T>> {
    let refuse = |why: String| SimError::input(format!("--resume {}: {why}", dir.display()));
    let name = if ours.shard.count > 1 {
        SHARD_FILE
    } else {
        RESUME_FILE
    };
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        let why = if dir.join("summary.parquet").exists() {
            format!("no {name} there: the run there is complete (a stopped run writes one), so there is nothing to resume")
        } else {
            format!("no readable {name} ({e}): not the folder of a stopped run")
        };
        refuse(why)
    })?;
    let header = manifest::header(&path, &text)?;
    if header.game != ours.game {
        return Err(refuse(format!(
            "this folder holds a {} run, and this command plays {}; resume it with the command that played it",
            header.game, ours.game
        )));
    }
    let theirs: Manifest<T> = Manifest::parse(&path, &text)?;
    if let Some(d) = prefix_difference(&theirs, ours) {
        return Err(refuse(format!(
            "that run has {} {}, this command {} {}; resume with the command that played it",
            d.what, d.theirs, d.what, d.ours
        )));
    }
    let per_game = |yes: bool| if yes { "--per-game" } else { "no --per-game" };
    if theirs.games_files.is_empty() == columns.is_some() {
        return Err(refuse(format!(
            "that run has {}, this command {}; resume with the command that played it",
            per_game(!theirs.games_files.is_empty()),
            per_game(columns.is_some())
        )));
    }
    let (start, end, next) = (theirs.start, theirs.end, theirs.next);
    let on_chunk = next >= start && (next == end || (next - start).is_multiple_of(chunk.max(1)));
    if (start, end) != (ours.start, ours.end) || next > end || !on_chunk {
        return Err(refuse(format!(
            "its games {start}..{next} of {start}..{end} are not a prefix this command plays"
        )));
    }
    let played = next - start;
    let mut wins = Vec::new();
    for (i, (cell, fresh)) in theirs.cells.iter().zip(fresh).enumerate() {
        let tally = &cell.tally;
        let counted =
            tally.games() == played || (theirs.precision.is_some() && tally.games() <= played);
        if !counted {
            return Err(refuse(format!(
                "cell {i} counts {} games, but the run played games {start}..{next}",
                tally.games()
            )));
        }
        tally
            .check()
            .map_err(|e| refuse(format!("cell {i}'s tally does not hold: {e}")))?;
        if !tally.counts_like(fresh) {
            return Err(refuse(format!(
                "cell {i}'s distributions are not those of its rules"
            )));
        }
        wins.push(tally.wins());
    }
    if ours.command == Command::Compare {
        let pairs = theirs.pairs.as_ref().filter(|p| p.fits(theirs.cells.len()));
        let pairs = pairs.ok_or_else(|| refuse("a comparison without its win pairs".into()))?;
        pairs
            .check(played, &wins)
            .map_err(|e| refuse(format!("the win pairs do not hold: {e}")))?;
    }
    let mut games_files = Vec::new();
    if let Some(columns) = columns {
        let mut expected = Some(columns.clone());
        let (files, rows) = checked_files(dir, &theirs, &mut expected)?;
        if rows != played {
            return Err(refuse(format!(
                "its per-game files hold {rows} rows, but it played {played} games"
            )));
        }
        games_files = files;
    }
    Ok(Prefix {
        next,
        tallies: theirs.cells.into_iter().map(|c| c.tally).collect(),
        pairs: theirs.pairs,
        games_files,
    })
}
