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

impl GameRng {
    /// Shuffles `cards` uniformly (Fisher-Yates, from the end).
    ///
    /// Indices come four at a time from one 64-bit word (Brackett-Rozinsky and Lemire's batched
    /// ranged integers): multiplying the word by each bound in turn yields one index per bound,
    /// exactly uniform thanks to a final rejection test that fires less than once in 2^40 words
    /// for decks of at most 64 cards. A 40-card deck costs 10 words instead of 39.
    pub fn shuffle(&mut self, cards: &mut [u8]) {
        assert!(cards.len() <= 64, "shuffle takes at most 64 cards");
        let base = cards.as_mut_ptr();
        let mut left = cards.len() as u64;
        while left > 1 {
            // Bounds of 1 at the tail pick index 0, a swap of a card with itself.
            let bounds = [
                left,
                left - 1,
                left.saturating_sub(2),
                left.saturating_sub(3),
            ]
            .map(|b| b.max(1));
            let product = bounds[0] * bounds[1] * bounds[2] * bounds[3];
            let picks = loop {
                let mut word = self.next_u64();
                let picks = bounds.map(|bound| {
                    let m = u128::from(word) * u128::from(bound);
                    word = m as u64;
                    (m >> 64) as usize
                });
                if word >= product || word >= product.wrapping_neg() % product {
                    break picks;
                }
            };
            for (bound, pick) in bounds.into_iter().zip(picks) {
                // SAFETY: `pick < bound <= left <= cards.len()`, so both positions are in `cards`.
                unsafe { std::ptr::swap(base.add(bound as usize - 1), base.add(pick)) };
            }
            left = left.saturating_sub(4);
        }
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

    #[test]
    fn shuffle_gives_every_order_of_four_equally() {
        // 24 orders, 240,000 shuffles: chi-square with 23 degrees of freedom, 0.999 quantile 49.73.
        let mut counts = std::collections::HashMap::new();
        let shuffles = 240_000u64;
        for game in 0..shuffles {
            let mut cards = [0u8, 1, 2, 3];
            GameRng::new(5, game, 0).shuffle(&mut cards);
            *counts.entry(cards).or_insert(0u64) += 1;
        }
        assert_eq!(counts.len(), 24);
        let expected = shuffles as f64 / 24.0;
        let chi2: f64 = counts
            .values()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 49.73, "chi2 = {chi2}");
    }

    #[test]
    fn shuffle_puts_each_card_everywhere_equally_in_a_long_deck() {
        // Position of card 0 in a 40-card deck over 400,000 shuffles (crosses batch boundaries).
        let mut at = [0u64; 40];
        for game in 0..400_000u64 {
            let mut cards: Vec<u8> = (0..40).collect();
            GameRng::new(6, game, 1).shuffle(&mut cards);
            at[cards.iter().position(|&c| c == 0).unwrap()] += 1;
        }
        // 39 degrees of freedom, 0.999 quantile 72.05.
        let chi2: f64 = at
            .iter()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi2 < 72.05, "chi2 = {chi2}, {at:?}");
    }
}
