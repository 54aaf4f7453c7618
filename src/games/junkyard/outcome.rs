//! What one game of Junkyard Frankenstein reports, by seat.

use crate::games::{ColumnData, Record};

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
        let u32s = |f: &dyn Fn(&Outcome) -> u32| ColumnData::U32(batch.iter().map(f).collect());
        let i32s = |f: &dyn Fn(&Outcome) -> i32| ColumnData::I32(batch.iter().map(f).collect());
        let bools = |f: &dyn Fn(&Outcome) -> bool| ColumnData::Bool(batch.iter().map(f).collect());
        vec![
            ("first_policy_won", bools(&|o| o.first_won())),
            ("first_policy_seat", u32s(&|o| o.first_seat().into())),
            ("draw", bools(&|o| o.winner.is_none())),
            ("winner_seat", i32s(&|o| o.winner.map_or(-1, i32::from))),
            ("turns", u32s(&|o| o.turns.into())),
            ("final_hp_seat0", i32s(&|o| o.final_hp[0].into())),
            ("final_hp_seat1", i32s(&|o| o.final_hp[1].into())),
            ("built_seat0", u32s(&|o| o.built[0].into())),
            ("built_seat1", u32s(&|o| o.built[1].into())),
            ("destroyed_seat0", u32s(&|o| o.destroyed[0].into())),
            ("destroyed_seat1", u32s(&|o| o.destroyed[1].into())),
            ("damage_seat0", u32s(&|o| o.damage[0].into())),
            ("damage_seat1", u32s(&|o| o.damage[1].into())),
            ("teardowns_seat0", u32s(&|o| o.teardowns[0].into())),
            ("teardowns_seat1", u32s(&|o| o.teardowns[1].into())),
        ]
    }
}
