//! The sequential test: what a candidate's batches of games say about its metric, as an
//! interval that stays valid however often it is looked at, and the verdict it gives against the
//! target.
//!
//! A candidate plays its games in batches of equal size, batch `k` being the same game indices
//! for every candidate (common random numbers). Each batch gives one value of the metric (the
//! summary column computed on that batch's tally), so any column, ratios included, gets a mean
//! and a spread from the same code: batch means. The interval is a confidence sequence (Robbins'
//! normal mixture): with probability at least `1 - alpha` it holds at every batch at once, so
//! the search may look after every batch and stop the moment the interval clears the target
//! without inflating its error. Two sequences are kept, each at half the error (see [`Test`]):
//! one from the batches' estimated spread, which makes its guarantee asymptotic (Waudby-Smith et
//! al., "Time-uniform central limit theory", 2021) and is used only from [`MIN_BATCHES`]
//! batches on; and, for a metric that is a mean of per-game values of known range, one from the
//! range alone, exact at every batch.

use crate::stats::estimate::Estimate;
use crate::stats::interval::Z95;

/// The fewest batches before the batches' spread is used: it must be estimated first.
pub const MIN_BATCHES: usize = 32;

/// The metric of each batch of games a candidate played, in game order.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    batch_games: u64,
    values: Vec<f64>,
}

impl Evidence {
    /// No batches yet, of `batch_games` games each.
    pub fn new(batch_games: u64) -> Self {
        Self {
            batch_games,
            values: Vec::new(),
        }
    }

    /// Adds the next batch's metric.
    pub fn push(&mut self, value: f64) {
        self.values.push(value);
    }

    /// Games per batch.
    pub fn batch_games(&self) -> u64 {
        self.batch_games
    }

    /// Batches played.
    pub fn batches(&self) -> usize {
        self.values.len()
    }

    /// Games played (deals, for a candidate of two policies).
    pub fn games(&self) -> u64 {
        self.values.len() as u64 * self.batch_games
    }

    /// The mean of the batch values (for a mean over games, such as `win_rate`, exactly the
    /// column over all the games).
    pub fn mean(&self) -> f64 {
        if self.values.is_empty() {
            return 0.0;
        }
        self.values.iter().sum::<f64>() / self.values.len() as f64
    }

    /// The standard deviation of the batch values (with `n - 1`); 0 for fewer than two.
    pub fn spread(&self) -> f64 {
        let n = self.values.len();
        if n < 2 {
            return 0.0;
        }
        let mean = self.mean();
        let squares: f64 = self.values.iter().map(|v| (v - mean).powi(2)).sum();
        (squares / (n - 1) as f64).sqrt()
    }

    /// The mean with its 95% interval from the batches' spread (not a sequential one: the
    /// figure to read, not the one the search decided on).
    pub fn estimate95(&self) -> Estimate {
        let n = self.values.len().max(1) as f64;
        Estimate::within(self.mean(), Z95 * self.spread() / n.sqrt())
    }

    /// The first `n` batches (all of them if there are fewer): a candidate's evidence over the
    /// games another candidate played too.
    pub fn first(&self, n: usize) -> Evidence {
        Evidence {
            batch_games: self.batch_games,
            values: self.values[..n.min(self.values.len())].to_vec(),
        }
    }

    /// The batch by batch differences `self - other` over the batches both played: the same
    /// games, so the spread of a difference of two candidates is what common random numbers
    /// leave of it.
    pub fn minus(&self, other: &Evidence) -> Evidence {
        Evidence {
            batch_games: self.batch_games,
            values: self
                .values
                .iter()
                .zip(&other.values)
                .map(|(a, b)| a - b)
                .collect(),
        }
    }
}

/// An anytime-valid two-sided confidence sequence at error `alpha`: Robbins' normal mixture,
/// tuned to be tightest after `tuned` observations. For observations whose spread (or
/// sub-Gaussian bound) is `s`, with `V = n s^2` and `eta = rho^2 V`, the half-width of the mean
/// after `n` of them is `s / sqrt(n) * sqrt((eta + 1) / eta * (2 ln(1 / alpha) + ln(eta + 1)))`:
/// with probability at least `1 - alpha` the true mean is within it at every `n` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sequence {
    alpha: f64,
    tuned: f64,
}

