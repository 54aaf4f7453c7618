//! The profile: every figure of an evaluation under one rule set, assembled from its tally by
//! the parts (the skill ladder, luck, fairness between seats, duration, tension), each with
//! its 95% interval and sample size.

use serde::Serialize;

use crate::error::Result;

use super::collect::{Layout, Setup};
use super::data::{Rows, Tally};
use super::{duration, luck, seats, skill, tension};
use crate::stats::estimate::Estimate;

/// The part of the profile a figure belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// The skill ladder.
    Ladder,
    /// Luck.
    Luck,
    /// Fairness between seats.
    Seats,
    /// Duration.
    Duration,
    /// Tension.
    Tension,
}

impl Part {
    /// Every part, in the report's order.
    pub const ALL: [Part; 5] = [
        Part::Ladder,
        Part::Luck,
        Part::Seats,
        Part::Duration,
        Part::Tension,
    ];

    /// Its name in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ladder => "ladder",
            Self::Luck => "luck",
            Self::Seats => "seats",
            Self::Duration => "duration",
            Self::Tension => "tension",
        }
    }
}

/// What a figure's value is, for showing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A share or rate from 0 to 1 (shown in percent).
    Share,
    /// A difference of rates (shown in percentage points).
    Points,
    /// A score or mean on its own scale.
    Number,
    /// A length in the game's unit.
    Length,
}

/// One figure of a profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its part.
    pub part: Part,
    /// What it measures (`win_rate`, `skill_headroom`; see docs/evaluate.md).
    pub metric: &'static str,
    /// The rung, step, seat or pair of rungs it is about, if any.
    pub rung: Option<String>,
    /// What its value is.
    pub unit: Unit,
    /// The value and its 95% interval.
    pub estimate: Estimate,
    /// Its sample size: games (or deals, for figures over deals).
    pub games: u64,
}

/// One rung's row of the ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderRow {
    /// Its place, 0 the weakest.
    pub rung: usize,
    /// Its name.
    pub name: String,
    /// False for the ceiling (NOT a strategy).
    pub fair: bool,
    /// A search player's budget.
    pub budget: Option<u32>,
    /// Games it played.
    pub games: u64,
    /// A solo or team game: its win rate; a duel: its score against the rung below (none for
    /// the bottom rung).
    pub result: Option<Estimate>,
    /// Its paired gain over the rung below (a duel: its score against it minus 1/2).
    pub gain: Option<Estimate>,
    /// The mean length of its games (a duel: of its games against the rung below).
    pub mean_length: f64,
    /// Its games cut off by the cap.
    pub capped: u64,
}

/// The profile of a game under one rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// What was played.
    pub setup: Setup,
    /// Deals played on every line.
    pub deals: u64,
    /// Every figure, part by part.
    pub figures: Vec<Figure>,
    /// The ladder, rung by rung.
    pub ladder: Vec<LadderRow>,
    /// The rung whose games give seats, duration and tension: the strongest fair rung (a duel:
    /// the top fair rung, against itself).
    pub profile_rung: String,
    /// The profile line's games by length.
    pub lengths: Vec<(u32, u64)>,
}

/// `e` as a figure of `unit` may be shown: no interval without a value, and the interval's ends
/// within the range the unit can take (a share 0..1, a difference of shares -1..1).
fn within(e: Estimate, unit: Unit) -> Estimate {
    if !e.value.is_finite() {
        return Estimate::bare(f64::NAN);
    }
    match unit {
        Unit::Share => e.clip(0.0, 1.0),
        Unit::Points => e.clip(-1.0, 1.0),
        Unit::Number | Unit::Length => e,
    }
}

impl Profile {
    /// The profile of `tally`, played as `setup` says; `ideal` is `--ideal-turns`.
    pub fn of(setup: &Setup, tally: &Tally, ideal: Option<(u32, u32)>) -> Result<Self> {
        let layout = Layout::of(setup)?;
        let rows = Rows::of(tally);
        let duel = setup.table == crate::games::seats::Table::Duel;
        // The strongest fair rung's games (a duel: the top fair rung's self-play).
        let (rung, line) = if duel {
            (layout.top, layout.profile)
        } else {
            let best = skill::best_fair(setup, &rows);
            (best, best)
        };
        let profile_rung = setup.rungs[rung].name.clone();
        let layout = Layout {
            profile: line,
            ..layout
        };
        let line = &tally.lines[line];
        let mut figures = skill::figures(setup, &layout, &rows);
        figures.extend(luck::figures(setup, &layout, &rows));
        figures.extend(seats::figures(&layout, &rows, line, &profile_rung, duel));
        figures.extend(duration::figures(line, &profile_rung, ideal));
        figures.extend(tension::figures(&line.tension, &profile_rung, duel));
        for f in &mut figures {
            f.estimate = within(f.estimate, f.unit);
        }
        let mut ladder = skill::rows(setup, &layout, &rows, tally);
        for r in &mut ladder {
            r.result = r.result.map(|e| within(e, Unit::Share));
            r.gain = r.gain.map(|e| within(e, Unit::Points));
        }
        Ok(Self {
            ladder,
            setup: setup.clone(),
            deals: rows.deals(),
            figures,
            profile_rung,
            lengths: line.lengths.iter().map(|(&l, &n)| (l, n)).collect(),
        })
    }

    /// The figure `metric` (about `rung`, if given).
    pub fn figure(&self, metric: &str, rung: Option<&str>) -> Option<&Figure> {
        self.figures
            .iter()
            .find(|f| f.metric == metric && (rung.is_none() || f.rung.as_deref() == rung))
    }
}
