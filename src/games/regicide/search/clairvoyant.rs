//! `clairvoyant`: NOT A STRATEGY. An exact solver that sees the whole deal (the tavern's order,
//! the castle's order) and the shuffles hearts will make (the game's own hearts stream), so
//! that a solo game is a deterministic puzzle; its win rate is the ceiling fair play is
//! measured against.
//!
//! At its first decision it searches depth first over every legal move (all minimal covers
//! included), the rollout policy's move tried first, with a transposition table of the states
//! already proved lost. It first allows every set-aside Jester (can the deal be won at all?),
//! then, for a deal it can win, no Jester, one, and so on: the first budget that wins is the
//! fewest Jesters the deal needs (when the time runs out while lowering, the fewest found),
//! and that winning line is played. A search that runs out of its time (CPU milliseconds per
//! deal) before any answer leaves the deal *unsolved*: it is then played on by the rollout
//! policy and counted apart (`unsolved_rate`), never as a win or loss of the solver. A deal
//! that cannot be won is played on by the rollout policy too.

use std::collections::HashSet;
use std::time::Duration;

use crate::rng::GameRng;

use super::super::engine::{Engine, Resume};
use super::super::events::Unobserved;
use super::super::moves::{Covers, Plays};
use super::super::policy::{Action, Defence, Policy, Step1, Step4};
use super::super::rules::Rules;
use super::moves::{Forced, Move, Moves, Rollout};
use super::think::cpu_now;

/// What the solver found for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won with this many set-aside Jesters (the fewest possible).
    Won(u8),
    /// No line wins.
    Lost,
    /// The time ran out.
    Unsolved,
}

/// A game state to search from: the engine at a decision and the hearts generator.
#[derive(Clone)]
struct State {
    engine: Engine,
    at: Resume,
    hearts: GameRng,
}

/// The solver's working parts.
struct Search<'a> {
    rules: &'a Rules,
    rollout: &'a Rollout,
    /// The most set-aside Jesters a line may use.
    budget: u8,
    lost: HashSet<u64>,
    deadline: Duration,
    nodes: u64,
    timed_out: bool,
    /// Whether to use the transposition table and move ordering (off: brute force).
    pruned: bool,
}

/// Every legal move of `engine` at `at`, in the engine's order.
pub fn legal_moves(rules: &Rules, engine: &Engine, at: Resume) -> Moves {
    let seat = at.seat();
    let view = engine.view(rules, seat);
    match at {
        Resume::Turn(_) | Resume::Attack(_) => {
            let mut plays = Plays::default();
            plays.generate(view.hand, rules, view.values);
            Moves::attack(&Step1 {
                plays: plays.as_slice(),
                can_yield: engine.can_yield(rules, seat),
                solo_jester: view.solo_jesters > 0,
            })
        }
        Resume::Defend { used, .. } => {
            let need = view.need();
            let mut covers = Covers::default();
            if view.hand_value >= need {
                covers.generate(view.hand, need, view.values);
            }
            Moves::defend(
                &Step4 {
                    covers: covers.as_slice(),
                    solo_jester: view.solo_jesters > 0,
                    used_jester: used,
                },
                usize::MAX,
            )
        }
    }
}

/// The state after `mv` at `s`: the next decision, or the game's end (`Err(won)`).
fn step(rules: &Rules, s: &State, mv: Move, then: &Rollout) -> Result<State, bool> {
    let mut next = s.clone();
    next.engine.halt_at(s.engine.outcome().decisions + 1);
    let out = next.engine.resume(
        rules,
        &Forced::new(mv, then),
        &mut next.hearts,
        &mut GameRng::unused(),
        &mut Unobserved,
        s.at,
    );
    match next.engine.paused() {
        Some(at) => {
            next.at = at;
            next.engine.halt_at(u16::MAX);
            Ok(next)
        }
        None => Err(out.win),
    }
}

/// A 64-bit key of everything that decides a state's future.
fn key(rules: &Rules, s: &State) -> u64 {
    let e = &s.engine;
    let mut h = 0x243F_6A88_85A3_08D3u64;
    let mut mix = |x: u64| h = crate::rng::splitmix64(h ^ x);
    for c in e.tavern().iter() {
        mix(u64::from(c));
    }
    mix(0xFF);
    for &c in e.discard().cards() {
        mix(u64::from(c));
    }
    mix(0xFE);
    for &c in e.castle() {
        mix(u64::from(c));
    }
    for hand in e.hands() {
        mix(*hand);
    }
    mix(e.table());
    let v = e.view(rules, 0);
    mix(u64::from(v.damage) | u64::from(v.spades) << 16 | u64::from(v.cancelled) << 32);
    mix(u64::from(e.solo_jesters_left()) | u64::from(v.yielded[0]) << 8);
    mix(match s.at {
        Resume::Turn(_) | Resume::Attack(_) => 1,
        Resume::Defend { used, .. } => 2 + u64::from(used),
    });
    mix(s.hearts.clone().next_u64());
    h
}

