//! How an axis of rates, differences, ratings or means reads: its ticks' labels.

use super::percent_tick;

/// How the axis reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Rates, as percentages.
    Percent,
    /// Differences of rates, in signed percentage points.
    Points,
    /// Ratings, signed whole numbers (Elo).
    Elo,
    /// Means on their own scale (turns, HP), to the axis's precision.
    Number,
}

impl Scale {
    /// The unit an axis of this scale reads in, as its title names it: `%`, `pts`, `Elo`;
    /// none for means, whose title names their own.
    pub fn unit(self) -> Option<&'static str> {
        match self {
            Self::Percent => Some("%"),
            Self::Points => Some("pts"),
            Self::Elo => Some("Elo"),
            Self::Number => None,
        }
    }

    /// The title of an axis showing `what` on this scale: `win rate (%)`, `gain (pts)`; a mean's
    /// `what` names its unit itself (`mean length (turns)`).
    pub fn title(self, what: &str) -> String {
        match self.unit() {
            Some(unit) => format!("{what} ({unit})"),
            None => what.to_string(),
        }
    }

    /// The values this scale can hold: a rate lies in 0..1 and a difference of rates in -1..1,
    /// so no interval is drawn past them.
    pub fn domain(self) -> (f64, f64) {
        match self {
            Self::Percent => (0.0, 1.0),
            Self::Points => (-1.0, 1.0),
            Self::Elo | Self::Number => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// `x` held within the scale's [`domain`](Self::domain).
    pub fn clamp(self, x: f64) -> f64 {
        let (lo, hi) = self.domain();
        x.clamp(lo, hi)
    }

    /// The label of an axis tick at `v`, ticks `step` apart.
    pub fn tick(self, v: f64, step: f64) -> String {
        // A tick at zero reads 0, not -0 or +0.
        let v = if v.abs() < step * 1e-6 { 0.0 } else { v };
        match self {
            Self::Points | Self::Elo if v == 0.0 => "0".to_string(),
            Self::Percent => percent_tick(v, step),
            Self::Points => {
                let digits = if step >= 0.01 { 0 } else { 1 };
                format!("{:+.*}", digits, 100.0 * v)
            }
            Self::Elo => format!("{v:+.0}"),
            Self::Number => {
                let digits = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
                format!("{v:.digits$}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_read_in_their_scale() {
        assert_eq!(Scale::Percent.tick(0.25, 0.05), "25%");
        assert_eq!(Scale::Points.tick(0.2, 0.05), "+20");
        assert_eq!(Scale::Points.tick(1e-12, 0.05), "0");
        assert_eq!(Scale::Elo.tick(-35.0, 10.0), "-35");
        assert_eq!(Scale::Number.tick(14.0, 2.0), "14");
        assert_eq!(Scale::Number.tick(13.26, 0.25), "13.3");
        assert_eq!(Scale::Number.tick(0.525, 0.005), "0.525");
    }

    #[test]
    fn titles_name_the_unit_and_intervals_stay_in_the_domain() {
        assert_eq!(Scale::Percent.title("win rate"), "win rate (%)");
        assert_eq!(Scale::Points.title("gain"), "gain (pts)");
        assert_eq!(
            Scale::Number.title("mean length (turns)"),
            "mean length (turns)"
        );
        assert_eq!(Scale::Percent.clamp(-0.03), 0.0);
        assert_eq!(Scale::Points.clamp(1.2), 1.0);
        assert_eq!(Scale::Elo.clamp(-400.0), -400.0);
    }
}
