//! What the heuristic's lanes share (SSE2, part of every x86-64 processor): choosing lane by
//! lane without a branch, and the first of the best of a list scored four items at a time.

use std::arch::x86_64::{
    __m128, __m128i, _mm_add_epi32, _mm_and_ps, _mm_and_si128, _mm_andnot_ps, _mm_andnot_si128,
    _mm_castps_si128, _mm_castsi128_ps, _mm_cmpeq_ps, _mm_cmpgt_epi32, _mm_cmpgt_ps,
    _mm_cvtsi128_si32, _mm_cvtss_f32, _mm_max_ps, _mm_or_ps, _mm_or_si128, _mm_set1_epi32,
    _mm_set1_ps, _mm_setr_epi32, _mm_shuffle_epi32, _mm_shuffle_ps,
};

/// The lanes' `a` where `keep` is all ones, else `b`.
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn select(keep: __m128, a: __m128, b: __m128) -> __m128 {
    _mm_or_ps(_mm_and_ps(keep, a), _mm_andnot_ps(keep, b))
}

/// The lanes' `a` where `keep` is all ones, else `b`.
#[target_feature(enable = "sse2")]
#[inline]
fn select_int(keep: __m128i, a: __m128i, b: __m128i) -> __m128i {
    _mm_or_si128(_mm_and_si128(keep, a), _mm_andnot_si128(keep, b))
}

/// The first of the best scores of a list scored four items at a time, item `i` in lane
/// `i % 4`: each lane keeps its first best (a greater score replaces it, an equal one does
/// not), and across the lanes the best score's least index is the first.
pub(super) struct FirstBest {
    score: __m128,
    at: __m128i,
    /// The indices of the next four items.
    index: __m128i,
}

impl FirstBest {
    /// Nothing kept yet.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn new() -> Self {
        Self {
            score: _mm_set1_ps(f32::NEG_INFINITY),
            at: _mm_set1_epi32(i32::MAX),
            index: _mm_setr_epi32(0, 1, 2, 3),
        }
    }

    /// The next four items' scores.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn keep(&mut self, s: __m128) {
        let better = _mm_cmpgt_ps(s, self.score);
        // `maxps` gives its first operand where it is greater, else its second: the select by
        // `better` in one instruction (an equal score, either zero's sign, stays).
        self.score = _mm_max_ps(s, self.score);
        self.at = select_int(_mm_castps_si128(better), self.index, self.at);
        self.index = _mm_add_epi32(self.index, _mm_set1_epi32(4));
    }

    /// The next four lanes' scores, of which only the first `n` are items.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn keep_first(&mut self, s: __m128, n: usize) {
        let real = _mm_cmpgt_epi32(_mm_set1_epi32(n as i32), _mm_setr_epi32(0, 1, 2, 3));
        let none = _mm_set1_ps(f32::NEG_INFINITY);
        self.keep(select(_mm_castsi128_ps(real), s, none));
    }

    /// The best score and the index of the first item that has it (`usize::MAX` if no item
    /// scored above `-inf`).
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn first(&self) -> (f32, usize) {
        let s = self.score;
        let high = _mm_max_ps(s, _mm_shuffle_ps::<0b01_00_11_10>(s, s));
        let high = _mm_max_ps(high, _mm_shuffle_ps::<0b10_11_00_01>(high, high));
        let tied = _mm_castps_si128(_mm_cmpeq_ps(s, high));
        let at = select_int(tied, self.at, _mm_set1_epi32(i32::MAX));
        let at = min_int(at, _mm_shuffle_epi32::<0b01_00_11_10>(at));
        let at = min_int(at, _mm_shuffle_epi32::<0b10_11_00_01>(at));
        let at = _mm_cvtsi128_si32(at);
        let at = if at == i32::MAX {
            usize::MAX
        } else {
            at as usize
        };
        (_mm_cvtss_f32(high), at)
    }
}

/// The lanes' least of `a` and `b`.
#[target_feature(enable = "sse2")]
#[inline]
fn min_int(a: __m128i, b: __m128i) -> __m128i {
    select_int(_mm_cmpgt_epi32(a, b), b, a)
}
