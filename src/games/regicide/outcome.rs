//! What one game of Regicide reports.

use crate::games::{ColumnData, Columns, Record};

use super::card;
use crate::search::think::Think;

/// How a lost game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// The game was won.
    None,
    /// A discard could not cover the enemy's attack.
    CannotCover,
    /// A player could neither play nor yield.
    CannotPlay,
}

impl Loss {
    /// The label in `games.parquet` (empty for a win).
    pub fn label(self) -> &'static str {
        match self {
            Self::None => "",
            Self::CannotCover => "cannot-cover",
            Self::CannotPlay => "cannot-play",
        }
    }
}

/// A solo win's grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grade {
    /// No grade: a loss, or a table of more than one.
    None,
    /// A solo win with no set-aside Jester used.
    Gold,
    /// With one used.
    Silver,
    /// With two used.
    Bronze,
}

impl Grade {
    /// The grade of a solo win with `used` set-aside Jesters used.
    pub fn of(used: u8) -> Self {
        match used {
            0 => Self::Gold,
            1 => Self::Silver,
            _ => Self::Bronze,
        }
    }

    /// The label in `games.parquet` (empty for none).
    pub fn label(self) -> &'static str {
        match self {
            Self::None => "",
            Self::Gold => "gold",
            Self::Silver => "silver",
            Self::Bronze => "bronze",
        }
    }
}

/// One game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// All royals defeated.
    pub win: bool,
    /// A solo win's grade.
    pub grade: Grade,
    /// Royals defeated (0..=12).
    pub royals: u8,
    /// Turns: each start of step 1.
    pub turns: u16,
    /// Decisions the policies made (plays, yields, Jester uses, next players, discards).
    pub decisions: u16,
    /// Solo: set-aside Jesters used.
    pub solo_jesters: u8,
    /// Jester cards played (2 to 4 players, or a tavern Jester in solo).
    pub jesters_played: u8,
    /// Cards left in the tavern at the end.
    pub tavern_left: u8,
    /// The enemy that ended a lost game (its card code; 0 for a win).
    pub loss_royal: u8,
    /// How a lost game ended.
    pub loss: Loss,
    /// The search players' time per decision (wall clock: differs run to run).
    pub think: Think,
    /// `clairvoyant` only: the deal's search ran out of time (neither a win nor a loss of the
    /// solver).
    pub unsolved: bool,
    /// `clairvoyant` only: a win whose Jester count is the fewest found, not proved the fewest
    /// (the time ran out while lowering it).
    pub jesters_unproved: bool,
}

impl Default for Outcome {
    fn default() -> Self {
        Self {
            win: false,
            grade: Grade::None,
            royals: 0,
            turns: 0,
            decisions: 0,
            solo_jesters: 0,
            jesters_played: 0,
            tavern_left: 0,
            loss_royal: 0,
            loss: Loss::None,
            think: Think::default(),
            unsolved: false,
            jesters_unproved: false,
        }
    }
}

impl Record for Outcome {
    fn won(&self) -> bool {
        self.win
    }

    fn columns(batch: &[Self]) -> Vec<(&'static str, ColumnData)> {
        Columns::of(batch)
            .bool("win", |o| o.win)
            .str("grade", |o| o.grade.label())
            .u32("royals", |o| o.royals.into())
            .u32("turns", |o| o.turns.into())
            .u32("decisions", |o| o.decisions.into())
            .u32("solo_jesters", |o| o.solo_jesters.into())
            .u32("jesters_played", |o| o.jesters_played.into())
            .u32("tavern_left", |o| o.tavern_left.into())
            .str("loss_royal", |o| {
                if o.win { "" } else { card::name(o.loss_royal) }
            })
            .str("loss", |o| o.loss.label())
            .bool("unsolved", |o| o.unsolved)
            .bool("jesters_unproved", |o| o.jesters_unproved)
            .u32("search_us", |o| {
                o.think.micros.min(u64::from(u32::MAX)) as u32
            })
            .done()
    }
}
