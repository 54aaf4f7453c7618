//! What an evaluation keeps of its games: integers only, added up deal by deal, so that the
//! result is the same on any thread count and shards merge exactly (`sim merge`).
//!
//! Every deal is played once on every *line* (a seating of rungs: one rung in every seat of a
//! solo or team game, two rungs of a duel in one seat order). A deal's *row* is seat 0's result
//! on each line, one digit per line (`0` a loss, `1` a draw, `2` a win): the rows are counted,
//! so every figure that compares lines deal by deal (paired gains, luck, the variance split)
//! is a function of the row counts. Per line the tally keeps the games cut off by a cap, the
//! lengths, and each game's tension figures in millionths.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::stats::estimate::Estimate;

/// Seat 0's result in half points: 0 a loss, 1 a draw, 2 a win.
pub type Score = u8;

/// The half points of a result on the 0..1 scale (1 a win, 1/2 a draw, 0 a loss).
pub fn score(result: f32) -> Score {
    (2.0 * result).round().clamp(0.0, 2.0) as Score
}

/// One line's counts beyond its results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineTally {
    /// Games cut off by the game's cap on length.
    pub capped: u64,
    /// Of those, games scored as a draw.
    pub capped_draws: u64,
    /// Games by length (in the game's unit).
    pub lengths: BTreeMap<u32, u64>,
    /// The tension figures of its games that had an estimate at some decision.
    pub tension: TensionTally,
}

impl LineTally {
    fn merge(&mut self, other: &LineTally) {
        self.capped += other.capped;
        self.capped_draws += other.capped_draws;
        for (&len, &n) in &other.lengths {
            *self.lengths.entry(len).or_default() += n;
        }
        self.tension.merge(&other.tension);
    }
}

/// A sum of per-game values in [0, 1], each counted in millionths: the values' count, sum and
/// sum of squares (for a mean and its interval).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sum {
    /// Values counted.
    pub n: u64,
    /// Their sum, in millionths.
    pub sum: u64,
    /// The sum of their squares, in millionths squared.
    pub squares: u128,
}

/// One unit of [`Sum`]: a millionth.
pub const MICRO: f64 = 1e6;

impl Sum {
    /// Counts `value` (clamped to 0..1), rounded to the millionth.
    pub fn add(&mut self, value: f64) {
        let x = (value.clamp(0.0, 1.0) * MICRO).round() as u64;
        self.n += 1;
        self.sum += x;
        self.squares += u128::from(x) * u128::from(x);
    }

    fn merge(&mut self, other: &Sum) {
        self.n += other.n;
        self.sum += other.sum;
        self.squares += other.squares;
    }
}

/// The tension figures of the games of one line, each game's figure counted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensionTally {
    /// Decisiveness: the share of a game's decisions before its result was settled.
    pub decisiveness: Sum,
    /// Drama of the games with a winner: how far the winner's estimate fell from certainty.
    pub drama: Sum,
    /// Games with a winner whose estimate was below one half at some decision.
    pub comebacks: u64,
    /// Duels: the share of a game's decisions after which the leader changed.
    pub lead_changes: Sum,
}

impl TensionTally {
    fn merge(&mut self, other: &TensionTally) {
        self.decisiveness.merge(&other.decisiveness);
        self.drama.merge(&other.drama);
        self.comebacks += other.comebacks;
        self.lead_changes.merge(&other.lead_changes);
    }
}

/// Everything an evaluation keeps of its games under one rule set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Each deal's row (seat 0's result on every line, one digit per line), counted.
    pub rows: BTreeMap<String, u64>,
    /// Per line: caps, lengths and tension.
    pub lines: Vec<LineTally>,
}

impl Tally {
    /// An empty tally over `lines` lines.
    pub fn new(lines: usize) -> Self {
        Self {
            rows: BTreeMap::new(),
            lines: vec![LineTally::default(); lines],
        }
    }

    /// Deals counted.
    pub fn deals(&self) -> u64 {
        self.rows.values().sum()
    }

    /// Counts one deal: seat 0's score on each line.
    pub fn add_row(&mut self, scores: &[Score]) {
        let row: String = scores.iter().map(|&s| char::from(b'0' + s)).collect();
        *self.rows.entry(row).or_default() += 1;
    }

