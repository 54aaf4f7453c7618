//! Scoundrel: a solitaire dungeon crawl through a 44-card deck (seed 003).

pub mod card;
pub mod clairvoyant;
pub mod dungeon;
pub mod engine;
pub mod evaluate;
pub mod events;
pub mod expectimax;
pub mod features;
pub mod greedy;
mod greedy_room;
pub mod hero;
pub mod heuristic;
pub mod lookahead;
pub mod outcome;
pub mod plans;
pub mod played;
pub mod policy;
pub mod random;
pub mod rules;
pub mod tally;
pub mod trace;
pub mod tuned;

pub use engine::{Engine, Streams, Turn, View};
pub use outcome::Outcome;
pub use policy::{Policy, PolicyKind};
pub use rules::Rules;
pub use tally::ScoundrelTally;

use crate::cards::{Dealer, Stacked};
use crate::games::Game;
use crate::games::observe::{Cards, Observer, Unobserved};
use crate::rng::GameRng;
use rules::AvoidOrder;

/// Scoundrel with its rules and one policy.
pub struct Scoundrel {
    rules: Rules,
    fresh: Engine,
    policy: PolicyKind,
    name: String,
}

impl Game for Scoundrel {
    const NAME: &'static str = "scoundrel";
    const ABOUT: &'static str = "solitaire dungeon crawl: monsters, weapons and potions (Zach Gage and Kurt Bieg's rules; docs/scoundrel.md)";
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = ScoundrelTally;

    common_game_items!();

    fn play(&self, seed: u64, index: u64) -> Outcome {
        self.play_observed(seed, index, &mut Unobserved)
    }

    fn new_tally(&self) -> ScoundrelTally {
        ScoundrelTally::new(&self.rules)
    }

    fn games_per_chunk(&self) -> u64 {
        match self.policy {
            PolicyKind::Clairvoyant(_) => 1,
            PolicyKind::Expectimax(_) => 64,
            PolicyKind::Lookahead(_) => 1024,
            _ => crate::sim::runner::CHUNK,
        }
    }
}

impl Scoundrel {
    /// Plays game `index` of a run seeded with `seed` as [`Game::play`] does, reporting the deal
    /// and every event to `obs`.
    pub fn play_observed<O: Observer<events::Seen>>(
        &self,
        seed: u64,
        index: u64,
        obs: &mut O,
    ) -> Outcome {
        let mut engine = self.fresh.clone();
        let (mut coins, mut avoid) = self.deal(seed, index, &mut engine, obs);
        self.policy
            .play_observed(&mut engine, &self.rules, &mut avoid, &mut coins, obs)
    }

    /// Plays game `index` of a run seeded with `seed` with the same deal but `policy` deciding
    /// (a person at the table), reporting every event to `obs`.
    pub fn play_with<P: Policy, O: Observer<events::Seen>>(
        &self,
        seed: u64,
        index: u64,
        policy: &P,
        obs: &mut O,
    ) -> Outcome {
        let mut engine = self.fresh.clone();
        let (mut coins, mut avoid) = self.deal(seed, index, &mut engine, obs);
        engine.play_observed(&self.rules, policy, &mut avoid, &mut coins, obs)
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
        engine.shuffle(&mut GameRng::new(seed, index, Streams::DUNGEON));
        obs.see(|| {
            let dungeon = engine.dungeon().iter().collect::<Cards>();
            engine.seen(events::Event::Deal { dungeon }, 0)
        });
        // Only the generators a game can draw from are built (each costs a few mixes).
        let coins = if self.policy.draws_coins() {
            GameRng::new(seed, index, Streams::POLICY)
        } else {
            GameRng::unused()
        };
        let avoid = match self.rules.avoid_order {
            AvoidOrder::Keep => AvoidDealer::Keep(Stacked),
            AvoidOrder::Shuffle | AvoidOrder::Reshuffle => {
                AvoidDealer::Shuffle(GameRng::new(seed, index, Streams::AVOID))
            }
        };
        (coins, avoid)
    }

    /// The policy.
    pub fn policy(&self) -> &PolicyKind {
        &self.policy
    }
}

/// The dealer of avoided rooms under the rule `avoid_order`.
enum AvoidDealer {
    /// `keep`: the room goes back in its order.
    Keep(Stacked),
    /// `shuffle`: shuffled by the game's avoid stream.
    Shuffle(GameRng),
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

#[cfg(test)]
mod rule_tests;
