//! A figure's 95% interval, by the method that fits it: Wilson's for a share of games, the
//! normal (central limit) interval for a mean of independent games, the delete-one jackknife
//! over deals for a smooth function of the deals' rows (a share of variance, the skill trace),
//! and order statistics for a quantile.

use super::interval::{Proportion, Z95};

/// A value with its interval: a 95% interval from the constructors here (`NaN` ends where no
/// interval can be given: fewer than two games), or any interval built with [`Estimate::within`]
/// (a balance search's confidence sequence).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Estimate {
    /// `value` plus or minus `half_width`.
    pub fn within(value: f64, half_width: f64) -> Self {
        Self {
            value,
            low: value - half_width,
            high: value + half_width,
        }
    }

    /// `value` plus or minus 1.96 standard errors (`NaN` ends for a `NaN` error).
    pub fn around(value: f64, standard_error: f64) -> Self {
        Self::within(value, Z95 * standard_error)
    }

    /// A value with no interval.
    pub fn bare(value: f64) -> Self {
        Self::around(value, f64::NAN)
    }

    /// The share `k / n` with its Wilson interval.
    pub fn share(k: u64, n: u64) -> Self {
        let p = Proportion::wilson(k, n);
        Self {
            value: p.rate,
            low: p.low,
            high: p.high,
        }
    }

    /// The mean of `n` independent values from their sum and sum of squares, with the normal
    /// interval of the sample variance.
    pub fn mean(n: f64, sum: f64, squares: f64) -> Self {
        if n < 1.0 {
            return Self::bare(f64::NAN);
        }
        let mean = sum / n;
        if n < 2.0 {
            return Self::bare(mean);
        }
        let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
        Self::around(mean, (variance / n).sqrt())
    }

    /// The mean over the deals of `value(row)` (`None`: the deal does not count), with its
    /// normal interval: a paired difference when `value` is one line's result minus another's.
    pub fn mean_of<'a, S: 'a>(
        rows: impl Iterator<Item = (&'a [S], u64)>,
        value: impl Fn(&[S]) -> Option<f64>,
    ) -> Self {
        let (mut n, mut sum, mut squares) = (0.0, 0.0, 0.0);
        for (row, count) in rows {
            if let Some(x) = value(row) {
                let c = count as f64;
                n += c;
                sum += c * x;
                squares += c * x * x;
            }
        }
        Self::mean(n, sum, squares)
    }

    /// The delete-one jackknife over deals: `f` of the sum over the deals of `moments(row)`
    /// (a fixed number of sums), its standard error from `f` of the sums less one deal at a
    /// time. `None` where `f` is undefined on the whole.
    pub fn jackknife<'a, S: 'a>(
        rows: impl Iterator<Item = (&'a [S], u64)> + Clone,
        moments: impl Fn(&[S]) -> Vec<f64>,
        f: impl Fn(&[f64]) -> Option<f64>,
    ) -> Option<Self> {
        let each: Vec<(Vec<f64>, f64)> = rows.map(|(r, c)| (moments(r), c as f64)).collect();
        let width = each.first().map_or(0, |(m, _)| m.len());
        let mut total = vec![0.0; width];
        let mut n = 0.0;
        for (m, c) in &each {
            for (t, x) in total.iter_mut().zip(m) {
                *t += c * x;
            }
            n += c;
        }
        let value = f(&total)?;
        if n < 2.0 {
            return Some(Self::bare(value));
        }
        let mut less = vec![0.0; width];
        let mut leave_out = Vec::with_capacity(each.len());
        for (m, c) in &each {
            for ((l, t), x) in less.iter_mut().zip(&total).zip(m) {
                *l = t - x;
            }
            leave_out.push((f(&less), *c));
        }
        if leave_out.iter().any(|(v, _)| v.is_none()) {
            return Some(Self::bare(value));
        }
        let mean = leave_out
            .iter()
            .map(|(v, c)| c * v.unwrap_or(0.0))
            .sum::<f64>()
            / n;
        let spread: f64 = leave_out
            .iter()
            .map(|(v, c)| c * (v.unwrap_or(0.0) - mean).powi(2))
            .sum();
        Some(Self::around(value, ((n - 1.0) / n * spread).sqrt()))
    }

    /// The `q` quantile of the values counted in `counts` (value, games; increasing values),
    /// with the distribution-free interval between two order statistics.
    pub fn quantile(counts: &[(u32, u64)], q: f64) -> Self {
        let n: u64 = counts.iter().map(|(_, c)| c).sum();
        if n == 0 {
            return Self::bare(f64::NAN);
        }
        // The j-th smallest value, j from 1 to n.
        let order = |j: u64| {
            let j = j.clamp(1, n);
            let mut seen = 0;
            for &(v, c) in counts {
                seen += c;
                if seen >= j {
                    return f64::from(v);
                }
            }
            f64::from(counts[counts.len() - 1].0)
        };
        let nf = n as f64;
        let centre = (nf * q).ceil().max(1.0) as u64;
        let spread = Z95 * (nf * q * (1.0 - q)).sqrt();
        Self {
            value: order(centre),
            low: order((nf * q - spread).floor().max(1.0) as u64),
            high: order((nf * q + spread).ceil() as u64 + 1),
        }
    }

    /// The interval's ends held within `low..=high`, the range the figure can take.
    pub fn clip(self, low: f64, high: f64) -> Self {
        Self {
            low: self.low.clamp(low, high),
            high: self.high.clamp(low, high),
            ..self
        }
    }

    /// The estimate of `x + by` for this estimate of `x`.
    pub fn shift(self, by: f64) -> Self {
        Self {
            value: self.value + by,
            low: self.low + by,
            high: self.high + by,
        }
    }

    /// The interval of `1 - |x|` for this estimate of `x` (Ludii's balance from a difference
    /// between seats).
    pub fn one_minus_abs(self) -> Self {
        let value = 1.0 - self.value.abs();
        let far = self.low.abs().max(self.high.abs());
        let near = if self.low <= 0.0 && self.high >= 0.0 {
            0.0
        } else {
            self.low.abs().min(self.high.abs())
        };
        Self {
            value,
            low: 1.0 - far,
            high: 1.0 - near,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deal's row of scores, as `sim evaluate` counts them.
    type Score = u8;

    fn rows(list: &[(Vec<Score>, u64)]) -> Vec<(Vec<Score>, u64)> {
        list.to_vec()
    }

    #[test]
    fn the_jackknife_of_a_mean_is_the_normal_interval_of_the_mean() {
        let list = rows(&[(vec![2], 30), (vec![0], 70), (vec![1], 5)]);
        let it = || list.iter().map(|(r, c)| (r.as_slice(), *c));
        let jack = Estimate::jackknife(
            it(),
            |r| vec![f64::from(r[0]) / 2.0, 1.0],
            |m| Some(m[0] / m[1]),
        )
        .unwrap();
        let normal = Estimate::mean_of(it(), |r| Some(f64::from(r[0]) / 2.0));
        assert!((jack.value - normal.value).abs() < 1e-12);
        assert!((jack.low - normal.low).abs() < 1e-9, "{jack:?} {normal:?}");
    }

    #[test]
    fn the_jackknife_matches_a_slow_delete_one_computation() {
        // A ratio of two sums over deals, by brute force over every deal left out.
        let list = rows(&[
            (vec![2, 0], 3),
            (vec![0, 2], 2),
            (vec![2, 2], 4),
            (vec![0, 0], 1),
        ]);
        let deals: Vec<&Vec<Score>> = list
            .iter()
            .flat_map(|(r, c)| std::iter::repeat_n(r, *c as usize))
            .collect();
        let f = |d: &[&Vec<Score>]| {
            let a: f64 = d.iter().map(|r| f64::from(r[0])).sum();
            let b: f64 = d.iter().map(|r| f64::from(r[0] + r[1])).sum();
            a / b
        };
        let n = deals.len() as f64;
        let outs: Vec<f64> = (0..deals.len())
            .map(|i| {
                let rest: Vec<&Vec<Score>> = deals
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, r)| *r)
                    .collect();
                f(&rest)
            })
            .collect();
        let mean = outs.iter().sum::<f64>() / n;
        let se = ((n - 1.0) / n * outs.iter().map(|x| (x - mean).powi(2)).sum::<f64>()).sqrt();
        let jack = Estimate::jackknife(
            list.iter().map(|(r, c)| (r.as_slice(), *c)),
            |r| vec![f64::from(r[0]), f64::from(r[0] + r[1])],
            |m| Some(m[0] / m[1]),
        )
        .unwrap();
        assert!((jack.value - f(&deals)).abs() < 1e-12);
        assert!((jack.high - jack.value - Z95 * se).abs() < 1e-12);
    }

    #[test]
    fn quantiles_read_the_order_statistics() {
        // 100 values: 1 (40), 2 (24), 3 (36).
        let counts = [(1, 40), (2, 24), (3, 36)];
        assert_eq!(Estimate::quantile(&counts, 0.25).value, 1.0);
        assert_eq!(Estimate::quantile(&counts, 0.5).value, 2.0);
        let q3 = Estimate::quantile(&counts, 0.75);
        assert_eq!(q3.value, 3.0);
        assert!(q3.low >= 2.0 && q3.high == 3.0);
    }

    #[test]
    fn balance_from_a_difference() {
        let e = Estimate {
            value: 0.1,
            low: -0.05,
            high: 0.25,
        };
        let b = e.one_minus_abs();
        assert!((b.value - 0.9).abs() < 1e-12);
        assert!((b.low - 0.75).abs() < 1e-12 && b.high == 1.0);
    }
}
