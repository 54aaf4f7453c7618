//! Determinization: a whole game state drawn uniformly from those a player cannot tell apart
//! from the real one, given its [`Knowledge`].
//!
//! Kept from the real game: everything face up (the player's own hand, the table, the discard
//! pile, the enemy and its damage and shield, every count). Drawn afresh: the castle's order
//! under the enemy (each rank's royals shuffled among that rank's places), and every hidden
//! card, pool by pool: a pool's unseen cards are shuffled over that pool's places in the tavern
//! column and in the other hands. Known cards (an exactly-killed royal on top of the tavern or
//! drawn by another player) stay where they are known to be. The real game's hidden cards are
//! read only as sets that the player could work out (everything not face up), and put in
//! canonical order before any shuffle, so a world depends on the knowledge and the generator
//! alone (tested: two real states the player cannot tell apart give the very same worlds).

use crate::rng::GameRng;

use super::super::card::{self, JACK};
use super::super::engine::Engine;
use super::super::rules::{MAX_PLAYERS, ROYALS};
use super::knowledge::{KNOWN, Knowledge, Slot};

/// The cards `knowledge`'s player cannot see in `real`: those in the tavern or other hands,
/// worked out as everything not face up.
pub fn hidden(knowledge: &Knowledge, real: &Engine) -> u64 {
    let castle = real.castle().iter().fold(0, |m, &c| m | card::bit(c));
    let seen = real.hands()[usize::from(knowledge.me())] | real.table() | real.discard().mask();
    knowledge.universe() & !seen & !castle
}

/// Makes `world` a determinization of `real` for `knowledge`'s player, drawn with `rng`.
pub fn sample(knowledge: &Knowledge, real: &Engine, rng: &mut GameRng, world: &mut Engine) {
    let me = knowledge.me();
    let mut unknown = hidden(knowledge, real);
    let slots = knowledge.tavern().iter().map(|s| s.slot).chain(
        (0..real.players())
            .filter(|&p| p != me)
            .flat_map(|p| knowledge.hand(p).iter().copied()),
    );
    for slot in slots {
        if slot >= KNOWN {
            unknown &= !card::bit((slot - KNOWN) as u8);
        }
    }
    // The unknown cards grouped by pool (canonical order within a pool), each group shuffled.
    let mut cards = [0u8; 64];
    let mut n = 0;
    let mut pools = [(0 as Slot, 0usize, 0usize); 64]; // (pool, start, next to hand out)
    let mut m = 0;
    for c in card::cards(unknown) {
        let p = knowledge.pool_of(c);
        if !pools[..m].iter().any(|e| e.0 == p) {
            pools[m] = (p, 0, 0);
            m += 1;
        }
    }
    for e in &mut pools[..m] {
        e.1 = n;
        e.2 = n;
        for c in card::cards(unknown) {
            if knowledge.pool_of(c) == e.0 {
                cards[n] = c;
                n += 1;
            }
        }
        rng.shuffle(&mut cards[e.1..n]);
    }
    let mut take = |slot: Slot| -> u8 {
        if slot >= KNOWN {
            return (slot - KNOWN) as u8;
        }
        let e = pools[..m]
            .iter_mut()
            .find(|e| e.0 == slot)
            .expect("every hidden place's pool has cards");
        e.2 += 1;
        cards[e.2 - 1]
    };
    let mut tavern = [0u8; 64];
    let mut t = 0;
    for seg in knowledge.tavern() {
        for _ in 0..seg.count {
            tavern[t] = take(seg.slot);
            t += 1;
        }
    }
    let mut hands = [0u64; MAX_PLAYERS];
    for p in 0..real.players() {
        hands[usize::from(p)] = if p == me {
            real.hands()[usize::from(me)]
        } else {
            knowledge
                .hand(p)
                .iter()
                .fold(0, |h, &slot| h | card::bit(take(slot)))
        };
    }
    debug_assert_eq!(
        pools[..m].iter().map(|e| e.2 - e.1).sum::<usize>(),
        n,
        "every unknown card placed"
    );
    let castle = shuffled_castle(real, rng);
    world.clone_from(real);
    world.redeal(&castle[..real.castle().len() - 1], &tavern[..t], &hands);
}

/// The castle under the enemy with each rank's royals shuffled among that rank's places.
fn shuffled_castle(real: &Engine, rng: &mut GameRng) -> [u8; ROYALS] {
    let rest = &real.castle()[1..];
    let mut out = [0u8; ROYALS];
    out[..rest.len()].copy_from_slice(rest);
    for rank in [JACK, JACK + 1, JACK + 2] {
        let mut group = [0u8; 4];
        let mut k = 0;
        for &c in rest.iter().filter(|&&c| card::rank(c) == rank) {
            group[k] = c;
            k += 1;
        }
        group[..k].sort_unstable();
        rng.shuffle(&mut group[..k]);
        let places = out[..rest.len()]
            .iter_mut()
            .filter(|c| card::rank(**c) == rank);
        for (slot, &c) in places.zip(&group[..k]) {
            *slot = c;
        }
    }
    out
}
