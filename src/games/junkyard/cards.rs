//! Junkyard cards and the junk heap: numbers 1 to 10, two kinds of tear-down, and a heap that
//! is drawn from the top and refilled at the bottom, with no allocation.

use crate::cards::Dealer;

/// Number values: 1 (Ace) to 10.
pub const NUMBERS: usize = 10;
/// The lesser tear-down (a Queen or a Jack).
pub const LESSER: u8 = 11;
/// The greater tear-down (a King).
pub const KING: u8 = 12;
/// The most cards a heap may hold (the shuffle's limit).
pub const MAX_HEAP: usize = 64;

/// True for a number card (one that goes to the assembly area).
#[inline(always)]
pub fn is_number(card: u8) -> bool {
    (1..=NUMBERS as u8).contains(&card)
}

/// A player's junk heap: a ring of at most [`MAX_HEAP`] cards, top first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heap {
    cards: [u8; MAX_HEAP],
    head: u8,
    len: u8,
}

impl Heap {
    /// A heap that yields `cards` first to last.
    pub fn stacked(cards: &[u8]) -> Self {
        assert!(cards.len() <= MAX_HEAP);
        let mut all = [0u8; MAX_HEAP];
        all[..cards.len()].copy_from_slice(cards);
        Self {
            cards: all,
            head: 0,
            len: cards.len() as u8,
        }
    }

    /// The heap of `cards` in the order `dealer` gives them.
    pub fn shuffled(cards: &[u8], dealer: &mut impl Dealer) -> Self {
        let mut heap = Self::stacked(cards);
        dealer.shuffle(&mut heap.cards[..cards.len()]);
        heap
    }

    /// Cards left.
    #[inline(always)]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True if no card is left.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes the top card; `None` from an empty heap.
    #[inline(always)]
    pub fn draw(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let card = self.cards[usize::from(self.head) % MAX_HEAP];
        self.head = (self.head + 1) % MAX_HEAP as u8;
        self.len -= 1;
        Some(card)
    }

    /// Takes up to `n` cards from the top (fewer if the heap is short) and calls `each` on
    /// them, top first.
    #[inline(always)]
    pub fn draw_up_to(&mut self, n: u8, mut each: impl FnMut(u8)) {
        let take = n.min(self.len);
        let head = usize::from(self.head);
        for k in 0..usize::from(take) {
            each(self.cards[(head + k) % MAX_HEAP]);
        }
        self.head = ((head + usize::from(take)) % MAX_HEAP) as u8;
        self.len -= take;
    }

    /// Puts `batch` under the heap, first card highest (after `dealer` has ordered it).
    #[inline]
    pub fn put_under(&mut self, batch: &mut [u8], dealer: &mut impl Dealer) {
        debug_assert!(self.len() + batch.len() <= MAX_HEAP);
        if batch.len() > 1 {
            dealer.shuffle(batch);
        }
        // The free slots from the bottom card on, then (wrapping round the ring) from slot 0.
        let end = (usize::from(self.head) + self.len()) % MAX_HEAP;
        let first = batch.len().min(MAX_HEAP - end);
        self.cards[end..end + first].copy_from_slice(&batch[..first]);
        self.cards[..batch.len() - first].copy_from_slice(&batch[first..]);
        self.len += batch.len() as u8;
    }

    /// The cards left, top first (for tests and checks: no policy sees this).
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len()).map(|i| self.cards[(usize::from(self.head) + i) % MAX_HEAP])
    }
}

/// Numbers of the assembly area, one count per value (index 0 unused).
pub type Counts = [u8; NUMBERS + 1];

/// An assembly area: the [`Counts`] in a block of 16 bytes (the last five 0) read and written
/// as two whole little-endian words, so a count changed is never read back through a wider
/// load than the store that wrote it (a stall of the processor's store forwarding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Area([u8; 16]);

impl Area {
    /// The area holding `counts`.
    pub fn new(counts: &Counts) -> Self {
        let mut bytes = [0u8; 16];
        bytes[..NUMBERS + 1].copy_from_slice(counts);
        Self(bytes)
    }

