//! Seeded generators: one independent generator per (seed, game index, chance stream).
//!
//! Game `i` of a run with seed `s` draws from generators built from a SplitMix64 mix of
//! `(s, i, stream)`, so a game's cards depend on nothing else: not on the thread that plays it,
//! not on the chunking, not on the policy. Two policies run on the same seed therefore face the
//! very same deals (common random numbers).

use rand_core::Rng;
use rand_pcg::Pcg64Mcg;

/// SplitMix64's finalizer: a bijective mix of 64 bits with full avalanche.
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fast generator for one chance source of one game.
#[derive(Clone, Debug)]
pub struct GameRng {
    inner: Pcg64Mcg,
}

impl GameRng {
    /// The generator for chance source `stream` of game `game` in a run seeded with `seed`.
    pub fn new(seed: u64, game: u64, stream: u64) -> Self {
        let a = splitmix64(splitmix64(seed) ^ game);
        let b = splitmix64(a ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let state = (u128::from(splitmix64(b)) << 64) | u128::from(b);
        Self {
            inner: Pcg64Mcg::new(state),
        }
    }

    /// 64 uniformly random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift with rejection, so exactly uniform).
    ///
    /// `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_inputs_same_stream_and_different_inputs_differ() {
        let a: Vec<u64> = (0..4).map(|_| GameRng::new(7, 3, 1).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let x = GameRng::new(7, 3, 1).next_u64();
        assert_ne!(x, GameRng::new(7, 3, 2).next_u64());
        assert_ne!(x, GameRng::new(7, 4, 1).next_u64());
        assert_ne!(x, GameRng::new(8, 3, 1).next_u64());
    }

    #[test]
    fn below_is_uniform_over_small_ranges() {
        let mut rng = GameRng::new(1, 2, 3);
        let n = 10u64;
        let draws = 200_000u64;
        let mut counts = [0u64; 10];
        for _ in 0..draws {
            counts[rng.below(n) as usize] += 1;
        }
        // Chi-square with 9 degrees of freedom: 27.88 is the 0.999 quantile.
        let expected = draws as f64 / n as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 27.88, "chi2 = {chi2}, counts = {counts:?}");
    }
}
