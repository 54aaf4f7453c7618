//! What a player may know: both tables (automatons and their areas, assembly areas), both HP
//! totals, both heaps' sizes, and its own hand. Never the opponent's hand, never a heap's order.

use super::automaton::Automaton;
use super::cards::Counts;
use super::engine::Side;
use super::keys::Table;

/// A fair view of the game for one seat.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    me: &'a Side,
    opp: &'a Side,
    seat: usize,
    turn: u16,
}

impl<'a> View<'a> {
    /// The view of `me` (in seat `seat`) against `opp`, `turn` turns played.
    pub(super) fn new(me: &'a Side, opp: &'a Side, seat: usize, turn: u16) -> Self {
        Self {
            me,
            opp,
            seat,
            turn,
        }
    }

    /// The player's seat (0 moves first).
    #[inline(always)]
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Turns played so far (both players').
    #[inline(always)]
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// The player's HP.
    #[inline(always)]
    pub fn hp(&self) -> i16 {
        self.me.hp()
    }

    /// The opponent's HP.
    #[inline(always)]
    pub fn opp_hp(&self) -> i16 {
        self.opp.hp()
    }

    /// The player's automatons (in the order their indices refer to).
    #[inline(always)]
    pub fn bots(&self) -> &'a [Automaton] {
        self.me.bots()
    }

    /// The opponent's automatons.
    #[inline(always)]
    pub fn opp_bots(&self) -> &'a [Automaton] {
        self.opp.bots()
    }

    /// The player's automatons with their columns of keys.
    #[inline(always)]
    pub fn table(&self) -> Table<'a> {
        Table::new(self.me.bots(), self.me.keys())
    }

    /// The opponent's automatons with their columns of keys.
    #[inline(always)]
    pub fn opp_table(&self) -> Table<'a> {
        Table::new(self.opp.bots(), self.opp.keys())
    }

    /// The player's assembly area.
    #[inline(always)]
    pub fn assembly(&self) -> &'a Counts {
        self.me.assembly()
    }

    /// The opponent's assembly area (face up on the table).
    #[inline(always)]
    pub fn opp_assembly(&self) -> &'a Counts {
        self.opp.assembly()
    }

    /// The player's tear-downs in hand, `[kings, lessers]`.
    #[inline(always)]
    pub fn hand(&self) -> [u8; 2] {
        self.me.hand()
    }

    /// Cards left in the player's heap.
    #[inline(always)]
    pub fn heap_len(&self) -> usize {
        self.me.heap().len()
    }

    /// Cards left in the opponent's heap.
    #[inline(always)]
    pub fn opp_heap_len(&self) -> usize {
        self.opp.heap().len()
    }
}
