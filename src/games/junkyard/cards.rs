//! Junkyard cards and the junk heap: numbers 1 to 10, two kinds of tear-down, and a heap that
//! is drawn from the top and refilled at the bottom, with no allocation.

use crate::cards::Dealer;

use super::automaton::Automaton;

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

/// The copies of one value [`spell_out`] writes at once.
pub const RUN: usize = 8;

/// The room [`spell_out`] writes a batch in: twice the most cards a batch can have, so that a
/// block's place taken modulo `2 * MAX_HEAP` is the place itself and in bounds without a
/// comparison, and a block past it.
const OUT: usize = 2 * MAX_HEAP + RUN;

/// The room a [`Heap`] keeps its cards in: [`MAX_HEAP`] cards and an [`OUT`] past them, and
/// more for the window to slide down before it is moved back to the start.
const ROOM: usize = 4 * MAX_HEAP;

/// A player's junk heap: a window of at most [`MAX_HEAP`] cards, top first, in a buffer of
/// `ROOM` bytes. Draws move its start down; returned cards are spelled out, ordered and left right
/// under its end, in place (no batch copied in); when the room past the end runs short, the
/// cards are moved back to the start (about once a game).
#[derive(Clone, Copy, Debug)]
pub struct Heap {
    cards: [u8; ROOM],
    head: u8,
    len: u8,
}

/// Two heaps are equal when they hold the same cards in the same order, wherever in the room.
impl PartialEq for Heap {
    fn eq(&self, other: &Self) -> bool {
        self.live() == other.live()
    }
}

impl Eq for Heap {}

impl Heap {
    /// A heap with no card.
    pub const EMPTY: Self = Self {
        cards: [0; ROOM],
        head: 0,
        len: 0,
    };

    /// A heap that yields `cards` first to last.
    pub fn stacked(cards: &[u8]) -> Self {
        let mut heap = Self::EMPTY;
        heap.stack(cards);
        heap
    }

    /// Replaces the cards with `cards`, first to last.
    #[inline]
    fn stack(&mut self, cards: &[u8]) {
        assert!(cards.len() <= MAX_HEAP);
        self.cards[..cards.len()].copy_from_slice(cards);
        self.head = 0;
        self.len = cards.len() as u8;
    }

    /// Replaces the cards with `cards` in the order `dealer` gives them (in place: a game's
    /// heaps are dealt where they are played, not copied in).
    #[inline]
    pub fn deal(&mut self, cards: &[u8], dealer: &mut impl Dealer) {
        self.stack(cards);
        dealer.shuffle(&mut self.cards[..cards.len()]);
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

    /// The cards left, top first, as a slice of the room.
    #[inline(always)]
    fn live(&self) -> &[u8] {
        let head = usize::from(self.head);
        &self.cards[head..head + self.len()]
    }

    /// Takes the top card; `None` from an empty heap.
    #[inline(always)]
    pub fn draw(&mut self) -> Option<u8> {
        let card = *self.live().first()?;
        self.head += 1;
        self.len -= 1;
        Some(card)
    }

    /// Takes up to `n` cards from the top (fewer if the heap is short) and calls `each` on
    /// them, top first.
    #[inline(always)]
    pub fn draw_up_to(&mut self, n: u8, mut each: impl FnMut(u8)) {
        let take = n.min(self.len);
        let head = usize::from(self.head);
        self.cards[head..head + usize::from(take)]
            .iter()
            .for_each(|&card| each(card));
        self.head += take;
        self.len -= take;
    }

    /// Puts a batch under the heap: `first` (if any), then the cards of `back` by increasing
    /// value, ordered by `dealer` (which sees the batch in that order); returns the batch as it
    /// went under, first card highest. The batch is spelled out right past the heap's last card
    /// and shuffled there.
    #[inline(always)]
    pub fn put_under(&mut self, first: Option<u8>, back: Back, dealer: &mut impl Dealer) -> &[u8] {
        let mut end = usize::from(self.head) + self.len();
        if end > ROOM - OUT {
            self.cards.copy_within(usize::from(self.head)..end, 0);
            self.head = 0;
            end = self.len();
        }
        let out: &mut [u8; OUT] = (&mut self.cards[end..end + OUT])
            .try_into()
            .expect("room for a batch past the heap");
        let mut at = 0;
        if let Some(card) = first {
            out[0] = card;
            at = 1;
        }
        let n = match back {
            Back::Cards(area) => spell_out(area, out, at),
            Back::Bot(bot) => bot.map_or(at, |bot| {
                // One automaton's cards, already in order: one 16-byte store.
                let (cards, n) = bot.spelled();
                out[at % MAX_HEAP..][..16].copy_from_slice(&cards.to_le_bytes());
                at + n
            }),
        };
        if n > 1 {
            dealer.shuffle(&mut out[..n]);
        }
        debug_assert!(self.len() + n <= MAX_HEAP);
        self.len += n as u8;
        &self.cards[end..end + n]
    }

    /// The cards left, top first (for tests and checks: no policy sees this).
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.live().iter().copied()
    }
}

