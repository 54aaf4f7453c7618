//! The moves a search player weighs at one decision, the rollout policies that finish its
//! simulated games, and a policy that plays one given move first.

use std::cell::Cell;

use serde::{Deserialize, Serialize};

use crate::rng::GameRng;

use super::super::heuristic::Heuristic;
use super::super::moves::Cover;
use super::super::policy::{Action, Defence, Policy, Step1, Step4};
use super::super::simple::Simple;
use super::super::view::View;

/// A decision: a step 1 action or a step 4 defence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Step 1.
    Attack(Action),
    /// Step 4.
    Defend(Defence),
}

impl Move {
    /// A key telling the moves of one information set apart: the cards for a play or discard,
    /// a flag bit for each other kind.
    pub fn key(self) -> u64 {
        match self {
            Self::Attack(Action::Play(p)) => p.cards,
            Self::Attack(Action::Yield) => 1 << 61,
            Self::Attack(Action::SoloJester) => 1 << 62,
            Self::Defend(Defence::Discard(c)) => c.cards | 1 << 60,
            Self::Defend(Defence::SoloJester) => 1 << 62 | 1 << 60,
            Self::Defend(Defence::GiveUp) => 1 << 63,
        }
    }
}

/// Most moves one decision offers the search (plays of a 10-card hand, yield and a Jester;
/// or every minimal cover and a Jester).
pub const MAX_MOVES: usize = 260;

/// The moves of one decision, in the order the engine lists them.
#[derive(Clone, Copy, Debug)]
pub struct Moves {
    list: [Move; MAX_MOVES],
    len: usize,
}

impl Moves {
    fn push(&mut self, m: Move) {
        self.list[self.len] = m;
        self.len += 1;
    }

    fn empty() -> Self {
        Self {
            list: [Move::Defend(Defence::GiveUp); MAX_MOVES],
            len: 0,
        }
    }

    /// Every step 1 choice.
    pub fn attack(choices: &Step1) -> Self {
        let mut m = Self::empty();
        for p in choices.plays {
            m.push(Move::Attack(Action::Play(*p)));
        }
        if choices.can_yield {
            m.push(Move::Attack(Action::Yield));
        }
        if choices.solo_jester {
            m.push(Move::Attack(Action::SoloJester));
        }
        m
    }

    /// The `max_covers` covers of least total (then fewest cards), and a set-aside Jester if
    /// one is left. Giving up is never offered: a Jester is never worse than losing now.
    pub fn defend(choices: &Step4, max_covers: usize) -> Self {
        let mut m = Self::empty();
        let mut all = [Cover::default(); MAX_MOVES - 1];
        let n = choices.covers.len().min(all.len());
        all[..n].copy_from_slice(&choices.covers[..n]);
        all[..n].sort_unstable_by_key(|c| (c.total, c.count, c.cards));
        let n = n.min(max_covers.clamp(1, MAX_MOVES - 1));
        for c in &all[..n] {
            m.push(Move::Defend(Defence::Discard(*c)));
        }
        if choices.solo_jester {
            m.push(Move::Defend(Defence::SoloJester));
        }
        if m.len == 0 {
            m.push(Move::Defend(Defence::GiveUp));
        }
        m
    }

    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.list[..self.len]
    }
}

/// The policy that finishes a simulated game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RolloutKind {
    /// `heuristic` with its built-in weights.
    #[default]
    Heuristic,
    /// `simple`.
    Simple,
}

/// A rollout policy, ready to play.
// The heuristic holds its weights' lanes (352 bytes): a rollout is made once per search, and
// a box would cost a load at every decision of every rollout.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Rollout {
    /// `heuristic`.
    Heuristic(Heuristic),
    /// `simple`.
    Simple(Simple),
}

impl Rollout {
    /// The policy of `kind`.
    pub fn of(kind: RolloutKind) -> Self {
        match kind {
            RolloutKind::Heuristic => Self::Heuristic(Heuristic::default()),
            RolloutKind::Simple => Self::Simple(Simple),
        }
    }
}

impl Policy for Rollout {
    #[inline]
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        match self {
            Self::Heuristic(h) => h.attack(view, choices, coins),
            Self::Simple(s) => s.attack(view, choices, coins),
        }
    }

    #[inline]
    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        match self {
            Self::Heuristic(h) => h.next_seat(view, coins),
            Self::Simple(s) => s.next_seat(view, coins),
        }
    }

    #[inline]
    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        match self {
            Self::Heuristic(h) => h.defend(view, choices, coins),
            Self::Simple(s) => s.defend(view, choices, coins),
        }
    }
}

/// Plays `first` at the first decision it is asked, then `then` for every decision.
pub struct Forced<'a, P> {
    first: Cell<Option<Move>>,
    then: &'a P,
}

impl<'a, P> Forced<'a, P> {
    /// `first`, then `then`.
    pub fn new(first: Move, then: &'a P) -> Self {
        Self {
            first: Cell::new(Some(first)),
            then,
        }
    }
}

impl<P: Policy> Policy for Forced<'_, P> {
    #[inline]
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        match self.first.take() {
            Some(Move::Attack(a)) => a,
            Some(m) => panic!("{m:?} forced at step 1"),
            None => self.then.attack(view, choices, coins),
        }
    }

    #[inline]
    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        self.then.next_seat(view, coins)
    }

    #[inline]
    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        match self.first.take() {
            Some(Move::Defend(d)) => d,
            Some(m) => panic!("{m:?} forced at step 4"),
            None => self.then.defend(view, choices, coins),
        }
    }
}
