//! A bound on the value of a group of plays that all leave one card: at least [`After::value`](super::After::value)
//! of any living hero with HP at most the bound's, a weapon no larger, a limit no higher, read
//! from the dungeon's summary without preparing the scorer of those plays
//! ([`Weights::bound_after`]), and the same for four groups at once
//! ([`Weights::bounds_after`]).
//!
//! Two versions, the same floats to the bit: on x86-64 in SSE2 lanes, one group a lane
//! ([`Weights::bounds_after`]'s `bounds_in_lanes`: the projection's operations in the same
//! order, so each lane rounds as the plain one does); [`Weights::bound_after`], group by group,
//! compiled on every target: what other targets run, and what the tests of `evaluate` hold the
//! lanes to.

use super::super::card;
use super::super::features::Summary;
use super::Weights;

impl Weights {
    /// At least [`After::value`] of any living hero with HP at most `hp` holding a weapon of
    /// value at most `weapon` (0 for none) that may be used on monsters up to `limit` at most,
    /// for either `(hp, limit)` of `ends`, leaving `left` (0 for none) with the dungeon of
    /// `ready` to come, for [monotone weights](Evaluation::monotone_weights): what a weapon
    /// absorbs never falls as its value or limit rises, and the value never falls as HP or what
    /// is absorbed rises. Read from the summary, without preparing the scorer of those plays
    /// (they may never be scored).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    pub fn bound_after(&self, ready: &Summary, left: u8, weapon: u8, ends: [(i16, u8); 2]) -> f32 {
        let a = ready.after(left);
        let fixed = self.fixed(a.potions(), a.value_to(15), a.weapons());
        let [first, second] =
            ends.map(|(hp, limit)| self.on(&fixed, f32::from(hp), a.absorbed(weapon, limit)));
        first.max(second)
    }

    /// [`Weights::bound_after`] of four plays at once (by play: the card left, the weapon, the
    /// two ends), the same values: on x86-64 in SSE2 lanes, one play a lane.
    #[inline(always)]
    pub fn bounds_after(
        &self,
        ready: &Summary,
        lefts: [u8; 4],
        weapons: [u8; 4],
        ends: [[(i16, u8); 2]; 4],
    ) -> [f32; 4] {
        #[cfg(target_arch = "x86_64")]
        {
            self.bounds_in_lanes(ready, lefts, weapons, ends)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            core::array::from_fn(|k| self.bound_after(ready, lefts[k], weapons[k], ends[k]))
        }
    }

    /// [`Weights::bounds_after`] in SSE2 lanes: the summary's entries each end reads gathered
    /// play by play, the card left added by a compare of its value with the limits (as
    /// [`features::After`] does), what the weapon absorbs by a 16-bit multiply (a weapon of 15
    /// at most, times at most 15 monsters per value: no lane overflows), and the projection's
    /// operations in the same order on four lanes, so each lane rounds as the plain one does.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn bounds_in_lanes(
        &self,
        ready: &Summary,
        lefts: [u8; 4],
        weapons: [u8; 4],
        ends: [[(i16, u8); 2]; 4],
    ) -> [f32; 4] {
        use std::arch::x86_64::{
            __m128, __m128i, _mm_add_epi32, _mm_add_ps, _mm_and_si128, _mm_andnot_si128,
            _mm_cmpgt_epi32, _mm_cvtepi32_ps, _mm_loadu_si128, _mm_max_ps, _mm_mul_ps,
            _mm_mullo_epi16, _mm_set1_ps, _mm_setzero_ps, _mm_storeu_ps, _mm_sub_epi32, _mm_sub_ps,
        };
        // By play: the totals to come, the left card's value if a monster (else 0) and all ones
        // if it is one; by end and play: HP, and the entries of the limit and of the weapon's
        // value capped at the limit.
        let (mut potions, mut monsters, mut spares) = ([0i32; 4], [0i32; 4], [0i32; 4]);
        let (mut value, mut monster, mut weapon) = ([0i32; 4], [0i32; 4], [0i32; 4]);
        let (mut hp, mut limit, mut low) = ([[0i32; 4]; 2], [[0i32; 4]; 2], [[0i32; 4]; 2]);
        let (mut to_limit, mut to_low, mut value_to_low) =
            ([[0i32; 4]; 2], [[0i32; 4]; 2], [[0i32; 4]; 2]);
        for k in 0..4 {
            let a = ready.after(lefts[k]);
            potions[k] = a.potions() as i32;
            monsters[k] = a.value_to(15) as i32;
            spares[k] = a.weapons() as i32;
            let is_monster = (lefts[k] != 0) & card::is_monster(lefts[k]);
            value[k] = i32::from(card::value(lefts[k]));
            monster[k] = -i32::from(is_monster);
            weapon[k] = i32::from(weapons[k]);
            for e in 0..2 {
                let (end_hp, end_limit) = ends[k][e];
                let capped = end_limit.min(15);
                let below = weapons[k].min(capped);
                hp[e][k] = i32::from(end_hp);
                limit[e][k] = i32::from(capped);
                low[e][k] = i32::from(below);
                to_limit[e][k] = ready.monsters_to(capped).0 as i32;
                let (count, sum) = ready.monsters_to(below);
                (to_low[e][k], value_to_low[e][k]) = (count as i32, sum as i32);
            }
        }
        let mut out = [0.0f32; 4];
        // SAFETY: SSE2 is in the x86-64 baseline; each unaligned load reads one of the arrays of
        // four `i32` above, the store writes the four `f32` of `out`.
        unsafe {
            let load = |a: &[i32; 4]| _mm_loadu_si128(a.as_ptr().cast::<__m128i>());
            let float = |a: __m128i| _mm_cvtepi32_ps(a);
            let (value, monster, weapon) = (load(&value), load(&monster), load(&weapon));
            // All ones where the left card is a monster of value at most `x`.
            let counted = |x: __m128i| _mm_andnot_si128(_mm_cmpgt_epi32(value, x), monster);
            let fixed_potions = _mm_mul_ps(_mm_set1_ps(self.potion), float(load(&potions)));
            let fixed_monsters = float(load(&monsters));
            let fixed_weapons = _mm_mul_ps(_mm_set1_ps(self.spare), float(load(&spares)));
            let on = |e: usize| -> __m128 {
                let (at_limit, at_low) = (counted(load(&limit[e])), counted(load(&low[e])));
                // The counts less all ones (minus one) where the left card counts.
                let above = _mm_sub_epi32(
                    _mm_sub_epi32(load(&to_limit[e]), at_limit),
                    _mm_sub_epi32(load(&to_low[e]), at_low),
                );
                let absorbed = _mm_add_epi32(
                    _mm_add_epi32(load(&value_to_low[e]), _mm_and_si128(at_low, value)),
                    _mm_mullo_epi16(weapon, above),
                );
                let hp = float(load(&hp[e]));
                let danger = _mm_max_ps(
                    _mm_sub_ps(_mm_set1_ps(self.danger_hp), hp),
                    _mm_setzero_ps(),
                );
                _mm_sub_ps(
                    _mm_add_ps(
                        _mm_add_ps(
                            _mm_sub_ps(_mm_add_ps(hp, fixed_potions), fixed_monsters),
                            _mm_mul_ps(_mm_set1_ps(self.weapon), float(absorbed)),
                        ),
                        fixed_weapons,
                    ),
                    _mm_mul_ps(_mm_set1_ps(self.danger), danger),
                )
            };
            // `first.max(second)`: the second where it is larger, else the first.
            _mm_storeu_ps(out.as_mut_ptr(), _mm_max_ps(on(1), on(0)));
        }
        out
    }
}
