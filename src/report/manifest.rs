//! `shard.json`: what a shard played, written beside its Parquet files, with everything
//! `sim merge` checks (game, command, seed, the whole run's games, the shard's range, each cell's
//! policy, varied values and rules, the sim version) and the integer tallies it adds up.
//!
//! A shard's `summary.parquet` and `distributions.parquet` are those of its own range, as for any
//! run; the floats in them cannot be added exactly, the tallies here can.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::sim::pairs::PairCounts;
use crate::sim::shard::Shard;

use super::files::AtomicFile;
use super::summary::SummaryRow;

/// The manifest's file name in a shard folder.
pub const FILE: &str = "shard.json";
/// The layout of the manifest this sim writes and reads.
pub const FORMAT: u32 = 1;

/// Which command played the shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Command {
    /// `sim <game>`.
    Run,
    /// `sim compare`.
    Compare,
    /// `sim sweep`.
    Sweep,
    /// `sim compare` of a duel: a tournament.
    Tournament,
    /// `sim evaluate`.
    Evaluate,
}

impl Command {
    /// The command as typed.
    pub fn name(self) -> &'static str {
        match self {
            Self::Run => "run",
            Self::Compare => "compare",
            Self::Sweep => "sweep",
            Self::Tournament => "tournament",
            Self::Evaluate => "evaluate",
        }
    }
}

/// One cell of a shard (the only one of a plain run): what it played and its tally `T` (the
/// game's tally, or [`serde::de::IgnoredAny`] to read the rest without it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell<T> {
    /// The policy's display name (the summary's `policy` column; for several seats, the seating).
    pub policy: String,
    /// A sweep cell's varied rule values, as (path, value).
    pub params: Vec<(String, String)>,
    /// The effective rules as JSON.
    pub rules: String,
    /// The game's tally, as the game serializes it.
    pub tally: T,
}

/// The whole of `shard.json`, with tallies of type `T`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest<T> {
    /// [`FORMAT`] of the sim that wrote it.
    pub format: u32,
    /// The sim version that played the shard.
    pub version: String,
    /// The game.
    pub game: String,
    /// The command.
    pub command: Command,
    /// The seed.
    pub seed: u64,
    /// Which shard of how many.
    pub shard: Shard,
    /// The first game index of the whole run.
    pub run_first_game: u64,
    /// The games of the whole run (per cell).
    pub run_games: u64,
    /// The first game index this shard played.
    pub start: u64,
    /// One past the last game index this shard played.
    pub end: u64,
    /// False if Ctrl-C stopped the shard early.
    pub complete: bool,
    /// `sim compare --baseline`: the baseline's cell, if one was named.
    pub baseline: Option<usize>,
    /// The per-game files (`--per-game`), in game order; empty without them.
    pub games_files: Vec<String>,
    /// The cells, in the order of the summary's rows.
    pub cells: Vec<Cell<T>>,
    /// `sim compare`: for every ordered pair of cells, the games one won and the other lost.
    pub pairs: Option<PairCounts>,
}

/// What a shard played, as the command knows it.
pub struct ShardRun<'a, T> {
    /// The game.
    pub game: &'static str,
    /// The command.
    pub command: Command,
    /// The seed.
    pub seed: u64,
    /// Which shard.
    pub shard: Shard,
    /// The whole run's first game index and games.
    pub run: (u64, u64),
    /// The game indices this shard was to play.
    pub span: std::ops::Range<u64>,
    /// False if Ctrl-C stopped it early.
    pub complete: bool,
    /// The summary rows, one per cell.
    pub rows: &'a [SummaryRow],
    /// The tallies, one per cell.
    pub tallies: &'a [T],
    /// The win pairs of a comparison.
    pub pairs: Option<&'a PairCounts>,
    /// The named baseline of a comparison.
    pub baseline: Option<usize>,
    /// The per-game files written.
    pub games_files: &'a [PathBuf],
}

impl<'a, T: Serialize> Manifest<&'a T> {
    /// The manifest of `run`.
    pub fn new(run: &ShardRun<'a, T>) -> Self {
        let cells = run
            .rows
            .iter()
            .zip(run.tallies)
            .map(|(row, tally)| Cell {
                policy: row.policy.clone(),
                params: row.params.clone(),
                rules: row.rules.clone(),
                tally,
            })
            .collect();
        Self {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            game: run.game.to_string(),
            command: run.command,
            seed: run.seed,
            shard: run.shard,
            run_first_game: run.run.0,
            run_games: run.run.1,
            start: run.span.start,
            end: run.span.end,
            complete: run.complete,
            baseline: run.baseline,
            games_files: run
                .games_files
                .iter()
                .filter_map(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .collect(),
            cells,
            pairs: run.pairs.cloned(),
        }
    }

    /// Writes the manifest into `dir` (atomically) and returns its path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf> {
        let path = dir.join(FILE);
        let mut file = AtomicFile::create(&path)?;
        let text = serde_json::to_string(self).expect("a manifest serializes to JSON");
        file.file()
            .write_all(format!("{text}\n").as_bytes())
            .map_err(|source| SimError::Io {
                action: "cannot write",
                path: path.clone(),
                source,
            })?;
        file.commit()
    }
}

/// The text of the manifest in the shard folder `dir`.
pub fn read_text(dir: &Path) -> Result<String> {
    std::fs::read_to_string(dir.join(FILE)).map_err(|e| {
        SimError::input(format!(
            "{}: not a shard folder (no readable {FILE}: {e}); shards are played with --shard I/N",
            dir.display()
        ))
    })
}

impl<T: DeserializeOwned> Manifest<T> {
    /// The manifest of the shard folder `dir` from its text.
    pub fn parse(dir: &Path, text: &str) -> Result<Self> {
        serde_json::from_str(text).map_err(|e| {
            SimError::input(format!(
                "{}: unreadable shard manifest: {e}",
                dir.join(FILE).display()
            ))
        })
    }
}
