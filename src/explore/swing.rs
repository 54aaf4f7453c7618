//! A rule's swing on a figure: the largest change of the figure over the rule's values (the
//! greatest value's figure minus the least's), with an interval from the paired differences of
//! every two values on the same games. Every pair's interval is a confidence sequence at the
//! swing's error shared by the pairs, so with probability at least `1 - alpha` all hold
//! together, at every look: then the true swing (the greatest true difference) is at least
//! every pair's lower end and at most the greatest upper end.

use crate::balance::sequential::{Evidence, GameRange, Test, Tuning};
use crate::stats::estimate::Estimate;

/// A settled swing's interval is this narrow relative to the swing, if not narrower than the
/// precision: a swing of 40 points needs no interval of +-1 point to be ranked.
pub const RELATIVE: f64 = 0.1;

/// The test of a rule of `values` values on a figure whose per-game values lie in `range`:
/// each of its pairs at `alpha` shared by the pairs.
pub fn test(alpha: f64, values: usize, range: Option<GameRange>) -> Test {
    let pairs = (values * values.saturating_sub(1) / 2).max(1);
    Test::new(alpha / pairs as f64, Tuning::default(), range, 0.0, 0.0)
}

/// What a rule does to a figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Swing {
    /// The swing (greatest value's mean minus least's) with its interval.
    pub swing: Estimate,
    /// The value (index) whose figure is greatest.
    pub greatest: usize,
    /// The value (index) whose figure is least.
    pub least: usize,
    /// Each value's figure with its 95% interval (fixed-sample, to read).
    pub curve: Vec<Estimate>,
    /// The paired difference of each value from the one before (`curve[i + 1] - curve[i]`),
    /// at the swing's error.
    pub steps: Vec<Estimate>,
    /// The deals each value played for it.
    pub games: u64,
}

/// How a swing stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The rule moves the figure: its swing is shown above 0 (and not below the precision).
    Moves,
    /// The rule moves the figure less than the precision: nothing beyond noise.
    Nil,
    /// Not settled either way.
    Unclear,
}

impl Standing {
    /// The word the reports use.
    pub fn word(self) -> &'static str {
        match self {
            Self::Moves => "moves",
            Self::Nil => "nil",
            Self::Unclear => "unclear",
        }
    }
}

/// Which way the figure goes as the rule's value grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Up at every settled step.
    Up,
    /// Down at every settled step.
    Down,
    /// Up at some steps and down at others.
    Both,
    /// No step is settled.
    Unclear,
}

impl Direction {
    /// The word the reports use.
    pub fn word(self) -> &'static str {
        match self {
            Self::Up => "up",
            Self::Down => "down",
            Self::Both => "up and down",
            Self::Unclear => "-",
        }
    }
}

/// The swing of the rule whose values' evidence is `evidence` (in value order), read with
/// `test`, over the batches every value played; `limit` is the greatest swing the figure can
/// have (1 for a rate, 2 for a difference of rates), which caps the interval.
pub fn swing(test: &Test, evidence: &[&Evidence], limit: f64) -> Swing {
    let n = evidence.iter().map(|e| e.batches()).min().unwrap_or(0);
    let evidence: Vec<Evidence> = evidence.iter().map(|e| e.first(n)).collect();
    let means: Vec<f64> = evidence.iter().map(Evidence::mean).collect();
    let by = |better: fn(f64, f64) -> bool| {
        (0..means.len()).fold(0, |best, i| {
            if better(means[i], means[best]) {
                i
            } else {
                best
            }
        })
    };
    let (greatest, least) = (by(|a, b| a > b), by(|a, b| a < b));
    let (mut low, mut high) = (0.0f64, 0.0f64);
    for (a, ea) in evidence.iter().enumerate() {
        for eb in &evidence[a + 1..] {
            let d = test.difference(ea, eb);
            low = low.max(d.low).max(-d.high);
            high = high.max(d.high).max(-d.low);
        }
    }
    let value = means[greatest] - means[least];
    Swing {
        swing: Estimate {
            value,
            low: low.min(value),
            high: high.max(value).min(limit),
        },
        greatest,
        least,
        curve: evidence.iter().map(|e| test.estimate95(e)).collect(),
        steps: evidence
            .windows(2)
            .map(|w| test.difference(&w[1], &w[0]))
            .collect(),
        games: evidence.first().map_or(0, Evidence::games),
    }
}

