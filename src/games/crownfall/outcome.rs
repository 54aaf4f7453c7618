//! What one game of Crownfall reports.

use crate::games::{ColumnData, Columns, Record};

/// A tower card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Enemy {
    /// Target 12 by default.
    Jack = 0,
    /// Target 15 by default.
    Queen = 1,
    /// Target 18 by default.
    King = 2,
    /// A hazard: double or nothing.
    Joker = 3,
}

impl Enemy {
    /// Every kind, in code order.
    pub const ALL: [Enemy; 4] = [Enemy::Jack, Enemy::Queen, Enemy::King, Enemy::Joker];

    /// The kind with code `code` (0..=3).
    #[inline]
    pub fn from_code(code: u8) -> Enemy {
        Self::ALL[usize::from(code & 3)]
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        ["jack", "queen", "king", "joker"][self as usize]
    }
}

/// One game's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// All tower cards cleared with HP above 0.
    pub win: bool,
    /// HP at the end (0 on a loss by damage).
    pub final_hp: u8,
    /// Tower cards cleared.
    pub cleared: u8,
    /// Strikes made (turns against royals).
    pub strikes: u16,
    /// Player cards flipped, Joker flips included.
    pub cards_drawn: u16,
    /// Times the discard was shuffled into a new player deck.
    pub reshuffles: u16,
    /// Royals defeated with exactly 21.
    pub perfect_21s: u8,
    /// Damage taken from each enemy kind, in [`Enemy`] code order.
    pub damage: [u16; 4],
    /// On a loss, the code of the kind that dealt the last blow plus one; 0 for a win or a
    /// stalemate (see [`Outcome::killer`]).
    pub killer_code: u8,
}

impl Outcome {
    /// The enemy kind that dealt the last blow, if the game was lost to damage.
    pub fn killer(&self) -> Option<Enemy> {
        self.killer_code.checked_sub(1).map(Enemy::from_code)
    }
}

impl Record for Outcome {
    fn won(&self) -> bool {
        self.win
    }

    fn columns(batch: &[Self]) -> Vec<(&'static str, ColumnData)> {
        Columns::of(batch)
            .bool("win", |o| o.win)
            .u32("final_hp", |o| o.final_hp.into())
            .u32("cleared", |o| o.cleared.into())
            .u32("strikes", |o| o.strikes.into())
            .u32("cards_drawn", |o| o.cards_drawn.into())
            .u32("reshuffles", |o| o.reshuffles.into())
            .u32("perfect_21s", |o| o.perfect_21s.into())
            .u32("damage_jack", |o| o.damage[0].into())
            .u32("damage_queen", |o| o.damage[1].into())
            .u32("damage_king", |o| o.damage[2].into())
            .u32("damage_joker", |o| o.damage[3].into())
            .str("killer", |o| o.killer().map_or("", Enemy::name))
            .done()
    }
}
