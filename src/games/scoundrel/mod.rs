//! Scoundrel: a solitaire dungeon crawl through a 44-card deck (the publisher's rules and the rulings).

pub mod card;
pub mod clairvoyant;
pub mod dungeon;
pub mod engine;
pub mod evaluate;
pub mod events;
pub mod features;
pub mod greedy;
mod greedy_room;
pub mod hero;
pub mod heuristic;
pub mod ladder;
pub mod lookahead;
pub mod outcome;
pub mod plans;
pub mod played;
pub mod policy;
pub mod random;
pub mod rules;
pub mod search;
pub mod state;
pub mod tally;
pub mod trace;
pub mod tuned;
pub mod tuned_lookahead;
pub mod value;

pub use engine::{Engine, Streams, Turn, View};
pub use outcome::Outcome;
pub use policy::{Policy, PolicyKind};
pub use rules::Rules;
pub use tally::ScoundrelTally;

use crate::cards::{Dealer, Stacked};
use crate::error::Result;
use crate::games::observe::{Observer, Unobserved};
use crate::games::seats::Seating;
use crate::games::{Game, PolicyHelp};
use crate::rng::{GameKey, GameRng};
use crate::search::Searcher;
use crate::search::play::Player;
use crate::search::seat::{self, Seats};
use rules::AvoidOrder;
use state::State;

/// Scoundrel with its rules and one player: a plain policy or a search player.
pub struct Scoundrel {
    rules: Rules,
    fresh: Engine,
    /// The plain policy (a search player's rollout policy).
    policy: PolicyKind,
    /// The search player, if one plays.
    search: Option<Searcher<PolicyKind>>,
    name: String,
}

impl Game for Scoundrel {
    const NAME: &'static str = "scoundrel";
    const ABOUT: &'static str = "solitaire dungeon crawl: monsters, weapons and potions (Zach Gage and Kurt Bieg's rules; docs/scoundrel.md)";
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = ScoundrelTally;

    fn new(rules: Rules, seating: &Seating) -> Result<Self> {
        let spec = &seating.policies[0];
        let (policy, search, name) = match search::parse(spec, &rules)? {
            Some(s) => (s.rollout.clone(), Some(s.clone()), s.name),
            None => {
                let (policy, name) = PolicyKind::parse(spec, &rules)?;
                (policy, None, name)
            }
        };
        Ok(Self {
            fresh: Engine::new(&rules),
            rules,
            policy,
            search,
            name,
        })
    }

    fn policies() -> Vec<PolicyHelp> {
        search::all_help()
    }

    fn policy_name(&self) -> &str {
        &self.name
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn play(&self, seed: u64, index: u64) -> Outcome {
        self.play_observed(seed, index, &mut Unobserved)
    }

    fn new_tally(&self) -> ScoundrelTally {
        ScoundrelTally::new(&self.rules)
    }

    fn games_per_chunk(&self) -> u64 {
        if self.search.is_some() {
            return 1;
        }
        match self.policy {
            PolicyKind::Clairvoyant(_) => 1,
            PolicyKind::TunedLookahead(_) => 64,
            PolicyKind::Lookahead(_) => 1024,
            _ => super::CHUNK,
        }
    }
}

impl Scoundrel {
    /// Plays game `index` of a run seeded with `seed` as [`Game::play`] does, reporting the deal
    /// and every event to `obs`: a search player's game through the state API ([`state`]), a
    /// plain policy's through the fast engine.
    pub fn play_observed<O: Observer<events::Seen>>(
        &self,
        seed: u64,
        index: u64,
        obs: &mut O,
    ) -> Outcome {
        if self.search.is_some() {
            let state = self.state(seed, index, obs);
            return self.play_state(state, GameKey::new(seed, index), None, obs);
        }
        let mut engine = self.fresh.clone();
        let (mut coins, mut avoid) = self.deal(seed, index, &mut engine, obs);
        self.policy
            .play_observed(&mut engine, &self.rules, &mut avoid, &mut coins, obs)
    }

