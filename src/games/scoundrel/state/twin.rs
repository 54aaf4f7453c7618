//! Scoundrel's twin of a state for the fairness test ([`Twin`]): the dungeon's never-seen cards
//! rearranged; under `avoid_order = shuffle` each avoided room's cards at the bottom too (the
//! player knows them as a set, not in order); the generator of later avoid shuffles replaced
//! (`shuffle`, `reshuffle`).

use crate::games::scoundrel::AvoidDealer;
use crate::games::scoundrel::engine::Streams;
use crate::games::scoundrel::rules::{AvoidOrder, ROOM};
use crate::games::twin::{Twin, rearrange};
use crate::rng::GameRng;

use super::State;

impl Twin for State<'_> {
    fn twin(&self, _seat: u8, rng: &mut GameRng) -> Self {
        let mut cards: Vec<u8> = self.engine.dungeon().iter().collect();
        let never_seen = cards.len() - usize::from(self.known);
        let (top, bottom) = cards.split_at_mut(never_seen);
        rearrange(top, rng);
        if self.rules.avoid_order == AvoidOrder::Shuffle {
            // Rooms went under the bottom four at a time; the top one may have lost cards since.
            for room in bottom.rchunks_mut(ROOM) {
                rearrange(room, rng);
            }
        }
        let mut twin = self.clone();
        twin.engine.reorder(&cards);
        if let AvoidDealer::Shuffle(_) = self.avoid {
            let later = GameRng::new(rng.next_u64(), rng.next_u64(), Streams::AVOID);
            twin.avoid = AvoidDealer::Shuffle(later);
        }
        twin
    }
}