    /// The counts (index 0 unused).
    #[inline(always)]
    pub fn counts(&self) -> &Counts {
        self.0[..NUMBERS + 1].try_into().expect("11 counts")
    }

    /// The two words: byte `v` of the pair is the count of value `v`.
    #[inline(always)]
    pub fn words(&self) -> [u64; 2] {
        let [lo, hi] = [&self.0[..8], &self.0[8..]].map(|w| w.try_into().expect("8 bytes"));
        [u64::from_le_bytes(lo), u64::from_le_bytes(hi)]
    }

    /// Sets the two words. On x86-64 as one 16-byte store (SSE2, part of every x86-64
    /// processor): `build::strongest` then reads the area through one 16-byte load, which the
    /// processor can serve from that store but not from two 8-byte ones (a stall of its store
    /// forwarding after every draw and build).
    #[inline(always)]
    pub fn set_words(&mut self, [lo, hi]: [u64; 2]) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is in the x86-64 baseline; the area is 16 bytes, aligned to 16 by
        // `repr(align(16))`.
        unsafe {
            use std::arch::x86_64::{__m128i, _mm_set_epi64x, _mm_store_si128};
            let words = _mm_set_epi64x(hi as i64, lo as i64);
            _mm_store_si128(self.0.as_mut_ptr().cast::<__m128i>(), words);
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.0[..8].copy_from_slice(&lo.to_le_bytes());
            self.0[8..].copy_from_slice(&hi.to_le_bytes());
        }
    }
}

/// One card of each value as the two words of an [`Area`], for values 0 to 15: a number
/// `v` sets byte `v`; 0 and the tear-downs (which never go to the area) are no card.
const ONE_OF: [[u64; 2]; 16] = {
    let mut all = [[0u64; 2]; 16];
    let mut v = 1;
    while v <= NUMBERS {
        all[v][v / 8] = 1 << (8 * (v % 8));
        v += 1;
    }
    all
};

/// `n` copies of value `v` (a number, or 0 for none) as the two words of an [`Area`].
#[inline(always)]
pub fn copies(v: u8, n: u8) -> [u64; 2] {
    let [lo, hi] = ONE_OF[usize::from(v) % ONE_OF.len()];
    [lo * u64::from(n), hi * u64::from(n)]
}

/// What each card adds when drawn, for values 0 to 15: [`ONE_OF`] to the assembly area's
/// words, and to the hand as the little-endian pair `[kings, lessers]` one for a tear-down.
const DRAWN: [([u64; 2], u16); 16] = {
    let mut all = [([0u64; 2], 0u16); 16];
    let mut v = 0;
    while v < 16 {
        all[v].0 = ONE_OF[v];
        v += 1;
    }
    all[KING as usize].1 = 1;
    all[LESSER as usize].1 = 1 << 8;
    all
};

/// What card `card` adds when drawn: to the assembly area's words one of its value for a
/// number, and to the hand (`[kings, lessers]` as a little-endian pair) one for a tear-down.
/// No branch on the card.
#[inline(always)]
pub fn drawn(card: u8) -> ([u64; 2], u16) {
    DRAWN[usize::from(card) % DRAWN.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Stacked;

    #[test]
    fn draws_from_the_top_and_refills_the_bottom_around_the_ring() {
        let start: Vec<u8> = (0..60).map(|i| i % 10 + 1).collect();
        let mut heap = Heap::stacked(&start);
        for &want in &start[..50] {
            assert_eq!(heap.draw(), Some(want));
        }
        let mut back = [KING, 3, 4, 5, 6, 7, 8, 9, 10, 1];
        heap.put_under(&mut back, &mut Stacked);
        let rest: Vec<u8> = heap.iter().collect();
        let mut want = start[50..].to_vec();
        want.extend_from_slice(&back);
        assert_eq!(rest, want);
        while heap.draw().is_some() {}
        assert!(heap.is_empty());
        assert_eq!(heap.draw(), None);
    }
}
