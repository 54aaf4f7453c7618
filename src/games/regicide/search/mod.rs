//! The search players: `ismcts[-N]`, `pimc[-N]` and the `clairvoyant` ceiling, their strategy
//! files, and the table that seats them beside the plain policies.
//!
//! A searching seat keeps its own [`Knowledge`] from the public events of the real game and
//! draws every world from it ([`determinize`]); all its randomness comes from the game's own
//! stream `SEARCH + seat`, so a run is reproducible and independent of the thread count. Each
//! decision's wall-clock time goes into the outcome ([`think`]).
//!
//! A simulated game's value is `win + royal_credit × royals / 12` (royals defeated in the whole
//! game, 0 to 12): a win counts 1, and among lost games those that got further count a little
//! more (`royal_credit`, 0.2 by default, so a win always outweighs any loss).
//!
//! Strategy file (`strategies/regicide/ismcts.toml`; every key optional):
//! ```toml
//! name = "ismcts"
//! [search]
//! algorithm = "ismcts"      # or "pimc"
//! simulations = 1000        # ismcts: simulations per decision; pimc: worlds
//! exploration = 0.7         # UCB1's constant (ismcts)
//! royal_credit = 0.2        # value of each royal defeated, over 12, in a lost game
//! max_covers = 6            # step 4: the cheapest covers searched (and a Jester)
//! rollout = "heuristic"     # or "simple"
//! ```

pub mod clairvoyant;
pub mod determinize;
pub mod ismcts;
pub mod knowledge;
pub mod moves;
pub mod pimc;
pub mod think;

#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::games::PolicyHelp;
use crate::rng::{GameKey, GameRng};

use super::engine::{Engine, Resume};
use super::events::{Event, Observer, Unobserved};
use super::outcome::Outcome;
use super::policy::{Action, Defence, Policy, Step1, Step4};
use super::rules::{MAX_PLAYERS, ROYALS, Rules};
use super::view::View;

use clairvoyant::{Clairvoyant, Verdict};
use ismcts::{Tree, Walk, Walker};
use knowledge::Knowledge;
use moves::{Move, Moves, Rollout, RolloutKind};
use pimc::Pimc;
use think::Think;

/// The first of the game streams the searching seats draw from (`SEARCH + seat`).
pub const SEARCH: u64 = 16;

/// Which search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Information-set MCTS.
    Ismcts,
    /// Perfect-information Monte Carlo.
    Pimc,
    /// The exact solver that sees the deal (not a fair player).
    Clairvoyant,
}

/// A search player's settings (the `[search]` table of a strategy file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// Which search.
    pub algorithm: Algorithm,
    /// Simulations per decision (ismcts), worlds (pimc), thousands of states searched per
    /// deal (clairvoyant).
    pub simulations: u32,
    /// UCB1's exploration constant.
    pub exploration: f32,
    /// The value of all 12 royals in a lost game (a win is 1).
    pub royal_credit: f32,
    /// Step 4: the cheapest covers searched.
    pub max_covers: usize,
    /// The policy that finishes simulated games.
    pub rollout: RolloutKind,
}

impl Settings {
    /// The built-in settings of `algorithm` (the same as its file in `strategies/regicide/`).
    pub fn of(algorithm: Algorithm) -> Self {
        let simulations = match algorithm {
            Algorithm::Ismcts => 1000,
            Algorithm::Pimc => 150,
            Algorithm::Clairvoyant => 1_000,
        };
        Self {
            algorithm,
            simulations,
            exploration: 0.7,
            royal_credit: 0.2,
            max_covers: 6,
            rollout: RolloutKind::Heuristic,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self::of(Algorithm::Ismcts)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    search: Settings,
}

/// A search player ready to seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Searcher {
    /// Display name.
    pub name: String,
    /// Its settings.
    pub settings: Settings,
    rollout: Rollout,
}

impl Searcher {
    /// A searcher with `settings` named `name`.
    pub fn new(name: &str, settings: Settings) -> Self {
        Self {
            name: name.into(),
            rollout: Rollout::of(settings.rollout),
            settings,
        }
    }

    /// Refuses a searcher the rules cannot seat: the clairvoyant solves solo games only.
    pub fn check(&self, rules: &Rules) -> Result<()> {
        if self.settings.algorithm == Algorithm::Clairvoyant && rules.players != 1 {
            return Err(SimError::input(format!(
                "{} solves solo games only (--players 1), not {} players",
                self.name, rules.players
            )));
        }
        Ok(())
    }

