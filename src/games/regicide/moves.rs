//! Legal-move generation, shared by every policy: the plays of step 1 and the discards of step
//! 4, the latter reduced to minimal covers.
//!
//! A *play* is one card (a Jester included); 2 to `combo_cards` cards of one rank, no Ace, total
//! at most `max_combo`; or an Ace with exactly one other card that is not a Jester (another Ace
//! included). A *cover* of an attack `need` is a set of hand cards of total at least `need`; it is
//! *minimal* if no card can be removed and still cover. Every other cover holds a minimal one and
//! throws away more, so the minimal covers are the only discards offered.

use std::hint::select_unpredictable;
use std::mem::MaybeUninit;

use super::card::{self, ACE, JESTER, JESTERS, Values};
use super::rules::MAX_HAND;

/// A play: its cards, total value, suits and size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Play {
    /// The cards.
    pub cards: u64,
    /// Their total value.
    pub value: u16,
    /// The suits among them (bit per suit; none for a Jester).
    pub suits: u8,
    /// How many cards.
    pub count: u8,
    /// The cards' codes in ascending order, 6 bits each, the first the highest: of two plays
    /// of one size the smaller comes first lexicographically (`simple`'s last tie-break).
    pub lex: u32,
}

/// For each set of suits (a rank's nibble), its suits in ascending order packed as in
/// [`Play::lex`].
const SUIT_LISTS: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut sub = 0;
    while sub < 16 {
        let mut s = 0;
        while s < 4 {
            if sub >> s & 1 == 1 {
                t[sub] = t[sub] << 6 | s as u32;
            }
            s += 1;
        }
        sub += 1;
    }
    t
};

/// Each code's single play but for its value (a value setting's own, set by the caller): a
/// copy a card instead of working out its mask, suits and order key.
const SINGLES: [Play; 64] = {
    let mut t = [Play {
        cards: 0,
        value: 0,
        suits: 0,
        count: 1,
        lex: 0,
    }; 64];
    let mut c = 0;
    while c < 64 {
        t[c as usize].cards = card::bit(c);
        t[c as usize].suits = if card::is_jester(c) {
            0
        } else {
            1 << card::suit(c)
        };
        t[c as usize].lex = c as u32;
        c += 1;
    }
    t
};

/// For each set of a rank's cards (a nibble) and each most cards `m` of a combo (0 to 4), the
/// subsets of 2 to `m` cards from the highest down, four bits each from the lowest, their
/// number in the top four bits (at most 11).
const COMBOS: [[u64; 5]; 16] = {
    let mut t = [[0u64; 5]; 16];
    let mut same = 0;
    while same < 16 {
        let mut most = 0;
        while most < 5 {
            let (mut list, mut len) = (0u64, 0);
            let mut sub = same;
            while sub != 0 {
                let n = card::nibble_count(sub as u64);
                if n >= 2 && n <= most {
                    list |= (sub as u64) << (4 * len);
                    len += 1;
                }
                sub = (sub - 1) & same;
            }
            t[same][most as usize] = list | (len as u64) << 60;
            most += 1;
        }
        same += 1;
    }
    t
};

/// A 1 in each of the first n 6-bit fields, for n = 0 to 4: times a rank's first code, added
/// to [`SUIT_LISTS`], it gives a combo's [`Play::lex`].
const ONES: [u32; 5] = [0, 0x1, 0x41, 0x1041, 0x41041];

impl Play {
    /// True if the play is a Jester.
    #[inline]
    pub fn is_jester(&self) -> bool {
        self.cards & JESTERS != 0
    }
}

/// More than the plays a hand of [`MAX_HAND`] cards can make (10 singles, at most 45 pairs with
/// an Ace, at most 23 same-rank combos).
pub const MAX_PLAYS: usize = 80;

/// The places of [`Plays`]: a power of two above [`MAX_PLAYS`], so that a count masked to
/// fewer bits than a `u8` indexes them without a bounds check (left unwritten, they cost
/// nothing to make).
const PLAY_PLACES: usize = 128;

const _: () = assert!(PLAY_PLACES.is_power_of_two() && PLAY_PLACES > MAX_PLAYS);
// The singles of any set of cards fit (see `Plays::singles`).
const _: () = assert!(MAX_PLAYS >= 64);

/// A list's places, left uninitialised until written, so that making a scratch list per game
/// neither clears nor copies them (`Plays` and `Covers` are made once per game).
#[derive(Clone, Copy, Debug)]
struct Places<T: Copy, const N: usize>([MaybeUninit<T>; N]);

impl<T: Copy, const N: usize> Places<T, N> {
    /// Every place unwritten.
    #[inline(always)]
    fn new() -> Self {
        Self([const { MaybeUninit::uninit() }; N])
    }

    /// Writes place `i` (bounds-checked).
    #[inline(always)]
    fn set(&mut self, i: usize, value: T) {
        self.0[i].write(value);
    }

    /// The first `len` places.
    ///
    /// # Safety
    /// Places `0..len` have been written (`len` at most `N`).
    #[inline(always)]
    unsafe fn first(&self, len: usize) -> &[T] {
        debug_assert!(len <= N);
        // SAFETY: the caller guarantees that places `0..len` exist and were written with a `T`,
        // and `MaybeUninit<T>` has `T`'s layout.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<T>(), len) }
    }
}

