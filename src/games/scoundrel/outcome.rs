//! What one game of Scoundrel reports.

use crate::games::{ColumnData, Record};

/// One game's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Every card faced (or, under `end = lenient`, no full room left) with HP above 0.
    pub win: bool,
    /// The score: HP (plus the last potion at full HP) on a win; on a loss HP at death minus
    /// every monster not faced.
    pub score: i16,
    /// HP at the end (0 or below on a loss).
    pub final_hp: i16,
    /// Cards faced.
    pub cards_faced: u8,
    /// Rooms faced (not avoided).
    pub rooms_entered: u8,
    /// Rooms avoided.
    pub rooms_avoided: u8,
    /// HP lost to monsters.
    pub damage_taken: u16,
    /// HP gained from potions.
    pub healed: u16,
    /// Potions that healed nothing (past the turn's cap).
    pub potions_wasted: u8,
    /// The largest weapon equipped (0 if none).
    pub largest_weapon: u8,
}

impl Record for Outcome {
    fn won(&self) -> bool {
        self.win
    }

    fn columns(batch: &[Self]) -> Vec<(&'static str, ColumnData)> {
        let u32s = |f: &dyn Fn(&Outcome) -> u32| ColumnData::U32(batch.iter().map(f).collect());
        let i32s = |f: &dyn Fn(&Outcome) -> i32| ColumnData::I32(batch.iter().map(f).collect());
        vec![
            (
                "win",
                ColumnData::Bool(batch.iter().map(|o| o.win).collect()),
            ),
            ("score", i32s(&|o| o.score.into())),
            ("final_hp", i32s(&|o| o.final_hp.into())),
            ("cards_faced", u32s(&|o| o.cards_faced.into())),
            ("rooms_entered", u32s(&|o| o.rooms_entered.into())),
            ("rooms_avoided", u32s(&|o| o.rooms_avoided.into())),
            ("damage_taken", u32s(&|o| o.damage_taken.into())),
            ("healed", u32s(&|o| o.healed.into())),
            ("potions_wasted", u32s(&|o| o.potions_wasted.into())),
            ("largest_weapon", u32s(&|o| o.largest_weapon.into())),
        ]
    }
}
