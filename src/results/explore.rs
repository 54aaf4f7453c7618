//! `explore.parquet`: one row per rule, value and figure an exploration played: the figure at
//! that value with its 95% interval and games, and the rule's swing on the figure (the same on
//! every row of the rule), its rank, standing and direction (the columns in
//! docs/output-files.md).

use crate::stats::estimate::Estimate;

use super::summary::Field;

/// One row of `explore.parquet`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExploreRow {
    /// The game.
    pub game: String,
    /// The rule's path.
    pub rule: String,
    /// The rule's value, as `--set` takes it.
    pub value: String,
    /// True for the base rule set's value.
    pub base: bool,
    /// The figure, as a target names it: `win_rate[optimal]`.
    pub figure: String,
    /// The figure at this value, with its 95% interval.
    pub estimate: Estimate,
    /// Deals played at this value for the figure.
    pub games: u64,
    /// The rule's swing on the figure, with its paired interval.
    pub swing: Estimate,
    /// The rule's rank by swing on the figure, 1 for the greatest.
    pub rank: usize,
    /// `moves`, `nil` or `unclear`.
    pub standing: &'static str,
    /// `up`, `down`, `up and down` or `-`.
    pub direction: &'static str,
    /// True if the rule stopped settled (not at the cap or the budget).
    pub settled: bool,
}

impl ExploreRow {
    /// The row's columns in `explore.parquet` order.
    pub fn fields(&self) -> Vec<(String, Field)> {
        let name = |n: &str| n.to_string();
        vec![
            (name("game"), Field::Text(self.game.clone())),
            (name("rule"), Field::Text(self.rule.clone())),
            (name("value"), Field::Text(self.value.clone())),
            (name("base"), Field::Bool(self.base)),
            (name("figure"), Field::Text(self.figure.clone())),
            (name("estimate"), Field::F64(self.estimate.value)),
            (name("ci_low"), Field::F64(self.estimate.low)),
            (name("ci_high"), Field::F64(self.estimate.high)),
            (name("games"), Field::U64(self.games)),
            (name("swing"), Field::F64(self.swing.value)),
            (name("swing_low"), Field::F64(self.swing.low)),
            (name("swing_high"), Field::F64(self.swing.high)),
            (name("rank"), Field::U64(self.rank as u64)),
            (name("standing"), Field::Text(self.standing.to_string())),
            (name("direction"), Field::Text(self.direction.to_string())),
            (name("settled"), Field::Bool(self.settled)),
        ]
    }
}
