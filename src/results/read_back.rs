//! What a run, a comparison, a sweep or a tournament wrote, read back: the rows of
//! `summary.parquet` (one per cell) and the histograms of `distributions.parquet`.

use crate::error::{Result, SimError};

use super::folder::{Folder, Frame};

/// A rate or difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// A compared policy against the baseline, as `summary.parquet` holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The baseline policy.
    pub baseline: String,
    /// Win rate minus the baseline's, with the paired interval.
    pub paired: Interval,
    /// The same difference with the interval of independent samples.
    pub unpaired: Interval,
}

/// One row of `summary.parquet`: a run, a compared policy or a sweep cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The policy (the seating's display name).
    pub policy: String,
    /// The varied rules' values of a sweep cell, as (rule, value as typed).
    pub params: Vec<(String, String)>,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// The win rate and its Wilson interval.
    pub win: Interval,
    /// The game's own columns, (name, value), in file order.
    pub means: Vec<(String, f64)>,
    /// A comparison's difference from the baseline.
    pub comparison: Option<Comparison>,
    /// A `--precision` target and whether the cell met it.
    pub precision: Option<(f64, bool)>,
    /// The effective rules, as JSON.
    pub rules: String,
    /// False if the cell holds only a prefix of its games.
    pub complete: bool,
}

impl Cell {
    /// The game column `name`'s value, if the cell has it.
    pub fn mean(&self, name: &str) -> Option<f64> {
        self.means.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    /// The columns `name`, `name_low` and `name_high` as an interval, if the cell has them.
    pub fn interval(&self, name: &str, low: &str, high: &str) -> Option<Interval> {
        Some(Interval {
            value: self.mean(name)?,
            low: self.mean(low)?,
            high: self.mean(high)?,
        })
    }
}

/// One metric's histogram of one cell, from `distributions.parquet`.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// The summary row it belongs to.
    pub cell: usize,
    /// The metric.
    pub metric: String,
    /// The row of `distributions.parquet` that holds the first count (the others follow it).
    pub first_row: usize,
    /// (value, games) for every value some game had, in value order.
    pub counts: Vec<(i64, u64)>,
}

/// The summary and distributions of one results folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The game.
    pub game: String,
    /// The varied rules of a sweep, in column order (none otherwise).
    pub params: Vec<String>,
    /// The rows, in file order.
    pub cells: Vec<Cell>,
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
    /// The versions of sim that wrote the rows.
    pub versions: Vec<String>,
    /// The histograms, in file order.
    pub distributions: Vec<Distribution>,
    /// True if the folder holds per-game files (`--per-game`).
    pub per_game: bool,
}

/// The column after which the game's own columns start.
const BEFORE_MEANS: &str = "win_ci_high";
/// The columns that may follow the game's own ones; the first present ends them.
const AFTER_MEANS: [&str; 3] = ["baseline", "precision", "seed"];

impl Results {
    /// Reads `summary.parquet` and `distributions.parquet` of `folder`, every field checked
    /// against what it can be ([`super::summary_check`]).
    pub fn read(folder: &Folder) -> Result<Self> {
        let summary = folder.table("summary.parquet")?;
        let distributions = folder.table("distributions.parquet")?;
        let results = Self::from_frames(&summary, &distributions, per_game(folder))?;
        super::summary_check::check(&results)?;
        Ok(results)
    }

