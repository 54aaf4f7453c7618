//! Integer histograms over a bounded range of integer values.

/// Counts of integer values in `min..=max`; values outside are clamped to the ends.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Bins")]
pub struct Histogram {
    min: i64,
    counts: Vec<u64>,
}

/// The most values a histogram read from a file may count (its bins): far more than any game's.
pub const MAX_BINS: usize = 1 << 20;

/// A histogram as a file holds it, before it is checked to be one.
#[derive(serde::Deserialize)]
struct Bins {
    min: i64,
    counts: Vec<u64>,
}

impl TryFrom<Bins> for Histogram {
    type Error = String;

    /// A histogram from a file: at least one bin, at most [`MAX_BINS`], and its values within
    /// `i64`.
    fn try_from(b: Bins) -> Result<Self, String> {
        let fits = i64::try_from(b.counts.len())
            .ok()
            .and_then(|n| b.min.checked_add(n - 1))
            .is_some();
        if b.counts.is_empty() || b.counts.len() > MAX_BINS || !fits {
            return Err(format!(
                "a histogram from {} with {} bins is none sim writes",
                b.min,
                b.counts.len()
            ));
        }
        Ok(Self {
            min: b.min,
            counts: b.counts,
        })
    }
}

impl Histogram {
    /// An empty histogram over `min..=max`.
    pub fn new(min: i64, max: i64) -> Self {
        assert!(max >= min);
        Self {
            min,
            counts: vec![0; (max - min + 1) as usize],
        }
    }

    /// Counts one occurrence of `value`. A value in range takes one comparison (below `min` its
    /// offset wraps to past the end); one outside is clamped out of line.
    #[inline]
    pub fn add(&mut self, value: i64) {
        let i = value.wrapping_sub(self.min) as usize;
        match self.counts.get_mut(i) {
            Some(count) => *count += 1,
            None => self.add_clamped(value),
        }
    }

    /// [`Histogram::add`] of a value outside `min..=max`: counted at the nearer end.
    #[cold]
    #[inline(never)]
    fn add_clamped(&mut self, value: i64) {
        let last = self.counts.len() as i64 - 1;
        let i = value.saturating_sub(self.min).clamp(0, last) as usize;
        self.counts[i] += 1;
    }

    /// True if `other` counts the same range of values (so the two merge).
    pub fn same_range(&self, other: &Histogram) -> bool {
        (self.min, self.counts.len()) == (other.min, other.counts.len())
    }

    /// Adds another histogram over the same range.
    pub fn merge(&mut self, other: &Histogram) {
        if let Err(e) = self.try_merge("a", other) {
            panic!("{e}");
        }
    }

    /// Adds another histogram, refusing (`name` names it) one over another range or a count
    /// that would pass `u64::MAX`: what adds up histograms read from files.
    pub fn try_merge(&mut self, name: &str, other: &Histogram) -> Result<(), String> {
        if !self.same_range(other) {
            return Err(format!(
                "the {name} histogram counts values {}..={}, the other's {}..={}",
                self.min,
                self.max(),
                other.min,
                other.max()
            ));
        }
        for (a, &b) in self.counts.iter_mut().zip(&other.counts) {
            *a = a.checked_add(b).ok_or_else(|| {
                format!("the {name} histogram overflows: {a} + {b} is more than a count can hold")
            })?;
        }
        Ok(())
    }

    /// The (value, count) pairs with a non-zero count, in increasing value.
    pub fn nonzero(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| (self.min + i as i64, c))
    }

    /// The number of values counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The number of values counted, without overflow whatever the counts (a tally read from a
    /// file is checked with it).
    pub fn exact_total(&self) -> u128 {
        self.counts.iter().map(|&c| u128::from(c)).sum()
    }

    /// The number of values counted that `keep` keeps.
    pub fn count_where(&self, keep: impl Fn(i64) -> bool) -> u64 {
        self.nonzero()
            .filter(|&(v, _)| keep(v))
            .fold(0u64, |a, (_, c)| a.saturating_add(c))
    }

    /// The largest value the histogram counts (its last bin).
    pub fn max(&self) -> i64 {
        self.min + self.counts.len() as i64 - 1
    }

    /// The mean of the values counted (clamped values as clamped), 0 if none.
    pub fn mean(&self) -> f64 {
        let total = self.exact_total();
        if total == 0 {
            return 0.0;
        }
        self.value_sum() as f64 / total as f64
    }

    /// The sum of the values counted (clamped values as clamped), exact whatever the counts.
    pub fn value_sum(&self) -> i128 {
        self.nonzero().fold(0i128, |sum, (v, c)| {
            sum.saturating_add(i128::from(v) * i128::from(c))
        })
    }
}

/// `sum` spread over `games` games: a tally's mean, 0 before any game.
pub fn per_game(sum: f64, games: u64) -> f64 {
    if games == 0 { 0.0 } else { sum / games as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_clamps_and_merges() {
        let mut h = Histogram::new(-2, 3);
        for v in [-5, -2, 0, 0, 3, 9] {
            h.add(v);
        }
        let mut g = Histogram::new(-2, 3);
        g.add(1);
        h.merge(&g);
        assert_eq!(
            h.nonzero().collect::<Vec<_>>(),
            vec![(-2, 2), (0, 2), (1, 1), (3, 2)]
        );
        assert_eq!(h.total(), 7);
        assert_eq!(h.mean(), (-2.0 * 2.0 + 1.0 + 3.0 * 2.0) / 7.0);
        assert_eq!(Histogram::new(0, 3).mean(), 0.0);
    }

    #[test]
    fn adds_in_range_and_clamped_are_the_plain_clamp() {
        // Every value around and far outside a few ranges, the extremes of `i64` included,
        // against clamping every value to the range first.
        for (min, max) in [(-2, 3), (0, 0), (5, 9), (-40, -39)] {
            let mut h = Histogram::new(min, max);
            let mut want = vec![0u64; (max - min + 1) as usize];
            let values = (min - 70..=max + 70).chain([i64::MIN, i64::MIN + 1, i64::MAX]);
            for v in values {
                h.add(v);
                want[(v.clamp(min, max) - min) as usize] += 1;
            }
            assert_eq!(h.counts, want, "{min}..={max}");
        }
    }

    #[test]
    fn merges_refuse_an_overflow_and_files_refuse_impossible_bins() {
        let mut h = Histogram::new(0, 1);
        h.counts[1] = u64::MAX;
        let mut g = Histogram::new(0, 1);
        g.add(1);
        assert!(
            h.try_merge("final_hp", &g)
                .unwrap_err()
                .contains("final_hp")
        );
        assert!(h.try_merge("x", &Histogram::new(0, 2)).is_err());
        for text in [
            r#"{"min":0,"counts":[]}"#,
            r#"{"min":9223372036854775807,"counts":[1,2]}"#,
        ] {
            assert!(serde_json::from_str::<Histogram>(text).is_err(), "{text}");
        }
        let ok: Histogram = serde_json::from_str(r#"{"min":-2,"counts":[1,0,3]}"#).unwrap();
        assert_eq!(ok.value_sum(), -2);
    }
}
