//! Crownfall's search players: the generic `ismcts[-N]` and `pimc[-N]` (`src/search/`) over
//! Crownfall's [`State`](super::state::State), with Crownfall's defaults.
//!
//! A simulated game's value is its win (1) or loss (0): the credit for progress is 0 by default,
//! so the search maximizes the win probability, as the solver does. Worlds shuffle the unseen
//! deck and the face-down tower: the searches count cards.

use crate::error::Result;
use crate::games::PolicyHelp;
use crate::search::settings::Tree;
use crate::search::{Defaults, Searcher, seat};

use super::policy::PolicyKind;
use super::rules::Rules;

/// What `ismcts` and `pimc` mean in Crownfall: rollouts by the solver's `optimal` plan.
pub const DEFAULTS: Defaults = Defaults {
    ismcts: 400,
    pimc: 40,
    exploration: 0.4,
    credit: 0.0,
    width: 2,
    rollout: "optimal",
    tree: Tree::Observations,
};

/// The features a value model of this game reads (its strategy files' `value`).
const FEATURES: &[&str] = <super::state::State<'static> as crate::games::value::Featured>::FEATURES;

/// The search players `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    let mut h = seat::help(
        "information-set MCTS: N simulations a decision (default 400) over worlds shuffled from what the player knows, optimal's rollouts",
        "perfect-information Monte Carlo: bank and push each played out in N worlds (default 40) by optimal's plan, the better mean taken",
    );
    h.push(PolicyHelp {
            name: "clairvoyant[-K]",
            about: "NOT A STRATEGY: a solver that sees the deck's and the tower's order and every reshuffle, and finds a winning line if one exists (the ceiling; at most K thousand states a deal, default 1000, unfinished deals counted as unsolved)",
        });
    h
}

/// The clairvoyant's budget: thousands of states searched per deal.
const CLAIRVOYANT_BUDGET: u64 = 1000;

/// The clairvoyant's budget in states if `spec` names it (`clairvoyant[-K]`).
pub fn clairvoyant(spec: &str) -> Result<Option<u64>> {
    seat::clairvoyant_budget(spec, CLAIRVOYANT_BUDGET)
        .map_err(|why| crate::games::unknown_policy_of::<super::Crownfall>(spec, why))
}

/// The search player `spec` names under `rules`, if it names one.
pub fn parse(spec: &str, rules: &Rules) -> Result<Option<Searcher<PolicyKind>>> {
    let plain = |rollout: &str| PolicyKind::parse(rollout, rules);
    seat::parse_for::<super::Crownfall, _>(spec, &DEFAULTS, FEATURES, plain)
}
