//! A sweep (`sim sweep`): win rate against the varied rule with interval bars, one line per
//! policy; a heat map per policy for two varied rules; and the table of every cell.

use crate::error::Result;
use crate::report::terminal::{percent, thousands};

use super::super::command::CommandLine;
use super::super::figure::heatmap::{Colours, Grid, heatmap};
use super::super::figure::intervals::{Row as Bar, intervals};
use super::super::figure::lines::{Axis, Point, lines};
use super::super::figure::scale::Scale;
use super::super::page::{Block, Cell, DataTable, Figure, Note, Section};
use super::super::{Context, Folder, Kind};
use super::{
    axis_title, categorical, distinct, legend, percent_one, speed_lines, summary_facts, verdict,
};
use crate::results::read_back::Results;

/// The kind of `sim sweep`'s folder: a summary with varied rules' columns.
pub struct Sweep;

impl Kind for Sweep {
    fn name(&self) -> &'static str {
        "sweep"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has("summary.parquet")
            && folder.table("summary.parquet").is_ok_and(|t| {
                let names = t.names();
                let at = |n: &str| names.iter().position(|x| x == n);
                matches!((at("policy"), at("games")), (Some(p), Some(g)) if g > p + 1)
            })
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let results = Results::read(folder)?;
        let policies = distinct(results.cells.iter().map(|c| c.policy.clone()));
        let values: Vec<Vec<String>> = (0..results.params.len())
            .map(|k| distinct(results.cells.iter().map(|c| c.params[k].1.clone())))
            .collect();
        let mut command = CommandLine::new(&["sweep", &results.game]);
        for p in &policies {
            command.arg("--policy", p.clone());
        }
        for (name, vals) in results.params.iter().zip(&values) {
            command.arg("--vary", format!("{name}={}", vals.join(",")));
        }
        let facts = summary_facts(&results, context, command, policies.clone())?;
        let varied: Vec<usize> = (0..results.params.len())
            .filter(|&k| values[k].len() > 1)
            .collect();
        let mut section = Section::new(
            self.name(),
            format!(
                "{}: sweep of {} over {} cells",
                results.game,
                results.params.join(" and "),
                results.cells.len()
            ),
            facts,
        );
        section.timing = speed_lines(context);
        match varied[..] {
            [] => section.blocks.push(Block::Figure(by_cell(&results)?)),
            [k] => section
                .blocks
                .push(Block::Figure(by_value(&results, &policies, k, &values[k])?)),
            [r, c] => {
                for (p, policy) in policies.iter().enumerate() {
                    section.blocks.push(Block::Figure(two_rules(
                        &results,
                        p,
                        policy,
                        [r, c],
                        &values,
                    )?));
                }
            }
            _ => section.blocks.push(Block::Note(Note {
                text: format!(
                    "{} rules vary: the figures draw one or two; every cell is in the table below.",
                    varied.len()
                ),
            })),
        }
        section.verdict = policies
            .iter()
            .filter_map(|p| sweep_verdict(&results, p))
            .collect();
        section.blocks.push(Block::Table(cells_table(&results)));
        Ok(section)
    }
}

/// One varied rule: win rate against its values, a line per policy.
fn by_value(results: &Results, policies: &[String], k: usize, values: &[String]) -> Result<Figure> {
    let rule = &results.params[k];
    let axis = Axis::of(values);
    let series: Vec<Vec<Point>> = policies
        .iter()
        .map(|policy| {
            let mut points: Vec<Point> = results
                .cells
                .iter()
                .filter(|c| &c.policy == policy)
                .map(|c| Point {
                    x: axis.position(&c.params[k].1),
                    value: c.win.value,
                    low: c.win.low,
                    high: c.win.high,
                })
                .collect();
            points.sort_by(|a, b| a.x.total_cmp(&b.x));
            points
        })
        .collect();
    let caption = format!("Win rate against {rule}, one line per policy, with 95% intervals.");
    let svg = lines(
        &series,
        &categorical(series.len()),
        &axis,
        &axis_title(rule),
        "win rate",
        Scale::Percent,
        &caption,
    )?;
    Ok(Figure::new("lines", caption, svg).with_legend(legend(policies)))
}

