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

/// Sort key: weapons by value, then monsters biggest first, then potions.
#[inline(always)]
fn rank(code: u8) -> u8 {
    let v = card::value(code);
    match card::kind(code) {
        Kind::Weapon => v,
        Kind::Monster => 32 - v,
        Kind::Potion => 64 + v,
    }
}

impl Policy for Greedy {
    #[inline]
    fn choose(&self, rules: &Rules, view: &View, _: &mut GameRng) -> Turn {
        let room = view.room;
        let n = room.len();
        let mut order = [0u8, 1, 2, 3];
        // Insertion sort of the room's indices by rank.
        for i in 1..n {
            let mut j = i;
            while j > 0 && rank(room[usize::from(order[j - 1])]) > rank(room[usize::from(order[j])])
            {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        if view.to_face < n {
            let potions = room
                .iter()
                .filter(|&&c| card::kind(c) == Kind::Potion)
                .count();
            let leave = if potions >= 2 {
                // The smaller potion comes first among potions.
                order
                    .iter()
                    .position(|&i| card::kind(room[usize::from(i)]) == Kind::Potion)
            } else {
                order
                    .iter()
                    .position(|&i| card::is_monster(room[usize::from(i)]))
            };
            let at = leave.unwrap_or(0);
            let left = order[at];
            order.copy_within(at + 1..ROOM, at);
            order[ROOM - 1] = left;
        }
        let play = |order: [u8; ROOM]| {
            let mut hero = view.hero;
            hero.new_turn();
            for &i in &order[..view.to_face] {
                hero.face(rules, room[usize::from(i)], true);
            }
            hero
        };
        let mut turn = Turn::face(order, 0b111);
        if !play(order).alive() {
            // Drink first: move the potion (if facing one) to the front.
            if let Some(p) = order[..view.to_face]
                .iter()
                .position(|&i| card::kind(room[usize::from(i)]) == Kind::Potion)
            {
                let mut first = order;
                first[..=p].rotate_right(1);
                if play(first).alive() {
                    turn = Turn::face(first, 0b111);
                } else if view.can_avoid {
                    return Turn::AVOID;
                }
            } else if view.can_avoid {
                return Turn::AVOID;
            }
        }
        turn
    }
}
