//! How far an estimate can be trusted: its Brier score against that of the base rate (always
//! predicting the frequency of wins), and its reliability curve: positions binned by the
//! estimate in tenths (0-10%, ..., 90-100%), each bin's mean estimate against its frequency of
//! wins with a 95% Wilson interval.

use serde::Serialize;

use crate::stats::interval::Proportion;

/// Positions a bin needs before its error counts ([`Calibration::worst_error`]).
pub const ENOUGH: u64 = 100;

/// One tenth of the reliability curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    /// Its lower edge (the estimates from `low` to `low + 0.1`).
    pub low: f64,
    /// Positions whose estimate fell in it.
    pub positions: u64,
    /// Their mean estimate.
    pub predicted: f64,
    /// How many of them the seat went on to win.
    pub wins: u64,
    /// `wins / positions`.
    pub frequency: f64,
    /// The frequency's 95% Wilson interval.
    pub interval: [f64; 2],
}

/// An estimate's calibration on a set of positions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calibration {
    /// Positions measured.
    pub positions: u64,
    /// Their frequency of wins.
    pub base_rate: f64,
    /// The estimate's Brier score (mean squared error against 1 for a win, 0 otherwise).
    pub brier: f64,
    /// The base rate's Brier score.
    pub brier_base: f64,
    /// The Brier skill score, `1 - brier / brier_base`: above 0 where the estimate knows more
    /// than the base rate.
    pub skill: f64,
    /// The reliability curve, ten bins (empty ones included).
    pub bins: Vec<Bin>,
}

impl Calibration {
    /// The calibration of `estimates` against `wins` (one each, in the same order).
    pub fn measure(estimates: &[f32], wins: &[bool]) -> Self {
        assert_eq!(estimates.len(), wins.len());
        let n = estimates.len() as u64;
        let won = wins.iter().filter(|&&w| w).count() as u64;
        let base = if n == 0 { 0.0 } else { won as f64 / n as f64 };
        let mut sq = 0.0;
        let mut counts = [(0u64, 0.0f64, 0u64); 10];
        for (&p, &w) in estimates.iter().zip(wins) {
            let p = f64::from(p).clamp(0.0, 1.0);
            let y = if w { 1.0 } else { 0.0 };
            sq += (p - y).powi(2);
            let k = ((p * 10.0) as usize).min(9);
            counts[k].0 += 1;
            counts[k].1 += p;
            counts[k].2 += u64::from(w);
        }
        let brier = if n == 0 { 0.0 } else { sq / n as f64 };
        let brier_base = base * (1.0 - base);
        let bins = counts
            .iter()
            .enumerate()
            .map(|(k, &(positions, sum, wins))| {
                let wilson = Proportion::wilson(wins, positions);
                Bin {
                    low: k as f64 / 10.0,
                    positions,
                    predicted: if positions == 0 {
                        0.0
                    } else {
                        sum / positions as f64
                    },
                    wins,
                    frequency: wilson.rate,
                    interval: [wilson.low, wilson.high],
                }
            })
            .collect();
        Self {
            positions: n,
            base_rate: base,
            brier,
            brier_base,
            skill: if brier_base > 0.0 {
                1.0 - brier / brier_base
            } else {
                0.0
            },
            bins,
        }
    }

    /// The largest gap between a bin's mean estimate and its frequency of wins, over the bins
    /// of at least [`ENOUGH`] positions (0 if none has enough).
    pub fn worst_error(&self) -> f64 {
        self.bins
            .iter()
            .filter(|b| b.positions >= ENOUGH)
            .map(|b| (b.predicted - b.frequency).abs())
            .fold(0.0, f64::max)
    }

    /// The report in words: the scores, then one line per bin that holds positions.
    pub fn text(&self) -> String {
        let mut s = format!(
            "positions {}, wins {:.1}%\nBrier score {:.4} (base rate's {:.4}; skill {:+.3})\nworst calibration error {:.1} points (bins of {ENOUGH}+ positions)\n\nestimate    positions  mean est.  wins      95% interval\n",
            self.positions,
            100.0 * self.base_rate,
            self.brier,
            self.brier_base,
            self.skill,
            100.0 * self.worst_error(),
        );
        for b in self.bins.iter().filter(|b| b.positions > 0) {
            s.push_str(&format!(
                "{:>3.0}-{:<3.0}%  {:>10}  {:>8.1}%  {:>6.1}%  {:>5.1}-{:.1}%\n",
                100.0 * b.low,
                100.0 * b.low + 10.0,
                b.positions,
                100.0 * b.predicted,
                100.0 * b.frequency,
                100.0 * b.interval[0],
                100.0 * b.interval[1],
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_bins_a_small_case() {
        // Four positions at 0.25 (one win), two at 0.95 (both wins).
        let est = [0.25, 0.25, 0.25, 0.25, 0.95, 0.95];
        let wins = [true, false, false, false, true, true];
        let c = Calibration::measure(&est, &wins);
        assert_eq!(c.positions, 6);
        assert!((c.base_rate - 0.5).abs() < 1e-12);
        let want = (0.75f64.powi(2) + 3.0 * 0.0625 + 2.0 * 0.0025) / 6.0;
        assert!((c.brier - want).abs() < 1e-6);
        assert!((c.brier_base - 0.25).abs() < 1e-12);
        assert_eq!(c.bins[2].positions, 4);
        assert_eq!(c.bins[2].wins, 1);
        assert_eq!(c.bins[9].positions, 2);
        assert!((c.bins[9].frequency - 1.0).abs() < 1e-12);
        assert_eq!(c.bins.iter().map(|b| b.positions).sum::<u64>(), 6);
        // No bin has 100 positions: no error counted.
        assert_eq!(c.worst_error(), 0.0);
    }

    #[test]
    fn the_base_rate_has_no_skill() {
        let wins: Vec<bool> = (0..1000).map(|i| i % 4 == 0).collect();
        let est = vec![0.25f32; 1000];
        let c = Calibration::measure(&est, &wins);
        assert!(c.skill.abs() < 1e-6, "{}", c.skill);
        assert!(c.worst_error() < 1e-6);
    }
}