/// The legal plays of a hand.
#[derive(Clone, Debug)]
pub struct Plays {
    /// Places `0..len` written.
    list: Places<Play, PLAY_PLACES>,
    len: u8,
    hand_value: u16,
}

impl Default for Plays {
    fn default() -> Self {
        Self {
            list: Places::new(),
            len: 0,
            hand_value: 0,
        }
    }
}

impl Plays {
    /// Fills the list with the plays of `hand` under the rules `values` was made from: singles
    /// in card order, then same-rank combos by rank, then Ace pairs.
    #[inline]
    pub fn generate(&mut self, hand: u64, values: &Values) {
        debug_assert!(hand.count_ones() <= u32::from(MAX_HAND));
        self.singles(hand, values);
        self.combos(hand, values);
        self.ace_pairs(hand, values);
    }

    /// One play per card, in card order (the list's first plays); a Jester holds no suit.
    #[inline]
    fn singles(&mut self, hand: u64, values: &Values) {
        let mut value = 0;
        // The count in a local, not in `self.len` (whose loads and stores would chain the
        // cards); a hand holds at most 64 cards, so it is below 64 and, masked to six bits,
        // indexes the list without a bounds check.
        let mut n = 0;
        for c in card::cards(hand) {
            let v = values.of(c);
            value += v;
            let mut p = SINGLES[usize::from(c & 63)];
            p.value = v;
            self.list.set(n & 63, p);
            n += 1;
        }
        self.len = n as u8;
        self.hand_value = value;
    }

    /// The combos of 2 to `combo_cards` cards of one rank (no Jester, no Ace) of total at most
    /// `max_combo`, by rank, each rank's subsets from the highest down. A rank's cards are four
    /// bits, one per suit, so a subset of them is its own suit mask; the subsets a rank's
    /// cards make with at most [`Values::combo_most`] cards come listed from [`COMBOS`]. Called from one
    /// place: inlined whole, it costs no call.
    #[inline(always)]
    fn combos(&mut self, hand: u64, values: &Values) {
        let mut ranks = card::pair_ranks(hand) & !(card::rank_mask(JESTER) | card::rank_mask(ACE));
        while ranks != 0 {
            let rank = (ranks.trailing_zeros() / 4) as u8;
            ranks &= !card::rank_mask(rank);
            let shift = u32::from(rank) * 4;
            let same = (hand >> shift) & 0xF;
            let each = values.of(card::code(rank, 0));
            let mut list = COMBOS[same as usize][values.combo_most(rank)];
            for _ in 0..list >> 60 {
                let sub = list & 0xF;
                list >>= 4;
                let n = card::nibble_count(sub);
                self.push(Play {
                    cards: sub << shift,
                    value: each * u16::from(n),
                    suits: sub as u8,
                    count: n,
                    lex: SUIT_LISTS[sub as usize]
                        + u32::from(card::code(rank, 0)) * ONES[usize::from(n)],
                });
            }
        }
    }

    /// Each Ace with one other card that is not a Jester; two Aces pair once, the lower leading.
    #[inline]
    fn ace_pairs(&mut self, hand: u64, values: &Values) {
        let aces = hand & card::rank_mask(ACE);
        let others = hand & !card::rank_mask(JESTER);
        for a in card::cards(aces) {
            // Leaves out this Ace and the Aces below it (they led their pair with it already).
            let partners = others & !(aces & (card::bit(a) << 1).wrapping_sub(1));
            for o in card::cards(partners) {
                self.push(Play {
                    cards: card::bit(a) | card::bit(o),
                    value: values.of(a) + values.of(o),
                    suits: 1 << card::suit(a) | 1 << card::suit(o),
                    count: 2,
                    // The partner is above the Ace: only Aces and Jesters are below an Ace.
                    lex: u32::from(a) << 6 | u32::from(o),
                });
            }
        }
    }

    /// The total value of the hand the plays were last generated from.
    #[inline]
    pub fn hand_value(&self) -> u16 {
        self.hand_value
    }

    #[inline]
    fn push(&mut self, p: Play) {
        debug_assert!(usize::from(self.len) < MAX_PLAYS);
        self.list.set(usize::from(self.len) & (PLAY_PLACES - 1), p);
        self.len += 1;
    }

    /// The plays.
    #[inline]
    pub fn as_slice(&self) -> &[Play] {
        // SAFETY: `push` writes place `len` before counting it, and nothing else moves `len`
        // up.
        unsafe { self.list.first(usize::from(self.len)) }
    }
}

/// A discard: its cards, total and size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cover {
    /// The cards.
    pub cards: u64,
    /// Their total value.
    pub total: u16,
    /// How many cards.
    pub count: u8,
}

/// What discarding a card costs a policy that prices its step 4 discards: the card's value
/// times its suit's factor, plus `each` (one product and one sum, in that order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prices {
    /// By suit.
    pub factor: [f32; 4],
    /// Added for every card.
    pub each: f32,
}

impl Prices {
    /// The price of card `c`.
    #[inline]
    pub fn of(&self, values: &Values, c: u8) -> f32 {
        f32::from(values.of(c)) * self.factor[usize::from(card::suit(c))] + self.each
    }
}

