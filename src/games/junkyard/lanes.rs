//! A column of one byte per automaton slot, and four questions asked of it: which lanes hold
//! more than `x`, which hold exactly `x` (as masks), and the greatest and the sum of the lanes
//! of a mask. Answered in a fixed number of steps: no loop over the automatons, so no branch on
//! how many there are.
//!
//! Two versions: on x86-64 the 32 lanes are two SSE2 registers (SSE2 is part of every x86-64
//! processor, the target's baseline); [`plain`] answers with loops over the lanes, compiled on
//! every target: what other targets run, and what the tests hold the SSE2 version to.

/// Lanes in a [`Column`]: one per automaton slot (a seat has at most `combat::MAX_BOTS`).
pub const LANES: usize = 32;

/// One byte per slot, each below 128 (the comparisons are signed bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Column(pub [u8; LANES]);

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cvtsi32_si128,
        _mm_cvtsi128_si32, _mm_load_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_sad_epu8,
        _mm_set1_epi8, _mm_set1_epi64x, _mm_setzero_si128, _mm_srli_si128, _mm_unpackhi_epi32,
        _mm_unpacklo_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32,
    };

    use super::Column;

    // SAFETY (every function here): the SSE2 instructions exist on every x86-64 processor (the
    // target's baseline), and the loads read the column's 32 bytes, 16-byte aligned by
    // `repr(align(16))`.

    /// The column's two halves, lanes 0 to 15 and 16 to 31.
    #[inline(always)]
    fn halves(c: &Column) -> [__m128i; 2] {
        let p = c.0.as_ptr().cast::<__m128i>();
        unsafe { [_mm_load_si128(p), _mm_load_si128(p.add(1))] }
    }

    /// Lane `i` all ones where bit `i` of `mask` is set, zero elsewhere: each byte of the mask
    /// copied over eight lanes, then each lane tested against its own bit.
    #[inline(always)]
    fn spread(mask: u32) -> [__m128i; 2] {
        unsafe {
            let m = _mm_cvtsi32_si128(mask as i32);
            let m = _mm_unpacklo_epi8(m, m);
            let m = _mm_unpacklo_epi16(m, m);
            let bit = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
            let test = |x: __m128i| _mm_cmpeq_epi8(_mm_and_si128(x, bit), bit);
            [
                test(_mm_unpacklo_epi32(m, m)),
                test(_mm_unpackhi_epi32(m, m)),
            ]
        }
    }

    /// The lanes of `x` as a mask of their top bits.
    #[inline(always)]
    fn bits([lo, hi]: [__m128i; 2]) -> u32 {
        unsafe { (_mm_movemask_epi8(lo) as u32) | ((_mm_movemask_epi8(hi) as u32) << 16) }
    }

    #[inline(always)]
    pub fn above(c: &Column, x: u8) -> u32 {
        unsafe {
            let x = _mm_set1_epi8(x as i8);
            bits(halves(c).map(|h| _mm_cmpgt_epi8(h, x)))
        }
    }

    #[inline(always)]
    pub fn equal(c: &Column, x: u8) -> u32 {
        unsafe {
            let x = _mm_set1_epi8(x as i8);
            bits(halves(c).map(|h| _mm_cmpeq_epi8(h, x)))
        }
    }

    /// The greatest of the lanes of `mask` in `c` (0 outside the mask).
    #[inline(always)]
    pub fn max_in(c: &Column, mask: u32) -> u8 {
        unsafe {
            let [m0, m1] = spread(mask);
            let [c0, c1] = halves(c);
            let x = _mm_max_epu8(_mm_and_si128(c0, m0), _mm_and_si128(c1, m1));
            let x = _mm_max_epu8(x, _mm_srli_si128::<8>(x));
            let x = _mm_max_epu8(x, _mm_srli_si128::<4>(x));
            let x = _mm_max_epu8(x, _mm_srli_si128::<2>(x));
            let x = _mm_max_epu8(x, _mm_srli_si128::<1>(x));
            _mm_cvtsi128_si32(x) as u8
        }
    }

    #[inline(always)]
    pub fn sum_in(c: &Column, mask: u32) -> u32 {
        unsafe {
            let [m0, m1] = spread(mask);
            let [c0, c1] = halves(c);
            // Each register's sums of eight lanes in its two 64-bit halves, then all four added.
            let x = _mm_add_epi64(
                _mm_sad_epu8(_mm_and_si128(c0, m0), _mm_setzero_si128()),
                _mm_sad_epu8(_mm_and_si128(c1, m1), _mm_setzero_si128()),
            );
            _mm_cvtsi128_si32(_mm_add_epi64(x, _mm_srli_si128::<8>(x))) as u32
        }
    }
}

