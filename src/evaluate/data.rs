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

use crate::games::invariants::{Check, add, at_most};
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
    fn try_merge(&mut self, other: &LineTally) -> Check {
        add("capped", &mut self.capped, other.capped)?;
        add("capped_draws", &mut self.capped_draws, other.capped_draws)?;
        for (&len, &n) in &other.lengths {
            add("lengths", self.lengths.entry(len).or_default(), n)?;
        }
        self.tension.try_merge(&other.tension)
    }

    /// Checks the line's counts against its `deals`, of which `draws` were drawn and `won`
    /// had a winner whose drama counts (see [`TensionTally`]).
    fn check(&self, deals: u64, draws: u64, won: u64, duel: bool) -> Check {
        let lengths = self.lengths.values().map(|&n| u128::from(n)).sum::<u128>();
        if lengths != u128::from(deals) {
            return Err(format!(
                "its lengths count {lengths} games, but it played {deals}"
            ));
        }
        at_most(("capped", self.capped), ("games", deals))?;
        at_most(("capped_draws", self.capped_draws), ("capped", self.capped))?;
        at_most(("capped_draws", self.capped_draws), ("draws", draws))?;
        let t = &self.tension;
        t.decisiveness
            .check("decisiveness", deals - draws, "games with a result")?;
        t.drama.check("drama", won, "games with a winner")?;
        at_most(("comebacks", t.comebacks), ("drama's games", t.drama.n))?;
        let changes = if duel { deals } else { 0 };
        t.lead_changes.check("lead_changes", changes, "duels")
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

    fn try_merge(&mut self, name: &str, other: &Sum) -> Check {
        add(name, &mut self.n, other.n)?;
        add(name, &mut self.sum, other.sum)?;
        self.squares = self
            .squares
            .checked_add(other.squares)
            .ok_or_else(|| format!("{name} overflow: its squares pass what a sum holds"))?;
        Ok(())
    }

    /// Checks that the sum (`name`) is of at most `most` values (the `of` a line played), each
    /// in 0..1: its sum at most `n` millionths, its squares between the sum squared over `n`
    /// and a millionth of the sum.
    fn check(&self, name: &str, most: u64, of: &str) -> Check {
        let (n, sum) = (u128::from(self.n), u128::from(self.sum));
        let micro = MICRO as u128;
        at_most((&format!("{name}'s games"), self.n), (of, most))?;
        let fits = sum <= n * micro
            && self.squares <= sum * micro
            && sum
                .checked_mul(sum)
                .is_some_and(|s2| s2 <= n * self.squares);
        if !fits {
            return Err(format!(
                "{name}: a sum of {sum} and squares {} are not {} values in 0..1 (in millionths)",
                self.squares, self.n
            ));
        }
        Ok(())
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
    fn try_merge(&mut self, other: &TensionTally) -> Check {
        self.decisiveness
            .try_merge("decisiveness", &other.decisiveness)?;
        self.drama.try_merge("drama", &other.drama)?;
        add("comebacks", &mut self.comebacks, other.comebacks)?;
        self.lead_changes
            .try_merge("lead_changes", &other.lead_changes)
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

    /// Deals counted (saturating: [`Tally::check`] refuses a tally whose deals overflow).
    pub fn deals(&self) -> u64 {
        self.rows.values().fold(0u64, |a, &n| a.saturating_add(n))
    }

    /// Counts one deal: seat 0's score on each line.
    pub fn add_row(&mut self, scores: &[Score]) {
        let row: String = scores.iter().map(|&s| char::from(b'0' + s)).collect();
        *self.rows.entry(row).or_default() += 1;
    }

    /// Adds another tally of the same lines (other deals) of this evaluation's own games.
    pub fn merge(&mut self, other: &Tally) {
        if let Err(e) = self.try_merge(other) {
            panic!("an evaluation's own tallies add up: {e}");
        }
    }

    /// Adds another tally of the same lines, refusing other lines or a count that would pass
    /// what it can hold: what adds up tallies read from files.
    pub fn try_merge(&mut self, other: &Tally) -> Check {
        if self.lines.len() != other.lines.len() {
            return Err(format!(
                "a tally of {} lines cannot be added to one of {}",
                other.lines.len(),
                self.lines.len()
            ));
        }
        for (row, &n) in &other.rows {
            add("rows", self.rows.entry(row.clone()).or_default(), n)?;
        }
        for (a, b) in self.lines.iter_mut().zip(&other.lines) {
            a.try_merge(b)?;
        }
        Ok(())
    }

    /// Checks what a tally of real games satisfies, before a tally read back from a file is
    /// trusted: every row a digit (0, 1 or 2) per line, the deals within a count, and on each
    /// line the lengths counting every deal, the caps at most the games (their draws at most
    /// the draws), and each tension figure over at most the games it can count (decisiveness:
    /// games with a result; drama: games with a winner, of a `duel`'s either seat; lead
    /// changes: a duel's games) with values in 0..1. The error names the line and figure.
    pub fn check(&self, duel: bool) -> Check {
        if let Some(r) = self
            .rows
            .keys()
            .find(|r| r.len() != self.lines.len() || !r.bytes().all(|b| (b'0'..=b'2').contains(&b)))
        {
            return Err(format!(
                "row {r:?} is not a result (0, 1 or 2) on each of its {} lines",
                self.lines.len()
            ));
        }
        let mut deals = 0u64;
        for &n in self.rows.values() {
            add("deals", &mut deals, n)?;
        }
        let rows = Rows::of(self);
        for (i, line) in self.lines.iter().enumerate() {
            let draws = rows.draws(i);
            let won = if duel { deals - draws } else { rows.wins(i) };
            line.check(deals, draws, won, duel)
                .map_err(|e| format!("line {i}: {e}"))?;
        }
        Ok(())
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
        assert_eq!(a.check(false), Ok(()));
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Tally>(&text).unwrap(), a);
        let rows: Vec<_> = a.each_row().collect();
        assert_eq!(rows, vec![(vec![1, 2], 1), (vec![2, 0], 2)]);
    }

    #[test]
    fn a_tally_no_games_can_give_is_refused_and_an_overflow_too() {
        let mut a = Tally::new(1);
        a.add_row(&[2]);
        a.add_row(&[0]);
        a.lines[0].lengths.insert(5, 2);
        a.lines[0].tension.drama.add(0.25);
        a.lines[0].tension.decisiveness.add(0.5);
        assert_eq!(a.check(false), Ok(()));
        let broken = |edit: fn(&mut Tally)| {
            let mut t = a.clone();
            edit(&mut t);
            t.check(false).unwrap_err()
        };
        // Drama over more games than were won, comebacks above drama, a decisiveness above 1.
        assert!(broken(|t| t.lines[0].tension.drama.n = 2).contains("drama"));
        assert!(broken(|t| t.lines[0].tension.comebacks = 2).contains("comebacks"));
        assert!(
            broken(|t| t.lines[0].tension.decisiveness.sum = 25_000_000).contains("decisiveness")
        );
        assert!(broken(|t| t.lines[0].capped_draws = 1).contains("capped_draws"));
        assert!(
            broken(|t| {
                t.rows.insert("7".into(), 1);
            })
            .contains("row")
        );
        let mut huge = a.clone();
        *huge.rows.get_mut("2").unwrap() = u64::MAX;
        assert!(huge.check(false).is_err());
        assert!(huge.try_merge(&a).unwrap_err().contains("overflow"));
    }
}
