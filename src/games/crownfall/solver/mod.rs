//! The Crownfall solver: the policy that maximizes the probability of victory under fresh odds
//! (every flip Ace..10 with equal odds), its chart, its strategy file, and two players built on it
//! (`optimal`, which plays the solved plan, and `expectimax`, which counts cards against it).
//!
//! Under fresh odds a strike's decisions depend only on its totals and on the state at its start
//! (HP, enemy, tower left), so a plan is a table of moves per start state: see [`plan`].

pub mod card_counts;
pub mod chart;
pub mod deck_search;
pub mod dp;
pub mod expectimax;
pub mod export;
pub mod plan;
pub mod space;
pub mod strike;
pub mod values;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::Result;
use crate::rules::RuleSet;

use super::rules::{Deck, MAX_STRIKES, Rules};

pub use dp::{Solution, evaluate, solve};
pub use expectimax::Expectimax;
pub use plan::Plan;
pub use space::Space;
pub use values::Values;

/// The rules as the solver sees them: the deck kind and the strike cap do not change the solution.
fn solver_key(rules: &Rules) -> String {
    let mut r = rules.clone();
    r.deck = Deck::Finite;
    r.max_strikes = MAX_STRIKES;
    r.to_json()
}

/// The solution for `rules`, solved once per process for each distinct rule set.
pub fn solved(rules: &Rules) -> Result<Arc<Solution>> {
    static CACHE: Mutex<Option<HashMap<String, Arc<Solution>>>> = Mutex::new(None);
    let key = solver_key(rules);
    if let Some(s) = CACHE
        .lock()
        .expect("the solver cache is never poisoned")
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return Ok(Arc::clone(s));
    }
    let solution = Arc::new(solve(rules)?);
    CACHE
        .lock()
        .expect("the solver cache is never poisoned")
        .get_or_insert_with(HashMap::new)
        .insert(key, Arc::clone(&solution));
    Ok(solution)
}

impl crate::games::solvable::Solvable for super::Crownfall {
    type Solution = Solution;
    type Plan = Plan;
    const ODDS: &'static str = "fresh odds (deck = \"infinite\")";

    fn plan(spec: &str, rules: &Rules) -> Result<(String, Plan)> {
        let (policy, name) = super::PolicyKind::parse(spec, rules)?;
        Ok((name, policy.to_plan(rules)?))
    }

    fn solve(rules: &Rules) -> Result<Solution> {
        solve(rules)
    }

    fn evaluate(rules: &Rules, plan: &Plan) -> Result<f64> {
        evaluate(rules, plan)
    }

    fn win(solution: &Solution) -> f64 {
        solution.win
    }

    fn states(solution: &Solution) -> usize {
        solution.space().states()
    }

    fn strategy_file(solution: &Solution, name: &str) -> String {
        export::strategy_toml(solution, name)
    }

    fn chart(solution: &Solution) -> Result<polars::prelude::DataFrame> {
        chart::frame(solution)
    }

    fn chart_text(solution: &Solution) -> String {
        chart::text(solution)
    }
}
