//! `greedy`: a simple, fixed rule of thumb, cheap enough for millions of games per second.

use crate::rng::GameRng;

use super::card::{self, Kind};
use super::engine::{Turn, View};
use super::policy::Policy;
use super::rules::{ROOM, Rules};

/// The rule:
/// - the card left in a full room: the smaller of two potions (only one can heal), else the
///   biggest monster, else the smallest card;
/// - the order: weapons first (smallest first, so the best ends up equipped), then monsters
///   biggest first (so the weapon stays usable on each), each with the weapon when it may be
///   used, then the potion; the potion first instead if the monsters would kill before it;
/// - avoid the room (when allowed) if that play would kill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Greedy;

/// Sort key: weapons by value, then monsters biggest first, then potions; the room index in the
/// low two bits. Empty slots of a short room sort last.
#[inline(always)]
fn key(room: &[u8], i: usize) -> u16 {
    let Some(&code) = room.get(i) else {
        return u16::MAX;
    };
    let v = u16::from(card::value(code));
    let rank = match card::kind(code) {
        Kind::Weapon => v,
        Kind::Monster => 32 - v,
        Kind::Potion => 64 + v,
    };
    rank << 2 | i as u16
}

/// Sorts four keys with a five-comparator network (no data-dependent branches).
#[inline(always)]
fn sort4(k: &mut [u16; ROOM]) {
    let mut cx = |a: usize, b: usize| {
        let (lo, hi) = (k[a].min(k[b]), k[a].max(k[b]));
        k[a] = lo;
        k[b] = hi;
    };
    cx(0, 1);
    cx(2, 3);
    cx(0, 2);
    cx(1, 3);
    cx(1, 2);
}

/// True if the hero of `view` survives facing the room's first `to_face` cards in `order`, the
/// weapon used whenever it may be.
#[inline(always)]
fn play(rules: &Rules, view: &View, order: [u8; ROOM]) -> bool {
    let mut hero = view.hero;
    hero.new_turn();
    for &i in &order[..view.to_face] {
        hero.face(rules, view.room[usize::from(i)], true);
    }
    hero.alive()
}

impl Policy for Greedy {
    #[inline]
    fn choose(&self, rules: &Rules, view: &View, _: &mut GameRng) -> Turn {
        let room = view.room;
        let mut keys = [0, 1, 2, 3].map(|i| key(room, i));
        sort4(&mut keys);
        let mut order = keys.map(|k| (k & 3) as u8);
        // Ranks: weapons below 16, monsters 17 to 31, potions 64 to 79, empty slots above.
        let below = |rank: u16| keys.iter().filter(|&&k| k >> 2 < rank).count();
        let (weapons, monsters) = (below(16), below(64) - below(16));
        let potions = below(128) - below(64);
        if view.to_face < room.len() {
            // Sorted, the room is its weapons, then its monsters biggest first, then its potions
            // smallest first: leave the smaller of two potions, else the biggest monster.
            let at = if potions >= 2 {
                weapons + monsters
            } else if monsters > 0 {
                weapons
            } else {
                0
            };
            let left = order[at];
            order.copy_within(at + 1..ROOM, at);
            order[ROOM - 1] = left;
        }
        if play(rules, view, order) {
            return Turn::face(order, 0b111);
        }
        // Drink first: move the first potion faced (if any) to the front.
        let potion = order[..view.to_face]
            .iter()
            .position(|&i| card::is_potion(room[usize::from(i)]));
        if let Some(p) = potion {
            let mut first = order;
            first[..=p].rotate_right(1);
            if play(rules, view, first) {
                return Turn::face(first, 0b111);
            }
        }
        if view.can_avoid {
            Turn::AVOID
        } else {
            Turn::face(order, 0b111)
        }
    }
}
