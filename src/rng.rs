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

/// What every generator of one game starts from: the mix of the run's seed and the game's index.
/// A game with several chance streams works it out once for all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameKey(u64);

impl GameKey {
    /// The key of game `game` in a run seeded with `seed`.
    #[inline]
    pub fn new(seed: u64, game: u64) -> Self {
        Self(splitmix64(splitmix64(seed) ^ game))
    }

    /// The generator for chance source `stream` of this game.
    #[inline]
    pub fn stream(self, stream: u64) -> GameRng {
        let b = splitmix64(self.0 ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let state = (u128::from(splitmix64(b)) << 64) | u128::from(b);
        GameRng {
            inner: Pcg64Mcg::new(state),
        }
    }
}

impl GameRng {
    /// The generator for chance source `stream` of game `game` in a run seeded with `seed`.
    pub fn new(seed: u64, game: u64, stream: u64) -> Self {
        GameKey::new(seed, game).stream(stream)
    }

    /// A generator for a caller that needs one it never draws from (a policy without coin
    /// flips): a fixed state, free to build. Drawing from it gives the same numbers every time.
    pub fn unused() -> Self {
        Self {
            inner: Pcg64Mcg::new(0x2545_f491_4f6c_dd1d_0000_0000_0000_0001),
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

/// Fisher-Yates indices drawn from one 64-bit word: eight bounds of at most 64 multiply to at most
/// 2^48, so the word's rejection test (see [`GameRng::picks`]) almost never needs its slow path.
const PICKS: usize = 8;

/// The product of the bounds of a shuffle block's [`PICKS`] picks when `left` cards are still to
/// place, for `left` up to 64: `left`, `left - 1`, ... with bounds below 1 counted as 1 (in the
/// last block, the positions past the last card).
const BLOCK_PRODUCTS: [u64; 65] = {
    let mut products = [1u64; 65];
    let mut left = 0;
    while left <= 64 {
        let mut k = 0;
        while k < PICKS {
            if left > k {
                products[left] *= (left - k) as u64;
            }
            k += 1;
        }
        left += 1;
    }
    products
};

impl GameRng {
    /// `K` independent uniform integers, the `k`-th in `0..bounds[k]`, from one 64-bit word
    /// (Brackett-Rozinsky and Lemire's batched ranged integers). The bounds must be positive and
    /// their product at most 2^48.
    ///
    /// Multiplying the word by each bound in turn yields one index per bound (the high half) and
    /// the fraction left for the next (the low half). Together the indices are the word scaled to
    /// one mixed-radix integer below the product of the bounds, which is exactly Lemire's
    /// multiply-shift for that product: rejecting a word whose final fraction is below
    /// `2^64 mod product` makes every combination equally likely. That remainder is below the
    /// product, hence below 2^48, so a fraction of 2^48 or more is accepted at once; only one word
    /// in 2^16 needs the exact test.
    #[cfg(test)]
    fn picks<const K: usize>(&mut self, bounds: [u64; K]) -> [u64; K] {
        let mut word = self.accepted_word(bounds.iter().product());
        bounds.map(|bound| Self::pick(&mut word, bound))
    }

    /// The next word that passes the rejection test of [`GameRng::picks`] for bounds whose
    /// product is `product`. The final fraction of the picks is the word times the product (mod
    /// 2^64), so the test comes before the picks.
    #[inline(always)]
    fn accepted_word(&mut self, product: u64) -> u64 {
        loop {
            let word = self.next_u64();
            let fraction = word.wrapping_mul(product);
            if fraction >> 48 != 0 || Self::fraction_accepted(fraction, product) {
                return word;
            }
        }
    }

    /// One pick of [`GameRng::picks`]: the index in `0..bound` from the fraction `word`, which
    /// becomes the fraction left for the next.
    #[inline(always)]
    fn pick(word: &mut u64, bound: u64) -> u64 {
        let m = u128::from(*word) * u128::from(bound);
        *word = m as u64;
        (m >> 64) as u64
    }

    /// The exact rejection test of [`GameRng::picks`], for fractions below 2^48.
    #[cold]
    #[inline(never)]
    fn fraction_accepted(fraction: u64, product: u64) -> bool {
        debug_assert!(product > 0 && product <= 1 << 48);
        fraction >= product.wrapping_neg() % product
    }

    /// Shuffles `cards` uniformly: Fisher-Yates from the front, `PICKS` (8) indices per word.
    ///
    /// A 40-card deck costs 5 words.
    pub fn shuffle(&mut self, cards: &mut [u8]) {
        assert!(cards.len() <= 64, "shuffle takes at most 64 cards");
        let len = cards.len();
        let base = cards.as_mut_ptr();
        // Swaps the card at `at` with the one `pick` places after it.
        let swap = |at: usize, pick: u64| {
            // SAFETY: the callers keep `at < len` and `pick < len - at`, so both positions are in
            // `cards`.
            unsafe { std::ptr::swap(base.add(at), base.add(at + pick as usize)) };
        };
        let mut first = 0;
        // Whole blocks: each of their positions has at least two cards to choose from.
        while first + PICKS < len {
            let left = len - first;
            let mut word = self.accepted_word(BLOCK_PRODUCTS[left]);
            for k in 0..PICKS {
                swap(first + k, Self::pick(&mut word, (left - k) as u64));
            }
            first += PICKS;
        }
        // The last block: its word is accepted for the product of a whole block whose positions
        // past the last card have bound 1; such a pick is always 0 (a swap of the last card with
        // itself), so only the positions before the last card are picked.
        if first + 1 < len {
            let left = len - first;
            let mut word = self.accepted_word(BLOCK_PRODUCTS[left]);
            for k in 0..left - 1 {
                swap(first + k, Self::pick(&mut word, (left - k) as u64));
            }
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

    /// Fisher-Yates from the front as [`GameRng::shuffle`] specifies it, written plainly: each
    /// block of [`PICKS`] positions takes one word's picks, a position past the last card
    /// clamped to it with bound 1.
    fn shuffle_by_blocks(rng: &mut GameRng, cards: &mut [u8]) {
        let len = cards.len();
        let mut first = 0;
        while first + 1 < len {
            let at = |k: usize| (first + k).min(len - 1);
            let bounds: [u64; PICKS] = std::array::from_fn(|k| (len - at(k)) as u64);
            let picks = rng.picks(bounds);
            for (k, pick) in picks.into_iter().enumerate() {
                cards.swap(at(k), at(k) + pick as usize);
            }
            first += PICKS;
        }
    }

    #[test]
    fn shuffle_is_the_block_by_block_fisher_yates_at_every_length() {
        for len in 0..=64u8 {
            for game in 0..300 {
                let (mut fast, mut plain) = (GameRng::new(3, game, 0), GameRng::new(3, game, 0));
                let mut cards: Vec<u8> = (0..len).collect();
                let mut want = cards.clone();
                fast.shuffle(&mut cards);
                shuffle_by_blocks(&mut plain, &mut want);
                assert_eq!(cards, want, "{len} cards, game {game}");
                // The same words drawn: the generators are left alike.
                assert_eq!(
                    fast.next_u64(),
                    plain.next_u64(),
                    "{len} cards, game {game}"
                );
            }
        }
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

    /// Chi-square statistic of `counts` against equal expectations.
    fn chi2_uniform(counts: &[u64]) -> f64 {
        let expected = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn a_full_batch_of_picks_is_jointly_uniform_down_to_its_last_pick() {
        // Eight bounds of 64: the last pick comes from the word's bits below the top 42, so a
        // generator weak in its low bits would show here. Joint counts of the first and the last
        // pick over the first word of fresh generators, as games use them: 4,095 degrees of
        // freedom, 0.999 quantile 4,380.
        let mut joint = vec![0u64; 64 * 64];
        for game in 0..409_600u64 {
            let picks = GameRng::new(9, game, 1).picks([64u64; 8]);
            joint[picks[0] as usize * 64 + picks[7] as usize] += 1;
        }
        let chi2 = chi2_uniform(&joint);
        assert!(chi2 < 4380.0, "chi2 = {chi2}");
        // Small bounds, every combination: 863 degrees of freedom, 0.999 quantile 997.
        let bounds = [2u64, 3, 2, 3, 2, 3, 2, 2];
        let mut cells = vec![0u64; 864];
        let mut rng = GameRng::new(9, 0, 2);
        for _ in 0..432_000 {
            let cell = rng
                .picks(bounds)
                .iter()
                .zip(bounds)
                .fold(0, |cell, (&p, b)| cell * b + p);
            cells[cell as usize] += 1;
        }
        let chi2 = chi2_uniform(&cells);
        assert!(chi2 < 997.0, "chi2 = {chi2}");
    }

    #[test]
    fn shuffle_puts_every_card_everywhere_equally_in_a_long_deck() {
        // Card by position over 100,000 shuffles of 40 distinct cards, each from a fresh
        // generator: 1,600 cells whose squared deviations sum to 1,560 on average; 0.999
        // quantile of chi-square with 1,560 degrees of freedom 1,738.
        let mut at = vec![0u64; 40 * 40];
        for game in 0..100_000u64 {
            let mut cards: Vec<u8> = (0..40).collect();
            GameRng::new(4, game, 1).shuffle(&mut cards);
            for (position, &card) in cards.iter().enumerate() {
                at[usize::from(card) * 40 + position] += 1;
            }
        }
        let chi2 = chi2_uniform(&at);
        assert!(chi2 < 1738.0, "chi2 = {chi2}");
    }
}
