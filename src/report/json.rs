//! The JSON report (`--format json`): the summary's columns, the distributions and the speed, as
//! one document for standard output. `docs/output-files.md` describes its shape.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::games::Tally;

use crate::results::summary::{Field, ParamKind, Speed, SummaryRow};

/// One JSON object per summary row, with the keys and values of its `summary.parquet` row: the
/// rules as a nested object, a varied rule's values typed as their Parquet column is.
pub fn summaries(rows: &[SummaryRow]) -> Vec<Map<String, Value>> {
    let fields: Vec<Vec<(String, Field)>> = rows.iter().map(SummaryRow::fields).collect();
    objects(&fields)
}

/// One JSON object per row of named, typed fields, with the values their Parquet columns hold
/// (see [`crate::results::parquet::fields_frame`]).
pub fn objects(fields: &[Vec<(String, Field)>]) -> Vec<Map<String, Value>> {
    let param_kind = |name: &str| {
        ParamKind::of(fields.iter().flatten().filter_map(|(n, f)| match f {
            Field::Param(text) if n == name => Some(text.as_str()),
            _ => None,
        }))
    };
    fields
        .iter()
        .map(|row| {
            row.iter()
                .map(|(name, field)| {
                    let value = match field {
                        Field::U64(v) => json!(v),
                        Field::F64(v) => json!(v),
                        Field::Bool(v) => json!(v),
                        Field::Text(v) => json!(v),
                        Field::Json(text) => serde_json::from_str(text).unwrap_or(json!(text)),
                        Field::Param(text) => match param_kind(name) {
                            ParamKind::Int => text.parse::<i64>().map_or(json!(text), |v| json!(v)),
                            ParamKind::Float => {
                                text.parse::<f64>().map_or(json!(text), |v| json!(v))
                            }
                            ParamKind::Text => json!(text),
                        },
                    };
                    (name.clone(), value)
                })
                .collect()
        })
        .collect()
}

/// The distributions of `tally` as `{metric: [{"value": v, "count": n}, ...]}`: the rows of
/// `distributions.parquet` for one policy or cell.
pub fn distributions<T: Tally>(tally: &T) -> Value {
    let metrics: Map<String, Value> = tally
        .distributions()
        .into_iter()
        .map(|(metric, hist)| {
            let counts: Vec<Value> = hist
                .nonzero()
                .map(|(value, count)| json!({ "value": value, "count": count }))
                .collect();
            (metric.to_string(), Value::Array(counts))
        })
        .collect();
    Value::Object(metrics)
}

/// The speed as `{games, seconds, threads, games_per_second, games_per_second_per_thread}`.
pub fn speed(speed: &Speed) -> Value {
    json!({
        "games": speed.games,
        "seconds": speed.seconds,
        "threads": speed.threads,
        "games_per_second": speed.rate(),
        "games_per_second_per_thread": speed.per_thread(),
    })
}

/// The files written, as an array of paths.
pub fn files(written: &[PathBuf]) -> Value {
    written
        .iter()
        .map(|p| Value::String(p.display().to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::interval::Proportion;

    fn row(policy: &str, param: &str) -> SummaryRow {
        SummaryRow {
            game: "g".into(),
            policy: policy.into(),
            params: vec![("start_hp".into(), param.into())],
            games: 10,
            wins: 4,
            win: Proportion::wilson(4, 10),
            means: vec![("mean_final_hp", 2.5)],
            seed: 1,
            first_game: 0,
            complete: true,
            rules: r#"{"start_hp":20}"#.into(),
            comparison: None,
            precision: None,
        }
    }

    #[test]
    fn rows_carry_every_summary_column_typed() {
        let docs = summaries(&[row("a", "12"), row("b", "16")]);
        let names: Vec<String> = row("a", "12").fields().into_iter().map(|f| f.0).collect();
        let keys: Vec<String> = docs[0].keys().cloned().collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "one key per summary column");
        assert_eq!(docs[1]["policy"], json!("b"));
        assert_eq!(docs[1]["start_hp"], json!(16));
        assert_eq!(docs[0]["win_rate"], json!(0.4));
        assert_eq!(docs[0]["rules"]["start_hp"], json!(20));
        let mixed = summaries(&[row("a", "12"), row("b", "1.5")]);
        assert_eq!(mixed[0]["start_hp"], json!(12.0));
        let text = summaries(&[row("a", "12"), row("b", "strict")]);
        assert_eq!(text[0]["start_hp"], json!("12"));
    }
}
