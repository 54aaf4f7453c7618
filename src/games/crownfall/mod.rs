//! Crownfall: a press-your-luck blackjack fight up a tower of royals.

pub mod engine;
pub mod outcome;
pub mod policy;
pub mod rules;
pub mod scoring;
pub mod solver;
pub mod strategy;
pub mod strike;
pub mod tally;

pub use engine::{Engine, Streams};
pub use outcome::{Enemy, Outcome};
pub use policy::{Policy, PolicyKind};
pub use rules::{Deck, Rules};
pub use tally::CrownfallTally;

use crate::cards::Fresh;
use crate::error::Result;
use crate::games::{Game, PolicyHelp};
use crate::rng::GameKey;

/// Crownfall with its rules and one policy.
pub struct Crownfall {
    rules: Rules,
    fresh: Engine,
    policy: PolicyKind,
    name: String,
}

impl Game for Crownfall {
    const NAME: &'static str = "crownfall";
    const ABOUT: &'static str = "press-your-luck blackjack fight up a tower of royals (seed 000)";
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = CrownfallTally;

    fn new(rules: Rules, policy: &str) -> Result<Self> {
        let (policy, name) = PolicyKind::parse(policy, &rules)?;
        Ok(Self {
            fresh: Engine::new(&rules),
            rules,
            policy,
            name,
        })
    }

    fn policies() -> Vec<PolicyHelp> {
        policy::help()
    }

    fn policy_name(&self) -> &str {
        &self.name
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn play(&self, seed: u64, index: u64) -> Outcome {
        let key = GameKey::new(seed, index);
        let mut tower = key.stream(Streams::TOWER);
        let deck = key.stream(Streams::PLAYER_DECK);
        let engine = &self.fresh;
        match self.rules.deck {
            Deck::Finite => self
                .policy
                .play_from(engine, &self.rules, &mut tower, &mut { deck }),
            Deck::Infinite => self.policy.play_from(
                engine,
                &self.rules,
                &mut tower,
                &mut Fresh::new(deck, solver::strike::FACES as u8),
            ),
        }
    }

    fn play_pair(&self, seed: u64, index: u64) -> [Outcome; 2] {
        let keys = [GameKey::new(seed, index), GameKey::new(seed, index + 1)];
        let mut towers = keys.map(|key| key.stream(Streams::TOWER));
        let [mut deck_a, mut deck_b] = keys.map(|key| key.stream(Streams::PLAYER_DECK));
        match self.rules.deck {
            Deck::Finite => self.policy.play_two_from(
                &self.fresh,
                &self.rules,
                towers.each_mut(),
                [&mut deck_a, &mut deck_b],
            ),
            Deck::Infinite => {
                let faces = solver::strike::FACES as u8;
                self.policy.play_two_from(
                    &self.fresh,
                    &self.rules,
                    towers.each_mut(),
                    [
                        &mut Fresh::new(deck_a, faces),
                        &mut Fresh::new(deck_b, faces),
                    ],
                )
            }
        }
    }

    fn new_tally(&self) -> CrownfallTally {
        CrownfallTally::new(&self.rules)
    }
}
#[cfg(test)]
mod rule_tests;