impl Search<'_> {
    /// True if some line from `s` wins within the budget; sets `timed_out` (and answers
    /// false) when the time runs out.
    fn wins(&mut self, s: &State, line: &mut Vec<Move>) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(512) && cpu_now() > self.deadline {
            self.timed_out = true;
        }
        if self.timed_out {
            return false;
        }
        let k = if self.pruned { key(self.rules, s) } else { 0 };
        if self.pruned && self.lost.contains(&k) {
            return false;
        }
        let moves = legal_moves(self.rules, &s.engine, s.at);
        let mut order: Vec<Move> = moves.as_slice().to_vec();
        let used = s.engine.outcome().solo_jesters;
        order.retain(|m| !is_solo_jester(*m) || used < self.budget);
        if self.pruned
            && let Some(first) = self.rollout_move(s)
            && let Some(i) = order.iter().position(|m| m.key() == first.key())
        {
            order[..=i].rotate_right(1);
        }
        for mv in order {
            match step(self.rules, s, mv, self.rollout) {
                Err(true) => {
                    line.push(mv);
                    return true;
                }
                Err(false) => {}
                Ok(next) => {
                    line.push(mv);
                    if self.wins(&next, line) {
                        return true;
                    }
                    line.pop();
                    if self.timed_out {
                        return false;
                    }
                }
            }
        }
        if self.pruned {
            self.lost.insert(k);
        }
        false
    }

    /// The rollout policy's move at `s` (tried first).
    fn rollout_move(&self, s: &State) -> Option<Move> {
        let view = s.engine.view(self.rules, s.at.seat());
        let moves = legal_moves(self.rules, &s.engine, s.at);
        let m = moves.as_slice();
        let mut coins = GameRng::unused();
        match (s.at, m.first()?) {
            (Resume::Defend { used, .. }, _) => {
                let covers: Vec<_> = m
                    .iter()
                    .filter_map(|x| match x {
                        Move::Defend(Defence::Discard(c)) => Some(*c),
                        _ => None,
                    })
                    .collect();
                let choices = Step4 {
                    covers: &covers,
                    solo_jester: view.solo_jesters > 0,
                    used_jester: used,
                };
                Some(Move::Defend(
                    self.rollout.defend(&view, &choices, &mut coins),
                ))
            }
            _ => {
                let plays: Vec<_> = m
                    .iter()
                    .filter_map(|x| match x {
                        Move::Attack(Action::Play(p)) => Some(*p),
                        _ => None,
                    })
                    .collect();
                let choices = Step1 {
                    plays: &plays,
                    can_yield: s.engine.can_yield(self.rules, s.at.seat()),
                    solo_jester: view.solo_jesters > 0,
                };
                Some(Move::Attack(
                    self.rollout.attack(&view, &choices, &mut coins),
                ))
            }
        }
    }
}

fn is_solo_jester(m: Move) -> bool {
    matches!(
        m,
        Move::Attack(Action::SoloJester) | Move::Defend(Defence::SoloJester)
    )
}

/// The solver's result for one deal and the line it plays.
#[derive(Clone, Debug)]
pub struct Clairvoyant {
    /// What the search found.
    pub verdict: Verdict,
    /// The winning line (empty unless won).
    line: Vec<Move>,
    next: usize,
    /// States searched.
    pub nodes: u64,
}

impl Clairvoyant {
    /// Solves the game `real` at its decision `at`, hearts to come from `hearts`, within
    /// `seconds` of CPU time. `pruned = false` is the brute-force check: no table, no ordering.
    pub fn solve(
        rules: &Rules,
        rollout: &Rollout,
        real: &Engine,
        at: Resume,
        hearts: GameRng,
        seconds: f64,
        pruned: bool,
    ) -> Self {
        let start = State {
            engine: real.clone(),
            at,
            hearts,
        };
        let mut search = Search {
            rules,
            rollout,
            budget: 0,
            lost: HashSet::new(),
            deadline: cpu_now() + Duration::from_secs_f64(seconds),
            nodes: 0,
            timed_out: false,
            pruned,
        };
        let most = real.solo_jesters_left() + real.outcome().solo_jesters;
        let mut won: Option<(u8, Vec<Move>)> = None;
        // Every Jester allowed first (is the deal winnable at all?), then fewer from none up.
        for budget in std::iter::once(most).chain(0..most) {
            if won.as_ref().is_some_and(|w| w.0 <= budget) {
                break;
            }
            search.budget = budget;
            search.lost.clear();
            let mut line = vec![];
            if search.wins(&start, &mut line) {
                won = Some((budget, line));
            } else if search.timed_out || won.is_none() {
                break;
            }
        }
        let (verdict, line) = match won {
            Some((j, line)) => (Verdict::Won(j), line),
            None if search.timed_out => (Verdict::Unsolved, vec![]),
            None => (Verdict::Lost, vec![]),
        };
        Self {
            verdict,
            line,
            next: 0,
            nodes: search.nodes,
        }
    }

    /// A deal not searched (hearts had already shuffled before the first decision).
    pub fn unsolved() -> Self {
        Self {
            verdict: Verdict::Unsolved,
            line: vec![],
            next: 0,
            nodes: 0,
        }
    }

    /// The line's next move, or `otherwise` once off a winning line.
    pub fn next(&mut self, otherwise: impl FnOnce() -> Move) -> Move {
        match self.line.get(self.next) {
            Some(&m) => {
                self.next += 1;
                m
            }
            None => otherwise(),
        }
    }
}