    /// A simulated game's value (see the module notes).
    #[inline]
    pub fn value(&self, out: &Outcome) -> f32 {
        f32::from(u8::from(out.win))
            + self.settings.royal_credit * f32::from(out.royals) / ROYALS as f32
    }
}

/// The search players `sim list` and errors name.
pub fn help() -> Vec<PolicyHelp> {
    vec![
        PolicyHelp {
            name: "ismcts[-N]",
            about: "information-set MCTS: N simulations per decision (default 1000) over worlds drawn from what the player knows, heuristic rollouts (strategies/regicide/ismcts.toml)",
        },
        PolicyHelp {
            name: "pimc[-N]",
            about: "perfect-information Monte Carlo: every move tried in N determinized worlds (default 150), heuristic rollouts, the best mean played",
        },
        PolicyHelp {
            name: "clairvoyant[-K]",
            about: "NOT A STRATEGY: an exact solver that sees the tavern's order and the hearts shuffles; wins with the fewest Jesters when the deal can be won (the ceiling; solo only; at most K thousand states a deal, default 1000, unfinished deals counted as unsolved)",
        },
    ]
}

/// Parses a `--policy` value if it names a search player or a search strategy file;
/// `Ok(None)` for anything else.
pub fn parse(spec: &str) -> Result<Option<Searcher>> {
    let family = |name: &str, algorithm: Algorithm| -> Result<Option<Searcher>> {
        let mut settings = Settings::of(algorithm);
        if let Some(n) = spec.strip_prefix(name).and_then(|s| s.strip_prefix('-')) {
            settings.simulations = match n.parse::<u32>() {
                Ok(n) if (1..=10_000_000).contains(&n) => n,
                _ => {
                    return Err(super::super::unknown_policy(
                        "regicide",
                        spec,
                        &format!("{name}-N takes N from 1 to 10000000"),
                        &all_help(),
                    ));
                }
            };
        }
        Ok(Some(Searcher::new(spec, settings)))
    };
    match spec {
        "ismcts" => family("ismcts", Algorithm::Ismcts),
        "pimc" => family("pimc", Algorithm::Pimc),
        "clairvoyant" => Ok(Some(Searcher::new(
            spec,
            Settings::of(Algorithm::Clairvoyant),
        ))),
        _ if spec.starts_with("ismcts-") => family("ismcts", Algorithm::Ismcts),
        _ if spec.starts_with("pimc-") => family("pimc", Algorithm::Pimc),
        _ if spec.starts_with("clairvoyant-") => family("clairvoyant", Algorithm::Clairvoyant),
        _ if spec.ends_with(".toml") => {
            let path = Path::new(spec);
            let table: toml::Table = crate::rules::read_toml(path, "cannot read strategy file")?;
            if !table.contains_key("search") {
                return Ok(None);
            }
            let file: File = crate::rules::read_toml(path, "cannot read strategy file")?;
            let s = &file.search;
            if s.simulations == 0
                || !(0.0..=100.0).contains(&s.exploration)
                || !(0.0..=1.0).contains(&s.royal_credit)
                || s.max_covers == 0
            {
                return Err(SimError::input(format!(
                    "{spec}: search settings out of range: simulations >= 1, exploration 0..=100, royal_credit 0..=1, max_covers >= 1"
                )));
            }
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "search".into());
            Ok(Some(Searcher::new(&file.name.unwrap_or(stem), file.search)))
        }
        _ => Ok(None),
    }
}

/// The plain policies' help and the search players'.
pub fn all_help() -> Vec<PolicyHelp> {
    let mut h = super::policy::help();
    h.extend(help());
    h
}

/// What the table's observer keeps for the searching seats: the game as it stands after the
/// last event (a decision comes right after one), and each searching seat's knowledge.
struct Shared {
    now: Engine,
    knowledge: [Option<Knowledge>; MAX_PLAYERS],
    /// Hearts resolved so far (the clairvoyant needs the hearts stream untouched).
    heals: u32,
}

/// Feeds the real game's events to [`Shared`], then to the game's own observer (`sim trace`;
/// a no-op in a run).
struct Watch<'a, O>(&'a RefCell<Shared>, &'a mut O);

impl<O: Observer> Observer for Watch<'_, O> {
    fn event(&mut self, engine: &Engine, event: Event) {
        {
            let mut s = self.0.borrow_mut();
            s.now.clone_from(engine);
            s.heals += u32::from(matches!(event, Event::Healed { cards } if cards > 0));
            for k in s.knowledge.iter_mut().flatten() {
                k.event(engine, &event);
            }
        }
        self.1.event(engine, event);
    }
}

