//! What a run reports, independent of where it is written: summary rows and distribution rows.

use crate::games::{Game, Tally};
use crate::rules::RuleSet;
use crate::sim::stats::{Difference, Proportion};

/// Where and how a run was made, shared by its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInfo {
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
    /// True if every planned game was played.
    pub complete: bool,
}

/// One row of `summary.parquet`.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// Game name.
    pub game: String,
    /// Policy name.
    pub policy: String,
    /// Varied rule parameters of a sweep cell, as (path, value).
    pub params: Vec<(String, String)>,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Win rate with its 95% Wilson interval.
    pub win: Proportion,
    /// The game's main means.
    pub means: Vec<(&'static str, f64)>,
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
    /// False if the run stopped early.
    pub complete: bool,
    /// The effective rules as JSON.
    pub rules: String,
    /// A compared policy's difference from the baseline.
    pub comparison: Option<Comparison>,
    /// The precision target, if the run had one.
    pub precision: Option<Precision>,
}

/// How a compared policy's win rate differs from the baseline's on the same deals.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The baseline policy.
    pub baseline: String,
    /// Win rate minus the baseline's, with the 95% interval from the per-deal pairs.
    pub paired: Difference,
    /// The same difference with the interval independent samples would give.
    pub unpaired: Difference,
}

/// A `--precision` target and whether a cell reached it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// The largest half-width asked of the 95% win-rate interval.
    pub target: f64,
    /// True if the cell's interval got that narrow within the game cap.
    pub met: bool,
}

impl SummaryRow {
    /// The summary of `tally`, played by `game` as described by `info`.
    pub fn new<G: Game>(game: &G, tally: &G::Tally, info: &RunInfo) -> Self {
        Self::of(
            G::NAME,
            game.policy_name(),
            game.rules().to_json(),
            tally,
            info,
        )
    }

    /// The summary of `tally` of `game` played by `policy` under `rules` (as JSON), as
    /// described by `info`: what [`SummaryRow::new`] makes, from the parts a shard records.
    pub fn of<T: Tally>(
        game: &str,
        policy: &str,
        rules: String,
        tally: &T,
        info: &RunInfo,
    ) -> Self {
        Self {
            game: game.to_string(),
            policy: policy.to_string(),
            params: Vec::new(),
            games: tally.games(),
            wins: tally.wins(),
            win: Proportion::wilson(tally.wins(), tally.games()),
            means: tally.means(),
            seed: info.seed,
            first_game: info.first_game,
            complete: info.complete,
            rules,
            comparison: None,
            precision: None,
        }
    }
}

/// One row of `distributions.parquet`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistributionRow {
    /// Policy name.
    pub policy: String,
    /// Index of the summary row (policy or grid cell) this belongs to.
    pub cell: usize,
    /// Metric name, e.g. `final_hp`.
    pub metric: &'static str,
    /// The metric's value.
    pub value: i64,
    /// Games with that value.
    pub count: u64,
}

/// The distribution rows of one tally.
pub fn distribution_rows<T: Tally>(policy: &str, cell: usize, tally: &T) -> Vec<DistributionRow> {
    tally
        .distributions()
        .into_iter()
        .flat_map(|(metric, hist)| {
            hist.nonzero().map(move |(value, count)| DistributionRow {
                policy: policy.to_string(),
                cell,
                metric,
                value,
                count,
            })
        })
        .collect()
}
