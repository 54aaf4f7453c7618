//! Time per decision of the search players: per game in the outcome, over a run in the tally.
//!
//! The time is the deciding thread's CPU time ([`cpu_now`]), so that a loaded machine's waits
//! do not count; it is still the one output that differs from run to run (with the machine,
//! its load, its caches); every other output is a function of the seed. Times are kept in bins of a twentieth
//! of a decade: bin `k` holds decisions of `10^(k/20)` to `10^((k+1)/20)` microseconds (12%
//! wide), `k` from [`FIRST_BIN`] (10 µs, faster ones counted there) to [`LAST_BIN`] (about
//! 0.9 s, slower ones counted there).

use std::time::Duration;

use crate::stats::histogram::Histogram;

/// The CPU time the calling thread has used so far.
pub fn cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for clock_gettime to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    debug_assert_eq!(rc, 0);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The first bin: 10 µs and faster.
pub const FIRST_BIN: i64 = 20;
/// The last bin: 10^(119/20) µs (0.89 s) and slower.
pub const LAST_BIN: i64 = 119;
const BINS: usize = (LAST_BIN - FIRST_BIN + 1) as usize;

/// The search players' decision times in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Think {
    /// Decisions timed.
    pub decisions: u16,
    /// Their total time in microseconds.
    pub micros: u64,
    /// Decisions per bin (saturating).
    pub bins: [u8; BINS],
}

impl Default for Think {
    fn default() -> Self {
        Self {
            decisions: 0,
            micros: 0,
            bins: [0; BINS],
        }
    }
}

/// The bin of a time of `micros` microseconds.
pub fn bin(micros: f64) -> i64 {
    ((20.0 * micros.max(1.0).log10()).floor() as i64).clamp(FIRST_BIN, LAST_BIN)
}

impl Think {
    /// Counts one decision that took `time`.
    pub fn add(&mut self, time: Duration) {
        let us = time.as_secs_f64() * 1e6;
        self.decisions = self.decisions.saturating_add(1);
        self.micros += us.round() as u64;
        let b = &mut self.bins[(bin(us) - FIRST_BIN) as usize];
        *b = b.saturating_add(1);
    }

    /// Adds another player's times in the same game.
    pub fn merge(&mut self, other: &Think) {
        self.decisions = self.decisions.saturating_add(other.decisions);
        self.micros += other.micros;
        for (a, b) in self.bins.iter_mut().zip(other.bins) {
            *a = a.saturating_add(b);
        }
    }
}

/// Decision times over many games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ThinkTally {
    decisions: u64,
    micros: u64,
    bins: Histogram,
}

impl Default for ThinkTally {
    fn default() -> Self {
        Self {
            decisions: 0,
            micros: 0,
            bins: Histogram::new(FIRST_BIN, LAST_BIN),
        }
    }
}

impl ThinkTally {
    /// Counts one game's times.
    #[inline]
    pub fn record(&mut self, t: &Think) {
        if t.decisions == 0 {
            return;
        }
        self.decisions += u64::from(t.decisions);
        self.micros += t.micros;
        for (k, &n) in t.bins.iter().enumerate() {
            for _ in 0..n {
                self.bins.add(FIRST_BIN + k as i64);
            }
        }
    }

    /// Adds another tally, refusing a count that would pass `u64::MAX`.
    pub fn try_merge(&mut self, other: &Self) -> crate::games::invariants::Check {
        use crate::games::invariants::add;
        add("timed decisions", &mut self.decisions, other.decisions)?;
        add("decision micros", &mut self.micros, other.micros)?;
        self.bins.try_merge("decision_time_bin", &other.bins)
    }

    /// Checks the times of a tally of games that made `decisions` decisions: no more decisions
    /// timed than made, no more binned than timed.
    pub fn check(&self, decisions: u64) -> crate::games::invariants::Check {
        use crate::games::invariants::at_most;
        at_most(
            ("timed decisions", self.decisions),
            ("decisions", decisions),
        )?;
        let binned = u64::try_from(self.bins.exact_total()).unwrap_or(u64::MAX);
        at_most(
            ("binned decision times", binned),
            ("timed decisions", self.decisions),
        )
    }

    /// Mean milliseconds per timed decision (0 if none).
    pub fn mean_ms(&self) -> f64 {
        crate::stats::histogram::per_game(self.micros as f64 / 1000.0, self.decisions)
    }

    /// The 99th percentile in milliseconds: the upper edge of the bin where it falls (0 if no
    /// decision was timed).
    pub fn p99_ms(&self) -> f64 {
        let total = self.bins.total();
        if total == 0 {
            return 0.0;
        }
        let want = (total * 99).div_ceil(100);
        let mut seen = 0;
        for (k, n) in self.bins.nonzero() {
            seen += n;
            if seen >= want {
                return 10f64.powf((k + 1) as f64 / 20.0) / 1000.0;
            }
        }
        unreachable!("the counts add up to the total")
    }

    /// The histogram of bins.
    pub fn histogram(&self) -> &Histogram {
        &self.bins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_mean_and_p99() {
        assert_eq!(bin(1000.0), 60);
        assert_eq!(bin(1125.0), 61);
        assert_eq!(bin(0.1), FIRST_BIN);
        assert_eq!(bin(1e9), LAST_BIN);
        let mut t = Think::default();
        for _ in 0..99 {
            t.add(Duration::from_micros(1000));
        }
        t.add(Duration::from_micros(100_000));
        let mut tally = ThinkTally::default();
        tally.record(&t);
        assert!((tally.mean_ms() - (99.0 + 100.0) / 100.0).abs() < 1e-9);
        // 99 of 100 decisions in the 1 ms bin: its upper edge.
        assert!((tally.p99_ms() - 10f64.powf(61.0 / 20.0) / 1000.0).abs() < 1e-9);
        tally.record(&t);
        assert_eq!(tally.histogram().total(), 200);
    }
}
