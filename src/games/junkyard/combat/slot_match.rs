//! The slots of a block list holding one byte, as a mask: bit `i` set when `slots[i] == key`
//! (a defender's slot holds the attacker it blocks, plus one; see
//! [`Blocks::blockers_of`](super::Blocks::blockers_of)).
//!
//! Two versions: on x86-64 the 21 slots compared at once by SSE2 (part of every x86-64
//! processor), two overlapping loads of 16, slots 0 to 15 and 5 to 20; [`plain`], a loop over
//! the slots, compiled on every target: what other targets run, and the tests' reference.

use super::MAX_BOTS;

/// The slots of `slots` equal to `key`, as a mask.
#[inline(always)]
pub fn equal(slots: &[u8; MAX_BOTS], key: u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    return sse2(slots, key);
    #[cfg(not(target_arch = "x86_64"))]
    return plain(slots, key);
}

/// [`equal`] by SSE2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sse2(slots: &[u8; MAX_BOTS], key: u8) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is in the x86-64 baseline; the unaligned loads read bytes 0 to 15 and
    // `MAX_BOTS - 16` to `MAX_BOTS - 1` of the slots.
    unsafe {
        let p = slots.as_ptr();
        let key = _mm_set1_epi8(key as i8);
        let equal = |at: usize| {
            let slots = _mm_loadu_si128(p.add(at).cast::<__m128i>());
            _mm_movemask_epi8(_mm_cmpeq_epi8(slots, key)) as u32
        };
        equal(0) | (equal(MAX_BOTS - 16) << (MAX_BOTS - 16))
    }
}

/// [`equal`] slot by slot.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn plain(slots: &[u8; MAX_BOTS], key: u8) -> u32 {
    let mut mask = 0;
    for (i, &b) in slots.iter().enumerate() {
        mask |= u32::from(b == key) << i;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_compare_is_the_plain_one() {
        let mut x = 11u64;
        for _ in 0..20_000 {
            let mut slots = [0u8; MAX_BOTS];
            for s in slots.iter_mut() {
                x = crate::rng::splitmix64(x);
                *s = (x % 5) as u8;
            }
            x = crate::rng::splitmix64(x);
            let key = (x % 5) as u8;
            assert_eq!(equal(&slots, key), plain(&slots, key), "{slots:?} {key}");
        }
        let mut slots = [0u8; MAX_BOTS];
        (slots[0], slots[5], slots[20]) = (3, 3, 3);
        assert_eq!(plain(&slots, 3), 1 | 1 << 5 | 1 << 20);
    }
}
