//! A results folder and its tables, as the report reads them: typed columns out of the Parquet
//! files, the JSON files as values. Every error names the file (and the column).

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::{AnyValue, Column, DataFrame, DataType, ParquetReader, SerReader};

use crate::error::{Result, SimError};

/// A folder a command wrote its results into.
pub struct Folder {
    path: PathBuf,
}

impl Folder {
    /// The folder at `path`, which must exist.
    pub fn open(path: &Path) -> Result<Self> {
        if !path.is_dir() {
            return Err(SimError::input(format!(
                "{}: no such folder (give folders that sim commands wrote their results into)",
                path.display()
            )));
        }
        Ok(Self {
            path: path.to_path_buf(),
        })
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True if the folder holds the file `name`.
    pub fn has(&self, name: &str) -> bool {
        self.path.join(name).is_file()
    }

    /// The Parquet file `name` of the folder.
    pub fn table(&self, name: &str) -> Result<Frame> {
        let path = self.path.join(name);
        let unreadable = |e: &dyn std::fmt::Display| {
            SimError::input(format!(
                "{}: not a readable Parquet file: {e}",
                path.display()
            ))
        };
        let file = File::open(&path).map_err(|e| unreadable(&e))?;
        let df = ParquetReader::new(file)
            .finish()
            .map_err(|e| unreadable(&e))?;
        Ok(Frame { df, path })
    }

    /// The JSON file `name` of the folder.
    pub fn json(&self, name: &str) -> Result<serde_json::Value> {
        let path = self.path.join(name);
        let text = std::fs::read_to_string(&path).map_err(|source| SimError::Io {
            action: "cannot read",
            path: path.clone(),
            source,
        })?;
        serde_json::from_str(&text)
            .map_err(|e| SimError::input(format!("{}: not readable JSON: {e}", path.display())))
    }
}

/// One Parquet table, read whole.
pub struct Frame {
    df: DataFrame,
    path: PathBuf,
}

impl Frame {
    /// Rows.
    pub fn height(&self) -> usize {
        self.df.height()
    }

    /// The column names, in file order.
    pub fn names(&self) -> Vec<String> {
        self.df
            .get_column_names()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// True if the table has the column `name`.
    pub fn has(&self, name: &str) -> bool {
        self.df.column(name).is_ok()
    }

    fn column(&self, name: &str) -> Result<&Column> {
        self.df
            .column(name)
            .map_err(|_| self.error(name, "is missing"))
    }

    fn error(&self, name: &str, what: &str) -> SimError {
        SimError::input(format!(
            "{}: column {name} {what} (was the file written by sim?)",
            self.path.display()
        ))
    }

    /// Every value of column `name` as `T`, from the typed column `typed` gives; a null or a
    /// column of another type is an error naming the file and column.
    fn values<T, C>(
        &self,
        name: &str,
        typed: impl FnOnce(&Column) -> Option<C>,
        kind: &str,
    ) -> Result<Vec<T>>
    where
        C: IntoIterator<Item = Option<T>>,
    {
        self.options(name, typed, kind)?
            .into_iter()
            .collect::<Option<Vec<T>>>()
            .ok_or_else(|| self.error(name, "has empty cells"))
    }

    /// Every value of column `name` as `T`, `None` for a null, from the typed column `typed`
    /// gives; a column of another type is an error naming the file and column.
    fn options<T, C>(
        &self,
        name: &str,
        typed: impl FnOnce(&Column) -> Option<C>,
        kind: &str,
    ) -> Result<Vec<Option<T>>>
    where
        C: IntoIterator<Item = Option<T>>,
    {
        let column = self.column(name)?;
        let values = typed(column).ok_or_else(|| self.error(name, &format!("is not {kind}")))?;
        Ok(values.into_iter().collect())
    }

    /// Column `name` as floats.
    pub fn f64s(&self, name: &str) -> Result<Vec<f64>> {
        self.values(name, floats, "Float64")
    }

    /// Column `name` as floats, `NaN` where empty: a figure sim could not estimate (too few
    /// games), which the page shows as n/a.
    pub fn f64s_or_nan(&self, name: &str) -> Result<Vec<f64>> {
        Ok(self
            .optional_f64s(name)?
            .into_iter()
            .map(|x| x.unwrap_or(f64::NAN))
            .collect())
    }

    /// Column `name` as floats, `None` where empty.
    pub fn optional_f64s(&self, name: &str) -> Result<Vec<Option<f64>>> {
        self.options(name, floats, "Float64")
    }

    /// Column `name` as unsigned integers (of any width).
    pub fn u64s(&self, name: &str) -> Result<Vec<u64>> {
        self.values(name, unsigned, "an unsigned integer")
    }

    /// Column `name` as unsigned integers (of any width), `None` where empty.
    pub fn optional_u64s(&self, name: &str) -> Result<Vec<Option<u64>>> {
        self.options(name, unsigned, "an unsigned integer")
    }

    /// Column `name` as signed integers.
    pub fn i64s(&self, name: &str) -> Result<Vec<i64>> {
        self.values(
            name,
            |c| Some(c.i64().ok()?.iter().collect::<Vec<_>>()),
            "Int64",
        )
    }

    /// Column `name` as flags.
    pub fn bools(&self, name: &str) -> Result<Vec<bool>> {
        self.values(
            name,
            |c| Some(c.bool().ok()?.iter().collect::<Vec<_>>()),
            "Boolean",
        )
    }

    /// Column `name` as text.
    pub fn strings(&self, name: &str) -> Result<Vec<String>> {
        self.values(name, texts, "String")
    }

    /// Column `name` as text, `None` where empty.
    pub fn optional_strings(&self, name: &str) -> Result<Vec<Option<String>>> {
        self.options(name, texts, "String")
    }

    /// Column `name` of any of the types a varied rule's column takes (Int64, Float64, String),
    /// each value as the command line gives it.
    pub fn texts(&self, name: &str) -> Result<Vec<String>> {
        let column = self.column(name)?;
        (0..self.height())
            .map(|i| match column.get(i) {
                Ok(AnyValue::Int64(v)) => Ok(v.to_string()),
                Ok(AnyValue::UInt64(v)) => Ok(v.to_string()),
                Ok(AnyValue::Float64(v)) => Ok(v.to_string()),
                Ok(AnyValue::Boolean(v)) => Ok(v.to_string()),
                Ok(AnyValue::String(v)) => Ok(v.to_string()),
                Ok(AnyValue::StringOwned(v)) => Ok(v.to_string()),
                _ => Err(self.error(name, "holds a value that is not a number or text")),
            })
            .collect()
    }
}

/// A Float64 column's values.
fn floats(c: &Column) -> Option<Vec<Option<f64>>> {
    Some(c.f64().ok()?.iter().collect())
}

/// An unsigned integer column's values, of any width.
fn unsigned(c: &Column) -> Option<Vec<Option<u64>>> {
    let wide = c
        .dtype()
        .is_unsigned_integer()
        .then(|| c.cast(&DataType::UInt64).ok())??;
    Some(wide.u64().ok()?.iter().collect())
}

/// A String column's values.
fn texts(c: &Column) -> Option<Vec<Option<String>>> {
    Some(
        c.str()
            .ok()?
            .iter()
            .map(|v| v.map(str::to_string))
            .collect(),
    )
}
