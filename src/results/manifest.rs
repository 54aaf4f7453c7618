//! The run's record: what a run played, with its integer tallies, written beside its Parquet
//! files as `shard.json` by a shard (`--shard I/N`), which `sim merge` adds up, and as
//! `resume.json` by any other run that stopped early, which `--resume` continues. It holds
//! everything the two check (game, command, seed, the whole run's games, the range played, each
//! cell's policy, varied values and rules, the sim version) and a digest of itself.
//!
//! A shard's `summary.parquet` and `distributions.parquet` are those of its own range, as for any
//! run; the floats in them cannot be added exactly, the tallies here can.
//!
//! The record proves itself: `digest` is the BLAKE3 hash of the record written without it, and
//! each per-game file is listed with its own hash, so an edited or damaged record or file is
//! refused by name instead of being added up.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::sim::pairs::PairCounts;
use crate::sim::shard::Shard;

use super::summary::SummaryRow;
use crate::files::write_text;

/// The record's file name in a shard's folder.
pub const SHARD_FILE: &str = "shard.json";
/// The record's file name in the folder of a run (not a shard) that stopped early.
pub const RESUME_FILE: &str = "resume.json";
/// The layout of the record this sim writes and reads.
pub const FORMAT: u32 = 2;

/// Which command played the run.
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

/// One cell of a run (the only one of a plain run): what it played and its tally `T`.
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

/// A per-game file of the run, with the BLAKE3 hash of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// The file's name in the run's folder.
    pub name: String,
    /// Its BLAKE3 hash, in hex.
    pub blake3: String,
}

impl FileDigest {
    /// The name and hash of the file at `path`.
    pub fn of(path: &Path) -> Result<Self> {
        Ok(Self {
            name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            blake3: file_hash(path)?,
        })
    }
}

/// The BLAKE3 hash of the file at `path`, in hex.
pub fn file_hash(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).map_err(|source| SimError::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    })?;
    let mut hasher = blake3::Hasher::new();
    hasher
        .update_reader(&mut file)
        .map_err(|source| SimError::Io {
            action: "cannot read",
            path: path.to_path_buf(),
            source,
        })?;
    Ok(hasher.finalize().to_hex().to_string())
}

/// The whole record, with tallies of type `T`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest<T> {
    /// [`FORMAT`] of the sim that wrote it.
    pub format: u32,
    /// The sim version that played the run.
    pub version: String,
    /// The game.
    pub game: String,
    /// The command.
    pub command: Command,
    /// The seed.
    pub seed: u64,
    /// Which shard of how many (0/1 for a run that is not split).
    pub shard: Shard,
    /// The first game index of the whole run.
    pub run_first_game: u64,
    /// The games of the whole run (per cell; with `--precision`, the most per cell).
    pub run_games: u64,
    /// The first game index this run (or shard) plays.
    pub start: u64,
    /// One past the last game index it plays.
    pub end: u64,
    /// One past the last game index played: `end` once complete, less if it stopped early (a
    /// cell that met its precision target stopped sooner: its tally says how far).
    pub next: u64,
    /// False if Ctrl-C or SIGTERM stopped it early.
    pub complete: bool,
    /// `--precision`: the half-width asked of each cell's 95% interval.
    pub precision: Option<f64>,
    /// `sim compare --baseline`: the baseline's cell, if one was named.
    pub baseline: Option<usize>,
    /// The per-game files (`--per-game`), in game order; empty without them.
    pub games_files: Vec<FileDigest>,
    /// The cells, in the order of the summary's rows.
    pub cells: Vec<Cell<T>>,
    /// `sim compare`: for every ordered pair of cells, the games one won and the other lost.
    pub pairs: Option<PairCounts>,
    /// The BLAKE3 hash, in hex, of this record written without its digest.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub digest: String,
}

