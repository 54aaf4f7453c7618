//! Junkyard's twin of a state for the fairness test ([`Twin`]): the seat's own heap rearranged;
//! the other seat's tear-downs moved between its hand and its heap, then its heap rearranged;
//! both seats' generators of the order cards go back under a heap replaced (`shuffle_returns`).

use crate::games::junkyard::cards::{Heap, KING, LESSER};
use crate::games::twin::{Twin, rearrange};
use crate::rng::GameRng;

use super::{Returns, State};

impl Twin for State<'_> {
    fn twin(&self, seat: u8, rng: &mut GameRng) -> Self {
        let mut twin = self.clone();
        let (me, other) = (usize::from(seat), 1 - usize::from(seat));
        let sides = twin.engine.sides_mut();
        let mut mine: Vec<u8> = sides[me].heap.iter().collect();
        rearrange(&mut mine, rng);
        sides[me].heap = Heap::stacked(&mine);
        // The other's tear-downs: those in its heap and those in its hand, swapped about.
        let theirs = &mut sides[other];
        let mut heap: Vec<u8> = theirs.heap.iter().collect();
        let is_tear = |c: u8| c == KING || c == LESSER;
        let mut tears: Vec<u8> = heap.iter().copied().filter(|&c| is_tear(c)).collect();
        let in_heap = tears.len();
        tears.extend(std::iter::repeat_n(KING, usize::from(theirs.hand[0])));
        tears.extend(std::iter::repeat_n(LESSER, usize::from(theirs.hand[1])));
        rearrange(&mut tears, rng);
        let mut back = tears[..in_heap].iter();
        for c in heap.iter_mut().filter(|c| is_tear(**c)) {
            *c = *back.next().expect("as many tear-downs as places");
        }
        let held = &tears[in_heap..];
        theirs.hand = [KING, LESSER].map(|t| held.iter().filter(|&&c| c == t).count() as u8);
        rearrange(&mut heap, rng);
        theirs.heap = Heap::stacked(&heap);
        for returns in &mut twin.returns {
            if let Returns::Shuffled(_) = returns {
                *returns = Returns::Shuffled(GameRng::new(rng.next_u64(), rng.next_u64(), 0));
            }
        }
        twin
    }
}
