//! Regicide: the cooperative card game for 1 to 4 players (seed 004), every rule a parameter.

pub mod card;
pub mod engine;
pub mod events;
pub mod heuristic;
pub mod moves;
pub mod outcome;
pub mod piles;
pub mod policy;
pub mod random;
pub mod rules;
pub mod search;
pub mod simple;
pub mod tally;
pub mod view;

pub use engine::{Engine, Streams};
pub use outcome::Outcome;
pub use policy::{Policy, PolicyKind};
pub use rules::Rules;
pub use tally::RegicideTally;

use crate::error::{Result, SimError};
use crate::games::seats::{Seating, Table};
use crate::games::{Game, PolicyHelp};
use crate::rng::{GameKey, GameRng};

use events::{Observer, Unobserved};
use policy::{Mixed, each_kind};
use rules::MAX_PLAYERS;

/// Regicide with its rules and one policy per seat.
pub struct Regicide {
    rules: Rules,
    fresh: Engine,
    seats: [PolicyKind; MAX_PLAYERS],
    uniform: bool,
    coins: bool,
    name: String,
    /// Each seat's policy name.
    names: Vec<String>,
    /// The search player of each seat that has one.
    search: [Option<search::Searcher>; MAX_PLAYERS],
}

impl Regicide {
    /// Sets up `rules` with the policy of each seat of `seating` (one per player, seat 0 first).
    pub fn seated(rules: Rules, seating: &Seating) -> Result<Self> {
        let specs = &seating.policies;
        if specs.len() != usize::from(rules.players) {
            return Err(SimError::input(format!(
                "regicide at {} players needs {} policies, got {}",
                rules.players,
                rules.players,
                specs.len()
            )));
        }
        let mut seats: [PolicyKind; MAX_PLAYERS] = Default::default();
        let mut names = Vec::new();
        let mut searchers: [Option<search::Searcher>; MAX_PLAYERS] = Default::default();
        for ((slot, spec), searcher) in seats.iter_mut().zip(specs).zip(&mut searchers) {
            if let Some(s) = search::parse(spec)? {
                s.check(&rules)?;
                names.push(s.name.clone());
                *searcher = Some(s);
                continue;
            }
            let (kind, name) = PolicyKind::parse(spec)?;
            *slot = kind;
            names.push(name);
        }
        let uniform = seats[..specs.len()].iter().all(|s| *s == seats[0]);
        Ok(Self {
            fresh: Engine::new(&rules),
            coins: seats.iter().any(PolicyKind::draws_coins),
            name: seating.label(Table::Team, &names),
            names,
            uniform: uniform && searchers.iter().all(Option::is_none),
            search: searchers,
            seats,
            rules,
        })
    }

    /// Plays game `index` of a run seeded with `seed` from `engine` (fresh or stacked), every
    /// event to `obs`; `dealt` sees the engine once castle and tavern are ordered.
    #[inline]
    fn play_from<O: Observer>(
        &self,
        engine: Engine,
        key: GameKey,
        obs: &mut O,
        dealt: impl FnOnce(&Engine),
    ) -> Outcome {
        let (mut engine, mut hearts, mut coins) = self.ready(engine, key);
        dealt(&engine);
        let rules = &self.rules;
        if self.search.iter().any(Option::is_some) {
            // The search players play through their own loop, which reports the real game's
            // events to `obs` too.
            return search::play(
                rules,
                &Mixed { seats: &self.seats },
                &self.search,
                engine,
                key,
                &mut hearts,
                &mut coins,
                obs,
                None,
            );
        }
        if self.uniform {
            each_kind!(&self.seats[0], p => engine.play(rules, p, &mut hearts, &mut coins, obs))
        } else {
            let mixed = Mixed { seats: &self.seats };
            engine.play(rules, &mixed, &mut hearts, &mut coins, obs)
        }
    }

