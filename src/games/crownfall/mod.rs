//! Crownfall: a press-your-luck blackjack fight up a tower of royals.

pub mod engine;
pub mod events;
pub mod outcome;
pub mod policy;
pub mod rules;
pub mod scoring;
pub mod solver;
pub mod strategy;
pub mod strike;
pub mod tally;
pub mod trace;

pub use engine::{Engine, Streams};
pub use outcome::{Enemy, Outcome};
pub use policy::{Policy, PolicyKind};
pub use rules::{Deck, Rules};
pub use tally::CrownfallTally;

use crate::cards::{Dealer, Fresh};
use crate::games::Game;
use crate::games::observe::{Observer, Unobserved};
use crate::rng::{GameKey, GameRng};

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

    common_game_items!();

    fn play(&self, seed: u64, index: u64) -> Outcome {
        self.play_observed(seed, index, &mut Unobserved)
    }

    fn play_pair(&self, seed: u64, index: u64) -> [Outcome; 2] {
        let (mut tower_a, mut deck_a) = self.dealers(GameKey::new(seed, index));
        let (mut tower_b, mut deck_b) = self.dealers(GameKey::new(seed, index + 1));
        self.policy.play_two_from(
            &self.fresh,
            &self.rules,
            [&mut tower_a, &mut tower_b],
            [&mut deck_a, &mut deck_b],
        )
    }

    fn new_tally(&self) -> CrownfallTally {
        CrownfallTally::new(&self.rules)
    }
}
impl Crownfall {
    /// Plays game `index` of a run seeded with `seed` as [`Game::play`] does, reporting every
    /// event to `obs`.
    pub fn play_observed<O: Observer<events::Seen>>(
        &self,
        seed: u64,
        index: u64,
        obs: &mut O,
    ) -> Outcome {
        let key = GameKey::new(seed, index);
        let (mut tower, mut deck) = self.dealers(key);
        self.policy
            .play_observed(&self.fresh, &self.rules, &mut tower, &mut deck, obs)
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
        let (mut tower, mut deck) = self.dealers(GameKey::new(seed, index));
        self.fresh
            .play_observed(&self.rules, policy, &mut tower, &mut deck, obs)
    }

    /// The policy.
    pub fn policy(&self) -> &PolicyKind {
        &self.policy
    }

    /// The tower's and the player deck's dealers for the game with key `key`.
    #[inline]
    fn dealers(&self, key: GameKey) -> (GameRng, PlayerDeck) {
        let deck = key.stream(Streams::PLAYER_DECK);
        let deck = match self.rules.deck {
            Deck::Finite => PlayerDeck::Shuffled(deck),
            Deck::Infinite => PlayerDeck::Fresh(Fresh::new(deck, solver::strike::FACES as u8)),
        };
        (key.stream(Streams::TOWER), deck)
    }
}

/// The player deck's dealer under the rule `deck`: one engine serves both kinds of deck.
enum PlayerDeck {
    /// `deck = finite`: the 40 cards, shuffled.
    Shuffled(GameRng),
    /// `deck = infinite`: every card fresh.
    Fresh(Fresh),
}

impl Dealer for PlayerDeck {
    #[inline]
    fn shuffle(&mut self, cards: &mut [u8]) {
        match self {
            Self::Shuffled(rng) => rng.shuffle(cards),
            Self::Fresh(fresh) => fresh.shuffle(cards),
        }
    }
}

#[cfg(test)]
mod rule_tests;