impl Swing {
    /// True once the swing is settled at `precision`: known to within the precision (or
    /// [`RELATIVE`] of itself, if wider), or known to be below the precision. A negative
    /// precision settles nothing (the games go on to the cap).
    pub fn settled(&self, precision: f64) -> bool {
        let s = &self.swing;
        let half = (s.high - s.low) / 2.0;
        precision >= 0.0 && (s.high <= precision || half <= precision.max(RELATIVE * s.value))
    }

    /// How it stands at `precision`.
    pub fn standing(&self, precision: f64) -> Standing {
        if self.swing.high <= precision {
            Standing::Nil
        } else if self.swing.low > 0.0 {
            Standing::Moves
        } else {
            Standing::Unclear
        }
    }

    /// Which way the figure goes as the rule's value grows.
    pub fn direction(&self) -> Direction {
        let up = self.steps.iter().any(|d| d.low > 0.0);
        let down = self.steps.iter().any(|d| d.high < 0.0);
        match (up, down) {
            (true, false) => Direction::Up,
            (false, true) => Direction::Down,
            (true, true) => Direction::Both,
            (false, false) => Direction::Unclear,
        }
    }

    /// The runs of neighbouring values (first and last index) between which the figure moves
    /// less than `precision` at every step, by the steps' intervals.
    pub fn flat(&self, precision: f64) -> Vec<(usize, usize)> {
        let mut runs = Vec::new();
        let mut start: Option<usize> = None;
        for (i, d) in self.steps.iter().enumerate() {
            let flat = d.low >= -precision && d.high <= precision;
            match (flat, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    runs.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push((s, self.steps.len()));
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(values: &[f64]) -> Evidence {
        let mut e = Evidence::new(128);
        values.iter().for_each(|&v| e.push(v));
        e
    }

    #[test]
    fn the_swing_is_the_greatest_minus_the_least_and_its_interval_holds_it() {
        let wave = |shift: f64| -> Vec<f64> {
            (0..200)
                .map(|i| 0.5 + shift + 0.05 * ((i * 7 % 13) as f64 / 13.0 - 0.5))
                .collect()
        };
        let (a, b, c) = (
            evidence(&wave(0.0)),
            evidence(&wave(0.1)),
            evidence(&wave(0.1)),
        );
        let t = test(0.05, 3, None);
        let s = swing(&t, &[&a, &b, &c], f64::INFINITY);
        assert!((s.swing.value - 0.1).abs() < 1e-9, "{s:?}");
        assert!(s.swing.low <= 0.1 && s.swing.high >= 0.1, "{s:?}");
        assert_eq!((s.greatest, s.least), (1, 0));
        assert_eq!(s.direction(), Direction::Up);
        assert_eq!(s.flat(0.01), [(1, 2)]);
        assert!(s.settled(0.01));
        assert_eq!(s.standing(0.01), Standing::Moves);
        // The same games twice: a swing of exactly nothing.
        let nil = swing(&t, &[&a, &a.clone()], 1.0);
        assert_eq!(nil.swing.high, 0.0);
        assert_eq!(nil.standing(0.01), Standing::Nil);
        // Too few batches to say anything.
        let few = swing(&t, &[&a.first(3), &b.first(3)], 1.0);
        assert_eq!(few.swing.high, 1.0);
        assert!(!few.settled(0.01));
        assert_eq!(few.standing(0.01), Standing::Unclear);
    }
}
