//! Text tables for the terminal: the ranked comparison, the sweep's rows and its grid.

use std::fmt::Write;

use crate::balance::target::Scale;
use crate::results::summary::SummaryRow;

use super::terminal::{NOT_ESTIMATED, percent};

/// Lays out `rows` under `headers` in aligned columns: the first `left` columns aligned left,
/// the rest right.
pub fn table(headers: &[String], rows: &[Vec<String>], left: usize) -> String {
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([headers[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::from(" ");
        for (c, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            if c < left {
                let _ = write!(s, " {cell:<width$}");
            } else {
                let _ = write!(s, " {cell:>width$}");
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut s = line(headers);
    for row in rows {
        s.push_str(&line(row));
    }
    s
}

/// A 95% interval as `low to high` in percent (n/a without one).
pub fn interval(low: f64, high: f64) -> String {
    if !low.is_finite() || !high.is_finite() {
        return NOT_ESTIMATED.into();
    }
    format!("{} to {}", percent(low), percent(high))
}

/// A difference of rates in percentage points, signed (n/a for none).
pub fn points(diff: f64) -> String {
    if !diff.is_finite() {
        return NOT_ESTIMATED.into();
    }
    format!("{:+.2} pts", 100.0 * diff)
}

/// A balance metric's `value` as the reports show it: a rate in percent, a difference in signed
/// points, a mean to four decimals.
pub fn on_scale(scale: Scale, value: f64) -> String {
    match scale {
        Scale::Rate => percent(value),
        Scale::Difference => points(value),
        Scale::Mean => format!("{value:.4}"),
    }
}

/// The columns every summary row shows after its labels: games, win rate, interval, first mean.
fn figures(row: &SummaryRow) -> Vec<String> {
    let mut cells = vec![
        super::terminal::thousands(row.games),
        percent(row.win.rate),
        interval(row.win.low, row.win.high),
    ];
    if let Some((_, mean)) = row.means.first() {
        cells.push(format!("{mean:.3}"));
    }
    cells
}

fn figure_headers(rows: &[SummaryRow]) -> Vec<String> {
    let mut headers: Vec<String> = ["games", "win rate", "95% CI"].map(String::from).to_vec();
    if let Some((name, _)) = rows.first().and_then(|r| r.means.first()) {
        headers.push(name.replace('_', " "));
    }
    headers
}

/// The comparison: policies ranked by win rate, each with its paired difference from the
/// baseline. `order` lists row indices best first.
pub fn ranked(rows: &[SummaryRow], order: &[usize]) -> String {
    let mut headers = vec!["rank".to_string(), "policy".to_string()];
    headers.extend(figure_headers(rows));
    let baseline = rows
        .first()
        .and_then(|r| r.comparison.as_ref())
        .map_or(String::new(), |c| c.baseline.clone());
    headers.push(format!("vs {baseline}"));
    headers.push("paired 95% CI".to_string());
    let lines: Vec<Vec<String>> = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let row = &rows[i];
            let mut cells = vec![format!("{}", rank + 1), row.policy.clone()];
            cells.extend(figures(row));
            match &row.comparison {
                Some(c) if row.policy != c.baseline => {
                    cells.push(points(c.paired.diff));
                    cells.push(if c.paired.low.is_finite() {
                        format!("{} to {}", points(c.paired.low), points(c.paired.high))
                    } else {
                        NOT_ESTIMATED.into()
                    });
                }
                _ => cells.extend(["baseline".to_string(), String::new()]),
            }
            cells
        })
        .collect();
    table(&headers, &lines, 2)
}

/// The sweep's cells, one row each: policy, the varied values, the figures, and each cell's
/// paired difference from its base cell when the rows carry one.
pub fn cells(rows: &[SummaryRow]) -> String {
    let mut headers = vec!["policy".to_string()];
    if let Some(first) = rows.first() {
        headers.extend(first.params.iter().map(|(path, _)| path.clone()));
    }
    let left = headers.len();
    headers.extend(figure_headers(rows));
    let compared = rows.iter().all(|r| r.comparison.is_some()) && !rows.is_empty();
    if compared {
        headers.extend(["vs base".to_string(), "paired 95% CI".to_string()]);
    }
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let mut cells = vec![row.policy.clone()];
            cells.extend(row.params.iter().map(|(_, v)| v.clone()));
            cells.extend(figures(row));
            if let (true, Some(c)) = (compared, &row.comparison) {
                if crate::results::summary::params_label(&row.params) == c.baseline {
                    cells.extend(["base".to_string(), String::new()]);
                } else {
                    cells.push(points(c.paired.diff));
                    cells.push(format!(
                        "{} to {}",
                        points(c.paired.low),
                        points(c.paired.high)
                    ));
                }
            }
            cells
        })
        .collect();
    table(&headers, &lines, left)
}

/// Figures laid out as a grid: one row per value of one dimension, one column per value of
/// another. `entries` are (row label, column label, the cell's text).
pub fn grid(corner: &str, entries: &[(String, String, String)]) -> String {
    let mut row_labels: Vec<&String> = Vec::new();
    let mut col_labels: Vec<&String> = Vec::new();
    for (r, c, _) in entries {
        if !row_labels.contains(&r) {
            row_labels.push(r);
        }
        if !col_labels.contains(&c) {
            col_labels.push(c);
        }
    }
    let mut headers = vec![corner.to_string()];
    headers.extend(col_labels.iter().map(|c| c.to_string()));
    let lines: Vec<Vec<String>> = row_labels
        .iter()
        .map(|r| {
            let mut cells = vec![r.to_string()];
            cells.extend(col_labels.iter().map(|c| {
                entries
                    .iter()
                    .find(|(er, ec, _)| er == *r && ec == *c)
                    .map_or(String::new(), |(_, _, text)| text.clone())
            }));
            cells
        })
        .collect();
    table(&headers, &lines, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_and_grids_place_each_rate() {
        let headers = vec!["name".to_string(), "n".to_string()];
        let rows = vec![
            vec!["a".to_string(), "10".to_string()],
            vec!["bbb".to_string(), "2".to_string()],
        ];
        assert_eq!(
            table(&headers, &rows, 1),
            "  name  n\n  a    10\n  bbb   2\n"
        );
        let g = grid(
            "hp \\ zone",
            &[
                ("12".into(), "0".into(), percent(0.5)),
                ("12".into(), "1".into(), percent(0.25)),
                ("16".into(), "0".into(), percent(0.125)),
            ],
        );
        let lines: Vec<&str> = g.lines().collect();
        assert_eq!(
            lines[0].split_whitespace().collect::<Vec<_>>(),
            ["hp", "\\", "zone", "0", "1"]
        );
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["12", "50.00%", "25.00%"]
        );
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["16", "12.50%"]
        );
    }
}