impl Sequence {
    /// The sequence at error `alpha` (between 0 and 1), tightest near `tuned` observations.
    pub fn new(alpha: f64, tuned: u64) -> Self {
        Self {
            alpha,
            tuned: tuned.max(1) as f64,
        }
    }

    /// The half-width after `n` observations of spread `spread`.
    pub fn half_width(&self, n: f64, spread: f64) -> f64 {
        let log = 2.0 * (1.0 / self.alpha).ln();
        // The mixture's precision: near optimal for `tuned` observations.
        let r = log + (1.0 + log).ln();
        let eta = r * n / self.tuned;
        spread / n.sqrt() * ((eta + 1.0) / eta * (log + (eta + 1.0).ln())).sqrt()
    }
}

/// Where a test's two sequences are tightest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The batches of the spread's sequence.
    pub batches: u64,
    /// The games of the bound's sequence.
    pub games: u64,
}

impl Default for Tuning {
    /// The spread's sequence tightest at twice [`MIN_BATCHES`] (it takes over from the bound
    /// there, and widens only slowly after), the bound's after 1,024 games (it is there to let
    /// candidates far from the target go early).
    fn default() -> Self {
        Self {
            batches: 2 * MIN_BATCHES as u64,
            games: 1024,
        }
    }
}

/// What a candidate's interval says about the target `t` and tolerance `e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The metric is below the target, by more than the tolerance.
    Below,
    /// The metric is above the target, by more than the tolerance.
    Above,
    /// The metric is within the tolerance of the target.
    OnTarget,
    /// The metric is at an edge of the tolerance: the interval, narrower than half the
    /// tolerance, straddles `t - e` or `t + e` (so the metric is within `e / 2` of it).
    Edge,
    /// Not settled: the interval still covers the target (or an edge of the tolerance) and is
    /// wider. At the game cap, the metric cannot be told from the target in that many games.
    Open,
}

impl Verdict {
    /// The verdict of `interval` on target `t` with tolerance `e`: on target if the interval lies
    /// within `t +- e` (never for `e = 0`), below or above if it lies wholly beyond it, at the
    /// edge once its half-width is at most `e / 4` without either, else open. Every interval of
    /// half-width at most `e / 4` is settled, so with a tolerance every candidate is.
    pub fn of(interval: &Estimate, t: f64, e: f64) -> Self {
        if e > 0.0 && interval.low >= t - e && interval.high <= t + e {
            Self::OnTarget
        } else if interval.high < t - e {
            Self::Below
        } else if interval.low > t + e {
            Self::Above
        } else if e > 0.0 && interval.high - interval.low <= e / 2.0 {
            Self::Edge
        } else {
            Self::Open
        }
    }

    /// True for below and above: a side of the target, settled.
    pub fn is_side(self) -> bool {
        matches!(self, Self::Below | Self::Above)
    }

    /// True for open and at the edge: near the target, on no settled side.
    pub fn is_near(self) -> bool {
        matches!(self, Self::Open | Self::Edge)
    }

    /// The word the reports use.
    pub fn word(self) -> &'static str {
        match self {
            Self::Below => "below",
            Self::Above => "above",
            Self::OnTarget => "on target",
            Self::Edge => "edge",
            Self::Open => "open",
        }
    }
}

/// The fewest games, counted from the nearer end of the range of a game's value, before the
/// spread of a bounded metric is trusted: a win rate near 0 or 1 needs this many wins (or
/// losses) before the batches' spread says anything about it (30 wins in 32 games of one each
/// say nothing; all 32 lost would give a spread of 0).
pub const EVENTS: f64 = 30.0;

/// The values one game can give a metric that is a mean over games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRange {
    /// The least.
    pub low: f64,
    /// The greatest.
    pub high: f64,
}

impl GameRange {
    fn width(self) -> f64 {
        self.high - self.low
    }

    /// The range of the difference of two such values.
    fn difference(self) -> Self {
        Self {
            low: -self.width(),
            high: self.width(),
        }
    }

