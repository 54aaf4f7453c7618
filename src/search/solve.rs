//! `clairvoyant` for any one-seat game: NOT A STRATEGY. A depth-first search over the state API
//! that sees the whole world (the state holds its cards in the order they come and the
//! generators of later shuffles, so a solo game is a deterministic puzzle): is there a line of
//! moves that wins? Its win rate is the ceiling fair play is measured against.
//!
//! Every legal move of a decision is tried. Each child is first valued by the rollout policy's
//! own line from it: a line that wins ends the search (and is the line played); the others are
//! searched most progress first. States proved lost are kept in a transposition table by the
//! game's [`GameState::fingerprint`]. A search that reaches its budget of states before an
//! answer leaves the deal unsolved (played on by the rollout policy, counted apart). The budget
//! counts states, not time, so a run is the same on any machine and thread count.

use std::collections::HashSet;

use crate::games::state::{GameState, ToMove};
use crate::rng::GameRng;

use super::play::Player;

/// What the solver found for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A winning line exists (and is kept).
    Won,
    /// No line wins.
    Lost,
    /// The budget of states ran out first.
    Unsolved,
}

/// The solver's result for one deal and the line it plays.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// What the search found.
    pub verdict: Verdict,
    /// States searched.
    pub nodes: u64,
    line: Vec<M>,
    next: usize,
}

impl<M: Copy> Solution<M> {
    /// The winning line's next move, or `otherwise` once off it (a deal not won).
    pub fn next(&mut self, otherwise: impl FnOnce() -> M) -> M {
        match self.line.get(self.next) {
            Some(&m) => {
                self.next += 1;
                m
            }
            None => otherwise(),
        }
    }
}

/// Searches `children` (each a move and the state it leads to) in order, each by `search`
/// (which answers whether the child wins, its line then on `line` after the move, and whether
/// the budget has run out): [`Verdict::Won`] at the first that wins (`line` ending with the
/// move and its line), [`Verdict::Unsolved`] as soon as the budget runs out, else
/// [`Verdict::Lost`]. The loop of every depth-first winner-finder here.
pub fn first_win<M, C>(
    children: impl IntoIterator<Item = (M, C)>,
    line: &mut Vec<M>,
    mut search: impl FnMut(&C, &mut Vec<M>) -> (bool, bool),
) -> Verdict {
    for (mv, child) in children {
        line.push(mv);
        let (won, spent) = search(&child, line);
        if won {
            return Verdict::Won;
        }
        line.pop();
        if spent {
            return Verdict::Unsolved;
        }
    }
    Verdict::Lost
}

struct Dfs<'a, S: GameState> {
    rollout: &'a S::Policy,
    lost: HashSet<u64>,
    max_nodes: u64,
    nodes: u64,
    out_of_budget: bool,
    moves: Vec<S::Move>,
}

/// A line that ends in a win scores this; other lines their progress (below 1).
const WON: f32 = 2.0;

impl<S: GameState> Dfs<'_, S> {
    /// True if some line from `s` wins within the budget (`line` then ends with it).
    fn wins(&mut self, s: &S, line: &mut Vec<S::Move>) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.out_of_budget = true;
        }
        if self.out_of_budget {
            return false;
        }
        let key = s.fingerprint();
        if key.is_some_and(|k| self.lost.contains(&k)) {
            return false;
        }
        s.legal(&mut self.moves);
        let moves = self.moves.clone();
        let mut children: Vec<(f32, S::Move, Box<S>)> = Vec::with_capacity(moves.len());
        let mut rolled = Vec::new();
        for mv in moves {
            let mut next = Box::new(s.clone());
            next.apply(mv);
            let value = self.rollout_value(&next, &mut rolled);
            if value == WON {
                line.push(mv);
                line.append(&mut rolled);
                return true;
            }
            if next.to_move() != ToMove::Over {
                children.push((value, mv, next));
            }
        }
        // A stable sort: equal values keep the game's order of moves.
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        let children = children.into_iter().map(|(_, mv, next)| (mv, next));
        let verdict = first_win(children, line, |next, line| {
            (self.wins(next, line), self.out_of_budget)
        });
        if let (Verdict::Lost, Some(k)) = (verdict, key) {
            self.lost.insert(k);
        }
        verdict == Verdict::Won
    }

    /// The rollout policy's line from `s` (its moves into `line`): [`WON`] if it wins, else the
    /// progress it makes.
    fn rollout_value(&self, s: &S, line: &mut Vec<S::Move>) -> f32 {
        line.clear();
        let mut play = s.clone();
        let mut coins = GameRng::unused();
        while play.to_move() != ToMove::Over {
            let mv = play.policy_move(self.rollout, &mut coins);
            line.push(mv);
            play.apply(mv);
        }
        if play.result(0) >= 1.0 {
            WON
        } else {
            play.progress(0)
        }
    }
}

/// Solves the one-seat game of `start` (at a decision or over), lines ordered by `rollout`'s,
/// searching at most `max_nodes` states.
pub fn solve<S: GameState>(start: &S, rollout: &S::Policy, max_nodes: u64) -> Solution<S::Move> {
    let mut dfs = Dfs {
        rollout,
        lost: HashSet::new(),
        max_nodes,
        nodes: 0,
        out_of_budget: false,
        moves: Vec::new(),
    };
    let mut line = Vec::new();
    let won = match start.to_move() {
        ToMove::Over => start.result(0) >= 1.0,
        ToMove::Seat(_) => {
            let mut rolled = Vec::new();
            if dfs.rollout_value(start, &mut rolled) == WON {
                line = rolled;
                true
            } else {
                dfs.wins(start, &mut line)
            }
        }
    };
    let verdict = match (won, dfs.out_of_budget) {
        (true, _) => Verdict::Won,
        (false, true) => Verdict::Unsolved,
        (false, false) => Verdict::Lost,
    };
    Solution {
        verdict,
        nodes: dfs.nodes,
        line: if won { line } else { Vec::new() },
        next: 0,
    }
}

/// The solver at a seat: it solves the deal at its first decision, then plays the winning line
/// (the rollout policy once off it, as in a deal it cannot win).
pub struct Clairvoyant<'a, S: GameState> {
    rollout: &'a S::Policy,
    max_nodes: u64,
    /// The deal's solution, once its first decision came.
    pub solution: Option<Solution<S::Move>>,
}

impl<'a, S: GameState> Clairvoyant<'a, S> {
    /// A solver searching at most `max_nodes` states a deal, ordering and finishing with
    /// `rollout`.
    pub fn new(rollout: &'a S::Policy, max_nodes: u64) -> Self {
        Self {
            rollout,
            max_nodes,
            solution: None,
        }
    }
}

impl<S: GameState> Player<S> for Clairvoyant<'_, S> {
    fn decide(&mut self, state: &mut S, _seat: u8, coins: &mut GameRng) -> S::Move {
        let (rollout, max_nodes) = (self.rollout, self.max_nodes);
        let solution = self
            .solution
            .get_or_insert_with(|| solve(state, rollout, max_nodes));
        solution.next(|| state.policy_move(rollout, coins))
    }
}
