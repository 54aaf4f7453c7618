//! Regicide's search players: the generic `ismcts[-N]` and `pimc[-N]` (`src/search/`, over
//! Regicide's [`State`]) with Regicide's defaults and strategy files, the `clairvoyant` ceiling,
//! and the loop that seats them beside the plain policies.
//!
//! A searching seat samples its worlds from its own [`Knowledge`] of the public events
//! ([`determinize`]); all its randomness comes from the game's own stream `16 + seat`, so a
//! run is reproducible and independent of the thread count. Each decision's CPU time goes into
//! the outcome.
//!
//! A simulated game's value is `win + credit × royals / 12` (royals defeated in the whole game,
//! 0 to 12): a win counts 1, and among lost games those that got further count a little more
//! (`credit`, 0.2 by default, so a win always outweighs any loss). Strategy files:
//! `strategies/regicide/ismcts.toml`, `pimc.toml` (the keys in [`crate::search::settings`]).

pub mod clairvoyant;
pub mod determinize;
pub mod knowledge;
pub mod moves;

#[cfg(test)]
mod tests;

use crate::error::{Result, SimError};
use crate::games::PolicyHelp;
use crate::games::state::GameState;
use crate::rng::{GameKey, GameRng};
use crate::search::play::Player;
use crate::search::seat::{self, Seats};
use crate::search::settings::Tree;
use crate::search::think::{Think, cpu_now};
use crate::search::{Defaults, Searcher};

use super::Regicide;
use super::engine::Streams;
use super::events::Observer;
use super::outcome::Outcome;
use super::policy::PolicyKind;
use super::rules::Rules;
use super::state::State;

use clairvoyant::{Clairvoyant, Verdict};
use moves::Move;

/// What `ismcts` and `pimc` mean in Regicide.
pub const DEFAULTS: Defaults = Defaults {
    ismcts: 1000,
    pimc: 150,
    exploration: 0.7,
    credit: 0.2,
    width: 6,
    rollout: "heuristic",
    tree: Tree::Moves,
};

/// The features a value model of this game reads (its strategy files' `value`).
const FEATURES: &[&str] = <super::state::State<'static> as crate::games::value::Featured>::FEATURES;

/// The clairvoyant's default budget: thousands of states searched per deal.
const CLAIRVOYANT_BUDGET: u64 = 1000;

/// A seat's player that is not a plain policy.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A search player (`ismcts`, `pimc`, a search strategy file).
    Search(Searcher<PolicyKind>),
    /// `clairvoyant[-K]`: the exact solver that sees the deal (solo only).
    Clairvoyant {
        /// Display name.
        name: String,
        /// States searched per deal at most.
        budget: u64,
        /// The policy whose lines order the search and that plays unwon deals.
        rollout: PolicyKind,
    },
}

impl Seat {
    /// Display name.
    pub fn name(&self) -> &str {
        match self {
            Self::Search(s) => &s.name,
            Self::Clairvoyant { name, .. } => name,
        }
    }

    /// Refuses a player the rules cannot seat: the clairvoyant solves solo games only.
    pub fn check(&self, rules: &Rules) -> Result<()> {
        if matches!(self, Self::Clairvoyant { .. }) && rules.players != 1 {
            return Err(SimError::input(format!(
                "{} solves solo games only (--players 1), not {} players",
                self.name(),
                rules.players
            )));
        }
        Ok(())
    }
}

/// The search players `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    let mut h = seat::help(
        "information-set MCTS: N simulations per decision (default 1000) over worlds drawn from what the player knows, heuristic rollouts (strategies/regicide/ismcts.toml)",
        "perfect-information Monte Carlo: every move tried in N determinized worlds (default 150), heuristic rollouts, the best mean played",
    );
    h.push(PolicyHelp {
            name: "clairvoyant[-K]",
            about: "NOT A STRATEGY: an exact solver that sees the tavern's order and the hearts shuffles; wins with the fewest Jesters when the deal can be won (the ceiling; solo only; at most K thousand states a deal, default 1000, unfinished deals counted as unsolved)",
        });
    h
}

/// The plain policies' help and the search players'.
pub fn all_help() -> Vec<PolicyHelp> {
    [super::policy::help(), help()].concat()
}

/// Parses a `--policy` value if it names a search player or a search strategy file;
/// `Ok(None)` for anything else.
pub fn parse(spec: &str) -> Result<Option<Seat>> {
    match seat::clairvoyant_budget(spec, CLAIRVOYANT_BUDGET) {
        Ok(Some(budget)) => {
            return Ok(Some(Seat::Clairvoyant {
                name: spec.into(),
                budget,
                rollout: PolicyKind::Heuristic(Box::default()),
            }));
        }
        Ok(None) => {}
        Err(why) => {
            return Err(super::super::unknown_policy_of::<Regicide>(spec, why));
        }
    }
    let searcher = seat::parse_for::<Regicide, _>(spec, &DEFAULTS, FEATURES, PolicyKind::parse)?;
    Ok(searcher.map(Seat::Search))
}

/// The clairvoyant: it solves the deal at its first decision, then plays the winning line (the
/// rollout policy once off it).
pub struct Solver<'a> {
    budget: u64,
    rollout: &'a PolicyKind,
    solved: Option<Clairvoyant>,
    think: Think,
}

impl<'a> Solver<'a> {
    /// The clairvoyant of `seat` (a [`Seat::Clairvoyant`]), before its first decision.
    pub fn new(seat: &'a Seat) -> Option<Self> {
        match seat {
            Seat::Clairvoyant {
                budget, rollout, ..
            } => Some(Self {
                budget: *budget,
                rollout,
                solved: None,
                think: Think::default(),
            }),
            Seat::Search(_) => None,
        }
    }
}

impl<'r> Player<State<'r>> for Solver<'_> {
    fn decide(&mut self, state: &mut State<'r>, _seat: u8, coins: &mut GameRng) -> Move {
        let start = cpu_now();
        let (rollout, budget) = (self.rollout, self.budget);
        let c = self
            .solved
            .get_or_insert_with(|| Clairvoyant::solve(state, rollout, budget, true));
        let mv = c.next(|| state.policy_move(rollout, coins));
        self.think.add(cpu_now().saturating_sub(start));
        mv
    }
}

/// Plays `state` (dealt for game `key`) to its end with the players of `seats` (seat 0 played by
/// `seat0` instead if given: a person, the clairvoyant), every move to `obs`, and reports it with
/// the search players' times.
pub fn play<'r, O: Observer>(
    mut state: State<'r>,
    seats: Seats<PolicyKind>,
    key: GameKey,
    obs: &mut O,
    seat0: Option<&mut dyn Player<State<'r>>>,
) -> Outcome {
    let think = seat::play(
        &mut state,
        seats,
        key,
        &mut [key.stream(Streams::POLICY)],
        seat0,
        |s, m| s.apply_observed(m, obs),
    );
    let mut out = *state.outcome();
    out.think.merge(&think);
    out
}

/// [`play`] with the clairvoyant in seat 0 (a solo game): the outcome also says whether the
/// deal was solved and the fewest Jesters proved.
pub fn play_solved<'r, O: Observer>(
    state: State<'r>,
    seats: Seats<PolicyKind>,
    key: GameKey,
    solver: &mut Solver,
    obs: &mut O,
) -> Outcome {
    let mut out = play(state, seats, key, obs, Some(solver));
    out.think.merge(&solver.think);
    if let Some(c) = &solver.solved {
        out.unsolved = c.verdict == Verdict::Unsolved;
        out.jesters_unproved = matches!(c.verdict, Verdict::Won(_)) && !c.fewest_proved;
    }
    out
}
