//! A tournament (`sim compare` of a duel): the win matrix as a heat map, and the Bradley-Terry
//! ratings with their intervals.

use crate::error::Result;
use crate::report::terminal::{percent, thousands};

use super::super::command::CommandLine;
use super::super::figure::heatmap::{Colours, Grid, heatmap};
use super::super::figure::intervals::{Row as Bar, intervals};
use super::super::figure::scale::Scale;
use super::super::page::{Block, Cell, DataTable, Figure, Note, Section};
use super::super::{Context, Folder, Kind};
use super::{percent_one, speed_lines, summary_facts, verdict};
use crate::results::read_back::{Interval, Results};

/// The kind of a tournament's folder: `tournament.parquet` and `ratings.parquet`.
pub struct Tournament;

impl Kind for Tournament {
    fn name(&self) -> &'static str {
        "tournament"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has("tournament.parquet") && folder.has("ratings.parquet")
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let results = Results::read(folder)?;
        let matrix = folder.table("tournament.parquet")?;
        let ratings = folder.table("ratings.parquet")?;
        let names = ratings.strings("policy")?;
        let elo = ratings.f64s("elo")?;
        let (low, high) = (ratings.f64s("elo_ci_low")?, ratings.f64s("elo_ci_high")?);
        let smoothed = ratings.bools("smoothed")?.first().copied().unwrap_or(false);
        let pairs = Pairs {
            policy: matrix.strings("policy")?,
            opponent: matrix.strings("opponent")?,
            games: matrix.u64s("games")?,
            wins: matrix.u64s("wins")?,
            draws: matrix.u64s("draws")?,
            rate: matrix.f64s("win_rate")?,
            low: matrix.f64s("win_ci_low")?,
            high: matrix.f64s("win_ci_high")?,
        };
        let mut command = CommandLine::new(&["compare", &results.game]);
        for n in &names {
            command.arg("--policy", n.clone());
        }
        let mut facts = summary_facts(&results, context, command, names.clone())?;
        let deals = results.cells.first().map_or(0, |c| c.games);
        facts.games = format!(
            "{} deals for every ordered pair: each pair meets on {} games, both seats",
            thousands(deals),
            thousands(2 * deals)
        );
        let mut section = Section::new(
            self.name(),
            format!("{}: tournament of {} policies", results.game, names.len()),
            facts,
        );
        section.timing = speed_lines(context);
        section
            .blocks
            .push(Block::Figure(win_matrix(&names, &pairs)?));
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]));
        let rating = |i: usize| Interval {
            value: elo[i],
            low: low[i],
            high: high[i],
        };
        if let Some(&best) = order.first() {
            let (b, n) = (rating(best), order.get(1).map(|&i| rating(i)));
            section.verdict = vec![verdict::tournament(
                (&names[best], &b),
                order.get(1).map(|&i| names[i].as_str()).zip(n.as_ref()),
            )];
        }
        let bars: Vec<Bar> = order
            .iter()
            .map(|&i| Bar {
                label: names[i].clone(),
                value: elo[i],
                low: low[i],
                high: high[i],
                wide: None,
            })
            .collect();
        let caption =
            "Bradley-Terry ratings on the Elo scale (mean 0) with 95% intervals, best first."
                .to_string();
        let mut table = DataTable::new(
            "ratings-table",
            "The ratings, best first",
            &["policy", "Elo", "95% CI low", "95% CI high"],
        )
        .from_file("ratings.parquet");
        for &i in &order {
            table.push(
                i.to_string(),
                vec![
                    Cell::number("policy", &names[i], names[i].clone()),
                    Cell::number("elo", elo[i], format!("{:+.0}", elo[i])),
                    Cell::number("elo_ci_low", low[i], format!("{:+.0}", low[i])),
                    Cell::number("elo_ci_high", high[i], format!("{:+.0}", high[i])),
                ],
            );
        }
        let svg = intervals(&bars, "rating", Scale::Elo, Some(0.0), &caption)?;
        section
            .blocks
            .push(Block::Figure(Figure::new("ratings", caption, svg)));
        section.blocks.push(Block::Table(table));
        if smoothed {
            section.blocks.push(Block::Note(Note {
                text: "Some policy never won or never lost against the rest: every pair got half a virtual win each way before the fit.".into(),
            }));
        }
        Ok(section)
    }
}

/// The rows of `tournament.parquet`: one per ordered pair, both seats together.
struct Pairs {
    policy: Vec<String>,
    opponent: Vec<String>,
    games: Vec<u64>,
    wins: Vec<u64>,
    draws: Vec<u64>,
    rate: Vec<f64>,
    low: Vec<f64>,
    high: Vec<f64>,
}

/// The win matrix: the row policy's win rate against the column policy, both seats together.
fn win_matrix(names: &[String], pairs: &Pairs) -> Result<Figure> {
    let mut grid = Grid {
        row_desc: "win rate of".into(),
        col_desc: "against".into(),
        rows: names.to_vec(),
        cols: names.to_vec(),
        values: vec![vec![None; names.len()]; names.len()],
    };
    let mut data = DataTable::new(
        "matrix-data",
        "Every ordered pair, both seats together",
        &[
            "policy",
            "against",
            "games",
            "wins",
            "draws",
            "win rate",
            "95% CI low",
            "95% CI high",
        ],
    )
    .from_file("tournament.parquet");
    for k in 0..pairs.policy.len() {
        let r = names.iter().position(|n| *n == pairs.policy[k]);
        let c = names.iter().position(|n| *n == pairs.opponent[k]);
        if let (Some(r), Some(c)) = (r, c) {
            grid.values[r][c] = Some(pairs.rate[k]);
        }
        data.push(
            k.to_string(),
            vec![
                Cell::number("policy", &pairs.policy[k], pairs.policy[k].clone()),
                Cell::number("opponent", &pairs.opponent[k], pairs.opponent[k].clone()),
                Cell::number("games", pairs.games[k], thousands(pairs.games[k])),
                Cell::number("wins", pairs.wins[k], thousands(pairs.wins[k])),
                Cell::number("draws", pairs.draws[k], thousands(pairs.draws[k])),
                Cell::number("win_rate", pairs.rate[k], percent(pairs.rate[k])),
                Cell::number("win_ci_low", pairs.low[k], percent(pairs.low[k])),
                Cell::number("win_ci_high", pairs.high[k], percent(pairs.high[k])),
            ],
        );
    }
    let caption = "Win matrix: each row policy's win rate against each column policy over both seats (blue above 50%, red below)."
        .to_string();
    let svg = heatmap(&grid, Colours::Diverging(0.5), percent_one, &caption)?;
    Ok(Figure::new("matrix", caption, svg).with_data(data))
}