    /// The games `evidence` holds beyond the nearer end, in games' worth of the range.
    fn events(self, evidence: &Evidence) -> f64 {
        let mean = evidence.mean();
        evidence.games() as f64 * (mean - self.low).min(self.high - mean) / self.width()
    }
}

/// One candidate's test: its interval against the target and tolerance. The interval is the
/// narrower of two confidence sequences around the mean, each at half the test's error (their
/// intersection, valid when both are): one from the batches' spread, once there are
/// [`MIN_BATCHES`] batches (and, for a bounded metric, [`EVENTS`] games' worth away from the
/// nearer end of the range), and, for a metric that is a mean of per-game values within a known
/// range (a share of games, a difference of two), one from that range alone, valid from the
/// first batch (Hoeffding's bound in Robbins' mixture), which lets a candidate far from the
/// target go after a few hundred games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Test {
    spread: Sequence,
    /// The bound's sequence and the range of one game's value.
    bound: Option<(Sequence, GameRange)>,
    /// The target value.
    pub target: f64,
    /// The tolerance (0: sides only).
    pub tolerance: f64,
}

impl Test {
    /// A test at error `alpha` for a metric whose per-game values lie in `range` (if known),
    /// tuned as `tuning` says.
    pub fn new(
        alpha: f64,
        tuning: Tuning,
        range: Option<GameRange>,
        target: f64,
        tolerance: f64,
    ) -> Self {
        let share = if range.is_some() { alpha / 2.0 } else { alpha };
        Self {
            spread: Sequence::new(share, tuning.batches),
            bound: range.map(|r| (Sequence::new(share, tuning.games), r)),
            target,
            tolerance,
        }
    }

    /// The interval `evidence` gives the metric: infinite before it has anything to go on.
    pub fn interval(&self, evidence: &Evidence) -> Estimate {
        self.interval_of(evidence, self.bound.map(|(_, r)| r))
    }

    /// The interval of `evidence`, whose per-game values lie in `range` if known.
    fn interval_of(&self, evidence: &Evidence, range: Option<GameRange>) -> Estimate {
        let mut half = f64::INFINITY;
        if self.spread_known(evidence, range) {
            half = self
                .spread
                .half_width(evidence.batches() as f64, evidence.spread());
        }
        if let (Some((sequence, _)), Some(range)) = (self.bound, range)
            && evidence.games() > 0
        {
            half = half.min(sequence.half_width(evidence.games() as f64, range.width() / 2.0));
        }
        Estimate::within(evidence.mean(), half)
    }

    /// True if the batches' spread can be trusted: enough batches, and enough games away from
    /// the ends of a bounded range.
    fn spread_known(&self, evidence: &Evidence, range: Option<GameRange>) -> bool {
        evidence.batches() >= MIN_BATCHES && range.is_none_or(|r| r.events(evidence) >= EVENTS)
    }

    /// The metric of `evidence` with its 95% interval (fixed-sample, to read): from the batches'
    /// spread once it can be trusted; before, from the range of one game's value if known (wider
    /// than it need be), else unbounded.
    pub fn estimate95(&self, evidence: &Evidence) -> Estimate {
        let range = self.bound.map(|(_, r)| r);
        if self.spread_known(evidence, range) {
            return evidence.estimate95();
        }
        let half = match range {
            Some(r) if evidence.games() > 0 => {
                Z95 * r.width() / 2.0 / (evidence.games() as f64).sqrt()
            }
            _ => f64::INFINITY,
        };
        Estimate::within(evidence.mean(), half)
    }

    /// The verdict of `evidence` so far.
    pub fn verdict(&self, evidence: &Evidence) -> Verdict {
        Verdict::of(&self.interval(evidence), self.target, self.tolerance)
    }

    /// The interval of `a - b` over the batches both played: the paired difference of two
    /// candidates on the same games, at the test's error.
    pub fn difference(&self, a: &Evidence, b: &Evidence) -> Estimate {
        self.interval_of(&a.minus(b), self.bound.map(|(_, r)| r.difference()))
    }

