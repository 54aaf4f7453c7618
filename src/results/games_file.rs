//! `games.parquet`: one row per game, streamed so that memory stays flat however many games.
//!
//! Rows go out in row groups of [`ROW_GROUP`] games. A Parquet writer keeps the metadata of every
//! row group it has written until it writes the footer (about 44 KB per row group of thirteen
//! columns in polars 0.55, page specs and column-chunk metadata), so one file of a billion games
//! would hold gigabytes. A run of more than [`PART_GAMES`] games therefore rolls over to a new
//! file every [`PART_GAMES`] games: `games-00000.parquet`, `games-00001.parquet`, ... in game
//! order (a run that fits in one part writes just `games.parquet`). `games*.parquet` reads either.
//!
//! Part and row-group boundaries count from the run's first game, so the same games make the same
//! files: `sim merge` feeds the shards' rows through this writer and gets the single run's files.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::io::parquet::write::BatchedWriter;
use polars::prelude::*;

use crate::error::{Result, SimError};
use crate::games::{ColumnData, Record};

use crate::files::AtomicFile;

/// Games per row group.
pub const ROW_GROUP: u64 = 1 << 18;
/// Games per file of a run that needs more than one: 16 row groups.
pub const PART_GAMES: u64 = 16 * ROW_GROUP;

/// How rows are laid out in files: [`ROW_GROUP`] and [`PART_GAMES`] but in tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    row_group: u64,
    part: u64,
}

impl Layout {
    const FILES: Self = Self {
        row_group: ROW_GROUP,
        part: PART_GAMES,
    };

    /// The file names of a run of `games` games: `games.parquet`, or one per part.
    fn file_names(&self, games: u64) -> Vec<String> {
        if games <= self.part {
            return vec!["games.parquet".to_string()];
        }
        (0..games.div_ceil(self.part))
            .map(|k| format!("games-{k:05}.parquet"))
            .collect()
    }
}

/// The per-game files being written into one folder; they appear under their real names only when
/// [`GamesWriter::finish`] succeeds.
pub struct GamesWriter {
    dir: PathBuf,
    layout: Layout,
    names: Vec<String>,
    /// An empty frame with the columns: the schema of every file.
    empty: DataFrame,
    /// Rows not yet written: fewer than a row group, or the rest of a batch.
    pending: DataFrame,
    /// Index of the next game handed in.
    next: u64,
    /// Rows written to files so far.
    written: u64,
    /// The part being written.
    current: Option<(AtomicFile, BatchedWriter<File>)>,
    /// Parts closed, to be renamed at the end.
    closed: Vec<AtomicFile>,
}

impl GamesWriter {
    /// Starts the files of a run of `games` games from game index `first`, with the columns of
    /// `R`.
    pub fn create<R: Record>(dir: &Path, first: u64, games: u64) -> Result<Self> {
        let empty = frame::<R>(first, &[]).map_err(|e| output_error(dir, e))?;
        Ok(Self::with_columns(dir, first, games, empty))
    }

    /// The columns of the per-game files of outcomes `R` (an empty frame).
    pub fn columns_of<R: Record>(first: u64) -> Result<DataFrame> {
        frame::<R>(first, &[]).map_err(|e| SimError::input(e.to_string()))
    }

    /// Starts the files of a run of `games` games from game index `first`, whose rows have the
    /// columns of `empty`.
    pub fn with_columns(dir: &Path, first: u64, games: u64, empty: DataFrame) -> Self {
        Self::with_layout(dir, first, games, empty, Layout::FILES)
    }

    fn with_layout(dir: &Path, first: u64, games: u64, empty: DataFrame, layout: Layout) -> Self {
        Self {
            dir: dir.to_path_buf(),
            layout,
            names: layout.file_names(games),
            pending: empty.clone(),
            empty,
            next: first,
            written: 0,
            current: None,
            closed: Vec::new(),
        }
    }

    /// Appends every row of the per-game files `files` (the games that come next, in order),
    /// a row group at a time: a stopped run's rows continued, or the shards' rows merged.
    pub fn append_files(&mut self, files: &[PathBuf]) -> Result<()> {
        for path in files {
            let rows = rows_in(path)?;
            let mut offset = 0;
            while offset < rows {
                let len = self.layout.row_group.min(rows - offset);
                self.push(&read_rows(path, offset, len)?)?;
                offset += len;
            }
        }
        Ok(())
    }

    /// The columns every file of this writer has (an empty frame).
    pub fn columns(&self) -> &DataFrame {
        &self.empty
    }

    /// Appends the outcomes of the next games as rows.
    pub fn write<R: Record>(&mut self, batch: &[R]) -> Result<()> {
        let df = frame(self.next, batch).map_err(|e| output_error(&self.dir, e))?;
        self.push(&df)
    }

    /// Appends rows (the next games, with the writer's columns) and writes every full row group.
    pub fn push(&mut self, rows: &DataFrame) -> Result<()> {
        self.next += rows.height() as u64;
        self.pending
            .vstack_mut(rows)
            .map_err(|e| output_error(&self.dir, e))?;
        let size = self.layout.row_group;
        while self.pending.height() as u64 >= size {
            let (group, rest) = self.pending.split_at(size as i64);
            self.pending = rest;
            self.write_group(group)?;
        }
        Ok(())
    }

