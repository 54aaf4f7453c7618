//! What a run reports, independent of where it is written: summary rows and distribution rows.

use crate::games::{Game, Tally};
use crate::rules::RuleSet;
use crate::stats::interval::{Difference, Proportion};

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

/// One value of a summary row, typed as its column of `summary.parquet`.
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// A count or index.
    U64(u64),
    /// A rate, mean or interval end.
    F64(f64),
    /// A flag.
    Bool(bool),
    /// A name.
    Text(String),
    /// A varied rule's value as given on the command line; its column is typed by
    /// [`ParamKind::of`] over every row.
    Param(String),
    /// Text that is JSON (the effective rules): a string column in Parquet, a nested value in
    /// the JSON report.
    Json(String),
}

/// How the values of a varied rule's column are typed: whole numbers if all are, else numbers,
/// else text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// Every value is a whole number.
    Int,
    /// Every value is a number, not all whole.
    Float,
    /// Anything else.
    Text,
}

impl ParamKind {
    /// The kind of a column holding `texts`.
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str> + Clone) -> Self {
        if texts.clone().into_iter().all(|t| t.parse::<i64>().is_ok()) {
            Self::Int
        } else if texts.into_iter().all(|t| t.parse::<f64>().is_ok()) {
            Self::Float
        } else {
            Self::Text
        }
    }
}

impl SummaryRow {
    /// The row's columns in `summary.parquet` order, as (column name, value). Every file and
    /// report that shows a summary is made from this one list.
    pub fn fields(&self) -> Vec<(String, Field)> {
        let name = |n: &str| n.to_string();
        let mut f = vec![
            (name("game"), Field::Text(self.game.clone())),
            (name("policy"), Field::Text(self.policy.clone())),
        ];
        f.extend(param_fields(&self.params));
        f.extend([
            (name("games"), Field::U64(self.games)),
            (name("wins"), Field::U64(self.wins)),
            (name("win_rate"), Field::F64(self.win.rate)),
            (name("win_ci_low"), Field::F64(self.win.low)),
            (name("win_ci_high"), Field::F64(self.win.high)),
        ]);
        f.extend(self.means.iter().map(|&(n, v)| (name(n), Field::F64(v))));
        if let Some(c) = &self.comparison {
            f.extend([
                (name("baseline"), Field::Text(c.baseline.clone())),
                (name("diff"), Field::F64(c.paired.diff)),
                (name("diff_ci_low"), Field::F64(c.paired.low)),
                (name("diff_ci_high"), Field::F64(c.paired.high)),
                (name("diff_unpaired_ci_low"), Field::F64(c.unpaired.low)),
                (name("diff_unpaired_ci_high"), Field::F64(c.unpaired.high)),
            ]);
        }
        if let Some(p) = self.precision {
            f.extend([
                (name("precision"), Field::F64(p.target)),
                (name("precision_met"), Field::Bool(p.met)),
            ]);
        }
        f.extend([
            (name("seed"), Field::U64(self.seed)),
            (name("first_game"), Field::U64(self.first_game)),
            (name("complete"), Field::Bool(self.complete)),
            (name("rules"), Field::Json(self.rules.clone())),
            (
                name("version"),
                Field::Text(env!("CARGO_PKG_VERSION").to_string()),
            ),
        ]);
        f
    }
}

/// The columns of varied rules' values, (path, value), one per rule.
pub fn param_fields(params: &[(String, String)]) -> impl Iterator<Item = (String, Field)> + '_ {
    params
        .iter()
        .map(|(path, value)| (path.clone(), Field::Param(value.clone())))
}

/// A sweep cell's varied values as one label, `start_hp=16 guard_zone=2`: the name of a base
/// cell in the `baseline` column.
pub fn params_label(params: &[(String, String)]) -> String {
    params
        .iter()
        .map(|(p, v)| format!("{p}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How fast a run or grid played: its games, their wall time and the worker threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    /// Games played (over every cell of a grid).
    pub games: u64,
    /// Wall time of the games in seconds (set-up and file writing excluded).
    pub seconds: f64,
    /// Worker threads.
    pub threads: usize,
}

impl Speed {
    /// Games per second.
    pub fn rate(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    /// Games per second per worker thread.
    pub fn per_thread(&self) -> f64 {
        self.rate() / self.threads.max(1) as f64
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
