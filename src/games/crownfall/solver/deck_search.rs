//! The card counter's search: the exact value of pushing on in a strike, over the real player
//! deck (draws without replacement, a reshuffle mid-strike included), given what each way the
//! strike can end is worth.
//!
//! A strike's cards are described by two multisets (see [`Pile`]): the strike pile, and the
//! base it is drawn from (the deck plus the strike pile). Together they fix the deck, the totals
//! and, when the deck runs out, the deck after the reshuffle, so within one strike start state a
//! node of the search is (base, strike pile) and the memo is keyed by exactly that: a memo hit
//! returns the very value a fresh search would compute, so a memo only changes speed.
//!
//! A decision is `prefers_bank(stay, push)` with `push` the exact expectation. Bounds settle
//! most decisions before any search, each one only where the exact value could not decide
//! otherwise: an upper bound on pushing (the most any end reachable from here is worth, or the
//! next card's real odds followed by that), a lower bound (the least any end is worth, or pushing
//! once and banking whatever comes).

use super::card_counts::CardCounts;
use super::strike::{FACES, TIE, TOP, best, prefers_bank};

/// Slots of the per-thread memo (a power of two).
const MEMO_SLOTS: usize = 1 << 12;

/// Which of at most four values (levels) each way of ending a strike takes, and which levels
/// can be reached from every total. A Crownfall strike ends with full damage, guarded, the enemy
/// defeated or defeated at 21: the shape depends on the enemy, the levels on the strike's start
/// state, so a strike's [`StrikeEnds`] cost a few steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrikeShape {
    /// The level of each end: index 0 a bust, s a bank at best total s.
    level: [u8; TOP as usize + 1],
    /// Bit l set if an end of level l is reachable from (hard total, Ace seen), banking there
    /// included, whatever the cards: `reach[hard][ace]`.
    reach: [[u8; 2]; TOP as usize + 1],
    /// For each (hard total, Ace seen): the next card's values grouped by the levels reachable
    /// after them (a bust's level for the values that bust): `next[hard][ace]`.
    next: [[Groups; 2]; TOP as usize + 1],
    /// Bit l set if some end takes level l.
    all: u8,
}

/// Card values grouped by a bit set of levels: each group the values (as [`CardCounts`] lanes,
/// 0xF per value) and the levels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Groups {
    lanes: [u64; FACES],
    levels: [u8; FACES],
    len: u8,
}

impl Groups {
    /// Adds value `v` to the group of `levels`.
    fn add(&mut self, v: u8, levels: u8) {
        let lane = 0xF << (4 * (v - 1));
        let len = usize::from(self.len);
        match self.levels[..len].iter().position(|&l| l == levels) {
            Some(g) => self.lanes[g] |= lane,
            None => {
                self.lanes[len] = lane;
                self.levels[len] = levels;
                self.len += 1;
            }
        }
    }
}

impl StrikeShape {
    /// The shape where end i (0 a bust, s a bank at s) takes level `level[i]` (each below 4).
    pub fn new(level: [u8; TOP as usize + 1]) -> Self {
        assert!(level.iter().all(|&l| l < 4), "at most four levels");
        let bit = |i: usize| 1u8 << level[i];
        // From (h, Ace) a player can reach any (h', Ace) with h' > h (the next card may be an
        // Ace), any (h', no Ace) with h' >= h + 2 (a 2 or more), and always a bust: running
        // unions from 21 down of the bank levels with and without an Ace give every reach.
        let mut reach = [[0u8; 2]; TOP as usize + 1];
        let (mut with_ace, mut without, mut without_2) = (0u8, 0u8, 0u8);
        for h in (1..=usize::from(TOP)).rev() {
            let (hard, soft) = (bit(h), bit(if h <= 11 { h + 10 } else { h }));
            let later = bit(0) | with_ace;
            reach[h] = [hard | later | without_2, soft | later];
            without_2 = without;
            without |= hard;
            with_ace |= soft;
        }
        let mut next = [[Groups::default(); 2]; TOP as usize + 1];
        for h in 1..=TOP {
            for ace in [false, true] {
                let groups = &mut next[usize::from(h)][usize::from(ace)];
                for v in 1..=FACES as u8 {
                    groups.add(
                        v,
                        if h + v > TOP {
                            bit(0)
                        } else {
                            reach[usize::from(h + v)][usize::from(ace || v == 1)]
                        },
                    );
                }
            }
        }
        let all = (0..=usize::from(TOP)).fold(0, |m, i| m | bit(i));
        Self {
            level,
            reach,
            next,
            all,
        }
    }
}

