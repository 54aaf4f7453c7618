//! Fixed-capacity card piles, shuffled and drawn with no allocation.

use crate::rng::GameRng;

/// A deck of at most `N` cards with its held cards and its discard.
///
/// The cards live in one array split into three regions: `[discard | held | deck]`. The top of the
/// deck is the start of its region, so the next cards to come are contiguous in memory. Drawing
/// moves the top card into the held region; releasing moves every held card to the discard;
/// reshuffling turns the discard into the deck while held cards stay where they are. A [`Dealer`]
/// decides the deck's order. Card values are small integers whose meaning belongs to the game.
#[derive(Clone, Debug)]
pub struct Shoe<const N: usize> {
    cards: [u8; N],
    len: u8,
    top: u8,
    held: u8,
}

impl<const N: usize> Shoe<N> {
    /// A shoe whose deck yields `cards` first to last (at most `N`, at most 255).
    pub fn new(cards: &[u8]) -> Self {
        assert!(cards.len() <= N && cards.len() <= usize::from(u8::MAX));
        let mut all = [0u8; N];
        all[..cards.len()].copy_from_slice(cards);
        Self {
            cards: all,
            len: cards.len() as u8,
            top: 0,
            held: 0,
        }
    }

    /// Moves the top card of the deck into the held cards; `None` if the deck is empty.
    #[inline(always)]
    pub fn draw(&mut self) -> Option<u8> {
        if self.top == self.len {
            return None;
        }
        let card = self.cards[usize::from(self.top)];
        self.top += 1;
        self.held += 1;
        Some(card)
    }

    /// The top card of the deck, left there; `None` if the deck is empty.
    #[inline(always)]
    pub fn top_card(&self) -> Option<u8> {
        (self.top < self.len).then(|| self.cards[usize::from(self.top)])
    }

    /// Moves the top `n` cards (at most the deck) into the held cards.
    #[inline(always)]
    pub fn draw_many(&mut self, n: u8) {
        debug_assert!(n <= self.len - self.top);
        self.top += n;
        self.held += n;
    }

    /// Moves every held card to the discard.
    #[inline]
    pub fn release_held(&mut self) {
        self.held = 0;
    }

    /// Makes the discard the new deck (to be shuffled by the dealer); held cards stay held. The
    /// deck must be empty. Unshuffled, the first card discarded is the first drawn.
    pub fn reshuffle_discard(&mut self) {
        debug_assert_eq!(self.top, self.len);
        // [discard | held] -> [held | discard]
        self.cards[..usize::from(self.len)].rotate_right(usize::from(self.held));
        self.top = self.held;
    }

    /// The cards still in the deck, top first.
    #[inline]
    pub fn deck_cards(&self) -> &[u8] {
        &self.cards[usize::from(self.top)..usize::from(self.len)]
    }

    /// The deck region, for a dealer to order.
    pub fn deck_cards_mut(&mut self) -> &mut [u8] {
        &mut self.cards[usize::from(self.top)..usize::from(self.len)]
    }

    /// The `W` array slots from the top of the deck on, if the array has that many: the first
    /// `deck_len()` are the next cards in order, any others are zeros (the array past the shoe's
    /// cards is never written).
    #[inline(always)]
    pub fn window<const W: usize>(&self) -> Option<&[u8; W]> {
        self.cards
            .get(usize::from(self.top)..usize::from(self.top) + W)
            .map(|w| w.try_into().expect("the range has W slots"))
    }

    /// The cards drawn and not yet released.
    pub fn held_cards(&self) -> &[u8] {
        &self.cards[usize::from(self.top - self.held)..usize::from(self.top)]
    }

    /// The discarded cards.
    pub fn discard_cards(&self) -> &[u8] {
        &self.cards[..usize::from(self.top - self.held)]
    }

    /// Number of cards out of the deck (held or discarded): since the last reshuffle, the cards
    /// drawn plus the cards held through it.
    #[inline]
    pub fn dealt(&self) -> usize {
        usize::from(self.top)
    }

