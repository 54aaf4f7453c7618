//! `clairvoyant`: NOT A STRATEGY. An exact solver that sees the whole deal (the tavern's order,
//! the castle's order) and the shuffles hearts will make (the game's own hearts stream), so
//! that a solo game is a deterministic puzzle; its win rate is the ceiling fair play is
//! measured against.
//!
//! At its first decision it searches depth first over every legal move (all minimal covers
//! included), with a transposition table of the states already proved lost. Each child is
//! valued by the rollout policy's own line from it: a line that wins ends the search (and is
//! the line played); the other children are searched most royals first. It first allows every
//! set-aside Jester (can the deal be won at all?), then one fewer than the last winning line
//! used, until a budget is proved lost: that proves the fewest Jesters the deal needs. A search
//! that reaches its budget of states before any answer leaves the deal *unsolved*: it is then
//! played on by the rollout policy and counted apart (`unsolved_rate`), never as a win or loss
//! of the solver; one that reaches it while lowering the Jesters plays the fewest found
//! (`jesters_unproved`). A deal that cannot be won is played on by the rollout policy too. The
//! budget counts states, not time, so a run is the same on any machine and thread count.

use std::cell::RefCell;
use std::collections::HashSet;

use crate::games::state::{GameState, ToMove};
use crate::rng::GameRng;
use crate::search::solve::{self, first_win};

use super::super::events::Unobserved;
use super::super::policy::{Action, Defence, Policy, PolicyKind, Step1, Step4, each_kind};
use super::super::state::State;
use super::super::view::View;
use super::moves::Move;

/// What the solver found for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won with this many set-aside Jesters (the fewest possible).
    Won(u8),
    /// No line wins.
    Lost,
    /// The budget of states ran out.
    Unsolved,
}

/// The solver's working parts.
struct Search<'a, P> {
    rollout: &'a P,
    /// The most set-aside Jesters a line may use.
    budget: u8,
    /// The set-aside Jesters a line must leave unused (all of them less `budget`).
    keep: u8,
    /// The moves of the last rollout line ([`Search::rollout_value`]).
    recorded: RefCell<Vec<Move>>,
    lost: HashSet<u64>,
    /// The most states a deal may search.
    max_nodes: u64,
    nodes: u64,
    out_of_budget: bool,
    /// Whether to use the transposition table and move ordering (off: brute force).
    pruned: bool,
}

/// The state after `mv` at `s`: the next decision, or the game's end (`Err(won)`).
#[inline(never)]
fn step<'r>(s: &State<'r>, mv: Move) -> Result<Box<State<'r>>, bool> {
    let mut next = Box::new(s.clone());
    next.apply(mv);
    match next.to_move() {
        ToMove::Seat(_) => Ok(next),
        ToMove::Over => Err(next.outcome().win),
    }
}

impl<P: Policy> Search<'_, P> {
    /// True if some line from `s` wins within the budget (and `line` then ends with it); sets
    /// `out_of_budget` (and answers false) when the budget of states runs out.
    fn wins(&mut self, s: &State, line: &mut Vec<Move>) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.out_of_budget = true;
        }
        if self.out_of_budget {
            return false;
        }
        let k = if self.pruned {
            s.fingerprint().expect("a Regicide state has a fingerprint")
        } else {
            0
        };
        if self.pruned && self.lost.contains(&k) {
            return false;
        }
        let allowed = self.allowed_moves(s);
        // Brute force tries every move in the engine's order. The pruned search values each
        // child by the rollout policy's line from it: a line that wins ends the search, the
        // others are searched most royals first (ties in the engine's order).
        let mut children: Vec<(i32, Move, Box<State>)> = Vec::with_capacity(allowed.len());
        for mv in allowed {
            match step(s, mv) {
                Err(true) => {
                    line.push(mv);
                    return true;
                }
                Err(false) => {}
                Ok(next) => {
                    let value = if self.pruned {
                        self.rollout_value(&next)
                    } else {
                        0
                    };
                    if value == WON {
                        line.push(mv);
                        line.extend_from_slice(&self.recorded.borrow());
                        return true;
                    }
                    children.push((value, mv, next));
                }
            }
        }
        // A stable sort: equal values (every child, for brute force) keep the engine's order.
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        let children = children.into_iter().map(|(_, mv, next)| (mv, next));
        let verdict = first_win(children, line, |next, line| {
            (self.wins(next, line), self.out_of_budget)
        });
        if self.pruned && verdict == solve::Verdict::Lost {
            self.lost.insert(k);
        }
        verdict == solve::Verdict::Won
    }

    /// The legal moves at `s` within the Jester budget, in the engine's order (on the heap:
    /// the search recurses a hundred levels deep).
    #[inline(never)]
    fn allowed_moves(&self, s: &State) -> Vec<Move> {
        let used = s.outcome().solo_jesters;
        let mut moves = Vec::new();
        s.legal(&mut moves);
        moves.retain(|m| !is_solo_jester(*m) || used < self.budget);
        moves
    }

    /// The value of the rollout policy's line from `s` to the game's end: [`WON`] for a win
    /// within the Jester budget, else the royals it defeats. The line's moves are left in
    /// `recorded`.
    #[inline(never)]
    fn rollout_value(&self, s: &State) -> i32 {
        self.recorded.borrow_mut().clear();
        let Some(at) = s.at() else {
            return i32::from(s.outcome().royals);
        };
        let mut engine = s.engine().clone();
        engine.halt_at(u16::MAX);
        let recorder = Recorder {
            policy: self.within(),
            moves: &self.recorded,
        };
        let out = engine.resume(
            s.rules(),
            &recorder,
            &mut s.hearts().clone(),
            &mut GameRng::unused(),
            &mut Unobserved,
            at,
        );
        if out.win && out.solo_jesters <= self.budget {
            WON
        } else {
            i32::from(out.royals)
        }
    }

    /// The rollout policy kept within this pass's Jester budget.
    fn within(&self) -> Within<'_, P> {
        Within {
            rollout: self.rollout,
            keep: self.keep,
        }
    }
}

