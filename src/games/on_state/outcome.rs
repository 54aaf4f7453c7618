//! What one game on the state API reports, and the tally of many: what every state says of its
//! end (seat 0's result, its progress) and the decisions it took.

use crate::games::invariants::{self, Check, add};
use crate::games::state::GameState;
use crate::games::{ColumnData, Columns, Record, Tally};
use crate::stats::histogram::Histogram;

/// The longest game the tally's histogram tells apart (longer ones are counted at this length).
pub const MAX_LENGTH: u32 = 1000;

/// One game's outcome, for seat 0 (the table's, for a team).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Seat 0's result was a win.
    pub win: bool,
    /// Seat 0's result was a draw.
    pub draw: bool,
    /// The game's length: its own unit ([`GameState::length`]), else its decisions.
    pub length: u32,
    /// How far seat 0 got, in percent ([`GameState::progress`]).
    pub progress: u32,
}

impl Outcome {
    /// The outcome of `state`, over after `decisions` decisions.
    pub fn of<S: GameState>(state: &S, decisions: u32) -> Self {
        let result = state.result(0);
        Self {
            win: result == 1.0,
            draw: result == 0.5,
            length: state.length().unwrap_or(decisions),
            progress: (state.progress(0).clamp(0.0, 1.0) * 100.0).round() as u32,
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
            .bool("draw", |o| o.draw)
            .u32("length", |o| o.length)
            .u32("progress", |o| o.progress)
            .done()
    }
}

/// Counts and histograms over many games on the state API.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StateTally {
    games: u64,
    wins: u64,
    draws: u64,
    length: Histogram,
    progress: Histogram,
}

impl Default for StateTally {
    fn default() -> Self {
        Self {
            games: 0,
            wins: 0,
            draws: 0,
            length: Histogram::new(0, MAX_LENGTH.into()),
            progress: Histogram::new(0, 100),
        }
    }
}

impl Tally for StateTally {
    type Outcome = Outcome;

    fn record(&mut self, o: &Outcome) {
        self.games += 1;
        self.wins += u64::from(o.win);
        self.draws += u64::from(o.draw);
        self.length.add(o.length.into());
        self.progress.add(o.progress.into());
    }

    fn try_merge(&mut self, other: &Self) -> Check {
        add("games", &mut self.games, other.games)?;
        add("wins", &mut self.wins, other.wins)?;
        add("draws", &mut self.draws, other.draws)?;
        self.length.try_merge("length", &other.length)?;
        self.progress.try_merge("progress", &other.progress)
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn wins(&self) -> u64 {
        self.wins
    }

    fn draws(&self) -> u64 {
        self.draws
    }

    fn means(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("mean_length", self.length.mean()),
            ("mean_progress", self.progress.mean()),
        ]
    }

    fn distributions(&self) -> Vec<(&'static str, &Histogram)> {
        vec![("length", &self.length), ("progress", &self.progress)]
    }

    fn check(&self) -> Check {
        invariants::counts(self.games, self.wins, self.draws)?;
        invariants::one_per_game(self.games, &self.distributions())
    }
}
