//! The heuristic's step 1 scores: every play of a decision scored by the weighted sum of the
//! heuristic's module notes (a kill's score, any other play's, a Jester's `jester`), and the
//! first play of the best score found.
//!
//! Two versions, the same scores bit for bit. On x86-64, four plays at a time in the lanes of
//! SSE2 registers (part of every x86-64 processor; `sse2` below): each lane does the float
//! operations of [`plain::score`] in the same order on the same values (SSE's lane-wise
//! products and sums round as its scalar ones do); the integer terms are worked out in the
//! lanes too (no conversion per term and play, no branch), and the first play of the best score
//! is kept lane by lane, then across lanes ([`super::lanes`]). [`plain`], play by play without
//! branches, is compiled on every target: what other targets run, and what the tests hold the
//! lanes to.

use super::super::moves::Play;
use super::{Heuristic, Spot};

#[cfg(target_arch = "x86_64")]
pub(super) use sse2::WeightLanes;

/// The best score of `plays` at `spot` under the heuristic's weights and the index of the first
/// play that has it (`(-inf, usize::MAX)` for no play).
#[inline]
pub(super) fn best(h: &Heuristic, spot: &Spot, plays: &[Play]) -> (f32, usize) {
    #[cfg(target_arch = "x86_64")]
    return sse2::best(&h.lanes, spot, plays);
    #[cfg(not(target_arch = "x86_64"))]
    return plain::best(&h.weights, spot, plays);
}

/// Play by play: the other targets' scores, and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) mod plain {
    use std::hint::select_unpredictable;

    use super::super::super::card::{CLUBS, DIAMONDS, HEARTS, SPADES};
    use super::super::super::moves::Play;
    use super::super::{Spot, Weights};

    /// [`super::best`], one play after another, the best kept without a branch.
    #[inline]
    pub fn best(w: &Weights, spot: &Spot, plays: &[Play]) -> (f32, usize) {
        let mut top = (f32::NEG_INFINITY, usize::MAX);
        for (i, p) in plays.iter().enumerate() {
            let s = if p.is_jester() {
                w.jester
            } else {
                score(w, spot, p)
            };
            top = select_unpredictable(s > top.0, (s, i), top);
        }
        top
    }

    /// The score of a non-Jester play `p` at `spot` (the terms of `simple`). Both the kill's
    /// and the other score are worked out and one is kept, without a branch: whether a play
    /// kills is data a branch predictor cannot guess.
    #[inline]
    pub fn score(w: &Weights, spot: &Spot, p: &Play) -> f32 {
        let works = u32::from(p.suits) & !spot.immune;
        let value = p.value;
        let has = |suit: u8| (works >> suit & 1) as u16;
        let dmg = value << has(CLUBS);
        let gain = value * has(SPADES);
        let draws = value.min(spot.tavern).min(spot.free + u16::from(p.count)) * has(DIAMONDS);
        let heals = value.min(spot.discard) * has(HEARTS);
        let powers =
            w.draw * f32::from(draws) + w.heal * f32::from(heals) - w.spend * f32::from(value);
        let over = f32::from(dmg.saturating_sub(spot.remaining));
        // A kill's base score, `kill + 0.0` and `kill + exact` for an exact kill (as the lanes
        // hold them).
        let base = [w.kill + 0.0, w.kill + w.exact];
        let kill = base[usize::from(dmg == spot.remaining)] - w.overkill * over + powers;
        let need = spot.need.saturating_sub(gain);
        let dmg = f32::from(dmg);
        let other = w.damage * dmg
            + w.shield * f32::from(gain)
            + powers
            + w.defence(spot, spot.hand_value - value, need);
        if dmg >= f32::from(spot.remaining) {
            kill
        } else {
            other
        }
    }
}

