//! Junkyard Frankenstein: a two-player duel of automatons built from junk heaps (the rulings).

pub mod automaton;
pub mod build;
pub mod cards;
pub mod combat;
pub mod engine;
pub mod events;
pub mod greedy;
pub mod keys;
pub mod ladder;
pub mod lanes;
pub mod lookahead;
pub mod outcome;
pub mod policy;
pub mod random;
pub mod rank_lanes;
pub mod rules;
pub mod search;
pub mod simple;
pub mod state;
pub mod strategy;
pub mod tally;
pub mod trace;
pub mod value;
pub mod view;

pub use engine::{Engine, Side, Sources, Streams, Turn};
pub use outcome::Outcome;
pub use policy::{Policy, PolicyKind};
pub use rules::Rules;
pub use tally::JunkyardTally;
pub use view::View;

use crate::cards::{Dealer, Stacked};
use crate::error::Result;
use crate::games::seats::{Seating, Table, duel_deal};
use crate::games::{Game, PolicyHelp};
use crate::rng::{GameKey, GameRng};
use crate::search::Searcher;
use crate::search::play::Player;
use crate::search::seat::{self, Seats};

use events::Observer;
use simple::Simple;
use state::State;

/// The players of both seats in one order: each seat's plain policy, and its search player if
/// it has one (then its plain policy is unused).
struct Seated {
    plain: [PolicyKind; 2],
    search: [Option<Searcher<PolicyKind>>; 2],
}

impl Seated {
    fn seats(&self) -> Seats<'_, PolicyKind> {
        Seats {
            plain: &self.plain,
            search: &self.search,
        }
    }
}

/// Junkyard Frankenstein with its rules and a policy in each seat.
pub struct Junkyard {
    rules: Rules,
    /// The seating's policies: `policies[k]` sits in seat `k` (unless a game is swapped).
    policies: [PolicyKind; 2],
    /// The players as seated (`seated[0]`) and swapped (`seated[1]`), for games through the
    /// state API (a search player in a seat).
    seated: [Seated; 2],
    swap: bool,
    name: String,
    /// `policies[k]`'s name.
    names: [String; 2],
    /// A heap's cards unshuffled (the rules' [`Rules::heap`], worked out once), and how many.
    heap: ([u8; cards::MAX_HEAP], usize),
}

impl Junkyard {
    /// Plays deal `deal` with `seated[k]` in seat `k` (which draws coins if `coins[k]`),
    /// returned cards ordered by `returns`, every event to `obs`.
    fn play_deal<P: Policy, D: Dealer, O: Observer>(
        &self,
        key: GameKey,
        seated: [&P; 2],
        coins: [bool; 2],
        returns: &mut [D; 2],
        obs: &mut O,
    ) -> Outcome {
        let (cards, n) = &self.heap;
        let mut engine = Engine::deal_cards(
            &self.rules,
            &cards[..*n],
            [
                &mut key.stream(Streams::HEAP),
                &mut key.stream(Streams::HEAP + 1),
            ],
        );
        let coin = |seat: u64| {
            if coins[seat as usize] {
                key.stream(Streams::POLICY + seat)
            } else {
                GameRng::unused()
            }
        };
        let mut coins = [coin(0), coin(1)];
        let mut src = Sources {
            returns,
            coins: &mut coins,
            obs,
        };
        engine.play(&self.rules, seated, &mut src)
    }

    /// [`Junkyard::play_deal`] with the seats' policies as one type where both seats' kinds
    /// are the same policy (`simple` against itself, `greedy` or a strategy file against
    /// another): the engine is then compiled for that policy, with no dispatch per decision.
    fn play_seated<D: Dealer, O: Observer>(
        &self,
        key: GameKey,
        seated: [&PolicyKind; 2],
        returns: &mut [D; 2],
        obs: &mut O,
    ) -> Outcome {
        let coins = seated.map(PolicyKind::draws_coins);
        match seated {
            [PolicyKind::Simple, PolicyKind::Simple] => {
                self.play_deal(key, [&Simple, &Simple], coins, returns, obs)
            }
            [PolicyKind::Greedy(a), PolicyKind::Greedy(b)] => {
                self.play_deal(key, [a, b], coins, returns, obs)
            }
            _ => self.play_deal(key, seated, coins, returns, obs),
        }
    }

    /// Plays game `index` of a run seeded `seed` exactly as [`Game::play`] does, every event
    /// to `obs` (`sim trace`).
    pub fn play_observed<O: Observer>(&self, seed: u64, index: u64, obs: &mut O) -> Outcome {
        let (deal, swapped) = duel_deal(index, self.swap);
        let key = GameKey::new(seed, deal);
        if self.searches() {
            let state = State::deal_observed(&self.rules, key, obs);
            return self.play_state(state, key, swapped, obs, None);
        }
        let [a, b] = &self.policies;
        let seated = if swapped { [b, a] } else { [a, b] };
        let mut outcome = if self.rules.shuffle_returns {
            let mut returns = [
                key.stream(Streams::RETURNS),
                key.stream(Streams::RETURNS + 1),
            ];
            self.play_seated(key, seated, &mut returns, obs)
        } else {
            self.play_seated(key, seated, &mut [Stacked, Stacked], obs)
        };
        outcome.swapped = swapped;
        outcome
    }

