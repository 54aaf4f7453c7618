//! A comparison (`sim compare`): the policies ranked by win rate, and a forest plot of each
//! one's paired difference from the baseline on the same deals.

use crate::error::Result;
use crate::report::tables::points;
use crate::report::terminal::{percent, thousands};

use super::super::command::CommandLine;
use super::super::figure::intervals::{Row as Bar, ends, intervals_on};
use super::super::figure::padded;
use super::super::figure::scale::Scale;
use super::super::page::{Block, Cell, DataTable, Figure, Headline, Note, Section};
use super::super::{Context, Folder, Kind};
use super::{interval_text, mean_cell, speed_lines, summary_facts, verdict, words};
use crate::results::read_back::{Interval, Results};

/// The kind of `sim compare`'s folder: a summary with a `baseline` column.
pub struct Compare;

impl Kind for Compare {
    fn name(&self) -> &'static str {
        "compare"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has("summary.parquet")
            && folder
                .table("summary.parquet")
                .is_ok_and(|t| t.has("baseline"))
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let (results, order, baseline) = read_ranked(folder)?;
        let policies: Vec<String> = results.cells.iter().map(|c| c.policy.clone()).collect();
        let mut command = CommandLine::new(&["compare", &results.game]);
        for p in &policies {
            command.arg("--policy", p.clone());
        }
        command.arg("--baseline", baseline.clone());
        let facts = summary_facts(&results, context, command, policies.clone())?;
        let mut section = Section::new(
            self.name(),
            format!(
                "{}: {} policies compared on the same deals",
                results.game,
                policies.len()
            ),
            facts,
        );
        section.timing = speed_lines(context);
        if let Some(&best) = order.first() {
            let cell = &results.cells[best];
            section.blocks.push(Block::Headline(Headline {
                label: format!("best: {}", cell.policy),
                value: Cell::number("win_rate", cell.win.value, percent(cell.win.value)),
                interval: format!("({})", interval_text(&cell.win)),
            }));
        }
        section.verdict = compare_verdict(&results, &order, &baseline);
        section.blocks.push(Block::Table(ranked(&results, &order)));
        section
            .blocks
            .push(Block::Figure(forest(&results, &order, &baseline, None)?));
        section.blocks.push(Block::Note(Note {
            text: format!(
                "Every policy played the same deals, so each difference from {baseline} is measured deal by deal (paired): its interval is narrower than that of two independent runs (grey)."
            ),
        }));
        Ok(section)
    }
}

/// The page's verdict: the best policy and the paired differences from the baseline.
fn compare_verdict(results: &Results, order: &[usize], baseline: &str) -> Vec<String> {
    let Some(best) = order.first().map(|&i| &results.cells[i]) else {
        return Vec::new();
    };
    let others: Vec<(&str, Interval)> = order
        .iter()
        .filter_map(|&i| {
            let c = &results.cells[i];
            let cmp = c
                .comparison
                .as_ref()
                .filter(|cmp| cmp.baseline != c.policy)?;
            Some((c.policy.as_str(), cmp.paired))
        })
        .collect();
    vec![verdict::compare(&best.policy, &best.win, baseline, &others)]
}

/// The ranked table: rank, policy, games, win rate and interval, the difference from the
/// baseline with its paired interval, and the game's first figure.
fn ranked(results: &Results, order: &[usize]) -> DataTable {
    let first_mean = results
        .cells
        .first()
        .and_then(|c| c.means.first())
        .map(|(n, _)| n.clone());
    let mut headers = vec![
        "rank", "policy", "games", "win rate", "low", "high", "vs base", "low", "high",
    ];
    let mean_header = first_mean.as_deref().map(words);
    if let Some(h) = &mean_header {
        headers.push(h);
    }
    let mut t = DataTable::new(
        "ranked",
        format!(
            "The policies, best first: win rate with its 95% interval, and the difference from {} with its paired 95% interval",
            results.cells.iter().find_map(|c| c.comparison.as_ref()).map_or("the baseline", |c| c.baseline.as_str())
        ),
        &headers,
    )
    .from_file("summary.parquet");
    for (rank, &i) in order.iter().enumerate() {
        let c = &results.cells[i];
        let mut cells = vec![
            Cell::text((rank + 1).to_string()),
            Cell::text(&c.policy),
            Cell::number("games", c.games, thousands(c.games)),
            Cell::number("win_rate", c.win.value, percent(c.win.value)),
            Cell::number("win_ci_low", c.win.low, percent(c.win.low)),
            Cell::number("win_ci_high", c.win.high, percent(c.win.high)),
        ];
        match &c.comparison {
            Some(cmp) if cmp.baseline != c.policy => cells.extend([
                Cell::number("diff", cmp.paired.value, points(cmp.paired.value)),
                Cell::number("diff_ci_low", cmp.paired.low, points(cmp.paired.low)),
                Cell::number("diff_ci_high", cmp.paired.high, points(cmp.paired.high)),
            ]),
            _ => cells.extend([Cell::text("baseline"), Cell::text(""), Cell::text("")]),
        }
        if let Some(name) = &first_mean {
            cells.push(mean_cell(name, c.mean(name).unwrap_or_default()));
        }
        t.push(i.to_string(), cells);
    }
    t
}

