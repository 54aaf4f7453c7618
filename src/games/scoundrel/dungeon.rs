//! The dungeon: a queue of cards, drawn from the top, avoided rooms put back at the bottom.

/// Slots in the ring; a power of two at least [`super::rules::MAX_CARDS`].
const RING: usize = 64;
const MASK: u8 = (RING - 1) as u8;

/// A fixed-capacity queue of card codes, top first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dungeon {
    cards: [u8; RING],
    head: u8,
    len: u8,
}

impl Dungeon {
    /// A dungeon that yields `cards` first to last (at most 60).
    pub fn new(cards: &[u8]) -> Self {
        assert!(cards.len() < RING);
        let mut all = [0u8; RING];
        all[..cards.len()].copy_from_slice(cards);
        Self {
            cards: all,
            head: 0,
            len: cards.len() as u8,
        }
    }

    /// Every card in order, for a dealer to shuffle (only while nothing has been drawn).
    pub fn cards_mut(&mut self) -> &mut [u8] {
        debug_assert_eq!(self.head, 0);
        &mut self.cards[..usize::from(self.len)]
    }

    /// Every card in order, top first, moved to the front of the ring (for a reshuffle).
    pub fn gather(&mut self) -> &mut [u8] {
        self.cards.rotate_left(usize::from(self.head));
        self.head = 0;
        &mut self.cards[..usize::from(self.len)]
    }

    /// Cards in the dungeon.
    #[inline(always)]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True if the dungeon is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes the top card; `None` if empty.
    #[inline(always)]
    pub fn draw(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let card = self.cards[usize::from(self.head & MASK)];
        self.head = self.head.wrapping_add(1) & MASK;
        self.len -= 1;
        Some(card)
    }

    /// Takes the top card of a dungeon that is not empty.
    #[inline(always)]
    pub fn take(&mut self) -> u8 {
        debug_assert!(self.len > 0);
        let card = self.cards[usize::from(self.head & MASK)];
        self.head = self.head.wrapping_add(1) & MASK;
        self.len -= 1;
        card
    }

    /// The top four slots of the ring, top first: the dungeon's first cards, then (past its
    /// last card) whatever the ring held before, always some card code or 0.
    #[inline(always)]
    pub fn top4(&self) -> [u8; 4] {
        let head = usize::from(self.head);
        match self.cards.get(head..head + 4) {
            // Short of the ring's end (all but three heads): one word.
            Some(four) => four.try_into().expect("four slots"),
            None => {
                [0u8, 1, 2, 3].map(|k| self.cards[usize::from(self.head.wrapping_add(k) & MASK)])
            }
        }
    }

    /// Drops the top `n` cards (at most the dungeon's).
    #[inline(always)]
    pub fn skip(&mut self, n: usize) {
        debug_assert!(n <= self.len());
        self.head = self.head.wrapping_add(n as u8) & MASK;
        self.len -= n as u8;
    }

    /// Puts `card` at the bottom.
    #[inline(always)]
    pub fn put_bottom(&mut self, card: u8) {
        debug_assert!(usize::from(self.len) < RING);
        let at = self.head.wrapping_add(self.len) & MASK;
        self.cards[usize::from(at)] = card;
        self.len += 1;
    }

    /// Puts the four `cards` at the bottom in order: one word where the ring does not wrap.
    #[inline(always)]
    pub fn put_bottom4(&mut self, cards: [u8; 4]) {
        debug_assert!(usize::from(self.len) + 4 <= RING);
        let at = usize::from(self.head.wrapping_add(self.len) & MASK);
        match self.cards.get_mut(at..at + 4) {
            Some(slots) => slots.copy_from_slice(&cards),
            None => {
                for card in cards {
                    self.put_bottom(card);
                }
                return;
            }
        }
        self.len += 4;
    }

    /// The card `i` places from the top (0 = the top).
    #[inline(always)]
    pub fn get(&self, i: usize) -> u8 {
        debug_assert!(i < self.len());
        self.cards[usize::from(self.head.wrapping_add(i as u8) & MASK)]
    }

    /// The cards top to bottom.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_from_the_top_puts_at_the_bottom_and_wraps() {
        let mut d = Dungeon::new(&[1, 2, 3]);
        for round in 0..100u8 {
            let top = d.draw().unwrap();
            d.put_bottom(top);
            assert_eq!(d.len(), 3, "round {round}");
        }
        // 100 rotations of 3 cards: 100 % 3 = 1.
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![2, 3, 1]);
        assert_eq!(
            (d.draw(), d.draw(), d.draw(), d.draw()),
            (Some(2), Some(3), Some(1), None)
        );
        assert!(d.is_empty());
    }

    #[test]
    fn the_top_four_slots_are_read_alike_at_every_head() {
        let mut d = Dungeon::new(&(1..=60).collect::<Vec<u8>>());
        for _ in 0..130 {
            let want = [0, 1, 2, 3].map(|k| d.cards[(usize::from(d.head) + k) % RING]);
            assert_eq!(d.top4(), want, "head {}", d.head);
            let top = d.take();
            d.put_bottom(top);
        }
    }

    #[test]
    fn four_cards_at_once_are_four_at_the_bottom_at_every_head() {
        for head in 0..RING {
            let mut d = Dungeon::new(&(1..=50).collect::<Vec<u8>>());
            for _ in 0..head {
                let top = d.take();
                d.put_bottom(top);
            }
            let mut want = d;
            for card in [61, 62, 63, 64] {
                want.put_bottom(card);
            }
            d.put_bottom4([61, 62, 63, 64]);
            assert_eq!(d, want, "head {head}");
        }
    }

    #[test]
    fn gather_keeps_the_order_across_the_wrap() {
        let mut d = Dungeon::new(&(0..60).collect::<Vec<u8>>());
        for _ in 0..50 {
            let top = d.take();
            d.put_bottom(top);
        }
        let before: Vec<u8> = d.iter().collect();
        assert_eq!(d.gather().to_vec(), before);
        assert_eq!(d.iter().collect::<Vec<u8>>(), before);
        d.put_bottom(99);
        assert_eq!((d.take(), d.get(59)), (50, 99));
    }
}
