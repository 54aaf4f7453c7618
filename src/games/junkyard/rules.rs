//! Junkyard Frankenstein's rule parameters: every number and choice of
//! `shared/rulings/junkyard.md`, defaults = the rulings.

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::rules::{RuleSet, check_range};

use super::cards::{KING, LESSER, MAX_HEAP, NUMBERS};

/// The most HP the rules may set (either seat, bonus included).
pub const MAX_HP: i16 = 999;
/// The longest game the rules may ask for, in turns (both players' turns counted).
pub const MAX_TURNS: u16 = 2000;

/// Junkyard Frankenstein's rules. Every field is a rule parameter; the defaults are the rulings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Copies of each number card in a heap, Ace (1) first: `counts[v - 1]` cards of value `v`.
    pub counts: [u8; NUMBERS],
    /// Greater tear-downs (Kings) in a heap.
    pub kings: u8,
    /// Lesser tear-downs (Queen or Jack) in a heap.
    pub lessers: u8,
    /// HP at the start, both seats.
    pub start_hp: i16,
    /// Extra HP for the second seat (seat 1) at the start: a balancing tweak, 0 in the rulings.
    pub second_seat_hp_bonus: i16,
    /// Cards each player draws at set-up.
    pub opening_draw: u8,
    /// Cards drawn at the start of every turn.
    pub draw_per_turn: u8,
    /// Cards the first player draws on the first turn of the game.
    pub first_turn_draw: u8,
    /// True if each player may build automatons after the opening draw.
    pub setup_build: bool,
    /// The game is a draw once this many turns (both players' turns counted) are played.
    pub turn_cap: u16,
    /// True if the cards going back under a heap in one event are shuffled among themselves;
    /// false puts them back in a fixed order (the tear-down, then the cards by increasing value).
    pub shuffle_returns: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            counts: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
            kings: 1,
            lessers: 1,
            start_hp: 25,
            second_seat_hp_bonus: 0,
            opening_draw: 12,
            draw_per_turn: 3,
            first_turn_draw: 3,
            setup_build: true,
            turn_cap: 200,
            shuffle_returns: true,
        }
    }
}

impl Rules {
    /// Cards in one heap.
    pub fn heap_size(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum::<usize>()
            + usize::from(self.kings)
            + usize::from(self.lessers)
    }

    /// A heap's cards, unshuffled: the numbers by increasing value, then the tear-downs.
    pub fn heap(&self) -> ([u8; MAX_HEAP], usize) {
        let mut cards = [0u8; MAX_HEAP];
        let mut n = 0;
        let numbers =
            (1..=NUMBERS as u8).flat_map(|v| (0..self.counts[usize::from(v - 1)]).map(move |_| v));
        let tears = (0..self.kings)
            .map(|_| KING)
            .chain((0..self.lessers).map(|_| LESSER));
        for card in numbers.chain(tears) {
            cards[n] = card;
            n += 1;
        }
        (cards, n)
    }

    /// A seat's HP at the start.
    pub fn hp(&self, seat: usize) -> i16 {
        if seat == 0 {
            self.start_hp
        } else {
            self.start_hp + self.second_seat_hp_bonus
        }
    }
}

impl RuleSet for Rules {
    const MEANINGS: &'static [(&'static str, &'static str)] = &[
        (
            "counts",
            "copies of each number card in a heap, Ace (1) first",
        ),
        ("kings", "greater tear-downs (Kings) in a heap"),
        ("lessers", "lesser tear-downs (Queen or Jack) in a heap"),
        ("start_hp", "HP at the start, both seats"),
        (
            "second_seat_hp_bonus",
            "extra HP for the second seat (seat 1) at the start (0 in the rulings)",
        ),
        ("opening_draw", "cards each player draws at set-up"),
        ("draw_per_turn", "cards drawn at the start of every turn"),
        (
            "first_turn_draw",
            "cards the first player draws on the first turn",
        ),
        (
            "setup_build",
            "true if each player may build automatons after the opening draw",
        ),
        (
            "turn_cap",
            "the game is a draw once this many turns (both players' counted) are played",
        ),
        (
            "shuffle_returns",
            "true to shuffle the cards going back under a heap in one event; false keeps a fixed order",
        ),
    ];
    fn validate(&self) -> Result<()> {
        for (v, &c) in self.counts.iter().enumerate() {
            check_range(&format!("counts[{v}] (value {})", v + 1), c, 0, 64)?;
        }
        // The hand holds two tear-downs: more could not be held.
        check_range("kings", self.kings, 0, 2)?;
        check_range("lessers", self.lessers, 0, 2 - self.kings)?;
        let n = self.heap_size();
        if !(1..=MAX_HEAP).contains(&n) {
            return Err(SimError::input(format!(
                "rule counts: a heap holds {n} cards: allowed 1..={MAX_HEAP}"
            )));
        }
        check_range("start_hp", self.start_hp, 1, MAX_HP)?;
        check_range(
            "second_seat_hp_bonus",
            self.second_seat_hp_bonus,
            1 - self.start_hp,
            MAX_HP - self.start_hp,
        )?;
        check_range("opening_draw", usize::from(self.opening_draw), 0, n)?;
        check_range("draw_per_turn", self.draw_per_turn, 0, 20)?;
        check_range("first_turn_draw", self.first_turn_draw, 0, 20)?;
        check_range("turn_cap", self.turn_cap, 1, MAX_TURNS)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, load_error};

    #[test]
    fn defaults_are_the_rulings_and_valid() {
        let r = Rules::default();
        r.validate().unwrap();
        assert_eq!(r.heap_size(), 57);
        let (cards, n) = r.heap();
        assert_eq!(n, 57);
        assert_eq!(cards[..n].iter().filter(|&&c| c == 1).count(), 10);
        assert_eq!(cards[..n].iter().filter(|&&c| c == 10).count(), 1);
        assert_eq!(cards[..n].iter().filter(|&&c| c == KING).count(), 1);
        assert_eq!(cards[..n].iter().filter(|&&c| c == LESSER).count(), 1);
        assert_eq!((r.hp(0), r.hp(1)), (25, 25));
    }

    #[test]
    fn bad_values_name_the_field_and_range() {
        for (set, want) in [
            ("start_hp=0", "start_hp = 0"),
            ("turn_cap=0", "turn_cap = 0"),
            ("kings=3", "kings = 3"),
            ("second_seat_hp_bonus=-30", "second_seat_hp_bonus = -30"),
            ("counts=[64,64,0,0,0,0,0,0,0,0]", "holds 130 cards"),
            ("opening_draw=58", "opening_draw = 58"),
        ] {
            let err = load_error::<Rules>(&[set]);
            assert!(err.contains(want), "{set}: {err}");
        }
        let r: Rules = load(
            None,
            &["second_seat_hp_bonus=3".into(), "setup_build=false".into()],
        )
        .unwrap();
        assert_eq!((r.hp(0), r.hp(1), r.setup_build), (25, 28, false));
    }
}
