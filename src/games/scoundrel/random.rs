//! `random`: a baseline that picks uniformly among the legal choices at each decision.

use crate::rng::GameRng;

use super::card;
use super::engine::{Turn, View};
use super::policy::Policy;
use super::rules::{ROOM, Rules};

/// Uniform at each decision: avoid or one of the room's cards first; then each next card; and
/// for each monster the weapon may be used on, weapon or barehanded. Its coin flips come from
/// the game's own policy stream, so runs stay reproducible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Policy for Random {
    const READS_DUNGEON: bool = false;

    fn choose(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Turn {
        let n = view.room.len();
        if view.can_avoid && coins.below(n as u64 + 1) == 0 {
            return Turn::AVOID;
        }
        let mut order = [0u8, 1, 2, 3];
        let mut weapon = 0u8;
        let mut hero = view.hero;
        hero.new_turn();
        for step in 0..view.to_face {
            let pick = step + coins.below((n - step) as u64) as usize;
            order.swap(step, pick);
            let code = view.room[usize::from(order[step])];
            let armed = card::is_monster(code)
                && hero.can_use_weapon(card::value(code))
                && coins.below(2) == 1;
            weapon |= u8::from(armed) << step;
            hero.face(rules, code, armed);
        }
        debug_assert!(n <= ROOM);
        Turn::face(order, weapon)
    }
}