/// A searching seat's advice at its last decision (`sim play --hints`): the move it would
/// play and each move's value: PIMC's mean value over its worlds, ISMCTS's visits and mean
/// value of each root move.
#[derive(Clone, Debug, Default)]
pub struct Advice {
    /// The move the search chose.
    pub best: Option<Move>,
    /// Each move searched: (move, visits (ISMCTS), mean value).
    pub values: Vec<(Move, Option<u32>, f32)>,
    /// After a Jester: the seat the search player's rollout policy picks.
    pub next_seat: Option<u8>,
}

/// One searching seat's working state in a game.
struct Seat {
    rng: GameRng,
    sums: [f32; moves::MAX_MOVES],
    tree: Tree,
    walk: Walk,
    scratch: Box<[Engine; 2]>,
    think: Think,
    clairvoyant: Option<Clairvoyant>,
}

/// The real game's policy: each seat's own, searching or plain.
struct Table<'a, P> {
    rules: &'a Rules,
    plain: &'a P,
    search: &'a [Option<Searcher>; MAX_PLAYERS],
    shared: &'a RefCell<Shared>,
    seats: RefCell<[Option<Seat>; MAX_PLAYERS]>,
    key: GameKey,
    /// A searching seat that advises `plain` instead of playing (a person at `sim play`), and
    /// where its advice goes.
    advise: Option<(u8, &'a RefCell<Advice>)>,
}

impl<P: Policy> Table<'_, P> {
    /// True if `seat`'s search advises the plain policy, which decides.
    #[inline]
    fn advises(&self, seat: u8) -> bool {
        self.advise.is_some_and(|(a, _)| a == seat)
    }

    /// The searching seat's choice among `moves` at `at`.
    fn decide(
        &self,
        s: &Searcher,
        view: &View,
        moves: &Moves,
        at: Resume,
        otherwise: impl FnOnce() -> Move,
    ) -> Move {
        let start = think::cpu_now();
        let seat = usize::from(view.seat);
        let shared = self.shared.borrow();
        let mut seats = self.seats.borrow_mut();
        let st = seats[seat]
            .as_mut()
            .expect("a searching seat has its state");
        let real = &shared.now;
        debug_assert_eq!(real.hands()[seat], view.hand);
        let knowledge = shared.knowledge[seat]
            .as_ref()
            .expect("a searching seat keeps its knowledge");
        // (The clairvoyant's line holds every decision the engine asks, one move or more.)
        let mv = if moves.as_slice().len() == 1 && s.settings.algorithm != Algorithm::Clairvoyant {
            moves.as_slice()[0]
        } else {
            match s.settings.algorithm {
                Algorithm::Ismcts => {
                    st.tree.reset();
                    let [world, _] = &mut *st.scratch;
                    for _ in 0..s.settings.simulations {
                        determinize::sample(knowledge, real, &mut st.rng, world);
                        st.walk.restart();
                        let walker = Walker {
                            me: view.seat,
                            exploration: s.settings.exploration,
                            max_covers: s.settings.max_covers,
                            rollout: &s.rollout,
                            state: RefCell::new((&mut st.tree, &mut st.walk)),
                        };
                        let out = world.resume(
                            self.rules,
                            &walker,
                            &mut st.rng,
                            &mut GameRng::unused(),
                            &mut Unobserved,
                            at,
                        );
                        st.tree.back_up(st.walk.path(), s.value(&out));
                    }
                    st.tree.best().expect("the root has children")
                }
                Algorithm::Pimc => Pimc {
                    rules: self.rules,
                    worlds: s.settings.simulations,
                    rollout: &s.rollout,
                    value: &|o| s.value(o),
                }
                .decide(
                    knowledge,
                    real,
                    at,
                    moves,
                    &mut st.rng,
                    &mut st.scratch,
                    &mut st.sums,
                ),
                Algorithm::Clairvoyant => {
                    let heals = shared.heals;
                    let c = st.clairvoyant.get_or_insert_with(|| {
                        if heals > 0 {
                            return Clairvoyant::unsolved();
                        }
                        Clairvoyant::solve(
                            self.rules,
                            &s.rollout,
                            real,
                            at,
                            self.key.stream(super::Streams::HEARTS),
                            u64::from(s.settings.simulations) * 1000,
                            true,
                        )
                    });
                    c.next(otherwise)
                }
            }
        };
        st.think.add(think::cpu_now().saturating_sub(start));
        if let Some((_, cell)) = self.advise.filter(|(a, _)| *a == view.seat) {
            let mut advice = cell.borrow_mut();
            advice.best = Some(mv);
            advice.values = match s.settings.algorithm {
                Algorithm::Ismcts if moves.as_slice().len() > 1 => st
                    .tree
                    .root_stats()
                    .into_iter()
                    .map(|(m, n, v)| (m, Some(n), v))
                    .collect(),
                Algorithm::Pimc if moves.as_slice().len() > 1 => {
                    let worlds = s.settings.simulations as f32;
                    let sums = st.sums.iter();
                    moves
                        .as_slice()
                        .iter()
                        .zip(sums)
                        .map(|(&m, &sum)| (m, None, sum / worlds))
                        .collect()
                }
                _ => Vec::new(),
            };
        }
        mv
    }
}

