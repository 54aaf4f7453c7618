//! `ismcts`: information-set Monte Carlo tree search, single observer: the tree holds only the
//! deciding seat's own decisions; the other seats move by the rollout policy, and chance and the
//! unseen cards live in the sampled worlds.
//!
//! The tree alternates decision nodes and move nodes. A decision node's children are the moves
//! tried there; a move node's children are the decisions the seat met next, told apart by what
//! the seat then observed ([`Tree::Observations`], for games where chance the seat sees
//! decides what the next decision is, e.g. the card a push turns up) or all one
//! ([`Tree::Moves`]: a tree over move sequences, whose moves are available or not in each
//! world). Each simulation samples a world from what the seat has seen, walks the tree with UCB1
//! over the moves available in that world (a child's availability counted as its parent's
//! visits, Cowling, Powley and Whitehouse 2012), adds one move node (the rollout policy's own
//! choice first, if untried), then lets the rollout policy finish the game. The game's value is
//! backed up the path, and the result alone beside it (the search's estimate of its move). The move
//! played is the root child with most visits. With a value model, `leaf` mixes the estimate
//! right after the added move into its value ([`Searcher::leaf`]), and `prior` tries first the
//! untried move of the best estimate and adds `prior x estimate / (1 + visits)` to UCB1's score.

use std::hash::{Hash, Hasher};

use crate::games::state::{GameState, ToMove};
use crate::rng::GameRng;

use super::settings::Tree as Keying;
use super::{Searcher, Work};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    key: u64,
    mv: Option<M>,
    child: u32,
    sibling: u32,
    visits: u32,
    avail: u32,
    total: f32,
    /// The total result (the value without the credit for progress).
    results: f32,
    /// A move node's prior: the value estimate right after its move, where it was first tried
    /// (0 without a prior).
    prior: f32,
}

/// A search tree, its storage kept from one decision to the next.
#[derive(Clone, Debug)]
pub struct Tree<M> {
    nodes: Vec<Node<M>>,
    path: Vec<u32>,
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            path: Vec::new(),
        }
    }
}

impl<M: Copy> Tree<M> {
    /// An empty tree with one root.
    fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node {
            key: 0,
            mv: None,
            child: NONE,
            sibling: NONE,
            visits: 0,
            avail: 0,
            total: 0.0,
            results: 0.0,
            prior: 0.0,
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

    /// Adds a child of `parent` with `key`: a move node (`mv`) or a decision node (`None`).
    fn add(&mut self, parent: u32, key: u64, mv: Option<M>) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let sibling = p.child;
        p.child = id;
        self.nodes.push(Node {
            key,
            mv,
            child: NONE,
            sibling,
            visits: 0,
            avail: 1,
            total: 0.0,
            results: 0.0,
            prior: 0.0,
        });
        id
    }

    /// Adds `value` and `result` to every node of the last walk's path.
    fn back_up(&mut self, value: f32, result: f32) {
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += value;
            node.results += result;
        }
    }

    /// The root's children as (move, visits, total value), in the order they were added.
    fn root_children(&self) -> impl Iterator<Item = (M, u32, f32)> + '_ {
        let mut c = self.nodes[0].child;
        std::iter::from_fn(move || {
            let n = self.nodes.get(c as usize)?;
            c = n.sibling;
            Some((n.mv.expect("a child holds its move"), n.visits, n.total))
        })
    }

    /// The root's most visited move (ties: the higher mean, then the first added).
    fn best(&self) -> Option<M> {
        let mut best: Option<(M, u32, f32)> = None;
        for (mv, visits, total) in self.root_children() {
            let better = best.is_none_or(|(_, bv, bt)| {
                visits > bv
                    || (visits == bv && total * bv.max(1) as f32 > bt * visits.max(1) as f32)
            });
            if better {
                best = Some((mv, visits, total));
            }
        }
        best.map(|b| b.0)
    }

    /// The mean result (the value without the credit for progress) of the root's child `mv`
    /// over its simulations, if it was tried.
    pub fn mean_result(&self, mv: M) -> Option<f32>
    where
        M: PartialEq,
    {
        let mut c = self.nodes.first()?.child;
        while let Some(n) = self.nodes.get(c as usize) {
            if n.mv == Some(mv) {
                return Some(n.results / n.visits.max(1) as f32);
            }
            c = n.sibling;
        }
        None
    }

    /// The root's children as (move, visits, mean value), for advice and tests.
    pub fn root_stats(&self) -> Vec<(M, u32, f32)> {
        self.root_children()
            .map(|(m, n, t)| (m, n, t / n.max(1) as f32))
            .collect()
    }
}

