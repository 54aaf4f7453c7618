//! Regicide's twin of a state for the fairness test ([`Twin`]): the cards hidden from the seat
//! (in the tavern and in the other hands) moved among the places of their pool, the seat's
//! knowledge telling the pools apart (a card it knows where it is stays there); the royals under
//! the enemy rearranged within each rank; the hearts generator replaced.

use crate::games::regicide::card::{self, JACK};
use crate::games::regicide::engine::Streams;
use crate::games::regicide::search::determinize;
use crate::games::regicide::search::knowledge::{KNOWN, Slot};
use crate::games::twin::{Twin, rearrange};
use crate::rng::GameRng;

use super::State;

/// Where a hidden card lies: a place in the tavern (top first) or in a seat's hand.
#[derive(Clone, Copy)]
enum Place {
    Tavern(usize),
    Hand(usize),
}

impl Twin for State<'_> {
    fn twin(&self, seat: u8, rng: &mut GameRng) -> Self {
        let knowledge = &self.knowledge[usize::from(seat)];
        let engine = &self.engine;
        let others = (0..engine.players()).filter(|&p| p != seat);
        let slots = knowledge.tavern().iter().map(|s| s.slot).chain(
            others
                .clone()
                .flat_map(|p| knowledge.hand(p).iter().copied()),
        );
        let known = slots
            .filter(|&slot| slot >= KNOWN)
            .fold(0, |m, slot| m | card::bit((slot - KNOWN) as u8));
        let free = determinize::hidden(knowledge, engine) & !known;
        // Every card free to move, by pool, with its place.
        let mut tavern: Vec<u8> = engine.tavern().iter().collect();
        let mut hands = *engine.hands();
        let mut places: Vec<(Slot, Place, u8)> = Vec::new();
        for (i, &c) in tavern.iter().enumerate() {
            if free & card::bit(c) != 0 {
                places.push((knowledge.pool_of(c), Place::Tavern(i), c));
            }
        }
        for p in others.map(usize::from) {
            for c in card::cards(hands[p] & free) {
                places.push((knowledge.pool_of(c), Place::Hand(p), c));
                hands[p] &= !card::bit(c);
            }
        }
        places.sort_by_key(|&(pool, ..)| pool);
        for group in places.chunk_by(|a, b| a.0 == b.0) {
            let mut cards: Vec<u8> = group.iter().map(|&(.., c)| c).collect();
            rearrange(&mut cards, rng);
            for (&(_, place, _), c) in group.iter().zip(cards) {
                match place {
                    Place::Tavern(i) => tavern[i] = c,
                    Place::Hand(p) => hands[p] |= card::bit(c),
                }
            }
        }
        let mut castle = engine.castle().get(1..).unwrap_or_default().to_vec();
        for rank in [JACK, JACK + 1, JACK + 2] {
            let at: Vec<usize> = (0..castle.len())
                .filter(|&i| card::rank(castle[i]) == rank)
                .collect();
            let mut royals: Vec<u8> = at.iter().map(|&i| castle[i]).collect();
            rearrange(&mut royals, rng);
            for (&i, c) in at.iter().zip(royals) {
                castle[i] = c;
            }
        }
        let mut twin = self.clone();
        twin.engine.redeal(&castle, &tavern, &hands);
        twin.hearts = GameRng::new(rng.next_u64(), rng.next_u64(), Streams::HEARTS);
        twin
    }
}