impl<P: Policy> Policy for Table<'_, P> {
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        let seat = usize::from(view.seat);
        match &self.search[seat] {
            Some(s) => {
                let moves = Moves::attack(choices);
                let otherwise = || Move::Attack(s.rollout.attack(view, choices, coins));
                let mv = self.decide(s, view, &moves, Resume::Attack(view.seat), otherwise);
                if self.advises(view.seat) {
                    return self.plain.attack(view, choices, coins);
                }
                match mv {
                    Move::Attack(a) => a,
                    m => unreachable!("{m:?} at step 1"),
                }
            }
            None => self.plain.attack(view, choices, coins),
        }
    }

    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        let seat = usize::from(view.seat);
        match &self.search[seat] {
            Some(s) if self.advises(view.seat) => {
                if let Some((_, cell)) = self.advise {
                    cell.borrow_mut().next_seat = Some(s.rollout.next_seat(view, coins));
                }
                self.plain.next_seat(view, coins)
            }
            Some(s) => s.rollout.next_seat(view, coins),
            None => self.plain.next_seat(view, coins),
        }
    }

    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        let seat = usize::from(view.seat);
        match &self.search[seat] {
            Some(s) => {
                let moves = Moves::defend(choices, s.settings.max_covers);
                let at = Resume::Defend {
                    seat: view.seat,
                    used: choices.used_jester,
                };
                let otherwise = || Move::Defend(s.rollout.defend(view, choices, coins));
                let mv = self.decide(s, view, &moves, at, otherwise);
                if self.advises(view.seat) {
                    return self.plain.defend(view, choices, coins);
                }
                match mv {
                    Move::Defend(d) => d,
                    m => unreachable!("{m:?} at step 4"),
                }
            }
            None => self.plain.defend(view, choices, coins),
        }
    }
}

/// Deals `engine` (shuffled) and plays it to the end with a search player in some seats
/// (`search[seat]`) and `plain` deciding for the others, every event of the real game to
/// `obs` (the searches' own simulated games report nothing). With `advise`, that seat's
/// search only advises (its advice to the cell) and `plain` decides for it too.
#[allow(clippy::too_many_arguments)]
pub fn play<P: Policy, O: Observer>(
    rules: &Rules,
    plain: &P,
    search: &[Option<Searcher>; MAX_PLAYERS],
    mut engine: Engine,
    key: GameKey,
    hearts: &mut GameRng,
    coins: &mut GameRng,
    obs: &mut O,
    advise: Option<(u8, &RefCell<Advice>)>,
) -> Outcome {
    let knowledge = std::array::from_fn(|seat| {
        search[seat]
            .as_ref()
            .map(|_| Knowledge::new(seat as u8, &engine))
    });
    let shared = RefCell::new(Shared {
        now: engine.clone(),
        knowledge,
        heals: 0,
    });
    let seats = std::array::from_fn(|seat| {
        search[seat].as_ref().map(|_| Seat {
            rng: key.stream(SEARCH + seat as u64),
            sums: [0.0; moves::MAX_MOVES],
            tree: Tree::default(),
            walk: Walk::new(),
            scratch: Box::new([engine.clone(), engine.clone()]),
            think: Think::default(),
            clairvoyant: None,
        })
    });
    let table = Table {
        rules,
        plain,
        search,
        shared: &shared,
        seats: RefCell::new(seats),
        key,
        advise,
    };
    let mut out = engine.play(rules, &table, hearts, coins, &mut Watch(&shared, obs));
    for st in table.seats.into_inner().iter().flatten() {
        if let Some(c) = &st.clairvoyant {
            out.unsolved = c.verdict == Verdict::Unsolved;
            out.jesters_unproved = matches!(c.verdict, Verdict::Won(_)) && !c.fewest_proved;
        }
        out.think.decisions = out.think.decisions.saturating_add(st.think.decisions);
        out.think.micros += st.think.micros;
        for (a, b) in out.think.bins.iter_mut().zip(st.think.bins) {
            *a = a.saturating_add(b);
        }
    }
    out
}
