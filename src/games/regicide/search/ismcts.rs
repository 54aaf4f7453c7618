//! `ismcts`: information-set Monte Carlo tree search (single observer: the tree holds only the
//! deciding player's own moves; other players and chance live in the determinizations).
//!
//! Each simulation draws a world from the player's knowledge ([`super::determinize`]), walks
//! the tree from the decision with UCB1 over the moves legal in that world (a child's prior
//! visits counted as its availability, Cowling, Powley and Whitehouse 2012), adds one node,
//! then lets the rollout policy finish the game. The game's value is backed up the path. The
//! move played is the root child with most visits.

use std::cell::RefCell;

use crate::rng::GameRng;

use super::super::policy::{Action, Defence, Policy, Step1, Step4};
use super::super::view::View;
use super::moves::{Move, Moves, Rollout};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    key: u64,
    mv: Move,
    child: u32,
    sibling: u32,
    visits: u32,
    avail: u32,
    total: f32,
}

/// A search tree, its storage kept from one decision to the next.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    /// An empty tree with one root.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node {
            key: 0,
            mv: Move::Defend(Defence::GiveUp),
            child: NONE,
            sibling: NONE,
            visits: 0,
            avail: 0,
            total: 0.0,
        });
    }

    fn child(&self, node: u32, key: u64) -> Option<u32> {
        let mut c = self.nodes[node as usize].child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.key == key {
                return Some(c);
            }
            c = n.sibling;
        }
        None
    }

    fn add(&mut self, parent: u32, mv: Move) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let sibling = p.child;
        p.child = id;
        self.nodes.push(Node {
            key: mv.key(),
            mv,
            child: NONE,
            sibling,
            visits: 0,
            avail: 0,
            total: 0.0,
        });
        id
    }

    /// Adds `value` to every node of `path`.
    pub fn back_up(&mut self, path: &[u32], value: f32) {
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += value;
        }
    }

    /// The root's most visited move (ties: the higher mean, then the first added).
    pub fn best(&self) -> Option<Move> {
        let mut best: Option<&Node> = None;
        let mut c = self.nodes[0].child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            let better = best.is_none_or(|b| {
                n.visits > b.visits
                    || (n.visits == b.visits
                        && n.total * b.visits.max(1) as f32 > b.total * n.visits.max(1) as f32)
            });
            if better {
                best = Some(n);
            }
            c = n.sibling;
        }
        best.map(|n| n.mv)
    }

    /// The root's children as (move, visits, mean value), for tests and traces.
    pub fn root_stats(&self) -> Vec<(Move, u32, f32)> {
        let mut out = vec![];
        let mut c = self.nodes[0].child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            out.push((n.mv, n.visits, n.total / n.visits.max(1) as f32));
            c = n.sibling;
        }
        out
    }
}

/// Where one simulation is in the tree.
#[derive(Debug)]
pub struct Walk {
    node: u32,
    live: bool,
    path: Vec<u32>,
}

impl Walk {
    /// A walk at the root.
    pub fn new() -> Self {
        Self {
            node: 0,
            live: true,
            path: Vec::with_capacity(64),
        }
    }

    /// Back at the root (the root counts in the path).
    pub fn restart(&mut self) {
        self.node = 0;
        self.live = true;
        self.path.clear();
        self.path.push(0);
    }

    /// The nodes visited.
    pub fn path(&self) -> &[u32] {
        &self.path
    }
}

impl Default for Walk {
    fn default() -> Self {
        Self::new()
    }
}

/// The policy of one simulation: the tree's choice for the searching seat while the walk is
/// in the tree, the rollout policy after.
pub struct Walker<'a> {
    /// The searching seat.
    pub me: u8,
    /// UCB1's exploration constant.
    pub exploration: f32,
    /// Covers offered at step 4.
    pub max_covers: usize,
    /// The rollout policy.
    pub rollout: &'a Rollout,
    /// The tree and the walk.
    pub state: RefCell<(&'a mut Tree, &'a mut Walk)>,
}

impl Walker<'_> {
    /// True while the walk is in the tree and the searching seat decides.
    fn in_tree(&self, view: &View) -> bool {
        view.seat == self.me && self.state.borrow().1.live
    }

    /// The tree's move among `moves` for the walk's node, or `None` once out of the tree.
    fn select(&self, view: &View, moves: &Moves, rollout: impl FnOnce() -> Move) -> Option<Move> {
        if view.seat != self.me {
            return None;
        }
        let mut st = self.state.borrow_mut();
        let (tree, walk) = &mut *st;
        if !walk.live {
            return None;
        }
        let node = walk.node;
        let moves = moves.as_slice();
        if moves.len() == 1 {
            return Some(moves[0]);
        }
        let mut ids = [NONE; super::moves::MAX_MOVES];
        let mut untried = false;
        for (i, m) in moves.iter().enumerate() {
            match tree.child(node, m.key()) {
                Some(c) => ids[i] = c,
                None => untried = true,
            }
        }
        if untried {
            let pick = rollout();
            let mv = if tree.child(node, pick.key()).is_none() {
                pick
            } else {
                moves[ids
                    .iter()
                    .position(|&c| c == NONE)
                    .expect("an untried move")]
            };
            let id = tree.add(node, mv);
            tree.nodes[id as usize].avail = 1;
            walk.path.push(id);
            walk.live = false;
            return Some(mv);
        }
        let mut best = (f32::NEG_INFINITY, 0usize);
        for (i, &c) in ids[..moves.len()].iter().enumerate() {
            let n = &mut tree.nodes[c as usize];
            n.avail += 1;
            let visits = n.visits.max(1) as f32;
            let ucb = n.total / visits + self.exploration * ((n.avail as f32).ln() / visits).sqrt();
            if ucb > best.0 {
                best = (ucb, i);
            }
        }
        let id = ids[best.1];
        walk.node = id;
        walk.path.push(id);
        Some(moves[best.1])
    }
}

impl Policy for Walker<'_> {
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        if !self.in_tree(view) {
            return self.rollout.attack(view, choices, coins);
        }
        let moves = Moves::attack(choices);
        let pick = || Move::Attack(self.rollout.attack(view, choices, &mut GameRng::unused()));
        match self.select(view, &moves, pick) {
            Some(Move::Attack(a)) => a,
            _ => self.rollout.attack(view, choices, coins),
        }
    }

    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        self.rollout.next_seat(view, coins)
    }

    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        if !self.in_tree(view) {
            return self.rollout.defend(view, choices, coins);
        }
        let moves = Moves::defend(choices, self.max_covers);
        let pick = || Move::Defend(self.rollout.defend(view, choices, &mut GameRng::unused()));
        match self.select(view, &moves, pick) {
            Some(Move::Defend(d)) => d,
            _ => self.rollout.defend(view, choices, coins),
        }
    }
}