/// The move of most visits after `searcher.settings.simulations` simulations from `real`'s
/// decision for `seat` (its candidates in `work.root`, at least two).
pub fn decide<S: GameState>(
    searcher: &Searcher<S::Policy>,
    real: &S,
    seat: u8,
    work: &mut Work<S>,
) -> S::Move {
    let settings = &searcher.settings;
    work.tree.reset();
    let (world, probe) = super::scratch(&mut work.scratch, real);
    let prior = settings.prior > 0.0 && settings.model.is_some();
    for s in 0..settings.simulations {
        // A stop request cuts a long search short (the game is then dropped).
        if s % super::STOP_POLL == super::STOP_POLL - 1 && crate::stop::requested() {
            break;
        }
        real.sample_into(seat, &mut work.rng, world);
        let tree = &mut work.tree;
        tree.path.clear();
        tree.path.push(0);
        // The decision node the walk is at, or the move node it left last.
        let mut node = 0;
        let mut after_move = false;
        // The (value, result) of the move node added, once valued.
        let mut valued = None;
        // Down the tree while every candidate there has a child, then one move node added and
        // the game played out.
        loop {
            match world.to_move() {
                ToMove::Over => break,
                ToMove::Seat(s) if s != seat => {
                    let mv = world.policy_move(&searcher.rollout, &mut work.rng);
                    world.apply(mv);
                    continue;
                }
                ToMove::Seat(_) => {}
            }
            if after_move {
                let key = match settings.tree {
                    Keying::Moves => 0,
                    Keying::Observations => observed(world, seat),
                };
                node = match tree.child(node, key) {
                    Some(c) => c,
                    None => tree.add(node, key, None),
                };
            }
            world.candidates(&mut work.moves, settings.width);
            let moves = &work.moves;
            if moves.len() == 1 {
                world.apply(moves[0]);
                continue;
            }
            work.ids.clear();
            work.ids.extend(
                moves
                    .iter()
                    .map(|m| tree.child(node, S::key(m)).unwrap_or(NONE)),
            );
            if work.ids.contains(&NONE) {
                let (mv, estimate) = if prior {
                    // The untried move of the best estimate right after it.
                    let mut best: Option<(S::Move, f32)> = None;
                    for (&m, _) in moves.iter().zip(&work.ids).filter(|(_, c)| **c == NONE) {
                        probe.clone_from(world);
                        probe.apply(m);
                        let e = searcher
                            .estimate_at(probe, seat, &mut work.features)
                            .unwrap_or_else(|| probe.result(seat));
                        if best.is_none_or(|(_, b)| e > b) {
                            best = Some((m, e));
                        }
                    }
                    best.expect("an untried move")
                } else {
                    let pick = world.policy_move(&searcher.rollout, &mut GameRng::unused());
                    let untried = |m: &S::Move| tree.child(node, S::key(m)).is_none();
                    let mv = if moves.contains(&pick) && untried(&pick) {
                        pick
                    } else {
                        let i = work.ids.iter().position(|&c| c == NONE).expect("untried");
                        moves[i]
                    };
                    (mv, 0.0)
                };
                let id = tree.add(node, S::key(&mv), Some(mv));
                tree.nodes[id as usize].prior = estimate;
                tree.path.push(id);
                valued = Some(searcher.leaf(world, mv, seat, &mut work.rng, &mut work.features));
                break;
            }
            let mut best = (f32::NEG_INFINITY, 0usize);
            for (i, &c) in work.ids.iter().enumerate() {
                let n = &mut tree.nodes[c as usize];
                n.avail += 1;
                let visits = n.visits.max(1) as f32;
                let mut ucb = n.total / visits
                    + settings.exploration * ((n.avail as f32).ln() / visits).sqrt();
                if prior {
                    ucb += settings.prior * n.prior / (1.0 + n.visits as f32);
                }
                if ucb > best.0 {
                    best = (ucb, i);
                }
            }
            node = work.ids[best.1];
            tree.path.push(node);
            after_move = true;
            world.apply(moves[best.1]);
        }
        let (value, result) = valued.unwrap_or_else(|| {
            world.rollout(&searcher.rollout, &mut work.rng);
            (searcher.value(world, seat), world.result(seat))
        });
        work.tree.back_up(value, result);
    }
    work.tree.best().expect("the root has children")
}

