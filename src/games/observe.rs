//! What engines report as they play, through an observer that is a generic parameter: the
//! runner's [`Unobserved`] compiles every report away, `sim trace` and `sim play` record or show
//! each event. Each game defines its events as an enum of its own (`crownfall::events`,
//! `scoundrel::events`); this module holds what every game shares.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::cards::Dealer;

/// Receives an engine's events. The engine hands over a closure that builds the event, so an
/// observer that ignores events costs nothing: not even the event is built.
pub trait Observer<E> {
    /// False for an observer that ignores every event: an engine may then take shortcuts that
    /// skip the steps an event describes (a whole strike decided at once), as long as the game
    /// comes out the same.
    const ON: bool;
    /// Reports one event.
    fn see(&mut self, event: impl FnOnce() -> E);
}

/// The observer of a plain run: ignores everything, and is compiled away.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unobserved;

impl<E> Observer<E> for Unobserved {
    const ON: bool = false;
    #[inline(always)]
    fn see(&mut self, _: impl FnOnce() -> E) {}
}

/// Keeps every event, in order.
#[derive(Clone, Debug)]
pub struct Recorder<E> {
    /// The events so far.
    pub events: Vec<E>,
}

impl<E> Default for Recorder<E> {
    fn default() -> Self {
        Self { events: Vec::new() }
    }
}

impl<E> Observer<E> for Recorder<E> {
    const ON: bool = true;
    fn see(&mut self, event: impl FnOnce() -> E) {
        self.events.push(event());
    }
}

/// Hands every event to a function as it happens (what `sim play` shows while a game goes on).
pub struct Each<F>(pub F);

impl<E, F: FnMut(E)> Observer<E> for Each<F> {
    const ON: bool = true;
    fn see(&mut self, event: impl FnOnce() -> E) {
        (self.0)(event());
    }
}

/// Most cards an event's pile holds (a Crownfall tower or deck, a Scoundrel dungeon).
pub const MAX_PILE: usize = 64;

/// A pile of card codes in order, in a fixed array so that events stay `Copy` and need no
/// allocation; written to JSON as a plain list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Cards {
    codes: [u8; MAX_PILE],
    len: u8,
}

impl Cards {
    /// The pile `codes` (at most [`MAX_PILE`]).
    pub fn of(codes: &[u8]) -> Self {
        Self::from_iter(codes.iter().copied())
    }

    /// The cards, in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.codes[..usize::from(self.len)]
    }
}

impl FromIterator<u8> for Cards {
    fn from_iter<I: IntoIterator<Item = u8>>(codes: I) -> Self {
        let mut pile = Self {
            codes: [0; MAX_PILE],
            len: 0,
        };
        for code in codes {
            pile.codes[usize::from(pile.len)] = code;
            pile.len += 1;
        }
        pile
    }
}

impl std::fmt::Debug for Cards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let codes = Vec::<u8>::deserialize(d)?;
        if codes.len() > MAX_PILE {
            return Err(serde::de::Error::custom(format!(
                "a pile of {} cards: at most {MAX_PILE}",
                codes.len()
            )));
        }
        Ok(Self::of(&codes))
    }
}

/// A dealer that orders each pile it is given as recorded: the replay of a traced deal. Each
/// shuffle takes the next recorded order; with none left (or one of the wrong size) it leaves
/// the pile as it is and counts a mismatch, so a replay that drifts is seen, never a panic.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    orders: Vec<Vec<u8>>,
    next: usize,
    /// Shuffles that found no recorded order of the pile's size.
    pub mismatches: usize,
}

impl Scripted {
    /// Deals `orders` in turn.
    pub fn new(orders: Vec<Vec<u8>>) -> Self {
        Self {
            orders,
            next: 0,
            mismatches: 0,
        }
    }
}

impl Dealer for Scripted {
    /// Deals the next recorded order if it holds the very cards being shuffled (a record's order
    /// is never trusted to hold cards the game does not have); else leaves them as they are and
    /// counts a mismatch.
    fn shuffle(&mut self, cards: &mut [u8]) {
        match self.orders.get(self.next) {
            Some(order) if same_cards(order, cards) => cards.copy_from_slice(order),
            _ => self.mismatches += 1,
        }
        self.next += 1;
    }
}

/// True if `a` and `b` hold the same cards, in any order.
pub fn same_cards(a: &[u8], b: &[u8]) -> bool {
    let sorted = |x: &[u8]| {
        let mut v = x.to_vec();
        v.sort_unstable();
        v
    };
    a.len() == b.len() && sorted(a) == sorted(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorder_keeps_events_and_the_no_op_builds_none() {
        let mut rec = Recorder::default();
        rec.see(|| 1);
        rec.see(|| 2);
        assert_eq!(rec.events, vec![1, 2]);
        let mut built = false;
        Observer::<u8>::see(&mut Unobserved, || {
            built = true;
            0
        });
        assert!(!built);
    }

    #[test]
    fn cards_round_trip_through_json_and_a_scripted_dealer_deals_them() {
        let pile = Cards::of(&[3, 1, 2]);
        let text = serde_json::to_string(&pile).unwrap();
        assert_eq!(text, "[3,1,2]");
        assert_eq!(serde_json::from_str::<Cards>(&text).unwrap(), pile);
        let mut dealer = Scripted::new(vec![vec![2, 3, 1]]);
        let mut cards = [1, 2, 3];
        dealer.shuffle(&mut cards);
        assert_eq!((cards, dealer.mismatches), ([2, 3, 1], 0));
        dealer.shuffle(&mut cards);
        assert_eq!((cards, dealer.mismatches), ([2, 3, 1], 1));
    }
}
