//! The face-down tavern deck (drawn from the top, healed under the bottom, an exact kill on top)
//! and the face-up discard pile, in fixed arrays.

use crate::cards::Dealer;

use super::card;

/// Slots of a pile: more than every card of a game (40 + 4 Jesters + 12 royals).
const CAP: usize = 64;

/// The tavern: a ring of card codes, top at `head`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tavern {
    cards: [u8; CAP],
    head: u8,
    len: u8,
}

impl Tavern {
    /// A tavern that yields `cards` first to last.
    pub fn new(cards: &[u8]) -> Self {
        assert!(cards.len() <= CAP);
        let mut all = [0u8; CAP];
        all[..cards.len()].copy_from_slice(cards);
        Self {
            cards: all,
            head: 0,
            len: cards.len() as u8,
        }
    }

    /// The deck for a dealer to order (only before the first draw).
    pub fn cards_mut(&mut self) -> &mut [u8] {
        debug_assert_eq!(self.head, 0);
        &mut self.cards[..usize::from(self.len)]
    }

    /// Cards in the tavern.
    #[inline]
    pub fn len(&self) -> u8 {
        self.len
    }

    /// True if the tavern is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes the top card.
    #[inline]
    pub fn draw(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let c = self.cards[usize::from(self.head)];
        self.head = (self.head + 1) % CAP as u8;
        self.len -= 1;
        Some(c)
    }

    /// Puts a card face down on top.
    #[inline]
    pub fn put_top(&mut self, card: u8) {
        debug_assert!(usize::from(self.len) < CAP);
        self.head = (self.head + CAP as u8 - 1) % CAP as u8;
        self.cards[usize::from(self.head)] = card;
        self.len += 1;
    }

    /// Puts a card face down under the bottom.
    #[inline]
    pub fn put_bottom(&mut self, card: u8) {
        debug_assert!(usize::from(self.len) < CAP);
        let at = (usize::from(self.head) + usize::from(self.len)) % CAP;
        self.cards[at] = card;
        self.len += 1;
    }

    /// The cards top first (tests and the census; policies only see the count).
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..usize::from(self.len)).map(|i| self.cards[(usize::from(self.head) + i) % CAP])
    }
}

/// The discard pile, face up: its cards in the order they came, and their mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discard {
    cards: [u8; CAP],
    len: u8,
    mask: u64,
}

impl Default for Discard {
    fn default() -> Self {
        Self {
            cards: [0; CAP],
            len: 0,
            mask: 0,
        }
    }
}

impl Discard {
    /// Puts the cards of `mask` on the pile (in ascending card order).
    #[inline]
    pub fn put(&mut self, mask: u64) {
        debug_assert_eq!(self.mask & mask, 0);
        for c in card::cards(mask) {
            self.cards[usize::from(self.len)] = c;
            self.len += 1;
        }
        self.mask |= mask;
    }

    /// Cards in the pile.
    #[inline]
    pub fn len(&self) -> u8 {
        self.len
    }

    /// True if the pile is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pile's cards in order (after hearts, the order they were shuffled to).
    pub fn cards(&self) -> &[u8] {
        &self.cards[..usize::from(self.len)]
    }

    /// The pile's cards as a mask (it is face up).
    #[inline]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// Hearts: shuffles the pile with `dealer` and moves `n` of its cards (all if fewer) under
    /// the tavern, first shuffled first. Returns how many moved. Stacked, the oldest go first.
    #[inline]
    pub fn heal<D: Dealer>(&mut self, n: u16, dealer: &mut D, tavern: &mut Tavern) -> u8 {
        let len = usize::from(self.len);
        let take = usize::from(n).min(len);
        if take == 0 {
            return 0;
        }
        dealer.shuffle(&mut self.cards[..len]);
        for &c in &self.cards[..take] {
            tavern.put_bottom(c);
            self.mask &= !card::bit(c);
        }
        self.cards.copy_within(take..len, 0);
        self.len -= take as u8;
        take as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Stacked;

    #[test]
    fn tavern_draws_from_the_top_and_takes_cards_at_both_ends() {
        let mut t = Tavern::new(&[1, 2, 3]);
        assert_eq!(t.draw(), Some(1));
        t.put_top(9);
        t.put_bottom(7);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![9, 2, 3, 7]);
        assert_eq!(
            (t.draw(), t.draw(), t.draw(), t.draw(), t.draw()),
            (Some(9), Some(2), Some(3), Some(7), None)
        );
        t.put_top(5);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![5]);
    }

    #[test]
    fn heal_moves_at_most_the_pile_under_the_tavern() {
        let mut d = Discard::default();
        d.put(card::bit(8) | card::bit(9) | card::bit(12));
        let mut t = Tavern::new(&[40]);
        assert_eq!(d.heal(2, &mut Stacked, &mut t), 2);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![40, 8, 9]);
        assert_eq!((d.len(), d.mask()), (1, card::bit(12)));
        assert_eq!(d.heal(5, &mut Stacked, &mut t), 1);
        assert!(d.is_empty() && d.mask() == 0);
        assert_eq!(d.heal(5, &mut Stacked, &mut t), 0);
    }
}