/// Four plays at a time in SSE2 lanes.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128, __m128i, _mm_add_epi32, _mm_add_ps, _mm_and_si128, _mm_castsi128_ps,
        _mm_cmpeq_epi32, _mm_cmpgt_epi32, _mm_cvtepi32_ps, _mm_min_epi16, _mm_mul_ps,
        _mm_set1_epi32, _mm_set1_ps, _mm_setr_epi32, _mm_slli_epi32, _mm_srai_epi32,
        _mm_srli_epi32, _mm_sub_epi32, _mm_sub_ps, _mm_subs_epu16,
    };

    use super::super::super::card::{CLUBS, DIAMONDS, HEARTS, SPADES};
    use super::super::super::moves::Play;
    use super::super::lanes::{FirstBest, select};
    use super::super::{Spot, Weights};

    /// A play's value, suits and card count in one lane: `value | suits << 16 | count << 24`.
    #[inline(always)]
    fn word(p: &Play) -> i32 {
        (u32::from(p.value) | u32::from(p.suits) << 16 | u32::from(p.count) << 24) as i32
    }

    /// All ones in the lanes whose working suits (bits 16 to 19 of `works`) hold the suit whose
    /// bit a shift left by `UP` (15 less the suit) takes to the top, zeros elsewhere.
    #[target_feature(enable = "sse2")]
    #[inline]
    fn holds<const UP: i32>(works: __m128i) -> __m128i {
        _mm_srai_epi32::<31>(_mm_slli_epi32::<UP>(works))
    }

    /// `x` in every lane.
    #[target_feature(enable = "sse2")]
    #[inline]
    fn int(x: u16) -> __m128i {
        _mm_set1_epi32(i32::from(x))
    }

    /// The weights the lanes use, each in every lane: worked out once per weight set and held by
    /// the heuristic ([`Heuristic`](super::super::Heuristic)), not at every decision.
    #[derive(Clone, Copy, Debug)]
    pub struct WeightLanes {
        /// A kill's base score, `kill + 0.0` and `kill + exact` (as [`Spot`]'s).
        kill: [__m128; 2],
        overkill: __m128,
        spend: __m128,
        draw: __m128,
        heal: __m128,
        damage: __m128,
        shield: __m128,
        /// `-discard`, as `-self.discard * x` negates before the product.
        neg_discard: __m128,
        /// The weight of a point short, `short` and `short_jester` (while a set-aside Jester is
        /// left).
        short: [__m128; 2],
        margin: __m128,
        jester: __m128,
    }

    impl WeightLanes {
        /// The lanes of `w`.
        pub fn of(w: &Weights) -> Self {
            // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline).
            unsafe { Self::of_sse2(w) }
        }

        #[target_feature(enable = "sse2")]
        fn of_sse2(w: &Weights) -> Self {
            Self {
                kill: [_mm_set1_ps(w.kill + 0.0), _mm_set1_ps(w.kill + w.exact)],
                overkill: _mm_set1_ps(w.overkill),
                spend: _mm_set1_ps(w.spend),
                draw: _mm_set1_ps(w.draw),
                heal: _mm_set1_ps(w.heal),
                damage: _mm_set1_ps(w.damage),
                shield: _mm_set1_ps(w.shield),
                neg_discard: _mm_set1_ps(-w.discard),
                short: [_mm_set1_ps(w.short), _mm_set1_ps(w.short_jester)],
                margin: _mm_set1_ps(w.margin),
                jester: _mm_set1_ps(w.jester),
            }
        }
    }

    /// Everything the lanes share at one decision, each in every lane.
    struct SpotLanes<'a> {
        /// The suits that work against the enemy, at bits 16 to 19.
        works: __m128i,
        remaining: __m128i,
        need: __m128i,
        hand_value: __m128i,
        free: __m128i,
        tavern: __m128i,
        discard: __m128i,
        /// The weight of a point short here.
        short: &'a __m128,
        w: &'a WeightLanes,
    }

    impl<'a> SpotLanes<'a> {
        #[target_feature(enable = "sse2")]
        #[inline]
        fn of(w: &'a WeightLanes, spot: &Spot) -> Self {
            Self {
                works: _mm_set1_epi32(((!spot.immune & 0xF) << 16) as i32),
                remaining: int(spot.remaining),
                need: int(spot.need),
                hand_value: int(spot.hand_value),
                free: int(spot.free),
                tavern: int(spot.tavern),
                discard: int(spot.discard),
                short: &w.short[usize::from(spot.jester_left)],
                w,
            }
        }

        /// The scores of the four plays whose [`word`]s are `x`: [`super::plain::score`]'s terms lane
        /// by lane, and `jester` for a Jester (the one play of no suit). The integers are below
        /// 2^15, so the 16-bit minimum and saturating difference of SSE2 work on the lanes' low
        /// halves (the high halves are 0).
        #[target_feature(enable = "sse2")]
        #[inline]
        fn scores(&self, x: __m128i) -> __m128 {
            let w = self.w;
            let value = _mm_and_si128(x, _mm_set1_epi32(0xFFFF));
            let suits = _mm_and_si128(x, _mm_set1_epi32(0xFF << 16));
            let count = _mm_srli_epi32::<24>(x);
            let works = _mm_and_si128(suits, self.works);
            let clubs = holds::<{ 15 - CLUBS as i32 }>(works);
            let spades = holds::<{ 15 - SPADES as i32 }>(works);
            let hearts = holds::<{ 15 - HEARTS as i32 }>(works);
            let diamonds = holds::<{ 15 - DIAMONDS as i32 }>(works);
            let dmg = _mm_add_epi32(value, _mm_and_si128(value, clubs));
            let gain = _mm_and_si128(value, spades);
            let draws = _mm_min_epi16(
                _mm_min_epi16(value, self.tavern),
                _mm_add_epi32(self.free, count),
            );
            let draws = _mm_and_si128(draws, diamonds);
            let heals = _mm_and_si128(_mm_min_epi16(value, self.discard), hearts);
            let powers = _mm_sub_ps(
                _mm_add_ps(
                    _mm_mul_ps(w.draw, _mm_cvtepi32_ps(draws)),
                    _mm_mul_ps(w.heal, _mm_cvtepi32_ps(heals)),
                ),
                _mm_mul_ps(w.spend, _mm_cvtepi32_ps(value)),
            );
            let over = _mm_cvtepi32_ps(_mm_subs_epu16(dmg, self.remaining));
            let exact = _mm_castsi128_ps(_mm_cmpeq_epi32(dmg, self.remaining));
            let base = select(exact, w.kill[1], w.kill[0]);
            let kill = _mm_add_ps(_mm_sub_ps(base, _mm_mul_ps(w.overkill, over)), powers);
            let need = _mm_subs_epu16(self.need, gain);
            let left = _mm_sub_epi32(self.hand_value, value);
            let short = _mm_subs_epu16(need, left);
            let spare = _mm_min_epi16(_mm_subs_epu16(left, need), _mm_set1_epi32(10));
            let defence = _mm_add_ps(
                _mm_sub_ps(
                    _mm_mul_ps(w.neg_discard, _mm_cvtepi32_ps(_mm_min_epi16(need, left))),
                    _mm_mul_ps(*self.short, _mm_cvtepi32_ps(short)),
                ),
                _mm_mul_ps(w.margin, _mm_cvtepi32_ps(spare)),
            );
            let other = _mm_add_ps(
                _mm_add_ps(
                    _mm_add_ps(
                        _mm_mul_ps(w.damage, _mm_cvtepi32_ps(dmg)),
                        _mm_mul_ps(w.shield, _mm_cvtepi32_ps(gain)),
                    ),
                    powers,
                ),
                defence,
            );
            let short_of_kill = _mm_castsi128_ps(_mm_cmpgt_epi32(self.remaining, dmg));
            let s = select(short_of_kill, other, kill);
            let jester = _mm_castsi128_ps(_mm_cmpeq_epi32(suits, _mm_set1_epi32(0)));
            select(jester, w.jester, s)
        }
    }

    /// The best score of `plays` at `spot` under the weights of `w` and the index of the first
    /// play that has it (`(-inf, usize::MAX)` for no play): what the scalar loop over
    /// [`super::plain::score`] finds.
    #[inline]
    pub fn best(w: &WeightLanes, spot: &Spot, plays: &[Play]) -> (f32, usize) {
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline).
        unsafe { best_sse2(w, spot, plays) }
    }

    /// [`best`], its instructions SSE2's.
    #[target_feature(enable = "sse2")]
    #[inline]
    fn best_sse2(w: &WeightLanes, spot: &Spot, plays: &[Play]) -> (f32, usize) {
        if plays.is_empty() {
            return (f32::NEG_INFINITY, usize::MAX);
        }
        let lanes = SpotLanes::of(w, spot);
        let mut top = FirstBest::new();
        let chunks = plays.chunks_exact(4);
        let rest = chunks.remainder();
        for c in chunks {
            let x = _mm_setr_epi32(word(&c[0]), word(&c[1]), word(&c[2]), word(&c[3]));
            top.keep(lanes.scores(x));
        }
        if let Some(last) = rest.len().checked_sub(1) {
            // Past the last play, a lane reads the last one again and scores nothing.
            let lane = |j: usize| word(&rest[j.min(last)]);
            let x = _mm_setr_epi32(lane(0), lane(1), lane(2), lane(3));
            top.keep_first(lanes.scores(x), rest.len());
        }
        top.first()
    }
}
