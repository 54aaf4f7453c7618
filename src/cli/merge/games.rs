//! The per-game rows of the shards, checked (each file's hash, columns and rows) and streamed
//! into the merged files.

use std::path::{Path, PathBuf};

use polars::prelude::DataFrame;

use crate::error::Result;
use crate::results::games_file::{GamesWriter, read_rows, rows_in};
use crate::results::manifest::{FileDigest, Manifest, file_hash};

use super::{Loaded, refuse};

/// The per-game files of a run's record in `dir`, each checked against its hash, with their
/// columns (those of the first file) and rows: refused by name if one is missing, altered or
/// has other columns than `columns`.
pub fn checked_files<T>(
    dir: &Path,
    manifest: &Manifest<T>,
    columns: &mut Option<DataFrame>,
) -> Result<(Vec<PathBuf>, u64)> {
    let mut files = Vec::new();
    let mut rows = 0u64;
    for FileDigest { name, blake3 } in &manifest.games_files {
        if name.contains('/') || name.contains('\\') || name.starts_with('.') {
            return Err(refuse(format!(
                "{}: names the per-game file {name:?}, which is not a file of its folder",
                dir.display()
            )));
        }
        let path = dir.join(name);
        let actual = file_hash(&path)?;
        if actual != *blake3 {
            return Err(refuse(format!(
                "{}: its hash does not match the record's: the file was altered or damaged",
                path.display()
            )));
        }
        let empty = read_rows(&path, 0, 0)?;
        match columns {
            None => *columns = Some(empty),
            Some(c) if c.schema() != empty.schema() => {
                return Err(refuse(format!(
                    "{}: other per-game columns than the first file's",
                    path.display()
                )));
            }
            Some(_) => {}
        }
        rows += rows_in(&path)?;
        files.push(path);
    }
    Ok((files, rows))
}

/// The per-game files of every shard, in game order, checked (hashes, columns and rows), if every
/// shard has them; `None` if any has none.
pub fn games_files<T>(shards: &[Loaded<T>]) -> Result<Option<Vec<PathBuf>>> {
    if shards.iter().any(|s| s.manifest.games_files.is_empty()) {
        return Ok(None);
    }
    let mut files = Vec::new();
    let mut columns = None;
    for s in shards {
        let (mine, rows) = checked_files(&s.dir, &s.manifest, &mut columns)?;
        let m = &s.manifest;
        if rows != m.end - m.start {
            return Err(refuse(format!(
                "{}: the per-game files hold {rows} rows, but the shard played {} games",
                s.name(),
                m.end - m.start
            )));
        }
        files.extend(mine);
    }
    Ok(Some(files))
}

/// The merged per-game files: every shard's rows, a row group at a time, through the writer a
/// single run uses, into `out`.
pub fn concatenate<T>(out: &Path, first: &Manifest<T>, files: &[PathBuf]) -> Result<GamesWriter> {
    let empty = read_rows(&files[0], 0, 0)?;
    let mut writer = GamesWriter::with_columns(out, first.run_first_game, first.run_games, empty);
    writer.append_files(files)?;
    Ok(writer)
}