    /// Plays `state` (deal `key`, `swapped` or not) to its end through the state API with the
    /// seated players (seat 0 played by `seat0` instead if given: a person), every event to
    /// `obs`.
    pub fn play_state<'r, O: Observer>(
        &'r self,
        state: State<'r>,
        key: GameKey,
        swapped: bool,
        obs: &mut O,
        seat0: Option<&mut dyn Player<State<'r>>>,
    ) -> Outcome {
        let mut state = state;
        let seats = self.seated[usize::from(swapped)].seats();
        // Each seat's plain policy draws from its own stream.
        let mut coins: [GameRng; 2] = [0, 1].map(|seat| key.stream(Streams::POLICY + seat));
        seat::play(&mut state, seats, key, &mut coins, seat0, |s, m| {
            s.apply_observed(m, obs)
        });
        let mut outcome = state.outcome();
        outcome.swapped = swapped;
        outcome
    }

    /// Game `index` of a run seeded `seed` dealt up to its first decision (a state: search
    /// players, `sim play`, tests), the deal's events to `obs`; its key, and whether its seats
    /// are swapped.
    pub fn deal_state<O: Observer>(
        &self,
        seed: u64,
        index: u64,
        obs: &mut O,
    ) -> (State<'_>, GameKey, bool) {
        let (deal, swapped) = duel_deal(index, self.swap);
        let key = GameKey::new(seed, deal);
        (State::deal_observed(&self.rules, key, obs), key, swapped)
    }

    /// True if a seat holds a search player (its games play through the state API).
    pub fn searches(&self) -> bool {
        self.seated[0].search.iter().any(Option::is_some)
    }

    /// The search player in seat `seat` of game `index`, if it is one.
    pub fn seated_search(&self, index: u64, seat: usize) -> Option<&Searcher<PolicyKind>> {
        let (_, swapped) = duel_deal(index, self.swap);
        self.seated[usize::from(swapped)].search[seat].as_ref()
    }

    /// The policy in seat `seat` of game `index` (seats swap on odd games of a duel of two
    /// policies).
    pub fn seated(&self, index: u64, seat: usize) -> &PolicyKind {
        let (_, swapped) = duel_deal(index, self.swap);
        &self.policies[seat ^ usize::from(swapped)]
    }

    /// The name of the policy in seat `seat` of game `index`.
    pub fn seated_name(&self, index: u64, seat: usize) -> &str {
        let (_, swapped) = duel_deal(index, self.swap);
        &self.names[seat ^ usize::from(swapped)]
    }
}

impl Game for Junkyard {
    const NAME: &'static str = "junkyard";
    const ABOUT: &'static str =
        "two-player duel: build automatons from junk heaps and attack (rules: docs/junkyard.md)";
    const TABLE: Table = Table::Duel;
    type Rules = Rules;
    type Outcome = Outcome;
    type Tally = JunkyardTally;

    fn seats(_rules: &Rules) -> usize {
        2
    }

    fn new(rules: Rules, seating: &Seating) -> Result<Self> {
        let mut policies: [PolicyKind; 2] = [PolicyKind::Simple, PolicyKind::Simple];
        let mut search: [Option<Searcher<PolicyKind>>; 2] = [None, None];
        let mut names: [String; 2] = Default::default();
        for k in 0..2 {
            let spec = &seating.policies[k];
            if let Some(s) = search::parse(spec, &rules)? {
                names[k] = s.name.clone();
                search[k] = Some(s);
            } else {
                (policies[k], names[k]) = PolicyKind::parse(spec, &rules)?;
            }
        }
        let order = |swapped: bool| {
            let [a, b] = if swapped { [1, 0] } else { [0, 1] };
            Seated {
                plain: [policies[a].clone(), policies[b].clone()],
                search: [search[a].clone(), search[b].clone()],
            }
        };
        Ok(Self {
            heap: rules.heap(),
            seated: [order(false), order(true)],
            rules,
            policies,
            swap: seating.swap,
            name: seating.label(Table::Duel, &names),
            names,
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
        self.play_observed(seed, index, &mut ())
    }

    fn new_tally(&self) -> JunkyardTally {
        // Self-play: one policy in both seats (a tournament's cell of two policies is not
        // swapped either, so the names decide).
        JunkyardTally::new(&self.rules, !self.swap && self.names[0] == self.names[1])
    }

    fn games_per_chunk(&self) -> u64 {
        if self.searches() {
            1
        } else if self
            .policies
            .iter()
            .any(|p| matches!(p, PolicyKind::Lookahead(_)))
        {
            256
        } else {
            super::CHUNK
        }
    }
}

impl crate::games::registry::Registered for Junkyard {
    const DEFAULT_POLICY: &'static str = "simple";
    const ROSTER: crate::games::registry::Roster = crate::games::registry::Roster {
        baseline: "simple",
        best: "ismcts-200",
        random: Some("random"),
        plain: "greedy",
    };
    const FIXTURE: crate::games::registry::Fixture = crate::games::registry::Fixture {
        compare: &["simple", "greedy", "random"],
        vary: ("start_hp", 20, 25),
        hidden: &[&[], &["shuffle_returns=false"]],
    };
}

#[cfg(test)]
mod rule_tests;
