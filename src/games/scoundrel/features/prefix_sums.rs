//! The prefix sums the features read, by value `v`: the dungeon's monsters of value at most
//! `v` and their total value, with the totals of its potions and weapons and the best weapon to
//! come ([`Summary::of`]); and the monsters' sums with the card left in the room added from its
//! value up ([`After::monsters`]), so that a play's features are read without a loop.
//!
//! Two versions of each, the same integers: on x86-64 in SSE2 lanes (part of every x86-64
//! processor), sixteen values at once; value by value ([`Summary::plain`],
//! [`After::plain_monsters`]), compiled on every target: what other targets run, and what the
//! tests hold the lanes to.

use super::super::card::Counts;
use super::{After, Monsters, Summary};

impl Summary {
    /// The summary of `dungeon`: on x86-64 by SSE2 (part of every x86-64 processor), the
    /// sixteen values of a kind at once; elsewhere by [`Summary::plain`]. The same integers.
    #[inline]
    pub fn of(dungeon: &Counts) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            Self::lanes(dungeon)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self::plain(dungeon)
        }
    }

    /// [`Summary::of`] in SSE2 lanes: the counts widened to sixteen bits (a dungeon holds at
    /// most [`MAX_CARDS`](super::super::rules::MAX_CARDS) cards, of values up to 15: every sum fits),
    /// the prefix sums by three shifted adds per eight lanes, the totals by multiply-adds, the
    /// best weapon from the mask of the values counted.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn lanes(dungeon: &Counts) -> Self {
        use std::arch::x86_64::{
            __m128i, _mm_add_epi16, _mm_add_epi32, _mm_cmpgt_epi8, _mm_cvtsi128_si32,
            _mm_loadu_si128, _mm_madd_epi16, _mm_movemask_epi8, _mm_mullo_epi16, _mm_sad_epu8,
            _mm_setr_epi16, _mm_setzero_si128, _mm_shuffle_epi32, _mm_shufflehi_epi16,
            _mm_slli_si128, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpackhi_epi16,
            _mm_unpacklo_epi8, _mm_unpacklo_epi16,
        };
        let (mut count_to, mut value_to) = ([0u32; 16], [0u32; 16]);
        // SAFETY: SSE2 is in the x86-64 baseline; each unaligned load reads the 16 counts of
        // one kind, each unaligned store writes four of the 16 entries of a table.
        unsafe {
            let zero = _mm_setzero_si128();
            let load = |kind: &[u8; 16]| _mm_loadu_si128(kind.as_ptr().cast::<__m128i>());
            let (low_values, high_values) = (
                _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7),
                _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15),
            );
            // Eight sums in 16-bit lanes, each lane the sum of itself and the lanes below.
            let prefix = |x: __m128i| {
                let x = _mm_add_epi16(x, _mm_slli_si128::<2>(x));
                let x = _mm_add_epi16(x, _mm_slli_si128::<4>(x));
                _mm_add_epi16(x, _mm_slli_si128::<8>(x))
            };
            // Lane 7 in every lane.
            let last = |x: __m128i| _mm_shuffle_epi32::<0xFF>(_mm_shufflehi_epi16::<0xFF>(x));
            // The four 32-bit lanes added up.
            let total = |x: __m128i| {
                let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0x4E>(x));
                _mm_cvtsi128_si32(_mm_add_epi32(x, _mm_shuffle_epi32::<0xB1>(x))) as u32
            };
            // The value of the cards of a kind: its counts by their values.
            let weighted = |low: __m128i, high: __m128i| {
                total(_mm_add_epi32(
                    _mm_madd_epi16(low, low_values),
                    _mm_madd_epi16(high, high_values),
                ))
            };
            // How many cards of a kind: the 16 bytes' sum in the two halves.
            let cards = |kind: __m128i| {
                let halves = _mm_sad_epu8(kind, zero);
                (_mm_cvtsi128_si32(halves) + _mm_cvtsi128_si32(_mm_shuffle_epi32::<0x4E>(halves)))
                    as u32
            };
            let store = |to: &mut [u32; 16], low: __m128i, high: __m128i| {
                let p = to.as_mut_ptr().cast::<__m128i>();
                _mm_storeu_si128(p, _mm_unpacklo_epi16(low, zero));
                _mm_storeu_si128(p.add(1), _mm_unpackhi_epi16(low, zero));
                _mm_storeu_si128(p.add(2), _mm_unpacklo_epi16(high, zero));
                _mm_storeu_si128(p.add(3), _mm_unpackhi_epi16(high, zero));
            };
            let monsters = load(dungeon.monsters());
            let (low, high) = (
                _mm_unpacklo_epi8(monsters, zero),
                _mm_unpackhi_epi8(monsters, zero),
            );
            let (count_low, count_high) = (prefix(low), prefix(high));
            store(
                &mut count_to,
                count_low,
                _mm_add_epi16(count_high, last(count_low)),
            );
            let value_low = prefix(_mm_mullo_epi16(low, low_values));
            let value_high = prefix(_mm_mullo_epi16(high, high_values));
            store(
                &mut value_to,
                value_low,
                _mm_add_epi16(value_high, last(value_low)),
            );
            let (potions, weapons) = (load(dungeon.potions()), load(dungeon.weapons()));
            let wide =
                |kind: __m128i| (_mm_unpacklo_epi8(kind, zero), _mm_unpackhi_epi8(kind, zero));
            let ((p_low, p_high), (w_low, w_high)) = (wide(potions), wide(weapons));
            // The highest value counted (a count is under 128: a signed compare).
            let held = _mm_movemask_epi8(_mm_cmpgt_epi8(weapons, zero)) as u32;
            Self {
                count_to,
                value_to,
                potions: weighted(p_low, p_high),
                weapons: weighted(w_low, w_high),
                potion_cards: cards(potions),
                weapon_cards: cards(weapons),
                best: (31 - (held | 1).leading_zeros()) as u8,
            }
        }
    }

    /// [`Summary::of`] value by value.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn plain(dungeon: &Counts) -> Self {
        let (mut count_to, mut value_to) = ([0u32; 16], [0u32; 16]);
        let (mut n, mut total) = (0u32, 0u32);
        for (v, &k) in dungeon.monsters().iter().enumerate() {
            n += u32::from(k);
            total += u32::from(k) * v as u32;
            count_to[v] = n;
            value_to[v] = total;
        }
        let cards = |c: &[u8; 16]| c.iter().map(|&k| u32::from(k)).sum();
        Self {
            count_to,
            value_to,
            potions: dungeon.potion_total(),
            weapons: dungeon.weapon_total(),
            potion_cards: cards(dungeon.potions()),
            weapon_cards: cards(dungeon.weapons()),
            best: dungeon.best_weapon(),
        }
    }
}