/// [`Covers::generate_cheapest`]'s search: the hand and each place's price.
struct Pricing<'a> {
    d: &'a Desc,
    /// Each place's price; place [`NO_PLACE`] is no card and costs 0.0, which changes a sum
    /// at most in a zero's sign, which compares equal.
    price: &'a [f32; PLACES],
    need: u16,
}

impl Pricing<'_> {
    /// [`Covers::search`]'s covers in its order, each priced instead of listed: the path of
    /// the first cheapest and how many there are. The search runs without recursion: `path`
    /// holds the places of the cards taken so far, the last taken (the lowest) in the low
    /// four bits and [`NO_PLACE`] past them, so that when the cards from place `j` on can no
    /// longer cover, the search goes back to the last place taken, drops it and goes on
    /// past it (until no place is left to drop). Only for values not [`Values::ordered`]: a
    /// call of its own, kept out of the engine's loop.
    #[inline(never)]
    fn search(&self) -> (u64, u16) {
        let d = self.d;
        let (mut best, mut cheapest, mut found) = (f32::INFINITY, !0, 0);
        let (mut j, mut sum, mut path) = (0, 0, !0u64);
        loop {
            // Past the last card `rest` is 0 and the sum below `need`: the end of a level.
            if sum + d.rest[j % PLACES] < self.need {
                let last = (path & NO_PLACE) as usize;
                if last == NO_PLACE as usize {
                    break;
                }
                path = ((path as i64) >> 4) as u64;
                sum -= d.values[last];
                j = last + 1;
                continue;
            }
            let s = sum + d.values[j % PLACES];
            let with = path << 4 | j as u64;
            j += 1;
            if s < self.need {
                (path, sum) = (with, s);
                continue;
            }
            let total = self.on(path).with(self.price[(with & NO_PLACE) as usize]);
            let cheaper = total < best;
            best = select_unpredictable(cheaper, total, best);
            cheapest = select_unpredictable(cheaper, with, cheapest);
            found += 1;
        }
        (cheapest, found)
    }

    /// [`Pricing::search`] for values [`Values::ordered`] (`values`, the hand's cards
    /// `cards`): the same covers in the same order. The places' values then fall as places
    /// rise, so at a node the cards worth at least what its path lacks are a run of places,
    /// the first ones, as many as the hand holds cards worth that much (one look-up and a
    /// count): each from the next place to the run's end is a cover, priced without testing
    /// its value, and every place after the run falls short (also after going back to the
    /// node: the card dropped fell short there, and the later ones are worth no more).
    #[inline(always)]
    fn search_ordered(&self, cards: u64, values: &Values) -> (u64, u16) {
        debug_assert!(values.ordered());
        let d = self.d;
        let (mut best, mut cheapest, mut found) = (f32::INFINITY, !0, 0);
        // What the path lacks of `need` (never 0: a path that covers is a cover, not a node).
        let (mut j, mut lack, mut path) = (0, self.need, !0u64);
        'node: loop {
            let run = (cards >> values.worth(lack)).count_ones() as usize;
            let on = self.on(path);
            while j < run {
                let with = path << 4 | j as u64;
                let total = on.with(self.price[j % PLACES]);
                let cheaper = total < best;
                best = select_unpredictable(cheaper, total, best);
                cheapest = select_unpredictable(cheaper, with, cheapest);
                found += 1;
                j += 1;
            }
            // The places from `j` on fall short: take the next one if the cards from it on
            // can still cover, else go back (past the last card `rest` is 0).
            while d.rest[j % PLACES] < lack {
                let last = (path & NO_PLACE) as usize;
                if last == NO_PLACE as usize {
                    break 'node;
                }
                path = ((path as i64) >> 4) as u64;
                lack += d.values[last];
                j = last + 1;
            }
            path = path << 4 | j as u64;
            lack -= d.values[j % PLACES];
            j += 1;
        }
        (cheapest, found)
    }

    /// The prices of the places of `path`, ready to price the covers that add one card to it.
    #[inline(always)]
    fn on(&self, path: u64) -> PathPrices<'_> {
        let at = |k: u32| self.price[(path >> (4 * k) & NO_PLACE) as usize];
        PathPrices {
            price: self.price,
            first: [at(0), at(1), at(2)],
            deeper: ((path as i64) >> 12) as u64,
        }
    }
}

/// The prices of a search path's places, its first three (the lowest cards) read ahead, so
/// that the covers of one node are priced without reading them again.
struct PathPrices<'a> {
    price: &'a [f32; PLACES],
    /// The prices of the path's first three places (0.0 past its end, place [`NO_PLACE`]).
    first: [f32; 3],
    /// The path's places after the first three.
    deeper: u64,
}

impl PathPrices<'_> {
    /// The price of the cover of the path and one card of price `card`, lower than the path's,
    /// in card order: that card, then the path's from its end (past it, place [`NO_PLACE`]
    /// adds 0.0, which changes a sum at most in a zero's sign).
    #[inline(always)]
    fn with(&self, card: f32) -> f32 {
        let mut total = -0.0 + card;
        for p in self.first {
            total += p;
        }
        let mut rest = self.deeper;
        while rest & NO_PLACE != NO_PLACE {
            total += self.price[(rest & NO_PLACE) as usize];
            rest = ((rest as i64) >> 4) as u64;
        }
        total
    }
}

