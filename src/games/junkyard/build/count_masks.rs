//! Which values an assembly area holds at least one, two and three cards of: bit `v` of the
//! three masks set when count `v` is at least 1, 2 and 3. The counts come as the area's two
//! words ([`Area::words`](crate::games::junkyard::cards::Area::words): byte `v` the count of
//! value `v`), every count below 128.
//!
//! Three versions, each compiled on every target: SSE2 on x86-64 (all ten counts compared at
//! once, one byte compare and one gathering of the bytes' top bits per count), byte-parallel
//! arithmetic in 64-bit words elsewhere ([`swar`]), and [`plain`], a loop over the counts that
//! the tests hold both to.

/// The masks of the counts in `words` (see the module).
#[inline(always)]
pub fn masks(words: [u64; 2]) -> [u16; 3] {
    #[cfg(target_arch = "x86_64")]
    return sse2(words);
    #[cfg(not(target_arch = "x86_64"))]
    return swar(words);
}

/// [`masks`] by SSE2 (part of every x86-64 processor): counts are below 128, so a signed byte
/// compare serves.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sse2([lo, hi]: [u64; 2]) -> [u16; 3] {
    use std::arch::x86_64::{_mm_cmpgt_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8};
    // SAFETY: these SSE2 instructions exist on every x86-64 processor (the target's baseline).
    unsafe {
        let v = _mm_set_epi64x(hi as i64, lo as i64);
        let at_least = |n: i8| _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(n - 1))) as u16;
        [at_least(1), at_least(2), at_least(3)]
    }
}

/// [`masks`] byte by byte in 64-bit words: adding `128 - n` to a byte (below 128) sets its
/// high bit exactly when it holds at least `n`, and never carries into the next.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn swar([lo, hi]: [u64; 2]) -> [u16; 3] {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let at_least = |n: u64| {
        let add = (128 - n) * ONES;
        gather((lo + add) & HIGH) | (gather((hi + add) & HIGH) << 8)
    };
    [at_least(1), at_least(2), at_least(3)]
}

/// The high bits of the eight bytes of `m` (only those bits may be set) gathered into bits 0
/// to 7: a multiplication places byte `k`'s flag at bit `56 + k` and no two products overlap.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn gather(m: u64) -> u16 {
    ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
}

/// [`masks`] count by count: the tests' reference.
#[cfg(test)]
fn plain([lo, hi]: [u64; 2]) -> [u16; 3] {
    let bytes = [lo.to_le_bytes(), hi.to_le_bytes()].concat();
    [1u8, 2, 3].map(|n| (0..16).fold(0u16, |m, v| m | (u16::from(bytes[v] >= n) << v)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junkyard::cards::{Area, Counts, NUMBERS};

    #[test]
    fn each_version_gives_the_plain_counts_masks() {
        let mut x = 5u64;
        for _ in 0..10_000 {
            let mut c = Counts::default();
            for slot in c.iter_mut().skip(1) {
                x = crate::rng::splitmix64(x);
                *slot = (x % 65) as u8 >> (x % 5);
            }
            let words = Area::new(&c).words();
            let want = plain(words);
            assert_eq!(masks(words), want, "{c:?}");
            assert_eq!(swar(words), want, "{c:?}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(sse2(words), want, "{c:?}");
            // And the plain masks are the counts', value by value.
            for (k, n) in [1, 2, 3].into_iter().enumerate() {
                for v in 1..=NUMBERS {
                    assert_eq!(want[k] >> v & 1 == 1, c[v] >= n, "{c:?} {v} {n}");
                }
            }
        }
    }
}
