//! What one game of Junkyard Frankenstein reports, by seat.

use crate::games::{ColumnData, Columns, Record};

/// One game's result. Seat 0 moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning seat, `None` for a draw at the turn cap.
    pub winner: Option<u8>,
    /// True if the first policy of the seating sat in seat 1 (the swapped game of a deal).
    pub swapped: bool,
    /// HP at the end, by seat (0 or below for the loser).
    pub final_hp: [i16; 2],
    /// Turns played, both players' turns counted.
    pub turns: u16,
    /// Automatons built, by seat (set-up included).
    pub built: [u16; 2],
    /// Automatons of each seat destroyed (in combat or by tear-downs).
    pub destroyed: [u16; 2],
    /// Damage each seat dealt to the other player.
    pub damage: [u16; 2],
    /// Tear-downs each seat deployed.
    pub teardowns: [u16; 2],
}

impl Outcome {
    /// The seat the first policy sat in.
    #[inline]
    pub fn first_seat(&self) -> u8 {
        u8::from(self.swapped)
    }

    /// True if the first policy won.
    #[inline]
    pub fn first_won(&self) -> bool {
        self.winner == Some(self.first_seat())
    }
}

impl Record for Outcome {
    fn won(&self) -> bool {
        self.first_won()
    }

    fn columns(batch: &[Self]) -> Vec<(&'static str, ColumnData)> {
        Columns::of(batch)
            .bool("first_policy_won", Outcome::first_won)
            .u32("first_policy_seat", |o| o.first_seat().into())
            .bool("draw", |o| o.winner.is_none())
            .i32("winner_seat", |o| o.winner.map_or(-1, i32::from))
            .u32("turns", |o| o.turns.into())
            .i32("final_hp_seat0", |o| o.final_hp[0].into())
            .i32("final_hp_seat1", |o| o.final_hp[1].into())
            .u32("built_seat0", |o| o.built[0].into())
            .u32("built_seat1", |o| o.built[1].into())
            .u32("destroyed_seat0", |o| o.destroyed[0].into())
            .u32("destroyed_seat1", |o| o.destroyed[1].into())
            .u32("damage_seat0", |o| o.damage[0].into())
            .u32("damage_seat1", |o| o.damage[1].into())
            .u32("teardowns_seat0", |o| o.teardowns[0].into())
            .u32("teardowns_seat1", |o| o.teardowns[1].into())
            .done()
    }
}
