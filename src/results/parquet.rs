//! Parquet files: `summary.parquet` and `distributions.parquet` (the streamed `games.parquet` is
//! [`super::games_file`]).

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::{Result, SimError};

use super::summary::{DistributionRow, Field, ParamKind, SummaryRow};
use crate::files::AtomicFile;

fn polars_error(path: &Path, e: PolarsError) -> SimError {
    SimError::Output {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Writes `df` to `path` atomically.
pub fn write_frame(path: &Path, df: &mut DataFrame) -> Result<PathBuf> {
    write_frame_uncommitted(path, df)?.commit()
}

/// Writes `df` under a temporary name for `path`, to be given its name by
/// [`AtomicFile::commit`].
pub fn write_frame_uncommitted(path: &Path, df: &mut DataFrame) -> Result<AtomicFile> {
    let mut file = AtomicFile::create(path)?;
    ParquetWriter::new(file.file())
        .finish(df)
        .map_err(|e| polars_error(path, e))?;
    Ok(file)
}

/// The summary table: one row per run, policy or grid cell, with the columns of
/// [`SummaryRow::fields`] (every row must carry the same names).
pub fn summary_frame(rows: &[SummaryRow]) -> Result<DataFrame> {
    let fields: Vec<Vec<(String, Field)>> = rows.iter().map(SummaryRow::fields).collect();
    fields_frame(&fields)
}

/// A table of rows given as named, typed fields (every row must carry the same names, in the
/// same order); a varied rule's column is typed by [`ParamKind::of`] over every row.
pub fn fields_frame(fields: &[Vec<(String, Field)>]) -> Result<DataFrame> {
    let Some(first) = fields.first() else {
        return Ok(DataFrame::empty());
    };
    let mismatch = |name: &str| SimError::input(format!("rows differ in column {name}"));
    let mut columns = Vec::with_capacity(first.len());
    for (j, (name, kind)) in first.iter().enumerate() {
        let cells = || {
            fields
                .iter()
                .map(move |f| f.get(j).filter(|(n, _)| n == name))
        };
        macro_rules! collect {
            ($variant:ident, $ty:ty) => {
                cells()
                    .map(|c| match c {
                        Some((_, Field::$variant(v))) => Ok(v.clone()),
                        _ => Err(mismatch(name)),
                    })
                    .collect::<Result<Vec<$ty>>>()?
            };
        }
        let column = match kind {
            Field::U64(_) => Column::new(name.into(), collect!(U64, u64)),
            // A figure that could not be estimated (NaN: too few games) is written as null.
            Field::F64(_) => Column::new(
                name.into(),
                collect!(F64, f64)
                    .into_iter()
                    .map(|x| Some(x).filter(|x| x.is_finite()))
                    .collect::<Vec<Option<f64>>>(),
            ),
            Field::Bool(_) => Column::new(name.into(), collect!(Bool, bool)),
            Field::Text(_) => Column::new(name.into(), collect!(Text, String)),
            Field::Json(_) => Column::new(name.into(), collect!(Json, String)),
            Field::Param(_) => param_column(name, &collect!(Param, String)),
        };
        columns.push(column);
    }
    DataFrame::new_infer_height(columns).map_err(|e| SimError::input(e.to_string()))
}

/// A varied rule's column, typed by [`ParamKind::of`].
pub fn param_column(name: &str, texts: &[String]) -> Column {
    let parsed = |t: &String| t.parse::<f64>().unwrap_or_default();
    match ParamKind::of(texts.iter().map(String::as_str)) {
        ParamKind::Int => Column::new(
            name.into(),
            texts
                .iter()
                .map(|t| t.parse::<i64>().unwrap_or_default())
                .collect::<Vec<i64>>(),
        ),
        ParamKind::Float => {
            Column::new(name.into(), texts.iter().map(parsed).collect::<Vec<f64>>())
        }
        ParamKind::Text => Column::new(name.into(), texts.to_vec()),
    }
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
