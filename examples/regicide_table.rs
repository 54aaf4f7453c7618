//! Prints the Regicide figure tables of docs/regicide.md from the files of `sim regicide` runs:
//! one row per run folder (summary.parquet and distributions.parquet), exact counts.
//!
//! `cargo run --release --example regicide_table -- DIR...`

use std::fs::File;

use polars::prelude::{AnyValue, DataFrame, ParquetReader, SerReader};

fn read(path: &std::path::Path) -> DataFrame {
    let file = File::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    ParquetReader::new(file).finish().expect("a parquet file")
}

fn number(df: &DataFrame, column: &str) -> f64 {
    match df.column(column).and_then(|c| c.get(0)).expect(column) {
        AnyValue::UInt64(v) => v as f64,
        AnyValue::Float64(v) => v,
        AnyValue::Int64(v) => v as f64,
        other => panic!("{column}: {other:?}"),
    }
}

/// The `players` rule from the summary's effective rules (JSON).
fn players(df: &DataFrame) -> u64 {
    let rules = df
        .column("rules")
        .unwrap()
        .str()
        .unwrap()
        .get(0)
        .unwrap()
        .to_string();
    let json: serde_json::Value = serde_json::from_str(&rules).expect("rules as JSON");
    json["players"].as_u64().expect("a players rule")
}

fn main() {
    println!(
        "| run | players | games | wins | win rate | mean royals | gold | silver | bronze | royals 0..12 (games) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for dir in std::env::args().skip(1) {
        let dir = std::path::Path::new(&dir);
        let s = read(&dir.join("summary.parquet"));
        let d = read(&dir.join("distributions.parquet"));
        let games = number(&s, "games");
        let mut royals = [0u64; 13];
        let metric = d.column("metric").unwrap().str().unwrap().clone();
        let value = d.column("value").unwrap().i64().unwrap().clone();
        let count = d.column("count").unwrap().u64().unwrap().clone();
        for i in 0..d.height() {
            if metric.get(i) == Some("royals") {
                royals[value.get(i).unwrap() as usize] += count.get(i).unwrap();
            }
        }
        let grade = |name: &str| (number(&s, name) * games).round() as u64;
        let list: Vec<String> = royals.iter().map(u64::to_string).collect();
        println!(
            "| {} | {} | {} | {} | {:.3}% | {:.4} | {} | {} | {} | {} |",
            dir.file_name().unwrap().to_string_lossy(),
            players(&s),
            games,
            number(&s, "wins"),
            100.0 * number(&s, "win_rate"),
            number(&s, "mean_royals"),
            grade("gold_rate"),
            grade("silver_rate"),
            grade("bronze_rate"),
            list.join(" / ")
        );
    }
}
