//! Fixed-capacity card piles drawn without replacement, with no allocation.

use crate::rng::GameRng;

/// A deck of at most `N` cards, drawn one at a time in uniformly random order.
///
/// The cards live in one array split into three regions: `[deck | held | discard]`. Drawing takes a
/// uniformly random card from the deck region into the held region (a lazy Fisher-Yates shuffle,
/// so the deck never needs an up-front shuffle); releasing moves every held card to the discard;
/// reshuffling turns the discard into the deck while held cards stay where they are. Card values
/// are small integers whose meaning belongs to the game.
#[derive(Clone, Debug)]
pub struct Shoe<const N: usize> {
    cards: [u8; N],
    len: u8,
    deck: u8,
    held: u8,
}

impl<const N: usize> Shoe<N> {
    /// A shoe whose deck holds `cards` (at most `N`, at most 255), nothing held or discarded.
    pub fn new(cards: &[u8]) -> Self {
        assert!(cards.len() <= N && cards.len() <= usize::from(u8::MAX));
        let mut all = [0u8; N];
        all[..cards.len()].copy_from_slice(cards);
        let len = cards.len() as u8;
        Self {
            cards: all,
            len,
            deck: len,
            held: 0,
        }
    }

    /// Draws a uniformly random card from the deck into the held cards; `None` if the deck is empty.
    #[inline]
    pub fn draw(&mut self, rng: &mut GameRng) -> Option<u8> {
        if self.deck == 0 {
            return None;
        }
        let pick = rng.below(u64::from(self.deck)) as usize;
        self.deck -= 1;
        let top = usize::from(self.deck);
        self.cards.swap(pick, top);
        self.held += 1;
        Some(self.cards[top])
    }

    /// Draws the next card in deck order from the end of the deck region, without randomness:
    /// for stacked decks built with [`Shoe::stacked`].
    #[inline]
    pub fn draw_top(&mut self) -> Option<u8> {
        if self.deck == 0 {
            return None;
        }
        self.deck -= 1;
        self.held += 1;
        Some(self.cards[usize::from(self.deck)])
    }

    /// A shoe whose deck, drawn with [`Shoe::draw_top`], yields `order` first to last.
    pub fn stacked(order: &[u8]) -> Self {
        let mut reversed = [0u8; N];
        for (slot, &card) in reversed.iter_mut().zip(order.iter().rev()) {
            *slot = card;
        }
        Self::new(&reversed[..order.len()])
    }

    /// Moves every held card to the discard.
    #[inline]
    pub fn release_held(&mut self) {
        self.held = 0;
    }

    /// Makes the discard the new deck (in random order, as every draw is uniform); held cards stay
    /// held. The deck must be empty; in stacked mode the discard keeps its order of arrival,
    /// first discarded drawn first.
    pub fn reshuffle_discard(&mut self) {
        debug_assert_eq!(self.deck, 0);
        let held = usize::from(self.held);
        let len = usize::from(self.len);
        // [held | discard] -> [discard | held]
        self.cards[..len].rotate_left(held);
        self.deck = self.len - self.held;
    }

    /// The cards still in the deck (in no meaningful order).
    pub fn deck_cards(&self) -> &[u8] {
        &self.cards[..usize::from(self.deck)]
    }

    /// The cards drawn and not yet released.
    pub fn held_cards(&self) -> &[u8] {
        &self.cards[usize::from(self.deck)..usize::from(self.deck + self.held)]
    }

    /// The discarded cards.
    pub fn discard_cards(&self) -> &[u8] {
        &self.cards[usize::from(self.deck + self.held)..usize::from(self.len)]
    }

    /// Number of cards left in the deck.
    #[inline]
    pub fn deck_len(&self) -> usize {
        usize::from(self.deck)
    }

    /// Number of cards in the shoe in all.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True if the shoe holds no card at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Where a game's cards come from: a seeded generator in real play, the stacked order in tests.
pub trait Dealer {
    /// Draws the next card from `shoe`'s deck into its held cards; `None` if the deck is empty.
    fn draw<const N: usize>(&mut self, shoe: &mut Shoe<N>) -> Option<u8>;
}

impl Dealer for GameRng {
    #[inline]
    fn draw<const N: usize>(&mut self, shoe: &mut Shoe<N>) -> Option<u8> {
        shoe.draw(self)
    }
}

/// Deals stacked shoes in their given order (see [`Shoe::stacked`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stacked;

impl Dealer for Stacked {
    #[inline]
    fn draw<const N: usize>(&mut self, shoe: &mut Shoe<N>) -> Option<u8> {
        shoe.draw_top()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(cards: &[u8]) -> Vec<u8> {
        let mut v = cards.to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn draws_every_card_once_then_reshuffles_only_the_discard() {
        let start: Vec<u8> = (1..=10).collect();
        let mut shoe = Shoe::<16>::new(&start);
        let mut rng = GameRng::new(3, 4, 5);
        let mut seen = Vec::new();
        for _ in 0..7 {
            seen.push(shoe.draw(&mut rng).unwrap());
            if seen.len() % 3 == 0 {
                shoe.release_held();
            }
        }
        // 6 released, 1 held, 3 in deck.
        assert_eq!(shoe.discard_cards().len(), 6);
        assert_eq!(shoe.held_cards(), &seen[6..]);
        for _ in 0..3 {
            seen.push(shoe.draw(&mut rng).unwrap());
        }
        assert_eq!(shoe.draw(&mut rng), None);
        assert_eq!(sorted(&seen), start);
        let held = sorted(shoe.held_cards());
        shoe.reshuffle_discard();
        assert_eq!(shoe.deck_len(), 6);
        assert_eq!(sorted(shoe.held_cards()), held);
        let mut all = shoe.deck_cards().to_vec();
        all.extend_from_slice(shoe.held_cards());
        assert_eq!(sorted(&all), start);
    }

    #[test]
    fn stacked_shoe_draws_in_order_and_recycles_discard_in_arrival_order() {
        let mut shoe = Shoe::<8>::stacked(&[5, 6, 7]);
        assert_eq!(shoe.draw_top(), Some(5));
        assert_eq!(shoe.draw_top(), Some(6));
        shoe.release_held();
        assert_eq!(shoe.draw_top(), Some(7));
        assert_eq!(shoe.draw_top(), None);
        shoe.reshuffle_discard();
        assert_eq!(shoe.held_cards(), &[7]);
        assert_eq!(shoe.draw_top(), Some(5));
        assert_eq!(shoe.draw_top(), Some(6));
    }

    #[test]
    fn draw_order_is_uniform() {
        // Which of 4 cards comes first: each about a quarter of the time.
        let mut first = [0u32; 4];
        for game in 0..40_000 {
            let mut rng = GameRng::new(9, game, 0);
            let mut shoe = Shoe::<4>::new(&[0, 1, 2, 3]);
            first[usize::from(shoe.draw(&mut rng).unwrap())] += 1;
        }
        for c in first {
            assert!((9_500..10_500).contains(&c), "{first:?}");
        }
    }
}
