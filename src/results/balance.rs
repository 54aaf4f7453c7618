//! `balance.parquet`: one row per candidate a balance search played, with its games, metric,
//! intervals, verdict and whether it is the answer (the columns in docs/output-files.md).

use crate::stats::estimate::Estimate;

use super::summary::{Field, param_fields};

/// What the whole search was: the same on every row.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Game name.
    pub game: String,
    /// The policy's name.
    pub policy: String,
    /// The baseline's name for a gap target; empty otherwise.
    pub baseline: String,
    /// The target as written back: `win_rate = 0.75`.
    pub target: String,
    /// The metric: a summary column, or `gap`.
    pub metric: String,
    /// `=`, `>=` or `<=`.
    pub relation: String,
    /// The target's value.
    pub target_value: f64,
    /// The tolerance (0 for none).
    pub tolerance: f64,
    /// `bisection`, `scan` or `elimination`.
    pub search: String,
    /// The `--vary` flags as given, in order.
    pub vary: Vec<String>,
    /// The most games a candidate may play (`--games`).
    pub cap: u64,
    /// The most games the whole search may play (`--budget`), if limited.
    pub budget: Option<u64>,
    /// The confidence that every verdict is right.
    pub confidence: f64,
    /// The error each candidate's sequential test runs at.
    pub candidate_error: f64,
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
    /// False if Ctrl-C stopped the search.
    pub complete: bool,
}

/// One candidate's row.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceRow {
    /// The varied rules' values, as (path, value).
    pub params: Vec<(String, String)>,
    /// The candidate's index among every combination (the first rule varying slowest).
    pub candidate: usize,
    /// Its turn in the search: 1 for the first played.
    pub step: usize,
    /// Games it played (deals, for a gap: each played by both policies).
    pub games: u64,
    /// The metric with its 95% interval.
    pub metric: Estimate,
    /// The interval the search decided on: the sequential test's, at `candidate_error`.
    pub decision: Estimate,
    /// `below`, `above`, `on target` or `open`.
    pub verdict: &'static str,
    /// True for the answer: the value found (one rule) or a cell on target (several).
    pub answer: bool,
    /// One rule: true for the answer's neighbours (the crossing's other values).
    pub neighbour: bool,
    /// The candidate's effective rules as JSON.
    pub rules: String,
}

impl BalanceRow {
    /// The row's columns in `balance.parquet` order, the search's own first.
    pub fn fields(&self, search: &SearchInfo) -> Vec<(String, Field)> {
        let name = |n: &str| n.to_string();
        let mut f = vec![
            (name("game"), Field::Text(search.game.clone())),
            (name("policy"), Field::Text(search.policy.clone())),
            (name("baseline"), Field::Text(search.baseline.clone())),
        ];
        f.extend(param_fields(&self.params));
        f.extend([
            (name("candidate"), Field::U64(self.candidate as u64)),
            (name("step"), Field::U64(self.step as u64)),
            (name("games"), Field::U64(self.games)),
            (name("metric"), Field::Text(search.metric.clone())),
            (name("value"), Field::F64(self.metric.value)),
            (name("ci_low"), Field::F64(self.metric.low)),
            (name("ci_high"), Field::F64(self.metric.high)),
            (name("decision_low"), Field::F64(self.decision.low)),
            (name("decision_high"), Field::F64(self.decision.high)),
            (name("verdict"), Field::Text(self.verdict.to_string())),
            (name("answer"), Field::Bool(self.answer)),
            (name("neighbour"), Field::Bool(self.neighbour)),
            (name("target"), Field::Text(search.target.clone())),
            (name("relation"), Field::Text(search.relation.clone())),
            (name("target_value"), Field::F64(search.target_value)),
            (name("tolerance"), Field::F64(search.tolerance)),
            (name("search"), Field::Text(search.search.clone())),
            (
                name("vary"),
                Field::Json(serde_json::json!(search.vary).to_string()),
            ),
            (name("cap"), Field::U64(search.cap)),
            (name("budget"), Field::U64(search.budget.unwrap_or(0))),
            (name("confidence"), Field::F64(search.confidence)),
            (name("candidate_error"), Field::F64(search.candidate_error)),
            (name("seed"), Field::U64(search.seed)),
            (name("first_game"), Field::U64(search.first_game)),
            (name("complete"), Field::Bool(search.complete)),
            (name("rules"), Field::Json(self.rules.clone())),
            (
                name("version"),
                Field::Text(env!("CARGO_PKG_VERSION").to_string()),
            ),
        ]);
        f
    }
}
