//! Crownfall: a press-your-luck blackjack fight up a tower of royals.

pub mod engine;
pub mod events;
pub mod ladder;
pub mod outcome;
pub mod policy;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod solver;
pub mod state;
pub mod strategy;
pub mod strike;
pub mod tally;
pub mod trace;
pub mod value;

pub use engine::{Engine, Streams};
pub use outcome::{Enemy, Outcome};
pub use policy::{Policy, PolicyKind};
pub use rules::{Deck, Rules};
pub use tally::CrownfallTally;

use crate::cards::{Dealer, Fresh};
use crate::error::Result;
use crate::games::observe::{Observer, Unobserved};
use crate::games::seats::Seating;
use crate::games::{Game, PolicyHelp};
use crate::rng::{GameKey, GameRng};
use crate::search::Searcher;
use crate::search::play::Player;
use crate::search::seat::{self, Seats};
use crate::search::solve::Clairvoyant;

use state::State;

/// Crownfall with its rules and one policy.
pub struct Crownfall {
    rules: Rules,
    fresh: Engine,
    /// The plain policy (a search player's rollout policy).
    policy: PolicyKind,
    /// The search player, if one plays.
    search: Option<Searcher<PolicyKind>>,
    /// The clairvoyant's budget of states a deal, if it plays.
    clairvoyant: Option<u64>,
    name: String,
}

/// The plain policies' help and the search players'.
pub fn all_help() -> Vec<PolicyHelp> {
    [policy::help(), search::help()].concat()
}

impl Game for Crownfall {
    const NAME: &'static str = "crownfall";
    const ABOUT: &'static str =
        "press-your-luck blackjack fight up a tower of royals (rules: docs/crownfall.md)";
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = CrownfallTally;

    fn new(rules: Rules, seating: &Seating) -> Result<Self> {
        let spec = &seating.policies[0];
        let clairvoyant = search::clairvoyant(spec)?;
        let (policy, search, name) = match search::parse(spec, &rules)? {
            Some(s) => (s.rollout.clone(), Some(s.clone()), s.name),
            None if clairvoyant.is_some() => {
                let (policy, _) = PolicyKind::parse("optimal", &rules)?;
                (policy, None, spec.to_string())
            }
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
            clairvoyant,
            name,
        })
    }

    fn policies() -> Vec<PolicyHelp> {
        all_help()
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

    fn play_pair(&self, seed: u64, index: u64) -> [Outcome; 2] {
        if self.plays_states() {
            return [self.play(seed, index), self.play(seed, index + 1)];
        }
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

    fn games_per_chunk(&self) -> u64 {
        if self.plays_states() {
            16
        } else {
            super::CHUNK
        }
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
        if self.plays_states() {
            let mut state = State::deal_observed(self, key, obs);
            match self.clairvoyant {
                Some(budget) => {
                    let mut solver = Clairvoyant::new(&self.policy, budget);
                    self.play_state(&mut state, key, Some(&mut solver), obs);
                }
                None => self.play_state(&mut state, key, None, obs),
            }
            return state.outcome();
        }
        let (mut tower, mut deck) = self.dealers(key);
        self.policy
            .play_observed(&self.fresh, &self.rules, &mut tower, &mut deck, obs)
    }

    /// Plays `state` (game `key`) to its end with the game's player (or `person` instead),
    /// every event to `obs`.
    pub(crate) fn play_state<'r, O: Observer<events::Seen>>(
        &'r self,
        state: &mut State<'r>,
        key: GameKey,
        person: Option<&mut dyn Player<State<'r>>>,
        obs: &mut O,
    ) {
        let seats = Seats {
            plain: std::slice::from_ref(&self.policy),
            search: std::slice::from_ref(&self.search),
        };
        seat::play(
            state,
            seats,
            key,
            &mut [GameRng::unused()],
            person,
            |s, m| s.apply_observed(m, obs),
        );
    }

    /// The policy (a search player's rollout policy).
    pub fn policy(&self) -> &PolicyKind {
        &self.policy
    }

    /// The search player, if one plays.
    pub fn searcher(&self) -> Option<&Searcher<PolicyKind>> {
        self.search.as_ref()
    }

    /// True if the game's player plays through the state API (a search player, the
    /// clairvoyant), not the fast engine.
    fn plays_states(&self) -> bool {
        self.search.is_some() || self.clairvoyant.is_some()
    }

    /// True if the clairvoyant plays.
    pub fn solves(&self) -> bool {
        self.clairvoyant.is_some()
    }

    /// The tower's and the player deck's dealers for the game with key `key`.
    #[inline]
    pub(crate) fn dealers(&self, key: GameKey) -> (GameRng, PlayerDeck) {
        let deck = key.stream(Streams::PLAYER_DECK);
        let deck = match self.rules.deck {
            Deck::Finite => PlayerDeck::Shuffled(deck),
            Deck::Infinite => PlayerDeck::Fresh(Fresh::new(deck, solver::strike::FACES as u8)),
        };
        (key.stream(Streams::TOWER), deck)
    }
}

/// The player deck's dealer under the rule `deck`: one engine serves both kinds of deck.
#[derive(Clone, Debug)]
pub(crate) enum PlayerDeck {
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

impl crate::games::registry::Registered for Crownfall {
    const DEFAULT_POLICY: &'static str = "bank-at-17";
    const ROSTER: crate::games::registry::Roster = crate::games::registry::Roster {
        baseline: "bank-at-17",
        best: "optimal",
        random: None,
        plain: "optimal",
    };
    const FIXTURE: crate::games::registry::Fixture = crate::games::registry::Fixture {
        compare: &["bank-at-15", "bank-at-17", "bank-at-target"],
        vary: ("start_hp", 16, 20),
        hidden: &[&[], &["deck=infinite"]],
    };

    fn solver<V: crate::games::registry::SolverVisitor>(visitor: &mut V) -> bool {
        visitor.solver::<Self>();
        true
    }
}

#[cfg(test)]
mod rule_tests;