/// More than the minimal covers of a hand of [`MAX_HAND`] cards (an antichain of subsets of 10
/// cards has at most 252 sets).
const MAX_COVERS: usize = 256;

/// The minimal covers of an attack by a hand, or the least of them alone
/// ([`Covers::generate_least`]).
#[derive(Clone, Debug)]
pub struct Covers {
    /// Places `0..len` written.
    list: Places<Cover, MAX_COVERS>,
    len: u16,
    /// The hand has exactly one minimal cover.
    one: bool,
    hand_value: u16,
    /// Scratch of [`Covers::generate_least`], kept here so that a call does not clear it.
    sums: [[u64; MAX_HAND as usize + 1]; MAX_HAND as usize + 1],
}

impl Default for Covers {
    fn default() -> Self {
        Self {
            list: Places::new(),
            len: 0,
            one: false,
            hand_value: 0,
            sums: [[0; MAX_HAND as usize + 1]; MAX_HAND as usize + 1],
        }
    }
}

/// The largest attack [`Covers::generate_least`] searches quickly: its sums are the bits of a
/// `u64`, and the least cover's total is below the attack plus the most a card is worth (25),
/// so at most 62: bit 63 stays free for the places past the last card ([`PAST`]).
const QUICK_NEED: u16 = 64 - 26;

/// What a place past the last card of [`Covers::least`] is worth: alone it reaches sum 63,
/// which no cover of a quick search totals, and with any card more than 63, which no sum
/// holds, so it never counts; nor is it taken, the total left to take being below it.
const PAST: u16 = 63;

/// The place in [`Desc`] that holds no card, in [`Covers::generate_cheapest`]'s paths (a
/// hand holds at most [`MAX_HAND`] cards, below 15).
const NO_PLACE: u64 = 15;

/// The places of [`Desc`]'s per-place tables: more than [`NO_PLACE`], so that a place masked to
/// four bits needs no bounds check.
const PLACES: usize = 16;

/// The hand's cards that can help cover, highest first, with their values.
struct Desc {
    /// Each place's card as a mask (none past the last card, [`NO_PLACE`] included).
    bits: [u64; PLACES],
    /// Each place's value (0 past the last card).
    values: [u16; PLACES],
    /// `rest[i]`: the total of cards `i..` (0 past the last card).
    rest: [u16; PLACES],
    len: usize,
}

impl Desc {
    /// The cards of `cards`, highest first.
    #[inline]
    fn of(cards: u64, values: &Values) -> Self {
        Self::each(cards, values, |_, _| ())
    }

    /// [`Desc::of`], calling `f` with each card's place and code as it is placed.
    #[inline(always)]
    fn each(mut cards: u64, values: &Values, mut f: impl FnMut(usize, u8)) -> Self {
        let mut d = Self {
            bits: [0; PLACES],
            values: [0; PLACES],
            rest: [0; PLACES],
            len: 0,
        };
        // The count in a local, not in `d` (whose stores and loads would chain the cards).
        let mut len = 0;
        while cards != 0 {
            let c = 63 - cards.leading_zeros() as u8;
            cards ^= card::bit(c);
            d.bits[len % PLACES] = card::bit(c);
            d.values[len % PLACES] = values.of(c);
            f(len, c);
            len += 1;
        }
        d.len = len;
        // Over every place (past the last card each is worth 0): a loop of fixed length,
        // whose end needs no guess.
        for i in (0..MAX_HAND as usize).rev() {
            d.rest[i] = d.rest[i + 1] + d.values[i];
        }
        d
    }
}

impl Covers {
    /// Fills the list with the minimal covers of `need` by `hand` (the empty set alone when
    /// `need` is 0; none when the hand cannot cover). Order: depth first over the cards from the
    /// highest down.
    #[inline]
    pub fn generate(&mut self, hand: u64, need: u16, values: &Values) {
        self.len = 0;
        // Jesters are worth 0: no minimal cover of a positive attack holds one.
        let d = Desc::of(hand & !JESTERS, values);
        self.hand_value = d.rest[0];
        if need == 0 {
            self.push(Cover::default());
        } else if d.rest[0] >= need {
            self.search(&d, need, 0, 0, 0, 0);
        }
        self.one = self.len == 1;
    }