/// The rollout policy kept within a Jester budget: it uses no set-aside Jester once only
/// `keep` are left, unless the Jester is its only choice (a line that then loses the budget
/// is valued as a loss).
struct Within<'a, P> {
    rollout: &'a P,
    keep: u8,
}

impl<P: Policy> Policy for Within<'_, P> {
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        let over = choices.solo_jester && view.solo_jesters <= self.keep;
        if over && choices.plays.is_empty() && !choices.can_yield {
            return Action::SoloJester;
        }
        let choices = Step1 {
            solo_jester: choices.solo_jester && !over,
            ..*choices
        };
        self.rollout.attack(view, &choices, coins)
    }

    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        self.rollout.next_seat(view, coins)
    }

    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        let choices = Step4 {
            solo_jester: choices.solo_jester && view.solo_jesters > self.keep,
            ..*choices
        };
        self.rollout.defend(view, &choices, coins)
    }
}

/// A policy that writes down every choice of the policy it wraps: the line the solver plays
/// when that policy's game wins.
struct Recorder<'a, P> {
    policy: P,
    moves: &'a RefCell<Vec<Move>>,
}

impl<P: Policy> Policy for Recorder<'_, P> {
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        let a = self.policy.attack(view, choices, coins);
        self.moves.borrow_mut().push(Move::Attack(a));
        a
    }

    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        self.policy.next_seat(view, coins)
    }

    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        let d = self.policy.defend(view, choices, coins);
        self.moves.borrow_mut().push(Move::Defend(d));
        d
    }
}

/// [`Search::rollout_value`] of a line that wins.
const WON: i32 = 1000;

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
    /// A win's Jester count is proved the fewest (false: the budget ran out while lowering
    /// it, so it is the fewest found).
    pub fewest_proved: bool,
}

impl Clairvoyant {
    /// Solves the game of `start` (a solo game at a decision), lines ordered by `rollout`'s,
    /// searching at most `max_nodes` states. `pruned = false` is the brute-force check: no
    /// table, no ordering.
    pub fn solve(start: &State, rollout: &PolicyKind, max_nodes: u64, pruned: bool) -> Self {
        each_kind!(rollout, p => Self::solve_with(start, p, max_nodes, pruned))
    }

    fn solve_with<P: Policy>(start: &State, rollout: &P, max_nodes: u64, pruned: bool) -> Self {
        let mut search = Search {
            rollout,
            budget: 0,
            keep: 0,
            recorded: RefCell::new(Vec::new()),
            lost: HashSet::new(),
            max_nodes,
            nodes: 0,
            out_of_budget: false,
            pruned,
        };
        let real = start.engine();
        let most = real.solo_jesters_left() + real.outcome().solo_jesters;
        let before = real.outcome().solo_jesters;
        let mut won: Option<(u8, Vec<Move>)> = None;
        // Every Jester allowed first (can the deal be won at all?), then one fewer than the
        // last winning line used, until a budget is proved lost. A state lost with a budget is
        // lost with any smaller one, so the table of lost states carries over.
        let mut budget = most;
        loop {
            search.budget = budget;
            search.keep = most - budget;
            let mut line = vec![];
            let won_at_once = pruned && search.rollout_value(start) == WON;
            if won_at_once {
                line.extend_from_slice(&search.recorded.borrow());
            } else if !search.wins(start, &mut line) {
                break;
            }
            let used = before + line.iter().filter(|m| is_solo_jester(**m)).count() as u8;
            won = Some((used, line));
            if used == before {
                break;
            }
            budget = used - 1;
        }
        let fewest_proved = !search.out_of_budget;
        let (verdict, line) = match won {
            Some((j, line)) => (Verdict::Won(j), line),
            None if search.out_of_budget => (Verdict::Unsolved, vec![]),
            None => (Verdict::Lost, vec![]),
        };
        Self {
            verdict,
            line,
            next: 0,
            nodes: search.nodes,
            fewest_proved,
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
