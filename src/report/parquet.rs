//! Parquet files: `summary.parquet`, `distributions.parquet` and the streamed `games.parquet`.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Result, SimError};
use crate::games::{ColumnData, Record};

use super::files::AtomicFile;
use super::summary::{DistributionRow, SummaryRow};

fn polars_error(path: &Path, e: PolarsError) -> SimError {
    SimError::Output {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Writes `df` to `path` atomically.
pub fn write_frame(path: &Path, df: &mut DataFrame) -> Result<PathBuf> {
    let mut file = AtomicFile::create(path)?;
    ParquetWriter::new(file.file())
        .finish(df)
        .map_err(|e| polars_error(path, e))?;
    file.commit()
}

/// The summary table: one row per run, policy or grid cell. Means and varied parameters become
/// columns named as given (every row must carry the same names).
pub fn summary_frame(rows: &[SummaryRow]) -> Result<DataFrame> {
    let col_u64 = |name: &str, f: &dyn Fn(&SummaryRow) -> u64| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<u64>>())
    };
    let col_f64 = |name: &str, f: &dyn Fn(&SummaryRow) -> f64| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<f64>>())
    };
    let col_str = |name: &str, f: &dyn Fn(&SummaryRow) -> String| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<String>>())
    };
    let mut columns = vec![
        col_str("game", &|r| r.game.clone()),
        col_str("policy", &|r| r.policy.clone()),
    ];
    if let Some(first) = rows.first() {
        for (i, (name, _)) in first.params.iter().enumerate() {
            let texts: Vec<&str> = rows.iter().map(|r| r.params[i].1.as_str()).collect();
            columns.push(typed_column(name, &texts));
        }
    }
    columns.extend([
        col_u64("games", &|r| r.games),
        col_u64("wins", &|r| r.wins),
        col_f64("win_rate", &|r| r.win.rate),
        col_f64("win_ci_low", &|r| r.win.low),
        col_f64("win_ci_high", &|r| r.win.high),
    ]);
    if let Some(first) = rows.first() {
        for (i, (name, _)) in first.means.iter().enumerate() {
            columns.push(col_f64(name, &|r| r.means[i].1));
        }
    }
    if rows.first().is_some_and(|r| r.comparison.is_some()) {
        let cmp = |r: &SummaryRow| r.comparison.clone().expect("every row is compared");
        columns.extend([
            col_str("baseline", &|r| cmp(r).baseline),
            col_f64("diff", &|r| cmp(r).paired.diff),
            col_f64("diff_ci_low", &|r| cmp(r).paired.low),
            col_f64("diff_ci_high", &|r| cmp(r).paired.high),
            col_f64("diff_unpaired_ci_low", &|r| cmp(r).unpaired.low),
            col_f64("diff_unpaired_ci_high", &|r| cmp(r).unpaired.high),
        ]);
    }
    if rows.first().is_some_and(|r| r.precision.is_some()) {
        let target = |r: &SummaryRow| r.precision.expect("every row has the target");
        columns.extend([
            col_f64("precision", &|r| target(r).target),
            Column::new(
                "precision_met".into(),
                rows.iter().map(|r| target(r).met).collect::<Vec<bool>>(),
            ),
        ]);
    }
    columns.extend([
        col_u64("seed", &|r| r.seed),
        col_u64("first_game", &|r| r.first_game),
        Column::new(
            "complete".into(),
            rows.iter().map(|r| r.complete).collect::<Vec<bool>>(),
        ),
        col_str("rules", &|r| r.rules.clone()),
        col_str("version", &|_| env!("CARGO_PKG_VERSION").to_string()),
    ]);
    DataFrame::new_infer_height(columns).map_err(|e| SimError::input(e.to_string()))
}

/// A column of values given as text: whole numbers if all are, else numbers, else text.
fn typed_column(name: &str, texts: &[&str]) -> Column {
    if let Ok(ints) = texts
        .iter()
        .map(|t| t.parse::<i64>())
        .collect::<Result<Vec<_>, _>>()
    {
        return Column::new(name.into(), ints);
    }
    if let Ok(floats) = texts
        .iter()
        .map(|t| t.parse::<f64>())
        .collect::<Result<Vec<_>, _>>()
    {
        return Column::new(name.into(), floats);
    }
    Column::new(name.into(), texts.to_vec())
}

/// The distributions table: one row per (policy or cell, metric, value) with its count.
pub fn distributions_frame(rows: &[DistributionRow]) -> Result<DataFrame> {
    let columns = vec![
        Column::new(
            "policy".into(),
            rows.iter().map(|r| r.policy.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "cell".into(),
            rows.iter().map(|r| r.cell as u64).collect::<Vec<_>>(),
        ),
        Column::new(
            "metric".into(),
            rows.iter().map(|r| r.metric).collect::<Vec<_>>(),
        ),
        Column::new(
            "value".into(),
            rows.iter().map(|r| r.value).collect::<Vec<i64>>(),
        ),
        Column::new(
            "count".into(),
            rows.iter().map(|r| r.count).collect::<Vec<u64>>(),
        ),
    ];
    DataFrame::new_infer_height(columns).map_err(|e| SimError::input(e.to_string()))
}

/// `games.parquet`, written in batches (one row group each) so memory stays flat.
pub struct GamesWriter<R> {
    path: PathBuf,
    file: AtomicFile,
    writer: Option<polars::io::parquet::write::BatchedWriter<std::fs::File>>,
    next: u64,
    record: std::marker::PhantomData<R>,
}

impl<R: Record> GamesWriter<R> {
    /// Starts `path` (it appears only on [`GamesWriter::finish`]).
    /// Rows are numbered from game index `first`.
    pub fn create(path: &Path, first: u64) -> Result<Self> {
        Ok(Self {
            path: path.to_path_buf(),
            file: AtomicFile::create(path)?,
            writer: None,
            next: first,
            record: std::marker::PhantomData,
        })
    }

    /// Appends the outcomes of the next games as rows.
    pub fn write(&mut self, batch: &[R]) -> Result<()> {
        let first = self.next;
        self.next += batch.len() as u64;
        let mut columns = vec![Column::new(
            "game".into(),
            (first..self.next).collect::<Vec<u64>>(),
        )];
        for (name, data) in R::columns(batch) {
            columns.push(match data {
                ColumnData::U32(v) => Column::new(name.into(), v),
                ColumnData::I32(v) => Column::new(name.into(), v),
                ColumnData::Bool(v) => Column::new(name.into(), v),
                ColumnData::Str(v) => Column::new(name.into(), v),
            });
        }
        let df = DataFrame::new_infer_height(columns).map_err(|e| polars_error(&self.path, e))?;
        if self.writer.is_none() {
            let writer = ParquetWriter::new(self.file.take())
                .batched(df.schema())
                .map_err(|e| polars_error(&self.path, e))?;
            self.writer = Some(writer);
        }
        let writer = self.writer.as_mut().expect("created above");
        writer
            .write_batch(&df)
            .map_err(|e| polars_error(&self.path, e))
    }

    /// Closes the file and gives it its real name.
    pub fn finish(mut self) -> Result<PathBuf> {
        if self.writer.is_none() {
            self.write(&[])?;
        }
        if let Some(writer) = &self.writer {
            writer.finish().map_err(|e| polars_error(&self.path, e))?;
        }
        self.file.commit()
    }
}
