//! Interval estimates computed once, at the end, from integer tallies.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    /// The point estimate `successes / trials`.
    pub rate: f64,
    /// Lower end of the 95% Wilson interval.
    pub low: f64,
    /// Upper end of the 95% Wilson interval.
    pub high: f64,
}

impl Proportion {
    /// The Wilson interval of `successes` out of `trials` (all zeros for no trials).
    pub fn wilson(successes: u64, trials: u64) -> Self {
        if trials == 0 {
            return Self {
                rate: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let n = trials as f64;
        let p = successes as f64 / n;
        let z2 = Z95 * Z95;
        let denom = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denom;
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
        // At no successes (or all) the interval's end is 0 (or 1) exactly; the closed form
        // leaves a rounding error there (3e-18 at 0 of 1,000).
        Self {
            rate: p,
            low: if successes == 0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            high: if successes >= trials {
                1.0
            } else {
                (centre + half).min(1.0)
            },
        }
    }
}

impl Proportion {
    /// Half the width of the 95% interval.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// A difference of two win rates, `a - b`, with its 95% normal interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// The point estimate.
    pub diff: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Difference {
    /// `diff` plus or minus 1.96 standard errors, the interval held within -1..1 (a difference
    /// of two rates can be no more).
    fn around(diff: f64, standard_error: f64) -> Self {
        Self {
            diff,
            low: (diff - Z95 * standard_error).clamp(-1.0, 1.0),
            high: (diff + Z95 * standard_error).clamp(-1.0, 1.0),
        }
    }

    /// A difference that cannot be estimated (fewer than two games): `NaN`, written as null and
    /// shown as n/a.
    pub const NONE: Self = Self {
        diff: f64::NAN,
        low: f64::NAN,
        high: f64::NAN,
    };

    /// The difference of win rates of two policies that played the same `games` deals, from the
    /// discordant pairs: `a_only` deals won by `a` and lost by `b`, `b_only` the reverse. The
    /// interval uses the sample variance of the per-deal differences (each -1, 0 or 1), so it
    /// shrinks when the policies win and lose the same deals: common random numbers at work.
    /// [`Difference::NONE`] on fewer than two games.
    pub fn paired(games: u64, a_only: u64, b_only: u64) -> Self {
        if games < 2 {
            return Self::NONE;
        }
        let n = games as f64;
        let diff = (a_only as f64 - b_only as f64) / n;
        let second_moment = (a_only + b_only) as f64 / n;
        let variance = (second_moment - diff * diff) * n / (n - 1.0);
        Self::around(diff, (variance.max(0.0) / n).sqrt())
    }

    /// The difference of two win rates measured on independent samples (for contrast with
    /// [`Difference::paired`]; [`Difference::NONE`] on fewer than two games a side).
    pub fn unpaired(a_wins: u64, a_games: u64, b_wins: u64, b_games: u64) -> Self {
        if a_games < 2 || b_games < 2 {
            return Self::NONE;
        }
        let (pa, pb) = (
            a_wins as f64 / a_games as f64,
            b_wins as f64 / b_games as f64,
        );
        let variance = pa * (1.0 - pa) / a_games as f64 + pb * (1.0 - pb) / b_games as f64;
        Self::around(pa - pb, variance.sqrt())
    }

    /// Half the width of the 95% interval.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook computation from the per-deal differences themselves.
    fn slow_paired(a: &[bool], b: &[bool]) -> (f64, f64) {
        let d: Vec<f64> = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| f64::from(u8::from(x)) - f64::from(u8::from(y)))
            .collect();
        let n = d.len() as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, Z95 * (var / n).sqrt())
    }

    #[test]
    fn paired_difference_matches_the_per_deal_computation() {
        // Deterministic pseudo-random wins, correlated: b mostly follows a.
        let mut x = 12345u64;
        let mut next = || {
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % 100
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..5000 {
            let wa = next() < 60;
            let wb = if next() < 80 { wa } else { next() < 50 };
            a.push(wa);
            b.push(wb);
        }
        let a_only = a.iter().zip(&b).filter(|(x, y)| **x && !**y).count() as u64;
        let b_only = a.iter().zip(&b).filter(|(x, y)| !**x && **y).count() as u64;
        let fast = Difference::paired(5000, a_only, b_only);
        let (mean, half) = slow_paired(&a, &b);
        assert!((fast.diff - mean).abs() < 1e-12, "{fast:?} vs {mean}");
        assert!(
            (fast.half_width() - half).abs() < 1e-12,
            "{fast:?} vs {half}"
        );
        let wins = |v: &[bool]| v.iter().filter(|w| **w).count() as u64;
        let unpaired = Difference::unpaired(wins(&a), 5000, wins(&b), 5000);
        assert!((unpaired.diff - fast.diff).abs() < 1e-12);
        assert!(fast.half_width() < unpaired.half_width());
    }

    #[test]
    fn wilson_matches_reference_values() {
        // Reference: 20 of 100 -> (0.1333, 0.2888) from the closed form by hand.
        let p = Proportion::wilson(20, 100);
        assert!((p.low - 0.13330).abs() < 1e-4, "{p:?}");
        assert!((p.high - 0.28880).abs() < 1e-4, "{p:?}");
        let zero = Proportion::wilson(0, 50);
        assert_eq!(zero.low, 0.0, "{zero:?}");
        for n in [1, 7, 1000, 123_456_789] {
            assert_eq!(Proportion::wilson(0, n).low, 0.0, "0 of {n}");
            assert_eq!(Proportion::wilson(n, n).high, 1.0, "{n} of {n}");
        }
        assert!((zero.high - 0.07135).abs() < 1e-4, "{zero:?}");
    }
}