/// What each way a strike can end is worth, with the bounds derived from it.
#[derive(Clone, Debug)]
pub struct StrikeEnds {
    /// The value of each level.
    levels: [f64; 4],
    /// The most any subset of the levels (a bit set) is worth.
    most: [f64; 16],
    /// The value of a bust.
    bust: f64,
    /// The least any end is worth: pushing is worth at least this.
    floor: f64,
}

impl StrikeEnds {
    /// The ends of shape `shape` whose levels are worth `levels`.
    pub fn new(shape: &StrikeShape, levels: [f64; 4]) -> Self {
        let mut s = Self {
            levels,
            most: [0.0; 16],
            bust: 0.0,
            floor: 0.0,
        };
        s.set(shape, levels);
        s
    }

    /// Takes the ends of another strike (in place: this runs once per strike).
    pub fn set(&mut self, shape: &StrikeShape, levels: [f64; 4]) {
        // Values are never NaN: plain comparisons.
        let mut least = [f64::INFINITY; 16];
        self.most[0] = f64::NEG_INFINITY;
        for m in 1..16usize {
            let (l, rest) = (levels[m.trailing_zeros() as usize], m & (m - 1));
            self.most[m] = if l > self.most[rest] {
                l
            } else {
                self.most[rest]
            };
            least[m] = if l < least[rest] { l } else { least[rest] };
        }
        self.levels = levels;
        self.bust = levels[usize::from(shape.level[0] & 3)];
        self.floor = least[usize::from(shape.all & 15)];
    }

    /// The value of end `i` (0 a bust, s a bank at best total s) in a strike of `shape`.
    #[inline(always)]
    fn end(&self, shape: &StrikeShape, i: u8) -> f64 {
        self.levels[usize::from(shape.level[usize::from(i)] & 3)]
    }

    /// The value of banking at (`hard`, `ace`).
    #[inline(always)]
    fn stay(&self, shape: &StrikeShape, hard: u8, ace: bool) -> f64 {
        self.end(shape, best(hard, ace).0)
    }

    /// The most any end reachable from (`hard`, `ace`) is worth, banking there included.
    #[inline(always)]
    fn reach(&self, shape: &StrikeShape, hard: u8, ace: bool) -> f64 {
        self.most[usize::from(shape.reach[usize::from(hard)][usize::from(ace)] & 15)]
    }

    /// The decision at (`hard`, `ace`) if the end values alone settle it, whatever the cards:
    /// bank if banking is worth more than any reachable end, push if it is worth no more than the
    /// least end and a tie would push. Each with a margin of half a tie, so that rounding in the
    /// exact value could not have decided otherwise. `tie`: a tie banks at best totals from
    /// `tie` up.
    #[inline]
    pub fn settled(&self, shape: &StrikeShape, hard: u8, ace: bool, tie: u8) -> Option<bool> {
        let (b, _) = best(hard, ace);
        let stay = self.end(shape, b);
        let top = self.reach(shape, hard, ace);
        if stay > top + 1.5 * TIE || (b >= tie && stay >= top - 0.5 * TIE) {
            return Some(true);
        }
        if b < tie && self.floor >= stay - 0.5 * TIE {
            return Some(false);
        }
        None
    }
}

/// The cards of a strike in progress: the strike pile and its base, the deck plus the strike
/// pile (every card not in the discard). When the deck runs out the discard is shuffled back,
/// and the base becomes the whole player deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pile {
    base: CardCounts,
    base_len: u8,
    held: CardCounts,
    held_len: u8,
}

impl Pile {
    /// The strike pile `held` over a deck of `deck` (counts by value, as
    /// [`DeckView::counts`](super::super::engine::DeckView::counts) gives them).
    #[inline]
    pub fn of_counts(deck: [u8; 11], held: &[u8]) -> Self {
        let held_counts = CardCounts::of(held);
        let base = (1..=10u8).fold(CardCounts::of(&[]), |c, v| {
            (0..deck[usize::from(v)]).fold(c, |c, _| c.with(v))
        });
        let deck_len: u8 = deck.iter().sum();
        Self {
            base: base.plus(held_counts),
            base_len: deck_len + held.len() as u8,
            held: held_counts,
            held_len: held.len() as u8,
        }
    }