/// The comparison in `folder`, its policies best first, and its baseline.
fn read_ranked(folder: &Folder) -> Result<(Results, Vec<usize>, String)> {
    let results = Results::read(folder)?;
    let mut order: Vec<usize> = (0..results.cells.len()).collect();
    order.sort_by(|&a, &b| {
        results.cells[b]
            .win
            .value
            .total_cmp(&results.cells[a].win.value)
    });
    let baseline = results
        .cells
        .iter()
        .find_map(|c| c.comparison.as_ref())
        .map_or(String::new(), |c| c.baseline.clone());
    Ok((results, order, baseline))
}

/// The forest plots of several comparisons on one page drawn on one x range, so that their
/// differences read against each other: each section of `sections` made from a comparison
/// folder of `folders` (the two in the same order) has its forest plot drawn again on the
/// range that holds every one's intervals. One comparison alone keeps its own.
pub fn share_forest_scale(
    folders: &[Folder],
    sections: &mut [super::super::page::Section],
) -> Result<()> {
    let compared: Vec<usize> = (0..folders.len())
        .filter(|&i| sections[i].kind == "compare")
        .collect();
    if compared.len() < 2 {
        return Ok(());
    }
    let mut read = Vec::new();
    for &i in &compared {
        read.push(read_ranked(&folders[i])?);
    }
    let all: Vec<f64> = read
        .iter()
        .flat_map(|(results, order, _)| {
            let bars = forest_bars(results, order);
            ends(&bars, Scale::Points).chain([0.0]).collect::<Vec<_>>()
        })
        .collect();
    let range = padded(all, 0.08);
    for (&i, (results, order, baseline)) in compared.iter().zip(&read) {
        let figure = forest(results, order, baseline, Some(range))?;
        for block in &mut sections[i].blocks {
            if matches!(block, Block::Figure(f) if f.id == figure.id) {
                *block = Block::Figure(figure.clone());
            }
        }
    }
    Ok(())
}

/// The forest plot's rows: each policy's paired difference, the unpaired interval behind it.
fn forest_bars(results: &Results, order: &[usize]) -> Vec<Bar> {
    order
        .iter()
        .filter_map(|&i| {
            let c = &results.cells[i];
            let cmp = c.comparison.as_ref()?;
            Some(Bar {
                label: c.policy.clone(),
                value: cmp.paired.value,
                low: cmp.paired.low,
                high: cmp.paired.high,
                wide: (c.policy != cmp.baseline).then_some((cmp.unpaired.low, cmp.unpaired.high)),
            })
        })
        .collect()
}

/// The forest plot: each policy's difference from the baseline, paired interval in colour, the
/// unpaired one in grey behind it, ranked top to bottom; on the x range `range` if given.
fn forest(
    results: &Results,
    order: &[usize],
    baseline: &str,
    range: Option<(f64, f64)>,
) -> Result<Figure> {
    let bars = forest_bars(results, order);
    let caption = format!(
        "Win rate minus {baseline}'s, in percentage points, with the paired 95% interval (colour) and the unpaired one (grey)."
    );
    let mut data = DataTable::new(
        "forest-data",
        "The differences drawn",
        &[
            "policy",
            "difference",
            "paired low",
            "paired high",
            "unpaired low",
            "unpaired high",
        ],
    )
    .from_file("summary.parquet");
    for &i in order {
        let c = &results.cells[i];
        if let Some(cmp) = &c.comparison {
            data.push(
                i.to_string(),
                vec![
                    Cell::text(&c.policy),
                    Cell::number("diff", cmp.paired.value, points(cmp.paired.value)),
                    Cell::number("diff_ci_low", cmp.paired.low, points(cmp.paired.low)),
                    Cell::number("diff_ci_high", cmp.paired.high, points(cmp.paired.high)),
                    Cell::number(
                        "diff_unpaired_ci_low",
                        cmp.unpaired.low,
                        points(cmp.unpaired.low),
                    ),
                    Cell::number(
                        "diff_unpaired_ci_high",
                        cmp.unpaired.high,
                        points(cmp.unpaired.high),
                    ),
                ],
            );
        }
    }
    let svg = intervals_on(
        &bars,
        &format!("difference from {baseline}"),
        Scale::Points,
        Some(0.0),
        range,
        &caption,
    )?;
    Ok(Figure::new("forest", caption, svg).with_data(data))
}