    /// Number of cards left in the deck.
    #[inline]
    pub fn deck_len(&self) -> usize {
        usize::from(self.len - self.top)
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

/// Who orders a deck: a seeded generator in real play, nobody for a stacked test deck.
pub trait Dealer {
    /// Puts `cards` in the order they will be drawn (first card first).
    fn shuffle(&mut self, cards: &mut [u8]);
}

impl Dealer for GameRng {
    #[inline]
    fn shuffle(&mut self, cards: &mut [u8]) {
        GameRng::shuffle(self, cards);
    }
}

/// Leaves stacked decks in their given order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stacked;

impl Dealer for Stacked {
    #[inline]
    fn shuffle(&mut self, _: &mut [u8]) {}
}

/// Deals fresh cards instead of ordering the given ones: every card put in the deck is a new
/// value drawn uniformly from `1..=faces`, independent of all others. A shoe refilled by it is an
/// infinite deck: what was discarded never matters.
#[derive(Clone, Debug)]
pub struct Fresh {
    rng: GameRng,
    faces: u8,
}

impl Fresh {
    /// Fresh cards `1..=faces` (at least 1) from `rng`.
    pub fn new(rng: GameRng, faces: u8) -> Self {
        assert!(faces >= 1, "a card has at least one face");
        Self { rng, faces }
    }

    /// The next fresh card's face (drawn from this generator: use a clone to look ahead).
    pub fn next_face(&mut self) -> u64 {
        self.rng.below(u64::from(self.faces)) + 1
    }
}

impl Dealer for Fresh {
    #[inline]
    fn shuffle(&mut self, cards: &mut [u8]) {
        for card in cards {
            *card = self.rng.below(u64::from(self.faces)) as u8 + 1;
        }
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
    fn stacked_shoe_draws_in_order_holds_releases_and_recycles_the_discard() {
        let mut shoe = Shoe::<8>::new(&[5, 6, 7, 8]);
        assert_eq!(shoe.draw(), Some(5));
        assert_eq!(shoe.draw(), Some(6));
        shoe.release_held();
        assert_eq!(shoe.draw(), Some(7));
        assert_eq!(shoe.draw(), Some(8));
        assert_eq!(shoe.held_cards().len(), 2);
        assert_eq!(sorted(shoe.discard_cards()), vec![5, 6]);
        assert_eq!(shoe.draw(), None);
        shoe.reshuffle_discard();
        assert_eq!(sorted(shoe.held_cards()), vec![7, 8]);
        assert_eq!(shoe.draw(), Some(5));
        assert_eq!(shoe.draw(), Some(6));
        assert_eq!(shoe.draw(), None);
    }

    #[test]
    fn fresh_cards_are_uniform_and_ignore_what_was_there() {
        let mut fresh = Fresh::new(GameRng::new(5, 6, 7), 10);
        let mut counts = [0u32; 11];
        let mut cards = [0u8; 40];
        for _ in 0..25_000 {
            fresh.shuffle(&mut cards);
            for &c in &cards {
                counts[usize::from(c)] += 1;
            }
        }
        assert_eq!(counts[0], 0);
        // 10^6 cards: each face 10^5 expected, standard deviation 300.
        for &n in &counts[1..] {
            assert!((98_800..=101_200).contains(&n), "{counts:?}");
        }
    }

    #[test]
    fn a_shuffled_reshuffle_keeps_every_card_exactly_once() {
        let start: Vec<u8> = (1..=10).collect();
        let mut shoe = Shoe::<16>::new(&start);
        let mut rng = GameRng::new(3, 4, 5);
        rng.shuffle(shoe.deck_cards_mut());
        for _ in 0..10 {
            shoe.draw().unwrap();
            if shoe.held_cards().len() == 3 {
                shoe.release_held();
            }
        }
        shoe.reshuffle_discard();
        rng.shuffle(shoe.deck_cards_mut());
        assert_eq!(shoe.deck_len(), 9);
        let mut all = shoe.deck_cards().to_vec();
        all.extend_from_slice(shoe.held_cards());
        assert_eq!(sorted(&all), start);
    }
}