    /// The strike pile `held` over a deck of `deck` (card values 1..=10).
    #[inline]
    pub fn new(deck: &[u8], held: &[u8]) -> Self {
        let held_counts = CardCounts::of(held);
        Self {
            base: CardCounts::of(deck).plus(held_counts),
            base_len: (deck.len() + held.len()) as u8,
            held: held_counts,
            held_len: held.len() as u8,
        }
    }

    /// The same cards with the deck refilled from the discard if it is empty.
    #[inline(always)]
    fn refilled(self) -> Self {
        if self.base_len == self.held_len {
            Self {
                base: CardCounts::FULL,
                base_len: CardCounts::FULL.total(),
                ..self
            }
        } else {
            self
        }
    }

    /// The deck and its size.
    #[inline(always)]
    fn deck(self) -> (CardCounts, u8) {
        (self.base.minus(self.held), self.base_len - self.held_len)
    }

    /// After flipping a card of value `v` onto the strike pile.
    #[inline(always)]
    fn flip(self, v: u8) -> Self {
        Self {
            held: self.held.with(v),
            held_len: self.held_len + 1,
            ..self
        }
    }
}

/// Values of pushing, by (strike start state, base, strike pile): a per-thread table allocated
/// once, each slot holding the last key stored there.
pub struct Memo {
    slots: Vec<Slot>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    /// The start state in bits 40.., the base below: 0 with an empty pile marks a free slot.
    state_base: u64,
    held: u64,
    push: f64,
}

impl Default for Memo {
    fn default() -> Self {
        Self {
            slots: vec![Slot::default(); MEMO_SLOTS],
        }
    }
}

impl Memo {
    /// Forgets every value (for another solution, whose states mean other end values).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }
}

/// One strike start state's search: its end values, its number (part of the memo keys) and the
/// memo.
pub struct Search<'a> {
    /// The strike's shape.
    pub shape: &'a StrikeShape,
    /// What the strike's ends are worth.
    pub ends: &'a StrikeEnds,
    /// The strike start state (below 2^24): memo entries of other states do not match.
    pub state: usize,
    /// The memo.
    pub memo: &'a mut Memo,
}