    /// `engine` with castle and tavern ordered for game `key`, the generator of hearts'
    /// shuffles and the policies' own.
    #[inline]
    fn ready(&self, mut engine: Engine, key: GameKey) -> (Engine, GameRng, GameRng) {
        engine.shuffle(
            &mut key.stream(Streams::CASTLE),
            &mut key.stream(Streams::TAVERN),
        );
        let hearts = key.stream(Streams::HEARTS);
        let coins = if self.coins {
            key.stream(Streams::POLICY)
        } else {
            GameRng::unused()
        };
        (engine, hearts, coins)
    }

    /// Plays game `index` of a run seeded with `seed` exactly as the run does, every event to
    /// `obs`; `dealt` sees the engine once castle and tavern are ordered (`sim trace`).
    pub fn play_observed<O: Observer>(
        &self,
        seed: u64,
        index: u64,
        obs: &mut O,
        dealt: impl FnOnce(&Engine),
    ) -> Outcome {
        self.play_from(self.fresh.clone(), GameKey::new(seed, index), obs, dealt)
    }

    /// Plays game `index` of a run seeded with `seed` with the same deal but `policy` deciding
    /// for every seat (a person at the table), every event to `obs`; `dealt` sees the engine
    /// once castle and tavern are ordered.
    ///
    /// The search players keep their seats (all but seat 0) and play through their own loop;
    /// a search player in seat 0 puts its advice at each of seat 0's decisions in `advice`.
    pub fn play_with<P: Policy, O: Observer>(
        &self,
        seed: u64,
        index: u64,
        policy: &P,
        advice: &std::cell::RefCell<search::Advice>,
        obs: &mut O,
        dealt: impl FnOnce(&Engine),
    ) -> Outcome {
        let key = GameKey::new(seed, index);
        let (mut engine, mut hearts, mut coins) = self.ready(self.fresh.clone(), key);
        dealt(&engine);
        if self.searches() {
            let advise = self.search[0].as_ref().map(|_| (0, advice));
            return search::play(
                &self.rules,
                policy,
                &self.search,
                engine,
                key,
                &mut hearts,
                &mut coins,
                obs,
                advise,
            );
        }
        engine.play(&self.rules, policy, &mut hearts, &mut coins, obs)
    }

    /// The search player of `seat`, if it has one.
    pub fn seat_search(&self, seat: u8) -> Option<&search::Searcher> {
        self.search[usize::from(seat)].as_ref()
    }

    /// True if any seat plays a search player (pimc, ismcts, clairvoyant), whose games play
    /// through the search's own loop.
    pub fn searches(&self) -> bool {
        self.search.iter().any(Option::is_some)
    }

    /// The policy name of `seat`.
    pub fn seat_name(&self, seat: u8) -> &str {
        &self.names[usize::from(seat)]
    }

    /// The policy of `seat`.
    pub fn seat_policy(&self, seat: u8) -> &PolicyKind {
        &self.seats[usize::from(seat)]
    }
}

impl Game for Regicide {
    const NAME: &'static str = "regicide";
    const ABOUT: &'static str = "cooperative royal-slaying for 1 to 4 players, hidden hands (Badgers From Mars' rules; docs/regicide.md)";
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = RegicideTally;
    const TABLE: Table = Table::Team;

    fn seats(rules: &Rules) -> usize {
        rules.players.into()
    }

    fn new(rules: Rules, seating: &Seating) -> Result<Self> {
        Self::seated(rules, seating)
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
        self.play_from(
            self.fresh.clone(),
            GameKey::new(seed, index),
            &mut Unobserved,
            |_| {},
        )
    }

    fn new_tally(&self) -> RegicideTally {
        RegicideTally::default()
    }

    fn games_per_chunk(&self) -> u64 {
        if self.search.iter().any(Option::is_some) {
            1
        } else {
            crate::sim::runner::CHUNK
        }
    }
}

#[cfg(test)]
mod rule_tests;
