//! The greatest (and the next greatest) of a mask's 32-bit ranks (the strength ranks of
//! [`Keys`](super::keys::Keys)), found in a fixed number of vector steps: no loop over the
//! mask's automatons, so no branch on how many it holds (the blocking rules search masks of one
//! to a few automatons, and a loop's exit was mispredicted about once a search).
//!
//! On x86-64 with SSE4.1 (every build targets x86-64-v2) the ranks are read four lanes to a
//! register, eight lanes when the mask has no automaton past the eighth (most), 24 otherwise;
//! elsewhere the same results come from plain loops over the mask.

use super::combat;
use super::lanes::LANES;

/// The greatest of `ranks` over `mask`, 0 for an empty mask (every rank of an automaton is
/// above 0).
#[inline(always)]
pub fn greatest(ranks: &[u32; LANES], mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    return sse41::greatest_two::<false>(ranks, mask).0;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
    return plain::greatest(ranks, mask);
}

/// The greatest of `ranks` over `mask` and the greatest of the others, each 0 if none (ranks
/// are distinct and above 0).
#[inline(always)]
pub fn greatest_two(ranks: &[u32; LANES], mask: u32) -> (u32, u32) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    return sse41::greatest_two::<true>(ranks, mask);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
    return plain::greatest_two(ranks, mask);
}

/// The plain loops over the mask: the other targets' search, and the tests' reference.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse4.1"),
    allow(dead_code)
)]
mod plain {
    use super::{LANES, combat};

    pub fn greatest(ranks: &[u32; LANES], mask: u32) -> u32 {
        combat::bits(mask)
            .map(|i| ranks[i % LANES])
            .fold(0, u32::max)
    }

    pub fn greatest_two(ranks: &[u32; LANES], mask: u32) -> (u32, u32) {
        let first = greatest(ranks, mask);
        let rest = combat::bits(mask).filter(|&i| ranks[i % LANES] != first);
        (first, rest.map(|i| ranks[i % LANES]).fold(0, u32::max))
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
mod sse41 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32, _mm_cvtsi128_si32,
        _mm_loadu_si128, _mm_max_epu32, _mm_set1_epi32, _mm_setr_epi32, _mm_shuffle_epi32,
    };

    use super::LANES;

    // SAFETY (every function here): SSE4.1 is enabled for the target (checked by the `cfg` of
    // the module); the loads read lanes 0 to 23 of the 32 ranks, unaligned.

    /// The greatest of the four lanes of `x`, in every lane.
    #[inline(always)]
    fn spread_max(x: __m128i) -> __m128i {
        unsafe {
            let x = _mm_max_epu32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
            _mm_max_epu32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x))
        }
    }

    /// The ranks of `mask` among lanes 0 to `4 * N - 1`, 0 elsewhere, four to a register.
    #[inline(always)]
    fn masked<const N: usize>(ranks: &[u32; LANES], mask: u32) -> [__m128i; N] {
        unsafe {
            let m = _mm_set1_epi32(mask as i32);
            let p = ranks.as_ptr().cast::<__m128i>();
            std::array::from_fn(|v| {
                let b = 1i32 << (4 * v);
                let bit = _mm_setr_epi32(b, b << 1, b << 2, b << 3);
                let on = _mm_cmpeq_epi32(_mm_and_si128(m, bit), bit);
                _mm_and_si128(_mm_loadu_si128(p.add(v)), on)
            })
        }
    }

    /// The greatest of `x`'s lanes, in every lane.
    #[inline(always)]
    fn max_of<const N: usize>(x: &[__m128i; N]) -> __m128i {
        let all = x[1..]
            .iter()
            .fold(x[0], |a, &b| unsafe { _mm_max_epu32(a, b) });
        spread_max(all)
    }

    /// The greatest and, if `SECOND`, the next greatest of `N` registers of masked ranks.
    #[inline(always)]
    fn two_of<const N: usize, const SECOND: bool>(x: [__m128i; N]) -> (u32, u32) {
        unsafe {
            let first = max_of(&x);
            if !SECOND {
                return (_mm_cvtsi128_si32(first) as u32, 0);
            }
            // The greatest's lane cleared (ranks are distinct): the greatest left.
            let rest = x.map(|v| _mm_andnot_si128(_mm_cmpeq_epi32(v, first), v));
            (
                _mm_cvtsi128_si32(first) as u32,
                _mm_cvtsi128_si32(max_of(&rest)) as u32,
            )
        }
    }

    /// [`super::greatest_two`] (the second 0 unless `SECOND`): eight lanes if the mask has
    /// none past the eighth, else 24 (a seat has at most `MAX_BOTS`, 21).
    #[inline(always)]
    pub fn greatest_two<const SECOND: bool>(ranks: &[u32; LANES], mask: u32) -> (u32, u32) {
        if mask < 1 << 8 {
            two_of::<2, SECOND>(masked::<2>(ranks, mask))
        } else {
            two_of::<6, SECOND>(masked::<6>(ranks, mask))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_search_agrees_with_a_plain_loop_over_the_mask() {
        let mut x = 7u64;
        for _ in 0..50_000 {
            // Distinct ranks above 0 in the first `len` lanes (a complemented index in the low
            // byte, as the strength ranks hold), 0 past them.
            x = crate::rng::splitmix64(x);
            let len = (x % (combat::MAX_BOTS as u64 + 1)) as usize;
            let mut ranks = [0u32; LANES];
            for (i, r) in ranks.iter_mut().enumerate().take(len) {
                x = crate::rng::splitmix64(x);
                *r = (((x % 4) as u32 + 1) << 8) | u32::from(!(i as u8));
            }
            x = crate::rng::splitmix64(x);
            // Small masks often, as the blocking rules search.
            let mask = (x as u32) & (x >> 32) as u32 & combat::all(len);
            let mask = if x >> 62 == 0 { mask & 0xFF } else { mask };
            assert_eq!(
                greatest(&ranks, mask),
                plain::greatest(&ranks, mask),
                "{ranks:?} {mask:b}"
            );
            assert_eq!(
                greatest_two(&ranks, mask),
                plain::greatest_two(&ranks, mask),
                "{ranks:?} {mask:b}"
            );
        }
    }
}