impl Search<'_> {
    /// True to bank at (`hard`, `ace`) with the strike's cards `pile`: banking is worth more
    /// than the exact expectation of pushing and then playing best, or as much and the best total
    /// is at least `tie`.
    pub fn bank(&mut self, pile: Pile, hard: u8, ace: bool, tie: u8) -> bool {
        let (b, _) = best(hard, ace);
        let stay = self.ends.stay(self.shape, hard, ace);
        if self.push_then_bank(pile, hard, ace) > stay + TIE {
            return false;
        }
        if prefers_bank(stay, self.push_at_most(pile, hard, ace), b, tie) {
            return true;
        }
        prefers_bank(stay, self.push(pile, hard, ace), b, tie)
    }

    /// The value of a strike standing at (`hard`, `ace`) with the best move from here on.
    fn node(&mut self, pile: Pile, hard: u8, ace: bool) -> f64 {
        let stay = self.ends.stay(self.shape, hard, ace);
        if stay >= self.ends.reach(self.shape, hard, ace)
            || stay >= self.push_at_most(pile, hard, ace)
        {
            return stay;
        }
        stay.max(self.push(pile, hard, ace))
    }

    /// A lower bound on pushing: flip one card, then bank whatever it gives.
    fn push_then_bank(&self, pile: Pile, hard: u8, ace: bool) -> f64 {
        let (deck, n) = pile.refilled().deck();
        let mut sum = 0.0;
        for v in deck.values_up_to(FACES as u8) {
            let end = if hard + v > TOP {
                0
            } else {
                best(hard + v, ace || v == 1).0
            };
            sum += f64::from(deck.count(v)) * self.ends.end(self.shape, end);
        }
        sum / f64::from(n)
    }

    /// An upper bound on pushing: the next card's odds from the real deck, then the most
    /// reachable after it.
    fn push_at_most(&self, pile: Pile, hard: u8, ace: bool) -> f64 {
        let (deck, n) = pile.refilled().deck();
        let groups = &self.shape.next[usize::from(hard)][usize::from(ace)];
        let mut sum = 0.0;
        for g in 0..usize::from(groups.len) {
            let c = deck.within(groups.lanes[g]).total();
            sum += f64::from(c) * self.ends.most[usize::from(groups.levels[g] & 15)];
        }
        sum / f64::from(n)
    }

    /// The value of flipping one more card at (`hard`, `ace`), playing best after it.
    fn push(&mut self, pile: Pile, hard: u8, ace: bool) -> f64 {
        let pile = pile.refilled();
        let state_base = (self.state as u64) << 40 | pile.base.bits();
        let held = pile.held.bits();
        let slot = {
            let h = (state_base ^ held.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (h >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
        };
        let s = self.memo.slots[slot];
        if s.state_base == state_base && s.held == held {
            return s.push;
        }
        let ace = ace && hard <= 11;
        let (deck, n) = pile.deck();
        let mut sum = 0.0;
        let mut safe = 0;
        for v in deck.values_up_to((TOP - hard).min(FACES as u8)) {
            let c = deck.count(v);
            safe += c;
            sum += f64::from(c) * self.node(pile.flip(v), hard + v, ace || v == 1);
        }
        let push = (sum + f64::from(n - safe) * self.ends.bust) / f64::from(n);
        self.memo.slots[slot] = Slot {
            state_base,
            held,
            push,
        };
        push
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::rng::GameRng;

    /// The value of each end: index 0 a bust, s a bank at best total s.
    pub(crate) type Ends = [f64; 22];

    /// The most reachable from every total by plain recursion over the next card.
    fn reach_by_recursion(ends: &Ends) -> [[f64; 2]; 22] {
        let mut r = [[0.0; 2]; 22];
        for h in (1..=TOP).rev() {
            for ace in [false, true] {
                let mut m = ends[usize::from(best(h, ace).0)];
                for v in 1..=FACES as u8 {
                    m = m.max(if h + v > TOP {
                        ends[0]
                    } else {
                        r[usize::from(h + v)][usize::from(ace || v == 1)]
                    });
                }
                r[usize::from(h)][usize::from(ace)] = m;
            }
        }
        r
    }

    /// The value of pushing by plain recursion over every card, memoized in a map by the cards
    /// alone: no bounds, no per-thread table. `deck` and `held`: counts by value (index v - 1).
    pub(crate) fn push_by_recursion(
        ends: &Ends,
        hard: u8,
        ace: bool,
        deck: [u8; 10],
        held: [u8; 10],
        memo: &mut HashMap<([u8; 10], [u8; 10]), f64>,
    ) -> f64 {
        let deck = if deck.iter().all(|&c| c == 0) {
            held.map(|h| 4 - h)
        } else {
            deck
        };
        if let Some(&v) = memo.get(&(deck, held)) {
            return v;
        }
        let n: u8 = deck.iter().sum();
        let mut sum = 0.0;
        for v in 1..=10u8 {
            let c = deck[usize::from(v - 1)];
            if c == 0 {
                continue;
            }
            let q = if hard + v > TOP {
                ends[0]
            } else {
                let (mut d, mut h) = (deck, held);
                d[usize::from(v - 1)] -= 1;
                h[usize::from(v - 1)] += 1;
                let a = ace || v == 1;
                let stay = ends[usize::from(best(hard + v, a).0)];
                stay.max(push_by_recursion(ends, hard + v, a, d, h, memo))
            };
            sum += f64::from(c) * q;
        }
        let value = sum / f64::from(n);
        memo.insert((deck, held), value);
        value
    }

    fn listed(c: &[u8; 10]) -> Vec<u8> {
        (1..=10u8)
            .flat_map(|v| std::iter::repeat_n(v, usize::from(c[usize::from(v - 1)])))
            .collect()
    }

    /// A random strike in progress: the strike pile (hard total at most 21), a deck of some of
    /// the other cards (often few, so that reshuffles happen inside the search), end values.
    struct Case {
        shape: StrikeShape,
        levels: [f64; 4],
        /// The value of each end, from the shape and the levels.
        ends: Ends,
        hard: u8,
        ace: bool,
        tie: u8,
        deck: [u8; 10],
        held: [u8; 10],
    }

    fn case(rng: &mut GameRng, cards: &mut [u8; 40], i: u32) -> Case {
        rng.shuffle(cards);
        let mut held = [0u8; 10];
        let mut hard = 0u8;
        let mut k = 0;
        while k < 40 && hard + cards[k] <= 21 && (k == 0 || hard < 9 || rng.below(2) == 0) {
            hard += cards[k];
            held[usize::from(cards[k] - 1)] += 1;
            k += 1;
        }
        let keep = rng.below(if i.is_multiple_of(2) {
            4
        } else {
            40 - k as u64 + 1
        }) as usize;
        let mut deck = [0u8; 10];
        for &v in &cards[k..(k + keep).min(40)] {
            deck[usize::from(v - 1)] += 1;
        }
        let mut levels = [0.0; 4];
        for l in &mut levels {
            // Few distinct values now and then, so that ties between levels happen.
            *l = rng.below(if i.is_multiple_of(5) { 3 } else { 1000 }) as f64 / 999.0;
        }
        let level: [u8; 22] = if i.is_multiple_of(3) {
            // Any end any level: no order between busting, falling short and banking.
            std::array::from_fn(|_| rng.below(4) as u8)
        } else {
            // A royal's shape: a bust or a short total, the guard zone, the target, 21; the
            // levels in increasing order.
            levels.sort_by(f64::total_cmp);
            let target = 12 + rng.below(7) as u8;
            std::array::from_fn(|s| match s as u8 {
                21 => 3,
                s if s >= target => 2,
                s if s + 2 >= target && s > 0 => 1,
                _ => 0,
            })
        };
        Case {
            shape: StrikeShape::new(level),
            levels,
            ends: level.map(|l| levels[usize::from(l)]),
            hard,
            ace: held[0] > 0,
            tie: 12 + rng.below(7) as u8,
            deck,
            held,
        }
    }

    #[test]
    fn bounds_from_the_shape_equal_the_recursion_over_the_ends() {
        let mut rng = GameRng::new(5, 5, 5);
        let mut cards: [u8; 40] = std::array::from_fn(|i| (i % 10) as u8 + 1);
        for i in 0..3000 {
            let c = case(&mut rng, &mut cards, i);
            let s = StrikeEnds::new(&c.shape, c.levels);
            let reach = reach_by_recursion(&c.ends);
            for h in 1..=TOP {
                for ace in [false, true] {
                    let r = reach[usize::from(h)][usize::from(ace)];
                    assert_eq!(s.reach(&c.shape, h, ace), r);
                    assert_eq!(
                        s.stay(&c.shape, h, ace),
                        c.ends[usize::from(best(h, ace).0)]
                    );
                }
            }
            let least = c.ends.iter().copied().fold(f64::INFINITY, f64::min);
            assert_eq!((s.bust, s.floor), (c.ends[0], least), "case {i}");
        }
    }

    #[test]
    fn the_search_equals_plain_recursion_and_decides_as_the_exact_value_does() {
        let mut rng = GameRng::new(9, 9, 9);
        let mut cards: [u8; 40] = std::array::from_fn(|i| (i % 10) as u8 + 1);
        let mut memo = Memo::default();
        let mut decided_early = 0;
        for i in 0..6000u32 {
            let c = case(&mut rng, &mut cards, i);
            let ends = StrikeEnds::new(&c.shape, c.levels);
            let (b, _) = best(c.hard, c.ace);
            let stay = c.ends[usize::from(b)];
            let want =
                push_by_recursion(&c.ends, c.hard, c.ace, c.deck, c.held, &mut HashMap::new());
            let want_bank = prefers_bank(stay, want, b, c.tie);
            let pile = Pile::new(&listed(&c.deck), &listed(&c.held));
            // The same memo across cases, each its own state, as in play.
            let mut search = Search {
                shape: &c.shape,
                ends: &ends,
                state: i as usize,
                memo: &mut memo,
            };
            let got = search.push(pile, c.hard, c.ace);
            assert!((got - want).abs() < 1e-12, "case {i}: {got} vs {want}");
            assert!(search.push_then_bank(pile, c.hard, c.ace) <= want + 1e-12);
            assert!(search.push_at_most(pile, c.hard, c.ace) >= want - 1e-12);
            assert!(ends.reach(&c.shape, c.hard, c.ace) >= want.max(stay) - 1e-12);
            assert!(ends.floor <= want + 1e-12);
            memo.clear();
            let mut search = Search {
                shape: &c.shape,
                ends: &ends,
                state: 0,
                memo: &mut memo,
            };
            assert_eq!(
                search.bank(pile, c.hard, c.ace, c.tie),
                want_bank,
                "case {i}"
            );
            if let Some(early) = ends.settled(&c.shape, c.hard, c.ace, c.tie) {
                assert_eq!(early, want_bank, "case {i}");
                decided_early += 1;
            }
        }
        assert!(decided_early > 1000, "{decided_early}");
    }
}