    /// Fills the list with `simple`'s discard alone, the minimal cover of `need` by `hand` of
    /// least total, then fewest cards, then lex-first (the empty set when `need` is 0; none
    /// when the hand cannot cover), and notes whether it is the only minimal cover. Where the
    /// quick search's assumptions fail (values not [`Values::ordered`], `need` above
    /// `QUICK_NEED`) the list holds every minimal cover, as [`Covers::generate`] makes it.
    ///
    /// With every card worth at least 1, a cover of least total is minimal and every set of
    /// that total is a cover of least total: the discard is the lex-first of the fewest cards
    /// that add up to the least total at least `need`, found from the sums each suffix of the
    /// hand reaches with each number of cards (bit sets). The hand has one minimal cover
    /// exactly when the cards it cannot do without (those worth more than the hand's value
    /// minus `need`) cover on their own: every cover holds them.
    #[inline]
    pub fn generate_least(&mut self, hand: u64, need: u16, values: &Values) {
        if !values.ordered() || need > QUICK_NEED {
            self.generate(hand, need, values);
            return;
        }
        const N: usize = MAX_HAND as usize;
        let mut codes = [0u8; N];
        let mut worth = [0u16; N];
        let mut n = 0;
        let mut total = 0;
        for c in card::cards(hand & !JESTERS) {
            codes[n] = c;
            worth[n] = values.of(c);
            total += worth[n];
            n += 1;
        }
        self.hand_value = total;
        self.len = 0;
        self.one = true;
        if need == 0 {
            self.push(Cover::default());
            return;
        }
        if total < need {
            self.one = false;
            return;
        }
        // The cards every cover holds; past the last card, `worth` is 0 and none is kept (a
        // loop of fixed length: no end to guess).
        let mut kept = Cover::default();
        for i in 0..N {
            let must = total - worth[i] < need;
            kept.cards |= u64::from(must) << codes[i];
            kept.total += worth[i] * u16::from(must);
            kept.count += u8::from(must);
        }
        if kept.total >= need {
            self.push(kept);
            return;
        }
        self.one = false;
        let c = if n <= 8 {
            self.least::<8>(&codes, &worth, n, need)
        } else {
            self.least::<N>(&codes, &worth, n, need)
        };
        self.push(c);
    }

    /// The least cover of `need` by the `n` cards `codes` (ascending, worth `worth`), `n` at
    /// most `K`, `need` at most [`QUICK_NEED`]; see [`Covers::generate_least`]. The loops run
    /// over all `K` places, those past the last card adding nothing, so that their ends need no
    /// guess.
    #[inline]
    fn least<const K: usize>(
        &mut self,
        codes: &[u8; MAX_HAND as usize],
        worth: &[u16; MAX_HAND as usize],
        n: usize,
        need: u16,
    ) -> Cover {
        debug_assert!(n <= K);
        // `sums[i][k]`: bit t set if some k of cards i.. add up to t (below 64); every count
        // up to K is worked out, so the loop over counts has no end to guess.
        let sums = &mut self.sums;
        sums[K] = [0; MAX_HAND as usize + 1];
        sums[K][0] = 1;
        // Each place's worth, [`PAST`] past the last card.
        let place = |i: usize| select_unpredictable(i < n, worth[i], PAST);
        for i in (0..K).rev() {
            let v = place(i);
            let (head, tail) = sums.split_at_mut(i + 1);
            let (row, next) = (&mut head[i], &tail[0]);
            row[0] = 1;
            for k in 1..=K {
                row[k] = next[k] | next[k - 1] << v;
            }
        }
        let reach = sums[0][1..=K].iter().fold(0, |a, &b| a | b);
        let least = need + (reach >> need).trailing_zeros() as u16;
        let mut fewest = K;
        for k in (1..=K).rev() {
            fewest = select_unpredictable(sums[0][k] >> least & 1 != 0, k, fewest);
        }
        // The lex-first: each card in turn, taken if the cards after it can make up the rest
        // (once `k` is 0, `left` is 0 and no card is taken; past the last card, every card of
        // the cover is taken).
        let mut c = Cover {
            cards: 0,
            total: least,
            count: fewest as u8,
        };
        let (mut left, mut k) = (least, fewest);
        for i in 0..K {
            let v = place(i);
            let after = sums[i + 1][k.saturating_sub(1)];
            let take = (left >= v) & (after >> (left.wrapping_sub(v) & 63) & 1 != 0);
            c.cards |= u64::from(take) << codes[i];
            left -= v * u16::from(take);
            k -= usize::from(take);
        }
        debug_assert_eq!((left, k), (0, 0));
        c
    }

    /// Fills the list with the first minimal cover of `need` by `hand` of least price in
    /// [`Covers::generate`]'s order, alone (the empty set when `need` is 0; none when the hand
    /// cannot cover), and notes whether it is the only minimal cover. A cover's price is its
    /// cards' prices added in card order from `-0.0`, as `Iterator::sum` adds them.
    ///
    /// The search is [`Covers::generate`]'s, depth first from the highest card; a cover's
    /// lowest card is the one that reaches `need`, the others are the search's path, kept
    /// as a list of places (four bits each, the lowest card's first), so its price is added
    /// up in card order without sorting: no list to write and no pass over it.
    #[inline(always)]
    pub fn generate_cheapest(&mut self, hand: u64, need: u16, values: &Values, prices: &Prices) {
        self.len = 0;
        // Each place's price, worked out as the cards are placed.
        let mut price = [0.0; PLACES];
        let d = Desc::each(hand & !JESTERS, values, |at, c| {
            price[at % PLACES] = prices.of(values, c);
        });
        self.hand_value = d.rest[0];
        if need == 0 {
            self.push(Cover::default());
            self.one = true;
            return;
        }
        if d.rest[0] < need {
            self.one = false;
            return;
        }
        let p = Pricing {
            d: &d,
            price: &price,
            need,
        };
        let cards = hand & !JESTERS;
        let (mut path, found) = if values.ordered() {
            p.search_ordered(cards, values)
        } else {
            p.search()
        };
        let one = found == 1;
        // The cover's cards from its places, the first four without a loop (past the
        // last, [`NO_PLACE`] adds nothing).
        let mut c = Cover::default();
        let mut take = |path: &mut u64| {
            let at = (*path & NO_PLACE) as usize;
            c.cards |= d.bits[at];
            c.total += d.values[at];
            *path = ((*path as i64) >> 4) as u64;
        };
        for _ in 0..4 {
            take(&mut path);
        }
        while path & NO_PLACE != NO_PLACE {
            take(&mut path);
        }
        c.count = c.cards.count_ones() as u8;
        self.push(c);
        self.one = one;
    }