    fn write_group(&mut self, mut group: DataFrame) -> Result<()> {
        if self.current.is_none() {
            let part = (self.written / self.layout.part) as usize;
            let name = self.names.get(part).cloned().unwrap_or_else(|| {
                // More games than planned: the writer still rolls over, with the next name.
                format!("games-{part:05}.parquet")
            });
            let mut file = AtomicFile::create(&self.dir.join(name))?;
            let writer = ParquetWriter::new(file.take())
                .batched(self.empty.schema())
                .map_err(|e| output_error(&self.dir, e))?;
            self.current = Some((file, writer));
        }
        let (_, writer) = self.current.as_mut().expect("opened above");
        group.rechunk_mut();
        if group.height() > 0 {
            writer
                .write_batch(&group)
                .map_err(|e| output_error(&self.dir, e))?;
        }
        self.written += group.height() as u64;
        if self.written.is_multiple_of(self.layout.part) {
            self.close_part()?;
        }
        Ok(())
    }

    fn close_part(&mut self) -> Result<()> {
        if let Some((file, writer)) = self.current.take() {
            writer.finish().map_err(|e| output_error(&self.dir, e))?;
            self.closed.push(file);
        }
        Ok(())
    }

    /// Writes the last rows, closes the files and gives them their real names.
    pub fn finish(mut self) -> Result<Vec<PathBuf>> {
        let rest = std::mem::replace(&mut self.pending, self.empty.clone());
        if rest.height() > 0 || (self.written == 0 && self.current.is_none()) {
            self.write_group(rest)?;
        }
        self.close_part()?;
        self.closed.into_iter().map(AtomicFile::commit).collect()
    }
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
    SimError::input(format!("{}: unreadable per-game file: {e}", path.display()))
}

/// The rows in the per-game file at `path`.
pub fn rows_in(path: &Path) -> Result<u64> {
    Ok(open(path)?.num_rows().map_err(|e| unreadable(path, e))? as u64)
}

/// Rows `offset .. offset + len` of the per-game file at `path` (none: its columns).
pub fn read_rows(path: &Path, offset: u64, len: u64) -> Result<DataFrame> {
    open(path)?
        .with_slice(Some((offset as usize, len as usize)))
        .finish()
        .map_err(|e| unreadable(path, e))
}

/// The rows of `batch`, numbered from game index `first`.
fn frame<R: Record>(first: u64, batch: &[R]) -> PolarsResult<DataFrame> {
    let end = first + batch.len() as u64;
    let mut columns = vec![Column::new(
        "game".into(),
        (first..end).collect::<Vec<u64>>(),
    )];
    for (name, data) in R::columns(batch) {
        columns.push(match data {
            ColumnData::U32(v) => Column::new(name.into(), v),
            ColumnData::I32(v) => Column::new(name.into(), v),
            ColumnData::Bool(v) => Column::new(name.into(), v),
            ColumnData::Str(v) => Column::new(name.into(), v),
        });
    }
    DataFrame::new_infer_height(columns)
}

fn output_error(dir: &Path, e: PolarsError) -> SimError {
    SimError::Output {
        path: dir.join("games.parquet"),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout {
            row_group: 3,
            part: 6,
        }
    }

    /// Writes rows `first..first + games` (a game column and a label) in batches of `batch`.
    fn write(dir: &Path, first: u64, games: u64, batch: u64) -> Vec<PathBuf> {
        let rows = |from: u64, to: u64| {
            DataFrame::new_infer_height(vec![
                Column::new("game".into(), (from..to).collect::<Vec<u64>>()),
                Column::new(
                    "label".into(),
                    (from..to)
                        .map(|i| ["a", "bb", ""][i as usize % 3])
                        .collect::<Vec<_>>(),
                ),
            ])
            .unwrap()
        };
        let mut w = GamesWriter::with_layout(dir, first, games, rows(0, 0), layout());
        let mut next = first;
        while next < first + games {
            let to = (next + batch).min(first + games);
            w.push(&rows(next, to)).unwrap();
            next = to;
        }
        w.finish().unwrap()
    }

    fn games_in(path: &Path) -> Vec<u64> {
        let df = ParquetReader::new(File::open(path).unwrap())
            .finish()
            .unwrap();
        df.column("game")
            .unwrap()
            .u64()
            .unwrap()
            .into_no_null_iter()
            .collect()
    }

    #[test]
    fn rows_roll_over_into_numbered_parts_whatever_the_batches() {
        let root = std::env::temp_dir().join(format!("sim-games-file-{}", std::process::id()));
        let mut bytes = Vec::new();
        for batch in [1, 4, 7, 20] {
            let dir = root.join(batch.to_string());
            std::fs::create_dir_all(&dir).unwrap();
            let files = write(&dir, 100, 14, batch);
            let names: Vec<String> = files
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect();
            assert_eq!(
                names,
                [
                    "games-00000.parquet",
                    "games-00001.parquet",
                    "games-00002.parquet"
                ]
            );
            let games: Vec<Vec<u64>> = files.iter().map(|p| games_in(p)).collect();
            assert_eq!(
                games,
                [
                    (100..106).collect::<Vec<_>>(),
                    (106..112).collect(),
                    (112..114).collect()
                ]
            );
            let left = std::fs::read_dir(&dir).unwrap().count();
            assert_eq!(left, 3, "no temporary file stays");
            bytes.push(
                files
                    .iter()
                    .map(|p| std::fs::read(p).unwrap())
                    .collect::<Vec<_>>(),
            );
        }
        assert!(
            bytes.windows(2).all(|w| w[0] == w[1]),
            "the same files from any batches"
        );
        let one = root.join("one");
        std::fs::create_dir_all(&one).unwrap();
        let files = write(&one, 0, 6, 4);
        assert_eq!(files, [one.join("games.parquet")]);
        assert_eq!(games_in(&files[0]), (0..6).collect::<Vec<_>>());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