    /// Whether `a - b` (over the batches both played) is settled on one side of 0: `Some(true)`
    /// above, `Some(false)` below, `None` if not.
    pub fn difference_side(&self, a: &Evidence, b: &Evidence) -> Option<bool> {
        let range = self.bound.map(|(_, r)| r.difference());
        match Verdict::of(&self.interval_of(&a.minus(b), range), 0.0, 0.0) {
            Verdict::Above => Some(true),
            Verdict::Below => Some(false),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::synthetic::SHARE;
    use crate::rng::splitmix64;

    /// A uniform draw in [0, 1) from a counter.
    fn uniform(key: u64) -> f64 {
        (splitmix64(key) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Batches of Bernoulli(p) games: the batch means, games keyed by `seed` and index.
    fn bernoulli_batches(p: f64, seed: u64, batches: usize, size: u64) -> Vec<f64> {
        (0..batches as u64)
            .map(|b| {
                let wins = (0..size)
                    .filter(|i| uniform(seed.wrapping_mul(1 << 32) + b * size + i) < p)
                    .count();
                wins as f64 / size as f64
            })
            .collect()
    }

    #[test]
    fn batch_means_match_the_textbook_figures() {
        let mut e = Evidence::new(10);
        for v in [0.2, 0.4, 0.6, 0.8] {
            e.push(v);
        }
        assert_eq!(e.games(), 40);
        assert!((e.mean() - 0.5).abs() < 1e-12);
        // Sample variance of 0.2, 0.4, 0.6, 0.8: (0.09 + 0.01 + 0.01 + 0.09) / 3.
        assert!((e.spread() - (0.2f64 / 3.0).sqrt()).abs() < 1e-12);
        let ci = e.estimate95();
        assert!((ci.high - ci.value - Z95 * (0.2f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
        let mut other = Evidence::new(10);
        for v in [0.1, 0.1, 0.7] {
            other.push(v);
        }
        let d = e.minus(&other);
        assert_eq!(d.batches(), 3);
        assert!((d.mean() - (0.1 + 0.3 - 0.1) / 3.0).abs() < 1e-12);
    }

    #[test]
    fn the_sequence_is_wider_than_a_fixed_interval_and_grows_slowly() {
        let s = Sequence::new(0.05 / 13.0, 128);
        // At its tuning point the normal mixture costs about 1.3x the fixed-sample width at the
        // same error (z = 2.89 for 0.05 / 13 two-sided).
        let at = s.half_width(128.0, 1.0) * 128f64.sqrt();
        assert!(at > 2.89 && at < 4.0, "{at}");
        let late = s.half_width(128.0 * 64.0, 1.0) * (128.0 * 64.0f64).sqrt();
        assert!(late > at && late < 1.2 * at, "{late} vs {at}");
    }

    #[test]
    fn the_test_takes_the_narrower_sequence_and_waits_for_the_spread() {
        let tuning = Tuning {
            batches: 64,
            games: 1024,
        };
        let bounded = Test::new(0.01, tuning, Some(SHARE), 0.5, 0.0);
        let spread_only = Test::new(0.01, tuning, None, 0.5, 0.0);
        let mut e = Evidence::new(256);
        e.push(0.1);
        // One batch: only the bound can speak, and 0.1 is far enough below 0.5.
        assert!(spread_only.interval(&e).high.is_infinite());
        assert_eq!(bounded.verdict(&e), Verdict::Below);
        for _ in 1..MIN_BATCHES {
            e.push(0.1);
        }
        // A spread of 0: the spread's sequence is a point.
        let (a, b) = (spread_only.interval(&e), bounded.interval(&e));
        assert!(
            a.high - a.low < 1e-12 && (a.high - 0.1).abs() < 1e-12,
            "{a:?}"
        );
        assert_eq!(a, b);
    }

    #[test]
    fn verdicts_follow_the_interval_and_tolerance() {
        let at = |low, high| Estimate {
            value: (low + high) / 2.0,
            low,
            high,
        };
        assert_eq!(Verdict::of(&at(0.40, 0.45), 0.5, 0.0), Verdict::Below);
        assert_eq!(Verdict::of(&at(0.55, 0.60), 0.5, 0.0), Verdict::Above);
        assert_eq!(Verdict::of(&at(0.48, 0.52), 0.5, 0.0), Verdict::Open);
        assert_eq!(Verdict::of(&at(0.48, 0.52), 0.5, 0.02), Verdict::OnTarget);
        assert_eq!(Verdict::of(&at(0.47, 0.485), 0.5, 0.04), Verdict::OnTarget);
        assert_eq!(Verdict::of(&at(0.40, 0.455), 0.5, 0.04), Verdict::Below);
        // Across the edge 0.46 and narrow: at the edge; wide: open.
        assert_eq!(Verdict::of(&at(0.45, 0.47), 0.5, 0.04), Verdict::Edge);
        assert_eq!(Verdict::of(&at(0.44, 0.47), 0.5, 0.04), Verdict::Open);
        assert_eq!(Verdict::of(&at(0.45, 0.55), 0.5, 0.04), Verdict::Open);
    }

    /// The share of `streams` independent streams of Bernoulli(`p`) batches whose interval
    /// under `test`, looked at after every batch, ever misses `p`.
    fn misses(test: &Test, p: f64, streams: u64, batches: usize, size: u64) -> f64 {
        let missed = (0..streams)
            .filter(|seed| {
                let mut e = Evidence::new(size);
                bernoulli_batches(p, seed + 1, batches, size)
                    .into_iter()
                    .any(|v| {
                        e.push(v);
                        let ci = test.interval(&e);
                        ci.low > p || ci.high < p
                    })
            })
            .count();
        missed as f64 / streams as f64
    }

    /// The guarantee itself, checked by simulation: over many independent streams of batches
    /// of a known mean, the share whose interval ever (at any batch) misses the mean is at most
    /// alpha, for the spread's sequence and the bound's. A fixed 95% interval looked at after
    /// every batch misses far more often.
    #[test]
    fn the_sequences_hold_at_every_batch_with_the_stated_error() {
        let alpha = 0.05;
        let tuning = Tuning {
            batches: 64,
            games: 1024,
        };
        let spread = Test::new(alpha, tuning, None, 0.0, 0.0);
        let rate = misses(&spread, 0.3, 400, 1024, 64);
        assert!(
            rate <= alpha,
            "the spread's sequence missed in {rate} of the streams"
        );
        // The bound's sequence alone: a spread's sequence too wide to ever be the narrower.
        let bound = Test {
            spread: Sequence::new(f64::MIN_POSITIVE, 1),
            ..Test::new(alpha * 2.0, tuning, Some(SHARE), 0.0, 0.0)
        };
        let rate = misses(&bound, 0.5, 400, 256, 8);
        assert!(
            rate <= alpha,
            "the bound's sequence missed in {rate} of the streams"
        );
        let mut fixed_missed = 0;
        for seed in 0..400 {
            let mut e = Evidence::new(64);
            let miss = bernoulli_batches(0.3, seed + 1, 1024, 64)
                .into_iter()
                .any(|v| {
                    e.push(v);
                    let ci = e.estimate95();
                    e.batches() >= MIN_BATCHES && (ci.low > 0.3 || ci.high < 0.3)
                });
            fixed_missed += u32::from(miss);
        }
        let fixed_rate = f64::from(fixed_missed) / 400.0;
        assert!(
            fixed_rate > 2.0 * alpha,
            "peeking at a fixed interval missed in only {fixed_rate}"
        );
    }

    #[test]
    fn differences_of_common_games_settle_where_independent_ones_cannot() {
        let tuning = Tuning {
            batches: 64,
            games: 1024,
        };
        let test = Test::new(0.01, tuning, None, 0.0, 0.0);
        // Two candidates that win on the same games unless the game's draw falls between them.
        let (batches, size) = (64, 256);
        let run = |p: f64, seed: u64| {
            let mut e = Evidence::new(size);
            for v in bernoulli_batches(p, seed, batches, size) {
                e.push(v);
            }
            e
        };
        let (a, b) = (run(0.51, 7), run(0.50, 7));
        assert_eq!(test.difference_side(&a, &b), Some(true));
        assert_eq!(test.difference_side(&b, &a), Some(false));
        let independent = run(0.50, 8);
        assert_eq!(test.difference_side(&a, &independent), None);
    }
}