    /// True if the hand has exactly one minimal cover (the list then holds it).
    #[inline]
    pub fn only_one(&self) -> bool {
        self.one
    }

    /// The total value of the hand the covers were last generated from.
    #[inline]
    pub fn hand_value(&self) -> u16 {
        self.hand_value
    }

    /// Adds every minimal cover that extends `cards` (total `sum < need`, `count` cards) with
    /// cards from `from` on. Cards come highest first, so the card that reaches `need` is the
    /// set's lowest: removing any card then falls short.
    fn search(&mut self, d: &Desc, need: u16, from: usize, cards: u64, sum: u16, count: u8) {
        for j in from..d.len {
            if sum + d.rest[j] < need {
                break;
            }
            let s = sum + d.values[j];
            let with = cards | d.bits[j];
            // Written in any case, kept if it covers: one branch fewer to guess.
            self.list.set(
                usize::from(self.len),
                Cover {
                    cards: with,
                    total: s,
                    count: count + 1,
                },
            );
            self.len += u16::from(s >= need);
            if s < need {
                self.search(d, need, j + 1, with, s, count + 1);
            }
        }
    }

    #[inline]
    fn push(&mut self, c: Cover) {
        self.list.set(usize::from(self.len), c);
        self.len += 1;
    }

    /// The covers.
    #[inline]
    pub fn as_slice(&self) -> &[Cover] {
        // SAFETY: `len` only counts written places: `push` and `search` write place `len`
        // before counting it, and the other makers set `len` to 0 or push.
        unsafe { self.list.first(usize::from(self.len)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::regicide::card::mask_of;
    use crate::games::regicide::rules::Rules;
    use crate::rng::GameRng;

    /// A scratch list made once and refilled: each fill reads back exactly what it wrote, a
    /// shorter fill after a longer one included (the places past it stay unread).
    #[test]
    fn places_read_back_what_was_written() {
        let mut rng = GameRng::new(7, 0, 0);
        let mut places = Places::<Cover, 8>::new();
        for round in 0..200 {
            let len = (rng.next_u64() % 9) as usize;
            let want: Vec<Cover> = (0..len)
                .map(|i| Cover {
                    cards: rng.next_u64(),
                    total: (round + i) as u16,
                    count: i as u8,
                })
                .collect();
            for (i, &c) in want.iter().enumerate() {
                places.set(i, c);
            }
            // SAFETY: places `0..len` were just written.
            let got = unsafe { places.first(len) };
            assert_eq!(got, want.as_slice(), "round {round}");
        }
    }

    /// The 56 codes (Jesters included) in a random order.
    fn shuffled(rng: &mut GameRng) -> Vec<u8> {
        let mut deck: Vec<u8> = (0..56).collect();
        rng.shuffle(&mut deck);
        deck
    }

    /// The hand of these cards.
    fn hand_of(cards: &[u8]) -> u64 {
        cards.iter().fold(0, |m, &c| m | card::bit(c))
    }

    /// The default rules with `sets` (`path=value`) applied.
    fn rules_under(sets: &[&str]) -> Rules {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        crate::rules::load(None, &sets).unwrap()
    }

    /// The card values under the rules with `sets` (`path=value`) applied to the defaults.
    fn values_under(sets: &[&str]) -> Values {
        Values::new(&rules_under(sets))
    }

    /// A random hand of 1 to 10 cards.
    fn random_hand(rng: &mut GameRng) -> u64 {
        let deck = shuffled(rng);
        let n = 1 + rng.below(10) as usize;
        hand_of(&deck[..n])
    }

    fn plays(hand: &str, rules: &Rules) -> Vec<u64> {
        let mut p = Plays::default();
        p.generate(mask_of(hand), &Values::new(rules));
        let mut v: Vec<u64> = p.as_slice().iter().map(|p| p.cards).collect();
        v.sort_unstable();
        v
    }

    /// Every subset of the hand that is a play, by brute force from the definition.
    fn brute_plays(hand: u64, rules: &Rules) -> Vec<u64> {
        let cards: Vec<u8> = card::cards(hand).collect();
        let values = Values::new(rules);
        let mut out = vec![];
        for sub in 1u32..(1 << cards.len()) {
            let set: Vec<u8> = (0..cards.len())
                .filter(|i| sub >> i & 1 == 1)
                .map(|i| cards[i])
                .collect();
            let mask = set.iter().fold(0, |m, &c| m | card::bit(c));
            let ranks: Vec<u8> = set.iter().map(|&c| card::rank(c)).collect();
            let ok = match set.len() {
                1 => true,
                2 if ranks.contains(&ACE) => !ranks.contains(&JESTER),
                n => {
                    n <= usize::from(rules.combo_cards)
                        && ranks
                            .iter()
                            .all(|&r| r == ranks[0] && r != ACE && r != JESTER)
                        && values.sum(mask) <= u16::from(rules.max_combo)
                }
            };
            if ok {
                out.push(mask);
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn plays_are_singles_combos_within_the_limit_and_ace_pairs() {
        let r = Rules::default();
        assert_eq!(plays("3C 3S 3H 4D", &r).len(), 4 + 4);
        // Three 3s total 9; four would be 12 > 10. Two 5s make 10.
        assert!(plays("3C 3S 3H 3D", &r).contains(&mask_of("3C 3S 3H")));
        assert!(!plays("3C 3S 3H 3D", &r).contains(&mask_of("3C 3S 3H 3D")));
        assert!(plays("5C 5S", &r).contains(&mask_of("5C 5S")));
        assert!(!plays("6C 6S", &r).contains(&mask_of("6C 6S")));
        // Aces pair with anything but a Jester, once with each other, never in a combo.
        assert_eq!(
            plays("AC AS Jo1", &r),
            vec![
                mask_of("Jo1"),
                mask_of("AC"),
                mask_of("AS"),
                mask_of("AC AS")
            ]
        );
        assert!(plays("AC KH", &r).contains(&mask_of("AC KH")));
        let big = rules_under(&["max_combo=12"]);
        assert!(plays("6C 6S", &big).contains(&mask_of("6C 6S")));
    }

    #[test]
    fn plays_match_brute_force_on_many_hands() {
        let mut rng = GameRng::new(1, 2, 3);
        for sets in [
            vec![],
            vec!["max_combo=20", "combo_cards=3"],
            vec!["jack.value=0", "max_combo=14"],
        ] {
            let r = rules_under(&sets);
            for _ in 0..2000 {
                let deck = shuffled(&mut rng);
                let hand = hand_of(&deck[..8]);
                assert_eq!(plays_of(hand, &r), brute_plays(hand, &r), "hand {hand:x}");
            }
        }
    }

    #[test]
    fn combos_come_by_rank_each_ranks_subsets_from_the_highest_down() {
        let mut rng = GameRng::new(8, 3, 1);
        for sets in [
            vec![],
            vec!["max_combo=20", "combo_cards=3"],
            vec!["max_combo=6"],
        ] {
            let r = rules_under(&sets);
            let values = Values::new(&r);
            let mut p = Plays::default();
            for _ in 0..2000 {
                let hand = random_hand(&mut rng);
                p.generate(hand, &values);
                let got: Vec<u64> = p
                    .as_slice()
                    .iter()
                    .filter(|p| p.count >= 2 && p.cards & card::rank_mask(ACE) == 0)
                    .map(|p| p.cards)
                    .collect();
                let mut want = vec![];
                for rank in 2..=card::KING {
                    let shift = u32::from(rank) * 4;
                    let each = values.of(card::code(rank, 0));
                    for sub in (1..16u64).rev() {
                        let n = sub.count_ones() as u8;
                        if hand >> shift & sub == sub
                            && (2..=r.combo_cards).contains(&n)
                            && each * u16::from(n) <= u16::from(r.max_combo)
                        {
                            want.push(sub << shift);
                        }
                    }
                }
                assert_eq!(got, want, "hand {hand:x} {sets:?}");
            }
        }
    }

    #[test]
    fn a_plays_lex_key_lists_its_codes_in_order() {
        let r = Rules::default();
        let mut rng = GameRng::new(2, 4, 6);
        let mut p = Plays::default();
        for _ in 0..2000 {
            let deck = shuffled(&mut rng);
            let hand = hand_of(&deck[..8]);
            p.generate(hand, &Values::new(&r));
            for play in p.as_slice() {
                let want = card::cards(play.cards).fold(0, |k, c| k << 6 | u32::from(c));
                assert_eq!(play.lex, want, "{play:?}");
            }
        }
    }

    #[test]
    fn a_plays_value_suits_and_count_are_its_cards_own() {
        let mut rng = GameRng::new(3, 5, 7);
        for sets in [
            vec![],
            vec!["max_combo=20", "combo_cards=3"],
            vec!["jack.value=0", "max_combo=14"],
        ] {
            let r = rules_under(&sets);
            let values = Values::new(&r);
            let mut p = Plays::default();
            for _ in 0..2000 {
                let deck = shuffled(&mut rng);
                let hand = hand_of(&deck[..8]);
                p.generate(hand, &values);
                for play in p.as_slice() {
                    let value: u16 = card::cards(play.cards).map(|c| values.of(c)).sum();
                    assert_eq!(play.value, value, "{play:?}");
                    assert_eq!(play.suits, card::suits(play.cards), "{play:?}");
                    assert_eq!(u32::from(play.count), play.cards.count_ones(), "{play:?}");
                }
            }
        }
    }

    fn plays_of(hand: u64, r: &Rules) -> Vec<u64> {
        let mut p = Plays::default();
        p.generate(hand, &Values::new(r));
        let mut v: Vec<u64> = p.as_slice().iter().map(|p| p.cards).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn covers_are_exactly_the_minimal_covers() {
        let r = Rules::default();
        let values = Values::new(&r);
        let mut rng = GameRng::new(4, 5, 6);
        let mut covers = Covers::default();
        for _ in 0..3000 {
            let hand = random_hand(&mut rng);
            let need = rng.below(50) as u16;
            covers.generate(hand, need, &values);
            let mut got: Vec<u64> = covers.as_slice().iter().map(|c| c.cards).collect();
            for c in covers.as_slice() {
                assert_eq!(
                    (c.total, u32::from(c.count)),
                    (values.sum(c.cards), c.cards.count_ones())
                );
            }
            got.sort_unstable();
            let cards: Vec<u8> = card::cards(hand).collect();
            let n = cards.len();
            let mut want = vec![];
            for sub in 0u32..(1 << n) {
                let mask = (0..n)
                    .filter(|i| sub >> i & 1 == 1)
                    .fold(0, |m, i| m | card::bit(cards[i]));
                let covers = values.sum(mask) >= need;
                let minimal = card::cards(mask).all(|c| values.sum(mask & !card::bit(c)) < need);
                if covers && minimal {
                    want.push(mask);
                }
            }
            want.sort_unstable();
            assert_eq!(got, want, "hand {hand:x} need {need}");
        }
    }

    /// The priced search against the whole list and a pass over it that adds each cover's
    /// prices in card order, keeping the first of least price: random hands and attacks under
    /// four value settings (one not ordered), integer prices (many ties) and fractions.
    #[test]
    fn the_cheapest_cover_alone_is_the_first_cheapest_of_the_whole_list() {
        let sets = [
            vec![],
            vec!["king.value=25"],
            vec!["jack.value=12", "queen.value=12", "king.value=12"],
            vec!["queen.value=5", "jack.value=0"],
        ];
        let mut rng = GameRng::new(9, 1, 4);
        let (mut all, mut cheapest) = (Covers::default(), Covers::default());
        let (mut ties, mut many) = (0, 0);
        for sets in sets {
            let values = values_under(&sets);
            for round in 0..4000 {
                let mut price = |small: bool| {
                    if small {
                        rng.below(5) as f32 - 2.0
                    } else {
                        (rng.below(4001) as f32 - 2000.0) / 373.0
                    }
                };
                let small = round % 2 == 0;
                let prices = Prices {
                    factor: [price(small), price(small), price(small), price(small)],
                    each: price(small),
                };
                let hand = random_hand(&mut rng);
                let need = rng.below(60) as u16;
                all.generate(hand, need, &values);
                cheapest.generate_cheapest(hand, need, &values, &prices);
                let cost = |c: &Cover| -> f32 {
                    card::cards(c.cards).map(|c| prices.of(&values, c)).sum()
                };
                let mut want: Option<(f32, Cover)> = None;
                for c in all.as_slice() {
                    if want.is_none_or(|(least, _)| cost(c) < least) {
                        want = Some((cost(c), *c));
                    }
                }
                let got = cheapest.as_slice();
                assert_eq!(
                    got.first(),
                    want.map(|w| w.1).as_ref(),
                    "{hand:x} {need} {sets:?}"
                );
                assert_eq!(got.len(), usize::from(want.is_some()));
                assert_eq!(cheapest.only_one(), all.as_slice().len() == 1);
                assert_eq!(cheapest.hand_value(), all.hand_value());
                if let Some((least, _)) = want {
                    let tied = all.as_slice().iter().filter(|c| cost(c) == least).count();
                    ties += usize::from(tied > 1);
                    many += usize::from(all.as_slice().len() > 1);
                }
            }
        }
        assert!(
            ties > 500 && many > 5000,
            "{ties} ties, {many} lists of two or more"
        );
    }

    #[test]
    fn the_least_cover_alone_is_simples_pick_from_the_whole_list() {
        use crate::games::regicide::simple::least_cover;
        let sets = [
            vec![],
            vec!["king.value=25"],
            vec!["jack.value=12", "queen.value=12", "king.value=12"],
            // Not ordered: the whole list.
            vec!["queen.value=5"],
        ];
        let mut rng = GameRng::new(7, 5, 3);
        let (mut all, mut least) = (Covers::default(), Covers::default());
        let mut quick = 0;
        for sets in sets {
            let values = values_under(&sets);
            for _ in 0..4000 {
                let hand = random_hand(&mut rng);
                let need = rng.below(60) as u16;
                all.generate(hand, need, &values);
                least.generate_least(hand, need, &values);
                let want = least_cover(all.as_slice());
                assert_eq!(
                    least_cover(least.as_slice()),
                    want,
                    "{hand:x} {need} {sets:?}"
                );
                assert_eq!(least.only_one(), all.as_slice().len() == 1);
                assert_eq!(all.only_one(), all.as_slice().len() == 1);
                assert_eq!(least.hand_value(), all.hand_value());
                if least.as_slice().len() == 1 && all.as_slice().len() > 1 {
                    quick += 1;
                }
            }
        }
        assert!(quick > 3000, "the quick search ran {quick} times");
    }
}
