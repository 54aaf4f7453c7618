//! A game with a full solver (`sim solve`): its best policy under fresh odds, a chart of every
//! state, a strategy file, and the exact win probability of other policies.

use polars::prelude::DataFrame;

use crate::error::Result;

use super::Game;

/// A game `sim solve` can solve. It says so through
/// [`Registered::solver`](super::registry::Registered::solver).
pub trait Solvable: Game {
    /// The solved game: the best policy and its values.
    type Solution;
    /// A policy as the solver evaluates it exactly.
    type Plan;
    /// The odds the solution is exact under, in words (for the report).
    const ODDS: &'static str;

    /// The policy `spec` names (a `--policy` value) as a plan, with its display name; an error
    /// for a policy the solver cannot evaluate exactly.
    fn plan(spec: &str, rules: &Self::Rules) -> Result<(String, Self::Plan)>;
    /// Solves the game under `rules`.
    fn solve(rules: &Self::Rules) -> Result<Self::Solution>;
    /// The exact win probability of `plan` under `rules`.
    fn evaluate(rules: &Self::Rules, plan: &Self::Plan) -> Result<f64>;
    /// The best policy's win probability.
    fn win(solution: &Self::Solution) -> f64;
    /// The states the solver valued.
    fn states(solution: &Self::Solution) -> usize;
    /// The best policy as a strategy file named `name` (usable with `--policy`).
    fn strategy_file(solution: &Self::Solution, name: &str) -> String;
    /// The chart: every state's moves and win probability, as a table.
    fn chart(solution: &Self::Solution) -> Result<DataFrame>;
    /// The chart in words, for the terminal.
    fn chart_text(solution: &Self::Solution) -> String;
}
