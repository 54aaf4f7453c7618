//! Regicide: the cooperative card game for 1 to 4 players (the publisher's rules and the
//! rulings), every rule a parameter.

pub mod card;
pub mod engine;
pub mod events;
pub mod heuristic;
pub mod ladder;
pub mod moves;
pub mod outcome;
pub mod piles;
pub mod policy;
pub mod random;
pub mod rules;
pub mod search;
pub mod simple;
pub mod state;
pub mod tally;
pub mod trace;
pub mod value;
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

use crate::search::Searcher;
use crate::search::play::Player;
use crate::search::seat::Seats;

use events::{Observer, Unobserved};
use policy::{Mixed, each_kind};
use rules::MAX_PLAYERS;
use state::State;

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
    search: [Option<Searcher<PolicyKind>>; MAX_PLAYERS],
    /// The clairvoyant, if it plays (a solo game).
    solver: Option<search::Seat>,
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
        let mut searchers: [Option<Searcher<PolicyKind>>; MAX_PLAYERS] = Default::default();
        let mut solver = None;
        for ((slot, spec), searcher) in seats.iter_mut().zip(specs).zip(&mut searchers) {
            if let Some(s) = search::parse(spec)? {
                s.check(&rules)?;
                names.push(s.name().to_string());
                match s {
                    search::Seat::Search(s) => *searcher = Some(s),
                    clairvoyant => solver = Some(clairvoyant),
                }
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
            uniform: uniform && searchers.iter().all(Option::is_none) && solver.is_none(),
            search: searchers,
            solver,
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
        if self.searches() {
            let state = State::from_shuffled(rules, engine, hearts, true, obs);
            return match self.solver.as_ref().and_then(search::Solver::new) {
                Some(mut solver) => search::play_solved(state, self.seats(), key, &mut solver, obs),
                None => search::play(state, self.seats(), key, obs, None),
            };
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

    /// Game `index` of a run seeded with `seed` through the state API, dealt up to its first
    /// decision, every seat's knowledge kept.
    pub fn state(&self, seed: u64, index: u64) -> State<'_> {
        self.deal_state(seed, index, &mut Unobserved, |_| {})
    }

    /// Game `index` of a run seeded with `seed`, dealt up to its first decision, every event of
    /// the deal to `obs` (`sim play`: a person at the table); `dealt` sees the engine once castle
    /// and tavern are ordered.
    pub fn deal_state<O: Observer>(
        &self,
        seed: u64,
        index: u64,
        obs: &mut O,
        dealt: impl FnOnce(&Engine),
    ) -> State<'_> {
        let (engine, hearts, _) = self.ready(self.fresh.clone(), GameKey::new(seed, index));
        dealt(&engine);
        State::from_shuffled(&self.rules, engine, hearts, true, obs)
    }

    /// Plays `state` (game `index` of a run seeded with `seed`) to its end with `person` in seat
    /// 0 and the seated players elsewhere, every event to `obs`.
    pub fn play_person_from<'r, O: Observer>(
        &'r self,
        state: State<'r>,
        seed: u64,
        index: u64,
        person: &mut dyn Player<State<'r>>,
        obs: &mut O,
    ) -> Outcome {
        search::play(
            state,
            self.seats(),
            GameKey::new(seed, index),
            obs,
            Some(person),
        )
    }

    /// Each seat's player.
    fn seats(&self) -> Seats<'_, PolicyKind> {
        Seats {
            plain: &self.seats,
            search: &self.search,
        }
    }

    /// The search player of `seat`, if it has one.
    pub fn seat_search(&self, seat: u8) -> Option<&Searcher<PolicyKind>> {
        self.search[usize::from(seat)].as_ref()
    }

    /// True if the clairvoyant plays (seat 0 of a solo game).
    pub fn solves(&self) -> bool {
        self.solver.is_some()
    }

    /// True if any seat plays a search player (pimc, ismcts, clairvoyant), whose games play
    /// through the search's own loop.
    pub fn searches(&self) -> bool {
        self.search.iter().any(Option::is_some) || self.solver.is_some()
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
        if self.searches() { 1 } else { super::CHUNK }
    }
}

impl crate::games::registry::Registered for Regicide {
    const DEFAULT_POLICY: &'static str = "simple";
    const ROSTER: crate::games::registry::Roster = crate::games::registry::Roster {
        baseline: "simple",
        best: "pimc",
        random: Some("random"),
        plain: "heuristic",
    };
    const FIXTURE: crate::games::registry::Fixture = crate::games::registry::Fixture {
        compare: &["simple", "heuristic"],
        vary: ("max_combo", 8, 10),
        hidden: &[
            &["players=1"],
            &["players=2"],
            &["players=3"],
            &["players=4"],
        ],
    };
}

#[cfg(test)]
mod rule_tests;