/// Two varied rules: one heat map of win rates per policy.
fn two_rules(
    results: &Results,
    p: usize,
    policy: &str,
    [r, c]: [usize; 2],
    values: &[Vec<String>],
) -> Result<Figure> {
    let (rows, cols) = (&values[r], &values[c]);
    let mut grid = Grid {
        row_desc: axis_title(&results.params[r]),
        col_desc: axis_title(&results.params[c]),
        rows: rows.clone(),
        cols: cols.clone(),
        values: vec![vec![None; cols.len()]; rows.len()],
    };
    for cell in results.cells.iter().filter(|x| x.policy == policy) {
        let ri = rows.iter().position(|v| *v == cell.params[r].1);
        let ci = cols.iter().position(|v| *v == cell.params[c].1);
        if let (Some(ri), Some(ci)) = (ri, ci) {
            grid.values[ri][ci] = Some(cell.win.value);
        }
    }
    let caption = format!(
        "Win rate of {policy} over {} (rows) and {} (columns); the table below gives each cell's 95% interval.",
        grid.row_desc, grid.col_desc
    );
    let svg = heatmap(&grid, Colours::Sequential, percent_one, &caption)?;
    Ok(Figure::new(format!("heatmap-{p}"), caption, svg))
}

/// No rule takes two values: the cells' win rates side by side.
fn by_cell(results: &Results) -> Result<Figure> {
    let bars: Vec<Bar> = results
        .cells
        .iter()
        .map(|c| Bar {
            label: cell_label(&c.policy, &c.params),
            value: c.win.value,
            low: c.win.low,
            high: c.win.high,
            wide: None,
        })
        .collect();
    let caption = "Win rate of each cell with its 95% interval.".to_string();
    let svg = intervals(&bars, "win rate", Scale::Percent, None, &caption)?;
    Ok(Figure::new("cells", caption, svg))
}

/// The page's verdict on one policy of a sweep: its lowest and highest cells.
fn sweep_verdict(results: &Results, policy: &str) -> Option<String> {
    let cells: Vec<&crate::results::read_back::Cell> = results
        .cells
        .iter()
        .filter(|c| c.policy == policy)
        .collect();
    let pick = |lower: bool| {
        cells.iter().copied().reduce(|a, b| {
            let b_wins = if lower {
                b.win.value < a.win.value
            } else {
                b.win.value > a.win.value
            };
            if b_wins { b } else { a }
        })
    };
    let (low, high) = (pick(true)?, pick(false)?);
    let name = |c: &crate::results::read_back::Cell| {
        c.params
            .iter()
            .map(|(p, v)| format!("{p} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(verdict::sweep(
        policy,
        (&name(low), &low.win),
        (&name(high), &high.win),
    ))
}

fn cell_label(policy: &str, params: &[(String, String)]) -> String {
    let values: Vec<String> = params.iter().map(|(p, v)| format!("{p}={v}")).collect();
    format!("{policy}, {}", values.join(", "))
}

/// Every cell: policy, varied values, games, win rate and interval (and whether a precision
/// target was met).
fn cells_table(results: &Results) -> DataTable {
    let precision = results.cells.first().is_some_and(|c| c.precision.is_some());
    let mut headers: Vec<&str> = vec!["policy"];
    headers.extend(results.params.iter().map(String::as_str));
    headers.extend(["games", "win rate", "95% CI low", "95% CI high"]);
    if precision {
        headers.push("precision met");
    }
    let mut t = DataTable::new("cells-table", "Every cell of the sweep", &headers)
        .from_file("summary.parquet");
    for (i, c) in results.cells.iter().enumerate() {
        let mut cells = vec![Cell::text(&c.policy)];
        cells.extend(c.params.iter().map(|(p, v)| Cell::number(p, v, v.clone())));
        cells.extend([
            Cell::number("games", c.games, thousands(c.games)),
            Cell::number("win_rate", c.win.value, percent(c.win.value)),
            Cell::number("win_ci_low", c.win.low, percent(c.win.low)),
            Cell::number("win_ci_high", c.win.high, percent(c.win.high)),
        ]);
        if let Some((_, met)) = c.precision {
            cells.push(Cell::number(
                "precision_met",
                met,
                if met { "yes" } else { "no" },
            ));
        }
        t.push(i.to_string(), cells);
    }
    t
}
