//! Integer tallies of Regicide games.

use crate::games::Tally;
use crate::games::invariants::{self, Check, add, add_each, at_most, per_game_max, sum};
use crate::stats::histogram::{Histogram, per_game};

use super::outcome::{Grade, Loss, Outcome};
use super::rules::ROYALS;
use crate::search::think::ThinkTally;

/// The turns histogram's top bin (longer games are counted there).
pub const MAX_TURNS: i64 = 300;

/// Counts and histograms over many Regicide games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RegicideTally {
    games: u64,
    wins: u64,
    /// Gold, silver, bronze.
    grades: [u64; 3],
    /// Cannot cover, cannot play.
    losses: [u64; 2],
    solo_jesters: u64,
    jesters_played: u64,
    tavern_left: u64,
    decisions: u64,
    turns_sum: u64,
    royals: Histogram,
    turns: Histogram,
    think: ThinkTally,
    unsolved: u64,
    unsolved_wins: u64,
    jesters_unproved: u64,
}

impl Default for RegicideTally {
    fn default() -> Self {
        Self {
            games: 0,
            wins: 0,
            grades: [0; 3],
            losses: [0; 2],
            solo_jesters: 0,
            jesters_played: 0,
            tavern_left: 0,
            decisions: 0,
            turns_sum: 0,
            royals: Histogram::new(0, ROYALS as i64),
            turns: Histogram::new(0, MAX_TURNS),
            think: ThinkTally::default(),
            unsolved: 0,
            unsolved_wins: 0,
            jesters_unproved: 0,
        }
    }
}

impl RegicideTally {
    fn mean(&self, sum: u64) -> f64 {
        per_game(sum as f64, self.games)
    }

    /// Decisions made in all games counted.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// The royals-defeated histogram.
    pub fn royals(&self) -> &Histogram {
        &self.royals
    }

    /// Games won gold, silver and bronze.
    pub fn grades(&self) -> [u64; 3] {
        self.grades
    }
}

impl Tally for RegicideTally {
    type Outcome = Outcome;

    #[inline]
    fn record(&mut self, o: &Outcome) {
        self.games += 1;
        self.wins += u64::from(o.win);
        match o.grade {
            Grade::None => {}
            Grade::Gold => self.grades[0] += 1,
            Grade::Silver => self.grades[1] += 1,
            Grade::Bronze => self.grades[2] += 1,
        }
        match o.loss {
            Loss::None => {}
            Loss::CannotCover => self.losses[0] += 1,
            Loss::CannotPlay => self.losses[1] += 1,
        }
        self.solo_jesters += u64::from(o.solo_jesters);
        self.jesters_played += u64::from(o.jesters_played);
        self.tavern_left += u64::from(o.tavern_left);
        self.decisions += u64::from(o.decisions);
        self.turns_sum += u64::from(o.turns);
        self.royals.add(o.royals.into());
        self.turns.add(o.turns.into());
        self.think.record(&o.think);
        self.unsolved += u64::from(o.unsolved);
        self.unsolved_wins += u64::from(o.unsolved && o.win);
        self.jesters_unproved += u64::from(o.jesters_unproved);
    }

    fn try_merge(&mut self, other: &Self) -> Check {
        add("games", &mut self.games, other.games)?;
        add("wins", &mut self.wins, other.wins)?;
        add_each("grades", &mut self.grades, &other.grades)?;
        add_each("losses", &mut self.losses, &other.losses)?;
        add("solo_jesters", &mut self.solo_jesters, other.solo_jesters)?;
        add(
            "jesters_played",
            &mut self.jesters_played,
            other.jesters_played,
        )?;
        add("tavern_left", &mut self.tavern_left, other.tavern_left)?;
        add("decisions", &mut self.decisions, other.decisions)?;
        add("turns_sum", &mut self.turns_sum, other.turns_sum)?;
        self.royals.try_merge("royals", &other.royals)?;
        self.turns.try_merge("turns", &other.turns)?;
        self.think.try_merge(&other.think)?;
        add("unsolved", &mut self.unsolved, other.unsolved)?;
        add(
            "unsolved_wins",
            &mut self.unsolved_wins,
            other.unsolved_wins,
        )?;
        add(
            "jesters_unproved",
            &mut self.jesters_unproved,
            other.jesters_unproved,
        )
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn wins(&self) -> u64 {
        self.wins
    }

    fn means(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("mean_royals", self.royals.mean()),
            ("mean_turns", self.mean(self.turns_sum)),
            ("gold_rate", self.mean(self.grades[0])),
            ("silver_rate", self.mean(self.grades[1])),
            ("bronze_rate", self.mean(self.grades[2])),
            ("mean_solo_jesters", self.mean(self.solo_jesters)),
            ("mean_jesters_played", self.mean(self.jesters_played)),
            ("mean_tavern_left", self.mean(self.tavern_left)),
            ("cannot_cover_rate", self.mean(self.losses[0])),
            ("cannot_play_rate", self.mean(self.losses[1])),
            ("mean_decisions", self.mean(self.decisions)),
            ("mean_decision_ms", self.think.mean_ms()),
            ("p99_decision_ms", self.think.p99_ms()),
            ("unsolved_rate", self.mean(self.unsolved)),
            ("unsolved_win_rate", self.mean(self.unsolved_wins)),
            ("jesters_unproved_rate", self.mean(self.jesters_unproved)),
        ]
    }

    fn distributions(&self) -> Vec<(&'static str, &Histogram)> {
        vec![
            ("royals", &self.royals),
            ("turns", &self.turns),
            ("decision_time_bin", self.think.histogram()),
        ]
    }

    fn check(&self) -> Check {
        invariants::counts(self.games, self.wins, 0)?;
        invariants::one_per_game(
            self.games,
            &[("royals", &self.royals), ("turns", &self.turns)],
        )?;
        // A win defeats every royal; a graded win is a win; a loss is no win.
        let all_royals = self.royals.count_where(|v| v == self.royals.max());
        at_most(
            ("wins", self.wins),
            ("games that defeated every royal", all_royals),
        )?;
        at_most(("graded wins", sum(&self.grades)), ("wins", self.wins))?;
        at_most(
            ("losses", sum(&self.losses)),
            ("games not won", self.games - self.wins),
        )?;
        at_most(("unsolved games", self.unsolved), ("games", self.games))?;
        at_most(
            ("unsolved wins", self.unsolved_wins),
            ("unsolved games", self.unsolved),
        )?;
        at_most(("unsolved wins", self.unsolved_wins), ("wins", self.wins))?;
        at_most(
            ("unproved wins", self.jesters_unproved),
            ("wins", self.wins),
        )?;
        // Each game's counts are 8- or 16-bit: their sums lie within what the games can add up
        // to; the turns at least what the histogram counts (it counts longer games at its top).
        let (byte, word) = (u64::from(u8::MAX), u64::from(u16::MAX));
        per_game_max("solo_jesters", self.solo_jesters, self.games, byte)?;
        per_game_max("jesters_played", self.jesters_played, self.games, byte)?;
        per_game_max("tavern_left", self.tavern_left, self.games, byte)?;
        per_game_max("decisions", self.decisions, self.games, word)?;
        per_game_max("turns_sum", self.turns_sum, self.games, word)?;
        at_most(
            (
                "the turns the histogram counts",
                u64::try_from(self.turns.value_sum()).unwrap_or(u64::MAX),
            ),
            ("turns_sum", self.turns_sum),
        )?;
        self.think.check(self.decisions)
    }
}
