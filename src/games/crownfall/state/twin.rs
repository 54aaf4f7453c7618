//! Crownfall's twin of a state for the fairness test ([`Twin`]): the unseen deck and the tower's
//! face-down enemies rearranged, the reshuffle generator replaced; under `deck = infinite` the
//! unseen cards are fresh faces drawn anew.

use crate::cards::{Dealer, Fresh};
use crate::games::crownfall::rules::Deck;
use crate::games::crownfall::solver::strike::FACES;
use crate::games::crownfall::{PlayerDeck, Streams};
use crate::games::twin::{Twin, rearrange};
use crate::rng::GameRng;

use super::State;

impl Twin for State<'_> {
    fn twin(&self, _seat: u8, rng: &mut GameRng) -> Self {
        let mut twin = self.clone();
        let later = GameRng::new(rng.next_u64(), rng.next_u64(), Streams::PLAYER_DECK);
        let board = &mut twin.run.board;
        match self.rules.deck {
            Deck::Finite => {
                rearrange(board.deck.deck_cards_mut(), rng);
                twin.deck = PlayerDeck::Shuffled(later);
            }
            Deck::Infinite => {
                let mut fresh = Fresh::new(later, FACES as u8);
                fresh.shuffle(board.deck.deck_cards_mut());
                twin.deck = PlayerDeck::Fresh(fresh);
            }
        }
        // The tower's first card is the enemy faced (or next to be turned over): seen.
        if let Some(face_down) = board.tower.deck_cards_mut().get_mut(1..) {
            rearrange(face_down, rng);
        }
        twin
    }
}