impl Column {
    /// The lanes holding more than `x`, as a mask.
    #[inline(always)]
    pub fn above(&self, x: u8) -> u32 {
        #[cfg(target_arch = "x86_64")]
        return sse2::above(self, x);
        #[cfg(not(target_arch = "x86_64"))]
        return plain::above(self, x);
    }

    /// The lanes holding exactly `x`, as a mask.
    #[inline(always)]
    pub fn equal(&self, x: u8) -> u32 {
        #[cfg(target_arch = "x86_64")]
        return sse2::equal(self, x);
        #[cfg(not(target_arch = "x86_64"))]
        return plain::equal(self, x);
    }

    /// The greatest lane of `mask`, 0 if the mask is empty.
    #[inline(always)]
    pub fn max_in(&self, mask: u32) -> u8 {
        #[cfg(target_arch = "x86_64")]
        return sse2::max_in(self, mask);
        #[cfg(not(target_arch = "x86_64"))]
        return plain::max_in(self, mask);
    }

    /// The sum of the lanes of `mask`.
    #[inline(always)]
    pub fn sum_in(&self, mask: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        return sse2::sum_in(self, mask);
        #[cfg(not(target_arch = "x86_64"))]
        return plain::sum_in(self, mask);
    }
}

/// The plain loops over the lanes: the other targets' version, and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod plain {
    use super::{Column, LANES};

    /// The lanes of `c` where `f` holds, as a mask.
    fn lanes_where(c: &Column, f: impl Fn(u8) -> bool) -> u32 {
        (0..LANES).fold(0, |m, i| m | (u32::from(f(c.0[i])) << i))
    }

    /// The values of the lanes of `mask`.
    fn in_mask(c: &Column, mask: u32) -> impl Iterator<Item = u8> + '_ {
        (0..LANES)
            .filter(move |&i| mask >> i & 1 != 0)
            .map(|i| c.0[i])
    }

    pub fn above(c: &Column, x: u8) -> u32 {
        lanes_where(c, |v| v > x)
    }

    pub fn equal(c: &Column, x: u8) -> u32 {
        lanes_where(c, |v| v == x)
    }

    pub fn max_in(c: &Column, mask: u32) -> u8 {
        in_mask(c, mask).fold(0, u8::max)
    }

    pub fn sum_in(c: &Column, mask: u32) -> u32 {
        in_mask(c, mask).map(u32::from).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_agrees_with_the_plain_loops_over_the_lanes() {
        let mut x = 3u64;
        for _ in 0..20_000 {
            let mut c = Column::default();
            for lane in c.0.iter_mut() {
                x = crate::rng::splitmix64(x);
                // Small values, often equal, sometimes the top of the range.
                *lane = [(x % 8) as u8, (x % 128) as u8, 127, 0][(x >> 40) as usize % 4];
            }
            x = crate::rng::splitmix64(x);
            let mask = (x as u32) & (x >> 32) as u32;
            let v = (x >> 20) as u8 % 128;
            assert_eq!(c.above(v), plain::above(&c, v), "{c:?} {v}");
            assert_eq!(c.equal(v), plain::equal(&c, v), "{c:?} {v}");
            assert_eq!(c.max_in(mask), plain::max_in(&c, mask), "{c:?} {mask:b}");
            assert_eq!(c.sum_in(mask), plain::sum_in(&c, mask), "{c:?} {mask:b}");
        }
    }

    #[test]
    fn the_plain_loops_say_what_they_compute() {
        let mut c = Column::default();
        c.0[..5].copy_from_slice(&[3, 7, 0, 7, 127]);
        assert_eq!(plain::above(&c, 3), 0b11010);
        assert_eq!(plain::equal(&c, 7), 0b01010);
        assert_eq!(plain::equal(&c, 0), !0b11011);
        assert_eq!(plain::max_in(&c, 0b00111), 7);
        assert_eq!(plain::max_in(&c, 0), 0);
        assert_eq!(plain::sum_in(&c, 0b10011), 3 + 7 + 127);
    }
}
