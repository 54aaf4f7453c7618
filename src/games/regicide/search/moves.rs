//! A decision's move in Regicide's state API, and a policy that plays one given move first.

use std::cell::Cell;

use crate::rng::GameRng;

use super::super::policy::{Action, Defence, Policy, Step1, Step4};
use super::super::view::View;

/// A decision: a step 1 action, a step 4 defence, or the next seat after a Jester.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Step 1.
    Attack(Action),
    /// Step 4.
    Defend(Defence),
    /// After a Jester (2 to 4 players): the seat that goes next.
    Next(u8),
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
            Self::Next(seat) => 1 << 59 | u64::from(seat),
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
        match self.first.take() {
            Some(Move::Next(seat)) => seat,
            Some(m) => panic!("{m:?} forced at a next seat"),
            None => self.then.next_seat(view, coins),
        }
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