    fn from_frames(summary: &Frame, distributions: &Frame, per_game: bool) -> Result<Self> {
        let names = summary.names();
        let at = |name: &str| names.iter().position(|n| n == name);
        let (Some(policy), Some(games), Some(before)) =
            (at("policy"), at("games"), at(BEFORE_MEANS))
        else {
            return Err(SimError::input(
                "summary.parquet lacks policy, games or win_ci_high: not a summary sim wrote",
            ));
        };
        let after = AFTER_MEANS
            .iter()
            .find_map(|n| at(n))
            .unwrap_or(names.len());
        let params: Vec<String> = names[policy + 1..games].to_vec();
        let mean_names: Vec<String> = names[before + 1..after.max(before + 1)].to_vec();
        let param_values = params
            .iter()
            .map(|p| summary.texts(p))
            .collect::<Result<Vec<_>>>()?;
        let mean_values = mean_names
            .iter()
            .map(|m| summary.f64s_or_nan(m))
            .collect::<Result<Vec<_>>>()?;
        let policies = summary.strings("policy")?;
        let game_counts = summary.u64s("games")?;
        let wins = summary.u64s("wins")?;
        let [rate, low, high] = ["win_rate", "win_ci_low", "win_ci_high"].map(|n| summary.f64s(n));
        let (rate, low, high) = (rate?, low?, high?);
        let rules = summary.strings("rules")?;
        let complete = summary.bools("complete")?;
        let comparisons = comparisons(summary)?;
        let precision = if summary.has("precision") {
            Some((summary.f64s("precision")?, summary.bools("precision_met")?))
        } else {
            None
        };
        let cells = (0..summary.height())
            .map(|i| Cell {
                policy: policies[i].clone(),
                params: params
                    .iter()
                    .zip(&param_values)
                    .map(|(p, v)| (p.clone(), v[i].clone()))
                    .collect(),
                games: game_counts[i],
                wins: wins[i],
                win: Interval {
                    value: rate[i],
                    low: low[i],
                    high: high[i],
                },
                means: mean_names
                    .iter()
                    .zip(&mean_values)
                    .map(|(m, v)| (m.clone(), v[i]))
                    .collect(),
                comparison: comparisons.as_ref().map(|c| c[i].clone()),
                precision: precision.as_ref().map(|(t, m)| (t[i], m[i])),
                rules: rules[i].clone(),
                complete: complete[i],
            })
            .collect();
        let mut versions = summary.strings("version")?;
        versions.dedup();
        let games_column = summary.strings("game")?;
        Ok(Self {
            game: games_column.first().cloned().unwrap_or_default(),
            params,
            cells,
            seed: summary.u64s("seed")?.first().copied().unwrap_or_default(),
            first_game: summary
                .u64s("first_game")?
                .first()
                .copied()
                .unwrap_or_default(),
            versions,
            distributions: histograms(distributions)?,
            per_game,
        })
    }

    /// The histograms of cell `cell`.
    pub fn distributions_of(&self, cell: usize) -> impl Iterator<Item = &Distribution> {
        self.distributions.iter().filter(move |d| d.cell == cell)
    }

    /// True if every cell holds all its games.
    pub fn complete(&self) -> bool {
        self.cells.iter().all(|c| c.complete)
    }
}

/// The comparison columns of a `sim compare` summary, one per row; `None` for other summaries.
fn comparisons(summary: &Frame) -> Result<Option<Vec<Comparison>>> {
    if !summary.has("baseline") {
        return Ok(None);
    }
    let baseline = summary.strings("baseline")?;
    let [d, dl, dh, ul, uh] = [
        "diff",
        "diff_ci_low",
        "diff_ci_high",
        "diff_unpaired_ci_low",
        "diff_unpaired_ci_high",
    ]
    .map(|n| summary.f64s_or_nan(n));
    let (d, dl, dh, ul, uh) = (d?, dl?, dh?, ul?, uh?);
    Ok(Some(
        (0..summary.height())
            .map(|i| Comparison {
                baseline: baseline[i].clone(),
                paired: Interval {
                    value: d[i],
                    low: dl[i],
                    high: dh[i],
                },
                unpaired: Interval {
                    value: d[i],
                    low: ul[i],
                    high: uh[i],
                },
            })
            .collect(),
    ))
}

/// The rows of `distributions.parquet`, gathered per (cell, metric) in file order.
fn histograms(frame: &Frame) -> Result<Vec<Distribution>> {
    let cells = frame.u64s("cell")?;
    let metrics = frame.strings("metric")?;
    let values = frame.i64s("value")?;
    let counts = frame.u64s("count")?;
    let mut out: Vec<Distribution> = Vec::new();
    for i in 0..frame.height() {
        let cell = cells[i] as usize;
        match out.last_mut() {
            Some(d) if d.cell == cell && d.metric == metrics[i] => {
                d.counts.push((values[i], counts[i]));
            }
            _ => out.push(Distribution {
                cell,
                metric: metrics[i].clone(),
                first_row: i,
                counts: vec![(values[i], counts[i])],
            }),
        }
    }
    Ok(out)
}

/// True if `folder` holds per-game rows (`games.parquet` or numbered parts).
fn per_game(folder: &Folder) -> bool {
    folder.has("games.parquet") || folder.has("games-00000.parquet")
}
