//! The per-game rows of the shards, checked and streamed into the merged files.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::{DataFrame, ParquetReader, SerReader};
use serde::de::IgnoredAny;

use crate::error::{Result, SimError};
use crate::report::games_file::{GamesWriter, ROW_GROUP};
use crate::report::manifest::Manifest;

use super::{Loaded, refuse};

/// The per-game files of every shard, in game order, checked (columns and rows), if every
/// shard has them; `None` if any has none.
pub fn games_files(shards: &[Loaded]) -> Result<Option<Vec<PathBuf>>> {
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
pub fn concatenate(
    out: &Path,
    first: &Manifest<IgnoredAny>,
    files: &[PathBuf],
) -> Result<GamesWriter> {
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