    /// Plays `state` (dealt for game `key`) to its end through the state API with the player's
    /// seat (or `person` instead, if given), every move to `obs`.
    fn play_state<'r, O: Observer<events::Seen>>(
        &'r self,
        mut state: State<'r>,
        key: GameKey,
        person: Option<&mut dyn Player<State<'r>>>,
        obs: &mut O,
    ) -> Outcome {
        let coins = &mut [key.stream(Streams::POLICY)];
        seat::play(&mut state, self.seats(), key, coins, person, |s, m| {
            s.apply_observed(m, obs)
        });
        *state.outcome()
    }

    /// The player's seat for the state API's loop: the plain policy, or the search player.
    fn seats(&self) -> Seats<'_, PolicyKind> {
        Seats {
            plain: std::slice::from_ref(&self.policy),
            search: std::slice::from_ref(&self.search),
        }
    }

    /// The search player, if one plays.
    pub fn searcher(&self) -> Option<&Searcher<PolicyKind>> {
        self.search.as_ref()
    }

    /// Shuffles `engine`, a fresh game, as game `index`'s dungeon (the deal reported to `obs`;
    /// the engine is filled in place, not moved: a copy of it costs a `memcpy`), and returns the
    /// policy's generator and the dealer of avoided rooms.
    fn deal<O: Observer<events::Seen>>(
        &self,
        seed: u64,
        index: u64,
        engine: &mut Engine,
        obs: &mut O,
    ) -> (GameRng, AvoidDealer) {
        engine.deal(seed, index, obs);
        // Only the generators a game can draw from are built (each costs a few mixes).
        let coins = if self.policy.draws_coins() {
            GameRng::new(seed, index, Streams::POLICY)
        } else {
            GameRng::unused()
        };
        let avoid = AvoidDealer::new(&self.rules, || GameRng::new(seed, index, Streams::AVOID));
        (coins, avoid)
    }

    /// The policy.
    pub fn policy(&self) -> &PolicyKind {
        &self.policy
    }
}

/// The dealer of avoided rooms under the rule `avoid_order`.
#[derive(Clone, Debug)]
pub enum AvoidDealer {
    /// `keep`: the room goes back in its order.
    Keep(Stacked),
    /// `shuffle`: shuffled by the game's avoid stream.
    Shuffle(GameRng),
}

impl AvoidDealer {
    /// The dealer under `rules`: `stream` (the game's avoid stream) is built only where
    /// `avoid_order` shuffles (each generator costs a few mixes).
    #[inline]
    pub fn new(rules: &Rules, stream: impl FnOnce() -> GameRng) -> Self {
        match rules.avoid_order {
            AvoidOrder::Keep => Self::Keep(Stacked),
            AvoidOrder::Shuffle | AvoidOrder::Reshuffle => Self::Shuffle(stream()),
        }
    }
}

impl Dealer for AvoidDealer {
    #[inline]
    fn shuffle(&mut self, cards: &mut [u8]) {
        match self {
            Self::Keep(stacked) => stacked.shuffle(cards),
            Self::Shuffle(rng) => rng.shuffle(cards),
        }
    }
}

impl crate::games::registry::Registered for Scoundrel {
    const DEFAULT_POLICY: &'static str = "greedy";
    const ROSTER: crate::games::registry::Roster = crate::games::registry::Roster {
        baseline: "greedy",
        best: "tuned-lookahead",
        random: Some("random"),
        plain: "tuned",
    };
    const FIXTURE: crate::games::registry::Fixture = crate::games::registry::Fixture {
        compare: &["greedy", "heuristic"],
        vary: ("start_hp", 15, 20),
        hidden: &[&[], &["avoid_order=shuffle"], &["avoid_order=reshuffle"]],
    };
}

#[cfg(test)]
mod rule_tests;
