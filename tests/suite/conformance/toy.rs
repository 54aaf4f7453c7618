//! A toy game written here on the state API alone, no fast engine: High-Low. A deck of the cards
//! 1 to `cards` is shuffled and its top card turned; the player guesses whether the next card is
//! higher or lower, it is turned, and so on for `guesses` guesses; `needed` right guesses win.
//! The cards not yet turned are hidden (their set is known, their order is not), so the search
//! players sample it and a player that peeks is caught. It registers in one line
//! ([`super::Checked`]) and so passes every check of the suite and plays every command.

use serde::{Deserialize, Serialize};
use sim::error::Result;
use sim::games::PolicyHelp;
use sim::games::on_state::Rulebook;
use sim::games::registry::Fixture;
use sim::games::state::{GameState, ToMove, play_by_policy};
use sim::games::twin::{Twin, rearrange};
use sim::games::value::Featured;
use sim::rng::{GameKey, GameRng};
use sim::rules::{RuleSet, check_range};
use sim::search::Defaults;
use sim::search::settings::Tree;

/// High-Low's rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// The cards in the deck, 1 to `cards`.
    pub cards: u8,
    /// Guesses in a game.
    pub guesses: u8,
    /// Right guesses that win.
    pub needed: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            cards: 13,
            guesses: 6,
            needed: 4,
        }
    }
}

impl RuleSet for Rules {
    fn validate(&self) -> Result<()> {
        check_range("cards", self.cards, 2, 52)?;
        check_range("guesses", self.guesses, 1, self.cards - 1)?;
        check_range("needed", self.needed, 0, self.guesses)
    }

    const MEANINGS: &'static [(&'static str, &'static str)] = &[
        ("cards", "the cards in the deck, 1 to this"),
        ("guesses", "guesses in a game"),
        ("needed", "right guesses that win"),
    ];
}

/// A guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Guess {
    /// The next card is higher.
    Higher,
    /// The next card is lower.
    Lower,
}

/// High-Low's plain policies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Always higher.
    Higher,
    /// The side with more of the cards not yet turned.
    Odds,
}

/// A game of High-Low: the deck in order, the turned card at `at`.
#[derive(Clone, Debug)]
pub struct Deck {
    cards: [u8; 52],
    len: u8,
    at: u8,
    right: u8,
    guesses: u8,
    needed: u8,
}

impl GameState for Deck {
    type Move = Guess;
    type Observation = (Vec<u8>, u8);
    type Policy = Policy;

    fn seats(&self) -> u8 {
        1
    }

    fn to_move(&self) -> ToMove {
        if self.at < self.guesses {
            ToMove::Seat(0)
        } else {
            ToMove::Over
        }
    }

    fn legal(&self, moves: &mut Vec<Guess>) {
        moves.clear();
        moves.extend([Guess::Higher, Guess::Lower]);
    }

    fn apply(&mut self, guess: Guess) {
        let (turned, next) = (
            self.cards[self.at as usize],
            self.cards[self.at as usize + 1],
        );
        self.right += u8::from((guess == Guess::Higher) == (next > turned));
        self.at += 1;
    }

    fn key(guess: &Guess) -> u64 {
        *guess as u64
    }

    fn result(&self, _: u8) -> f32 {
        f32::from(u8::from(self.right >= self.needed))
    }

    fn progress(&self, _: u8) -> f32 {
        f32::from(self.right) / f32::from(self.needed.max(1))
    }

    fn observation(&self, _: u8) -> (Vec<u8>, u8) {
        (self.cards[..=self.at as usize].to_vec(), self.right)
    }

    fn sample_into(&self, _: u8, rng: &mut GameRng, world: &mut Self) {
        world.clone_from(self);
        // Sorted first, so that the world depends on what the seat saw, not on the real order.
        let hidden = &mut world.cards[self.at as usize + 1..self.len as usize];
        hidden.sort_unstable();
        rng.shuffle(hidden);
    }

    fn policy_move(&mut self, policy: &Policy, _: &mut GameRng) -> Guess {
        let turned = self.cards[self.at as usize];
        // The set of the cards not yet turned is known; only their order is hidden.
        let hidden = &self.cards[self.at as usize + 1..self.len as usize];
        let higher = hidden.iter().filter(|&&c| c > turned).count();
        match policy {
            Policy::Odds if 2 * higher < hidden.len() => Guess::Lower,
            _ => Guess::Higher,
        }
    }

    fn rollout(&mut self, policy: &Policy, coins: &mut GameRng) {
        play_by_policy(self, policy, coins);
    }
}

impl Twin for Deck {
    /// The cards not yet turned, rearranged: the player knows their set, not their order.
    fn twin(&self, _: u8, rng: &mut GameRng) -> Self {
        let mut twin = self.clone();
        rearrange(
            &mut twin.cards[self.at as usize + 1..self.len as usize],
            rng,
        );
        twin
    }
}

impl Featured for Deck {
    const FEATURES: &'static [&'static str] = &["turned", "right", "turned_card"];

    /// How far the game is, the right guesses so far, and the card showing.
    fn features((seen, right): &(Vec<u8>, u8), out: &mut Vec<f32>) {
        let turned = seen.last().copied().unwrap_or(0);
        out.extend([
            seen.len() as f32 / 52.0,
            f32::from(*right) / 52.0,
            f32::from(turned) / 52.0,
        ]);
    }
}

/// High-Low as a rulebook.
pub struct HighLow;

impl Rulebook for HighLow {
    const NAME: &'static str = "highlow";
    const ABOUT: &'static str = "guess whether the next card is higher or lower (a test's toy)";
    const POLICIES: &'static [PolicyHelp] = &[
        PolicyHelp {
            name: "higher",
            about: "always guesses higher",
        },
        PolicyHelp {
            name: "odds",
            about: "guesses the side with more of the cards not yet turned",
        },
    ];
    const DEFAULT_POLICY: &'static str = "odds";
    const SEARCH: &'static Defaults = &Defaults {
        ismcts: 100,
        pimc: 20,
        exploration: 0.7,
        credit: 0.1,
        width: 2,
        rollout: "odds",
        tree: Tree::Moves,
    };
    const BUDGETS: &'static [u32] = &[8, 32];
    const FIXTURE: Fixture = Fixture {
        compare: &["higher", "odds"],
        vary: ("needed", 3, 5),
        hidden: &[&[], &["cards=20", "guesses=10"]],
    };
    type Rules = Rules;
    type State = Deck;

    fn policy(name: &str) -> Option<Policy> {
        match name {
            "higher" => Some(Policy::Higher),
            "odds" => Some(Policy::Odds),
            _ => None,
        }
    }

    fn deal(rules: &Rules, key: GameKey) -> Deck {
        let mut cards = [0; 52];
        for (i, card) in cards.iter_mut().enumerate().take(rules.cards.into()) {
            *card = i as u8 + 1;
        }
        key.stream(1).shuffle(&mut cards[..rules.cards.into()]);
        Deck {
            cards,
            len: rules.cards,
            at: 0,
            right: 0,
            guesses: rules.guesses,
            needed: rules.needed,
        }
    }

    fn words(guess: &Guess) -> String {
        format!("guess {guess:?}").to_lowercase()
    }
}
