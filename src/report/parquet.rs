//! Parquet files: `summary.parquet` and `distributions.parquet` (the streamed `games.parquet` is
//! [`super::games_file`]).

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Result, SimError};

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
