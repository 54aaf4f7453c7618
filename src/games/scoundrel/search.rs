//! Scoundrel's search players: the generic `ismcts[-N]` and `pimc[-N]` (`src/search/`, over
//! Scoundrel's [`State`](super::state::State)) with Scoundrel's defaults and strategy files,
//! parsed beside the plain policies (a real game with one: `Scoundrel::play_state`).
//!
//! A search samples its worlds from what the player has seen (the state's observation: the
//! dungeon as a multiset, and the avoided rooms at its bottom as the rules put them back); all
//! its randomness comes from the game's own stream `16`, so a run is reproducible and
//! independent of the thread count. A simulated game's value is `win + credit × cards faced /
//! cards in the dungeon`: a win counts 1, and among lost games those that got further count a
//! little more. Strategy files: `strategies/scoundrel/ismcts.toml`, `pimc.toml` (the keys in
//! [`crate::search::settings`]).

use crate::error::{Result, SimError};
use crate::games::PolicyHelp;
use crate::search::seat;
use crate::search::settings::Tree;
use crate::search::{Defaults, Searcher};

use super::policy::{self, PolicyKind};
use super::rules::Rules;

/// What `ismcts` and `pimc` mean in Scoundrel.
pub const DEFAULTS: Defaults = Defaults {
    ismcts: 400,
    pimc: 40,
    exploration: 0.7,
    credit: 0.2,
    width: 8,
    rollout: "heuristic",
    tree: Tree::Observations,
};

/// The features a value model of this game reads (its strategy files' `value`).
const FEATURES: &[&str] = <super::state::State<'static> as crate::games::value::Featured>::FEATURES;

/// The search players `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    seat::help(
        "information-set MCTS: N simulations per room (default 400) over dungeon orders drawn from what the player has seen, heuristic rollouts (strategies/scoundrel/ismcts.toml)",
        "perfect-information Monte Carlo: each of the room's best plays tried in N sampled dungeon orders (default 40), heuristic rollouts, the best mean played",
    )
}

/// The plain policies' help and the search players'.
pub fn all_help() -> Vec<PolicyHelp> {
    [policy::help(), help()].concat()
}

/// Parses a `--policy` value if it names a search player or a search strategy file (its
/// rollout a fair policy under `rules`); `Ok(None)` for anything else.
pub fn parse(spec: &str, rules: &Rules) -> Result<Option<Searcher<PolicyKind>>> {
    let plain = |rollout: &str| {
        let (kind, name) = PolicyKind::parse(rollout, rules)?;
        if let PolicyKind::Clairvoyant(_) = kind {
            return Err(SimError::input(format!(
                "{name} sees the dungeon's order: a rollout must be a fair policy"
            )));
        }
        Ok((kind, name))
    };
    seat::parse_for::<super::Scoundrel, _>(spec, &DEFAULTS, FEATURES, plain)
}