    /// Adds another tally of the same lines (other deals).
    pub fn merge(&mut self, other: &Tally) {
        assert_eq!(
            self.lines.len(),
            other.lines.len(),
            "tallies of the same lines"
        );
        for (row, &n) in &other.rows {
            *self.rows.entry(row.clone()).or_default() += n;
        }
        for (a, b) in self.lines.iter_mut().zip(&other.lines) {
            a.merge(b);
        }
    }

    /// True if every row has a digit per line and the lines' lengths count every deal: what a
    /// tally read back from a file must satisfy before it is trusted.
    pub fn is_consistent(&self) -> bool {
        let deals = self.deals();
        self.rows
            .keys()
            .all(|r| r.len() == self.lines.len() && r.bytes().all(|b| (b'0'..=b'2').contains(&b)))
            && self
                .lines
                .iter()
                .all(|l| l.lengths.values().sum::<u64>() == deals && l.capped <= deals)
    }

    /// The rows as (scores, count), the scores one per line.
    pub fn each_row(&self) -> impl Iterator<Item = (Vec<Score>, u64)> + '_ {
        self.rows
            .iter()
            .map(|(r, &n)| (r.bytes().map(|b| b - b'0').collect(), n))
    }
}

/// A tally's rows, read once: each deal's scores (one per line) and how many deals had them.
#[derive(Clone, Debug, PartialEq)]
pub struct Rows(Vec<(Vec<Score>, u64)>);

impl Rows {
    /// The rows of `tally`.
    pub fn of(tally: &Tally) -> Self {
        Self(tally.each_row().collect())
    }

    /// Each row's scores and count.
    pub fn iter(&self) -> impl Iterator<Item = (&[Score], u64)> + Clone {
        self.0.iter().map(|(r, n)| (r.as_slice(), *n))
    }

    /// Deals counted.
    pub fn deals(&self) -> u64 {
        self.0.iter().map(|(_, n)| n).sum()
    }

    /// Deals whose row satisfies `test`.
    pub fn count(&self, test: impl Fn(&[Score]) -> bool) -> u64 {
        self.iter().filter(|(r, _)| test(r)).map(|(_, n)| n).sum()
    }

    /// The games won on `line`.
    pub fn wins(&self, line: usize) -> u64 {
        self.count(|r| r[line] == 2)
    }

    /// The games drawn on `line`.
    pub fn draws(&self, line: usize) -> u64 {
        self.count(|r| r[line] == 1)
    }

    /// Line `a`'s mean result minus line `b`'s, deal by deal (a paired difference, results on
    /// the 0..1 scale), with its normal interval.
    /// The interval is clipped to -1..1, the range of a difference of results.
    pub fn paired(&self, a: usize, b: usize) -> Estimate {
        Estimate::mean_of(self.iter(), |r| {
            Some((f64::from(r[a]) - f64::from(r[b])) / 2.0)
        })
        .clip(-1.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_merge_as_one_and_survive_json() {
        let mut a = Tally::new(2);
        a.add_row(&[2, 0]);
        a.add_row(&[2, 0]);
        a.lines[0].lengths.insert(5, 2);
        a.lines[1].lengths.insert(3, 2);
        a.lines[0].tension.drama.add(0.25);
        let mut b = Tally::new(2);
        b.add_row(&[1, 2]);
        b.lines[0].lengths.insert(5, 1);
        b.lines[1].lengths.insert(4, 1);
        b.lines[1].capped = 1;
        b.lines[0].tension.drama.add(0.5);
        a.merge(&b);
        assert_eq!(a.deals(), 3);
        assert_eq!(a.rows["20"], 2);
        assert_eq!(a.rows["12"], 1);
        assert_eq!(a.lines[0].lengths[&5], 3);
        assert_eq!(a.lines[0].tension.drama.sum, 750_000);
        assert_eq!(a.lines[0].tension.drama.squares, 312_500_000_000);
        assert!(a.is_consistent());
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Tally>(&text).unwrap(), a);
        let rows: Vec<_> = a.each_row().collect();
        assert_eq!(rows, vec![(vec![1, 2], 1), (vec![2, 0], 2)]);
    }
}