impl After<'_> {
    /// The monsters to come as prefix sums (a dungeon's monsters total at most 16 times 15).
    #[inline(always)]
    pub fn monsters(&self) -> Monsters {
        #[cfg(target_arch = "x86_64")]
        {
            self.monsters_in_lanes()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.plain_monsters()
        }
    }

    /// [`After::monsters`] in SSE2 lanes: the summary's sums narrowed to sixteen bits (they fit:
    /// a signed saturating pack changes none), the left card added from its value up by a
    /// compare of the values with it.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn monsters_in_lanes(&self) -> Monsters {
        use std::arch::x86_64::{
            __m128i, _mm_add_epi16, _mm_and_si128, _mm_cmpgt_epi16, _mm_loadu_si128,
            _mm_packs_epi32, _mm_set1_epi16, _mm_setr_epi16, _mm_storeu_si128,
        };
        let mut folded = Monsters::default();
        // SAFETY: SSE2 is in the x86-64 baseline; each unaligned load reads four of the 16
        // entries of a summary's table, each unaligned store writes eight of a fold's 16.
        unsafe {
            // All ones in the lanes of values at least the left card's, if it is a monster.
            let value = i16::from(self.value);
            let from = _mm_set1_epi16(if self.monster { value - 1 } else { i16::MAX });
            let (low, high) = (
                _mm_cmpgt_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), from),
                _mm_cmpgt_epi16(_mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15), from),
            );
            let fold = |to: &mut [u16; 16], sums: &[u32; 16], add: __m128i| {
                let at = |k: usize| _mm_loadu_si128(sums.as_ptr().add(k).cast::<__m128i>());
                let (first, second) = (
                    _mm_packs_epi32(at(0), at(4)),
                    _mm_packs_epi32(at(8), at(12)),
                );
                let p = to.as_mut_ptr().cast::<__m128i>();
                _mm_storeu_si128(p, _mm_add_epi16(first, _mm_and_si128(low, add)));
                _mm_storeu_si128(p.add(1), _mm_add_epi16(second, _mm_and_si128(high, add)));
            };
            fold(
                &mut folded.count_to,
                &self.summary.count_to,
                _mm_set1_epi16(1),
            );
            fold(
                &mut folded.value_to,
                &self.summary.value_to,
                _mm_set1_epi16(value),
            );
        }
        folded
    }

    /// [`After::monsters`] value by value.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn plain_monsters(&self) -> Monsters {
        let (mut count_to, mut value_to) = ([0u16; 16], [0u16; 16]);
        let value = u16::from(self.value) * u16::from(self.monster);
        for x in 0..16 {
            // Branch-free: the left card counts from its value up.
            let counts = u16::from(self.monster & (usize::from(self.value) <= x));
            count_to[x] = self.summary.count_to[x] as u16 + counts;
            value_to[x] = self.summary.value_to[x] as u16 + value * counts;
        }
        Monsters { count_to, value_to }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::card;
    use super::*;
    use crate::games::scoundrel::hero::FRESH;

    /// The summary in lanes is the summary value by value, for dungeons of every size and the
    /// largest counts a rule set allows.
    #[test]
    fn the_summary_in_lanes_is_the_plain_one() {
        use crate::rng::GameRng;
        let rules = crate::games::scoundrel::Rules::default();
        let same = |a: &Summary, b: &Summary| {
            let fields = |s: &Summary| {
                let scalars = [s.potions, s.weapons, s.potion_cards, s.weapon_cards];
                (s.count_to, s.value_to, scalars, s.best)
            };
            fields(a) == fields(b)
        };
        for game in 0..2000u64 {
            let mut cards = rules.deck();
            GameRng::new(7, game, 0).shuffle(&mut cards);
            let dungeon = Counts::of(&cards[(game as usize) % 45..]);
            let (fast, slow) = (Summary::of(&dungeon), Summary::plain(&dungeon));
            assert!(same(&fast, &slow), "{dungeon:?}");
        }
        // Sixty cards, all of the highest values: the largest sums.
        for code in [card::monster(15), card::weapon(15), card::potion(15)] {
            let dungeon = Counts::of(&[code; 60]);
            assert!(same(&Summary::of(&dungeon), &Summary::plain(&dungeon)));
        }
    }

    #[test]
    fn the_folded_monsters_absorb_what_the_summary_with_the_left_card_does() {
        use crate::rng::GameRng;
        let rules = crate::games::scoundrel::Rules::default();
        for game in 0..500u64 {
            let mut cards = rules.deck();
            GameRng::new(5, game, 0).shuffle(&mut cards);
            let g = game as usize;
            let cut = g % 44;
            let summary = Summary::of(&Counts::of(&cards[cut + 1..]));
            let left = if g.is_multiple_of(7) { 0 } else { cards[cut] };
            let (after, folded) = (summary.after(left), summary.after(left).monsters());
            assert_eq!(folded, after.plain_monsters(), "{left:#x}");
            for w in 0..16 {
                for limit in (0..16).chain([FRESH]) {
                    assert_eq!(folded.absorbed(w, limit), after.absorbed(w, limit));
                }
            }
        }
    }
}
