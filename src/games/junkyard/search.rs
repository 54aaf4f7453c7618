//! Junkyard's search players: the generic `ismcts[-N]` and `pimc[-N]` (`src/search/`, over
//! Junkyard's [`State`](super::state::State)) with Junkyard's defaults and strategy files.
//!
//! A searching seat samples its worlds from what it sees (the state's observation: both
//! tables, its own hand); all its randomness comes from the game's own stream `16 + seat`, so a
//! run is reproducible on any thread count. A simulated game's value is `result + credit x
//! progress`: 1 for a win, 1/2 for a draw, 0 for a loss, plus `credit` times the HP difference
//! mapped to 0..1 ([`GameState::progress`](crate::games::state::GameState::progress)).
//! Strategy files: `strategies/junkyard/ismcts.toml`, `pimc.toml` (the keys in
//! [`crate::search::settings`]).

use crate::error::Result;
use crate::games::PolicyHelp;
use crate::search::seat;
use crate::search::settings::Tree;
use crate::search::{Defaults, Searcher};

use super::policy::{self, PolicyKind};
use super::rules::Rules;

/// What `ismcts` and `pimc` mean in Junkyard.
pub const DEFAULTS: Defaults = Defaults {
    ismcts: 1000,
    pimc: 40,
    exploration: 0.7,
    credit: 0.2,
    width: 3,
    rollout: "greedy",
    tree: Tree::Observations,
};

/// The features a value model of this game reads (its strategy files' `value`).
const FEATURES: &[&str] = <super::state::State<'static> as crate::games::value::Featured>::FEATURES;

/// The search players `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    seat::help(
        "information-set MCTS: N simulations per decision (default 1000) over worlds drawn from what the player sees, greedy rollouts; decides each action of step 3, each attacker, each blocker and each split (strategies/junkyard/ismcts.toml)",
        "perfect-information Monte Carlo: every move tried in N sampled worlds (default 40), greedy rollouts, the best mean played (strategies/junkyard/pimc.toml)",
    )
}

/// The plain policies' help and the search players'.
pub fn all_help() -> Vec<PolicyHelp> {
    [policy::help(), help()].concat()
}

/// The search player a `--policy` value names (`ismcts`, `pimc-200`, a strategy file with a
/// `[search]` table), its rollout one of the plain policies under `rules`; `Ok(None)` for
/// anything else.
pub fn parse(spec: &str, rules: &Rules) -> Result<Option<Searcher<PolicyKind>>> {
    seat::parse_for::<super::Junkyard, _>(spec, &DEFAULTS, FEATURES, |s| {
        PolicyKind::parse(s, rules)
    })
}
