//! A multiset of player cards (Ace = 1 to 10) as one integer: four bits of count per value.
//!
//! The card counter's search copies, compares and hashes these at every node, so they are a
//! plain `u64` rather than an array: taking a card is one subtraction, a hash is one multiply.

use super::super::engine::DECK_CARDS;
use super::strike::FACES;

/// Cards of each value in the full player deck.
const PER_FACE: u64 = (DECK_CARDS / FACES) as u64;

/// Counts of the card values 1..=10: value v in bits 4(v-1)..4v (each count at most 15).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardCounts(u64);

impl CardCounts {
    /// The whole player deck: every value `DECK_CARDS / 10` times.
    pub const FULL: Self = Self(PER_FACE * 0x11_1111_1111);

    /// The counts of `cards` (values 1..=10).
    #[inline]
    pub fn of(cards: &[u8]) -> Self {
        const ONE: [u64; 16] = {
            let mut one = [0u64; 16];
            let mut v = 1;
            while v <= FACES {
                one[v] = 1 << (4 * (v - 1));
                v += 1;
            }
            one
        };
        Self(cards.iter().map(|&v| ONE[usize::from(v & 15)]).sum())
    }

    /// The values among 1..=`up_to` (at most 10) with at least one card, in increasing order.
    #[inline(always)]
    pub fn values_up_to(self, up_to: u8) -> Values {
        const LOW_BITS: u64 = 0x11_1111_1111;
        let x = self.0;
        let present = (x | x >> 1 | x >> 2 | x >> 3) & LOW_BITS;
        Values(present & ((1u64 << (4 * up_to)) - 1))
    }

    /// How many cards of value `v` (1..=10).
    #[inline(always)]
    pub fn count(self, v: u8) -> u8 {
        (self.0 >> (4 * (v - 1)) & 0xF) as u8
    }

    /// These cards and one more of value `v`.
    #[inline(always)]
    pub fn with(self, v: u8) -> Self {
        Self(self.0 + (1 << (4 * (v - 1))))
    }

    /// These cards and `other`.
    #[inline(always)]
    pub fn plus(self, other: Self) -> Self {
        Self(self.0 + other.0)
    }

    /// These cards without `other`, which they must contain.
    #[inline(always)]
    pub fn minus(self, other: Self) -> Self {
        debug_assert!((1..=FACES as u8).all(|v| other.count(v) <= self.count(v)));
        Self(self.0 - other.0)
    }

    /// The cards whose values have their lane set in `lanes` (0xF per value).
    #[inline(always)]
    pub fn within(self, lanes: u64) -> Self {
        Self(self.0 & lanes)
    }

    /// The number of cards (at most 255).
    #[inline(always)]
    pub fn total(self) -> u8 {
        // Pairs of counts into bytes, then the bytes summed into the top byte of a product.
        const BYTES: u64 = 0x0F_0F0F_0F0F;
        let pairs = (self.0 & BYTES) + (self.0 >> 4 & BYTES);
        (pairs.wrapping_mul(0x01_0101_0101) >> 32) as u8
    }

    /// The packed counts, for hashing and keys (40 bits).
    #[inline(always)]
    pub fn bits(self) -> u64 {
        self.0
    }
}

/// Card values, from [`CardCounts::values_up_to`]: one bit per value present.
pub struct Values(u64);

impl Iterator for Values {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let v = (self.0.trailing_zeros() / 4) as u8 + 1;
        self.0 &= self.0 - 1;
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_and_remove_cards_value_by_value() {
        let cards = [1, 10, 10, 4, 1, 1, 7];
        let c = CardCounts::of(&cards);
        let want = [3, 0, 0, 1, 0, 0, 1, 0, 0, 2];
        for v in 1..=10u8 {
            assert_eq!(c.count(v), want[usize::from(v - 1)], "value {v}");
        }
        assert_eq!(c.total(), 7);
        assert_eq!(c.with(2).count(2), 1);
        assert_eq!(c.with(10).count(10), 3);
        assert_eq!(
            c.with(10).minus(CardCounts::of(&[10, 1])),
            CardCounts::of(&[1, 1, 10, 10, 4, 7])
        );
        assert_eq!(c.plus(CardCounts::of(&[5])), c.with(5));
        let all: Vec<u8> = (0..40).map(|i| i % 10 + 1).collect();
        assert_eq!(CardCounts::of(&all), CardCounts::FULL);
        assert_eq!(CardCounts::FULL.total(), 40);
        assert_eq!(c.values_up_to(10).collect::<Vec<_>>(), vec![1, 4, 7, 10]);
        assert_eq!(c.values_up_to(7).collect::<Vec<_>>(), vec![1, 4, 7]);
        assert_eq!(c.values_up_to(6).collect::<Vec<_>>(), vec![1, 4]);
        assert_eq!(CardCounts::FULL.values_up_to(3).count(), 3);
        assert_eq!(c.within(0xF | 0xF << 36).total(), 5);
    }
}