/// What makes a run the run it is, whatever it has played so far: what `--resume` checks a
/// prefix against, and `sim merge` the shards of one run.
#[derive(Clone, Debug)]
pub struct RunShape {
    /// The game.
    pub game: &'static str,
    /// The command.
    pub command: Command,
    /// The seed.
    pub seed: u64,
    /// Which shard (`None` for a run that is not split).
    pub shard: Option<Shard>,
    /// The whole run's first game index and games (per cell; with a precision target, the most).
    pub run: (u64, u64),
    /// The game indices this run (or shard) plays.
    pub span: std::ops::Range<u64>,
    /// The precision target.
    pub precision: Option<f64>,
    /// The named baseline of a comparison.
    pub baseline: Option<usize>,
}

/// How far a run has got: its cells' rows and tallies and what else it wrote.
pub struct RunState<'a, T> {
    /// The summary rows, one per cell (their policy, varied values and rules go in the record).
    pub rows: &'a [SummaryRow],
    /// The tallies, one per cell.
    pub tallies: &'a [T],
    /// The win pairs of a comparison.
    pub pairs: Option<&'a PairCounts>,
    /// One past the last game index played.
    pub next: u64,
    /// False if it stopped early.
    pub complete: bool,
    /// The per-game files written, with their hashes.
    pub games_files: &'a [FileDigest],
}

impl<'a, T: Serialize> Manifest<&'a T> {
    /// The record of the run `shape` in `state`, sealed with its digest.
    pub fn new(shape: &RunShape, state: &RunState<'a, T>) -> Self {
        let cells = state
            .rows
            .iter()
            .zip(state.tallies)
            .map(|(row, tally)| Cell {
                policy: row.policy.clone(),
                params: row.params.clone(),
                rules: row.rules.clone(),
                tally,
            })
            .collect();
        let mut manifest = Self {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            game: shape.game.to_string(),
            command: shape.command,
            seed: shape.seed,
            shard: shape.shard.unwrap_or(Shard { index: 0, count: 1 }),
            run_first_game: shape.run.0,
            run_games: shape.run.1,
            start: shape.span.start,
            end: shape.span.end,
            next: state.next,
            complete: state.complete,
            precision: shape.precision,
            baseline: shape.baseline,
            games_files: state.games_files.to_vec(),
            cells,
            pairs: state.pairs.cloned(),
            digest: String::new(),
        };
        manifest.digest = manifest.content_digest();
        manifest
    }

    /// Writes the record into `dir` as `name` (atomically) and returns its path.
    pub fn write(&self, dir: &Path, name: &str) -> Result<PathBuf> {
        let text = serde_json::to_string(self).expect("a manifest serializes to JSON");
        write_text(&dir.join(name), &format!("{text}\n"))
    }
}

impl<T: Serialize> Manifest<T> {
    /// The record with its digest made for its content as it is.
    pub fn sealed(mut self) -> Self {
        self.digest = self.content_digest();
        self
    }

    /// The hash of the record without its digest field, in hex: of its JSON with every object's
    /// keys in one canonical order, so that the same content has the same digest whatever wrote
    /// it.
    fn content_digest(&self) -> String {
        let value = serde_json::to_value(Unsealed(self)).expect("a manifest serializes to JSON");
        blake3::hash(value.to_string().as_bytes())
            .to_hex()
            .to_string()
    }
}

/// A record as serialized without its digest: the same fields in the same order.
struct Unsealed<'a, T>(&'a Manifest<T>);

impl<T: Serialize> Serialize for Unsealed<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let m = self.0;
        let unsealed = Manifest {
            format: m.format,
            version: m.version.clone(),
            game: m.game.clone(),
            command: m.command,
            seed: m.seed,
            shard: m.shard,
            run_first_game: m.run_first_game,
            run_games: m.run_games,
            start: m.start,
            end: m.end,
            next: m.next,
            complete: m.complete,
            precision: m.precision,
            baseline: m.baseline,
            games_files: m.games_files.clone(),
            cells: m
                .cells
                .iter()
                .map(|c| Cell {
                    policy: c.policy.clone(),
                    params: c.params.clone(),
                    rules: c.rules.clone(),
                    tally: &c.tally,
                })
                .collect(),
            pairs: m.pairs.clone(),
            digest: String::new(),
        };
        unsealed.serialize(s)
    }
}

