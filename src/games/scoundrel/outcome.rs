//! What one game of Scoundrel reports.

use crate::games::{ColumnData, Columns, Record};

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
        Columns::of(batch)
            .bool("win", |o| o.win)
            .i32("score", |o| o.score.into())
            .i32("final_hp", |o| o.final_hp.into())
            .u32("cards_faced", |o| o.cards_faced.into())
            .u32("rooms_entered", |o| o.rooms_entered.into())
            .u32("rooms_avoided", |o| o.rooms_avoided.into())
            .u32("damage_taken", |o| o.damage_taken.into())
            .u32("healed", |o| o.healed.into())
            .u32("potions_wasted", |o| o.potions_wasted.into())
            .u32("largest_weapon", |o| o.largest_weapon.into())
            .done()
    }
}