/// A key of what `seat` observes in `world` (its decision node in an observation-keyed tree).
fn observed<S: GameState>(world: &S, seat: u8) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    world.observation(seat).hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Algorithm, Defaults, estimate};

    /// One decision: `Some(true)` wins, `Some(false)` loses; the game is then over with
    /// progress 1/2 whatever was chosen, so a value with credit is never a result.
    #[derive(Clone, Debug)]
    struct Once(Option<bool>);

    impl GameState for Once {
        type Move = bool;
        type Observation = bool;
        type Policy = ();

        fn seats(&self) -> u8 {
            1
        }
        fn to_move(&self) -> ToMove {
            if self.0.is_none() {
                ToMove::Seat(0)
            } else {
                ToMove::Over
            }
        }
        fn legal(&self, moves: &mut Vec<bool>) {
            moves.clear();
            if self.0.is_none() {
                moves.extend([false, true]);
            }
        }
        fn apply(&mut self, mv: bool) {
            self.0 = Some(mv);
        }
        fn key(mv: &bool) -> u64 {
            u64::from(*mv)
        }
        fn result(&self, _: u8) -> f32 {
            f32::from(u8::from(self.0 == Some(true)))
        }
        fn progress(&self, _: u8) -> f32 {
            0.5
        }
        fn observation(&self, _: u8) -> bool {
            self.0.is_some()
        }
        fn sample_into(&self, _: u8, _: &mut GameRng, world: &mut Self) {
            world.clone_from(self);
        }
        fn policy_move(&mut self, _: &(), _: &mut GameRng) -> bool {
            false
        }
        fn rollout(&mut self, _: &(), _: &mut GameRng) {}
    }

    #[test]
    fn the_estimate_is_the_chosen_moves_mean_result_without_the_credit() {
        let defaults = Defaults {
            ismcts: 50,
            pimc: 50,
            exploration: 0.7,
            credit: 0.2,
            width: 2,
            rollout: "none",
            tree: Keying::Moves,
        };
        for algorithm in [Algorithm::Ismcts, Algorithm::Pimc] {
            let searcher = Searcher {
                name: algorithm.name().into(),
                settings: defaults.settings(algorithm),
                rollout: (),
            };
            let mut work = Work::new(GameRng::new(1, 0, 0));
            let real = Once(None);
            let best = super::super::decide(&searcher, &real, 0, &mut work);
            assert!(best, "{algorithm:?} plays the win");
            // Its value is 1 + 0.2 x 1/2, its result 1; the loss's value is 0.1, its result 0.
            assert_eq!(estimate(&searcher, &work, true), Some(1.0), "{algorithm:?}");
            assert_eq!(
                estimate(&searcher, &work, false),
                Some(0.0),
                "{algorithm:?}"
            );
            if algorithm == Algorithm::Ismcts {
                let values: Vec<f32> = work.tree.root_stats().iter().map(|s| s.2).collect();
                assert_eq!(values.len(), 2);
                let near = |x: f32| values.iter().any(|v| (v - x).abs() < 1e-5);
                assert!(near(1.1) && near(0.1), "{values:?}");
            }
        }
    }
}