/// The cards of a batch going back under a heap (after its first card, if any).
#[derive(Clone, Copy, Debug)]
pub enum Back<'a> {
    /// The cards of an area, by increasing value (several automatons destroyed at once).
    Cards(&'a Area),
    /// The cards of one automaton by increasing value, or none.
    Bot(Option<&'a Automaton>),
}

/// Writes the cards of `area` by increasing value into `out` from `at` on; returns where they
/// end. Each value is written as a block of [`RUN`] copies (one 8-byte store), of which only the
/// first `count` are kept (the next value's block overwrites the rest): no branch on the
/// counts, which vary from one return to the next. A batch with more than [`RUN`] copies of
/// a value (several automatons of the same cards destroyed at once) writes its blocks one
/// value at a time instead. `out` has room for a block past the last card.
#[inline]
pub fn spell_out(area: &Area, out: &mut [u8; OUT], at: usize) -> usize {
    let mut n = at;
    let counts = area.counts();
    // No count above 8: adding 0x77 to a byte (each below 128, so no carry) sets its high bit
    // exactly when it holds more than 8.
    let over = |w: u64| w.wrapping_add(0x7777_7777_7777_7777) & 0x8080_8080_8080_8080;
    let [lo, hi] = area.words();
    if over(lo) | over(hi) == 0 {
        for (v, &c) in counts.iter().enumerate().skip(1) {
            let block = (v as u64 * 0x0101_0101_0101_0101).to_le_bytes();
            // A batch has at most `MAX_HEAP` cards: the modulo leaves the place as it is.
            out[n % (2 * MAX_HEAP)..][..RUN].copy_from_slice(&block);
            n += usize::from(c);
        }
        return n;
    }
    for (v, &c) in counts.iter().enumerate().skip(1) {
        let mut left = usize::from(c);
        while left > 0 {
            out[n..n + RUN].fill(v as u8);
            let kept = left.min(RUN);
            n += kept;
            left -= kept;
        }
    }
    n
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
        self.set_words_plain([lo, hi]);
    }

    /// [`Area::set_words`] as two 8-byte copies: what other targets run, and the tests'
    /// reference.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn set_words_plain(&mut self, [lo, hi]: [u64; 2]) {
        self.0[..8].copy_from_slice(&lo.to_le_bytes());
        self.0[8..].copy_from_slice(&hi.to_le_bytes());
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
pub const fn copies(v: u8, n: u8) -> [u64; 2] {
    let [lo, hi] = ONE_OF[v as usize % ONE_OF.len()];
    [lo * n as u64, hi * n as u64]
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
    fn the_areas_16_byte_store_writes_the_plain_copies_bytes() {
        let mut x = 13u64;
        for _ in 0..1000 {
            x = crate::rng::splitmix64(x);
            let words = [x, crate::rng::splitmix64(x)];
            let (mut fast, mut plain) = (Area([0; 16]), Area([0; 16]));
            fast.set_words(words);
            plain.set_words_plain(words);
            assert_eq!(fast.0, plain.0);
            assert_eq!(fast.words(), words);
        }
    }

    #[test]
    fn draws_from_the_top_and_refills_the_bottom() {
        let start: Vec<u8> = (0..60).map(|i| i % 10 + 1).collect();
        let mut heap = Heap::stacked(&start);
        for &want in &start[..50] {
            assert_eq!(heap.draw(), Some(want));
        }
        let back = Area::new(&[0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
        let batch = heap
            .put_under(Some(KING), Back::Cards(&back), &mut Stacked)
            .to_vec();
        assert_eq!(batch, [KING, 1, 3, 4, 5, 6, 7, 8, 9, 10]);
        let rest: Vec<u8> = heap.iter().collect();
        let mut want = start[50..].to_vec();
        want.extend_from_slice(&batch);
        assert_eq!(rest, want);
        while heap.draw().is_some() {}
        assert!(heap.is_empty());
        assert_eq!(heap.draw(), None);
    }

    #[test]
    fn a_heap_in_its_room_plays_like_a_plain_queue_over_many_draws_and_returns() {
        use std::collections::VecDeque;
        let mut x = 7u64;
        let mut rng = crate::rng::GameRng::new(3, 0, 0);
        let mut copy = rng.clone();
        for _ in 0..200 {
            let mut heap = Heap::stacked(&[]);
            let mut want: VecDeque<u8> = VecDeque::new();
            for _ in 0..300 {
                x = crate::rng::splitmix64(x);
                let draw = (x % 9) as u8;
                let mut drawn = Vec::new();
                heap.draw_up_to(draw, |c| drawn.push(c));
                let n = usize::from(draw).min(want.len());
                assert_eq!(drawn, want.drain(..n).collect::<Vec<u8>>());
                // A batch of random counts (a tear-down first, one time in three), within the
                // heap's limit.
                let mut counts = Counts::default();
                let mut room = MAX_HEAP - want.len();
                let first = (x.is_multiple_of(3) && room > 0).then_some(LESSER);
                room -= usize::from(first.is_some());
                for c in counts.iter_mut().skip(1) {
                    x = crate::rng::splitmix64(x);
                    *c = ((x % 4) as usize).min(room) as u8;
                    room -= usize::from(*c);
                }
                let got = heap
                    .put_under(first, Back::Cards(&Area::new(&counts)), &mut rng)
                    .to_vec();
                let mut batch: Vec<u8> = first.into_iter().collect();
                for (v, &c) in counts.iter().enumerate() {
                    batch.extend(std::iter::repeat_n(v as u8, usize::from(c)));
                }
                if batch.len() > 1 {
                    copy.shuffle(&mut batch);
                }
                assert_eq!(got, batch);
                want.extend(&batch);
                assert_eq!(heap.iter().collect::<VecDeque<u8>>(), want);
            }
        }
    }

    #[test]
    fn returned_cards_are_spelled_out_by_increasing_value_whatever_the_counts() {
        let mut x = 11u64;
        for round in 0..5_000 {
            let mut counts = Counts::default();
            // Mostly small counts, one round in five up to 16 copies of a value (the slow path).
            let top = if round % 5 == 0 { 17 } else { 4 };
            let mut total = 0;
            for c in counts.iter_mut().skip(1) {
                x = crate::rng::splitmix64(x);
                *c = ((x % top) as u8).min(60 - total);
                total += *c;
            }
            let at = usize::from(round % 2 == 1);
            let mut out = [0u8; OUT];
            out[0] = KING;
            let n = spell_out(&Area::new(&counts), &mut out, at);
            let mut want: Vec<u8> = vec![KING; at];
            for (v, &c) in counts.iter().enumerate() {
                want.extend(std::iter::repeat_n(v as u8, usize::from(c)));
            }
            assert_eq!(&out[..n], &want[..], "{counts:?}");
        }
    }
}