/// The first fields of a record, read before the rest: a record of another format or sim version
/// is refused as such (its digest and layout may differ).
#[derive(Clone, Debug, Deserialize)]
pub struct Header {
    /// [`FORMAT`] of the sim that wrote it.
    pub format: u32,
    /// The sim version that played the run.
    pub version: String,
    /// The game.
    pub game: String,
}

/// The text of the record `name` in the folder `dir`.
pub fn read_text(dir: &Path, name: &str) -> Result<String> {
    std::fs::read_to_string(dir.join(name))
        .map_err(|e| SimError::input(format!("{}: no readable {name} ({e})", dir.display())))
}

/// The header of the record `text` (from `path`), checked to be of this sim's format and
/// version.
pub fn header(path: &Path, text: &str) -> Result<Header> {
    let header: Header = serde_json::from_str(text)
        .map_err(|e| SimError::input(format!("{}: unreadable: {e}", path.display())))?;
    if header.format != FORMAT {
        return Err(SimError::input(format!(
            "{}: format {}, but this sim reads format {FORMAT}; play it again with this sim",
            path.display(),
            header.format
        )));
    }
    let this = env!("CARGO_PKG_VERSION");
    if header.version != this {
        return Err(SimError::input(format!(
            "{}: played by sim {}, but this is sim {this}; use the version that played it",
            path.display(),
            header.version
        )));
    }
    Ok(header)
}

impl<T: Serialize + DeserializeOwned> Manifest<T> {
    /// The record `text` read from `path`, its digest checked.
    pub fn parse(path: &Path, text: &str) -> Result<Self> {
        let manifest: Self = serde_json::from_str(text)
            .map_err(|e| SimError::input(format!("{}: unreadable: {e}", path.display())))?;
        if manifest.digest.is_empty() || manifest.content_digest() != manifest.digest {
            return Err(SimError::input(format!(
                "{}: its digest does not match its content: the file was edited or damaged; play the run again",
                path.display()
            )));
        }
        Ok(manifest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Manifest<u64> {
        Manifest {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").into(),
            game: "crownfall".into(),
            command: Command::Run,
            seed: 7,
            shard: Shard { index: 1, count: 4 },
            run_first_game: 0,
            run_games: 100,
            start: 25,
            end: 50,
            next: 50,
            complete: true,
            precision: None,
            baseline: None,
            games_files: Vec::new(),
            cells: vec![Cell {
                policy: "bank-at-17".into(),
                params: Vec::new(),
                rules: "{}".into(),
                tally: 25,
            }],
            pairs: None,
            digest: String::new(),
        }
        .sealed()
    }

    #[test]
    fn a_record_reads_back_and_any_edit_breaks_its_digest() {
        let path = Path::new("shard.json");
        let text = serde_json::to_string(&record()).unwrap();
        assert_eq!(Manifest::<u64>::parse(path, &text).unwrap(), record());
        for (from, to) in [
            ("\"seed\":7", "\"seed\":8"),
            ("\"tally\":25", "\"tally\":26"),
            ("\"complete\":true", "\"complete\":false"),
        ] {
            let edited = text.replacen(from, to, 1);
            assert_ne!(edited, text, "{from}");
            let err = Manifest::<u64>::parse(path, &edited)
                .unwrap_err()
                .to_string();
            assert!(err.contains("digest does not match"), "{from}: {err}");
        }
        let unsealed = text.replacen(&format!(",\"digest\":\"{}\"", record().digest), "", 1);
        assert!(
            Manifest::<u64>::parse(path, &unsealed).is_err(),
            "a record without a digest"
        );
    }

    #[test]
    fn the_digest_is_the_same_whatever_the_order_of_the_keys() {
        let text = serde_json::to_string(&record()).unwrap();
        // The same record with its keys in another order (as a JSON tool may write it).
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut pairs: Vec<(String, serde_json::Value)> =
            value.as_object().unwrap().clone().into_iter().collect();
        pairs.reverse();
        let reordered = format!(
            "{{{}}}",
            pairs
                .iter()
                .map(|(k, v)| format!("{}:{v}", serde_json::Value::String(k.clone())))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert_ne!(reordered, text);
        assert_eq!(
            Manifest::<u64>::parse(Path::new("x"), &reordered).unwrap(),
            record()
        );
    }
}
