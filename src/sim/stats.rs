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
        Self {
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_reference_values() {
        // Reference: 20 of 100 -> (0.1333, 0.2888) from the closed form by hand.
        let p = Proportion::wilson(20, 100);
        assert!((p.low - 0.13330).abs() < 1e-4, "{p:?}");
        assert!((p.high - 0.28880).abs() < 1e-4, "{p:?}");
        let zero = Proportion::wilson(0, 50);
        assert!(zero.low.abs() < 1e-12, "{zero:?}");
        assert!((zero.high - 0.07135).abs() < 1e-4, "{zero:?}");
    }
}
