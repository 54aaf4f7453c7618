//! Scoundrel: a solitaire dungeon crawl through a 44-card deck (seed 003).

pub mod card;
pub mod clairvoyant;
pub mod dungeon;
pub mod engine;
pub mod evaluate;
pub mod expectimax;
pub mod features;
pub mod greedy;
pub mod hero;
pub mod heuristic;
pub mod lookahead;
pub mod outcome;
pub mod plans;
pub mod policy;
pub mod random;
pub mod rules;
pub mod tally;
pub mod tuned;

pub use engine::{Engine, Streams, Turn, View};
pub use outcome::Outcome;
pub use policy::{Policy, PolicyKind};
pub use rules::Rules;
pub use tally::ScoundrelTally;

use crate::cards::Stacked;
use crate::games::Game;
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
    const ABOUT: &'static str = "solitaire dungeon crawl: monsters, weapons and potions (seed 003)";
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = ScoundrelTally;

    common_game_items!();

    fn play(&self, seed: u64, index: u64) -> Outcome {
        let mut engine = self.fresh.clone();
        engine.shuffle(&mut GameRng::new(seed, index, Streams::DUNGEON));
        // Only the generators a game can draw from are built (each costs a few mixes).
        let mut coins = if self.policy.draws_coins() {
            GameRng::new(seed, index, Streams::POLICY)
        } else {
            GameRng::unused()
        };
        match self.rules.avoid_order {
            AvoidOrder::Keep => {
                self.policy
                    .play_from(&mut engine, &self.rules, &mut Stacked, &mut coins)
            }
            AvoidOrder::Shuffle | AvoidOrder::Reshuffle => {
                let mut avoid = GameRng::new(seed, index, Streams::AVOID);
                self.policy
                    .play_from(&mut engine, &self.rules, &mut avoid, &mut coins)
            }
        }
    }

    fn new_tally(&self) -> ScoundrelTally {
        ScoundrelTally::new(&self.rules)
    }
}

#[cfg(test)]
mod rule_tests;
