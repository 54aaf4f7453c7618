//! Every distinct way to play a room, with dominated ways dropped: what searches branch over.

use super::card;
use super::engine::{Turn, View};
use super::hero::Hero;
use super::rules::{ROOM, Rules};

/// The most ways to face a room: 4 cards to leave, 6 orders, weapon or not on 3 monsters.
pub const MAX_OPTIONS: usize = 4 * 6 * 8;

/// The orders of three cards, as positions.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Where one way of facing a room leaves the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Option {
    /// The turn.
    pub turn: Turn,
    /// The hero after the room (HP at or below 0 if it killed).
    pub hero: Hero,
    /// The card left in the room for the next (0 if none).
    pub left: u8,
    /// The last card faced.
    pub last: u8,
    /// The sum of the monsters faced.
    pub slain: u8,
    /// The potion value a win right after this room would add to the score.
    pub bonus: u8,
}

impl Option {
    /// True if the player survives the room.
    #[inline]
    pub fn alive(&self) -> bool {
        self.hero.alive()
    }

    /// True if `self` is at least as good as `other` in every respect a later room can see
    /// (both leave the same card: [`Options`] compares only those).
    #[inline(always)]
    fn dominates(&self, other: &Option) -> bool {
        debug_assert_eq!(self.left, other.left);
        (self.hero.weapon == other.hero.weapon)
            & (self.hero.hp >= other.hero.hp)
            & (self.hero.limit >= other.hero.limit)
            & (self.bonus >= other.bonus)
    }
}

/// The non-dominated ways to face a room, plus the best way to die in it (the most monsters
/// faced before dying, which is the best losing score).
#[derive(Clone, Debug)]
pub struct Options {
    items: [Option; MAX_OPTIONS],
    len: usize,
    /// Where the options leaving the current card start: only they can dominate each other.
    group: usize,
    /// The best fatal way, if any way kills.
    pub death: core::option::Option<Option>,
}

impl Options {
    /// The ways to face the room of `view` (not avoiding it).
    pub fn of(rules: &Rules, view: &View) -> Self {
        Self::new(rules, view.room, view.to_face, view.hero)
    }

    /// The ways to face `room`, `to_face` of its cards, starting as `hero`.
    pub fn new(rules: &Rules, room: &[u8], to_face: usize, hero: Hero) -> Self {
        // The rules' choices are constants of the search: each combination compiled apart.
        match (rules.barehanded, rules.weapon_discard) {
            (true, false) => Self::build::<true, false>(rules, room, to_face, hero),
            (true, true) => Self::build::<true, true>(rules, room, to_face, hero),
            (false, false) => Self::build::<false, false>(rules, room, to_face, hero),
            (false, true) => Self::build::<false, true>(rules, room, to_face, hero),
        }
    }

    /// [`Options::new`] with `BARE` = `rules.barehanded`, `DISCARD` = `rules.weapon_discard`.
    fn build<const BARE: bool, const DISCARD: bool>(
        rules: &Rules,
        room: &[u8],
        to_face: usize,
        hero: Hero,
    ) -> Self {
        let mut me = Self::empty(hero);
        let mut start = hero;
        start.new_turn();
        if to_face == room.len() {
            // The last room: face every card, in every order.
            let mut idx = [0u8, 1, 2, 3];
            let n = room.len();
            permute(&mut idx, 0, n, &mut |order| {
                me.walk::<BARE, DISCARD>(rules, room, order, n, 0, start, 0, 0, 0);
            });
            return me;
        }
        for left in 0..ROOM {
            if room[..left].contains(&room[left]) {
                continue;
            }
            me.group = me.len;
            let rest: Vec3 = others(left);
            for o in ORDERS {
                let order = [rest[o[0]], rest[o[1]], rest[o[2]], left as u8];
                me.walk3::<BARE, DISCARD>(rules, room, order, room[left], start);
            }
        }
        me
    }

    /// No options yet.
    fn empty(hero: Hero) -> Self {
        let blank = Option {
            turn: Turn::AVOID,
            hero,
            left: 0,
            last: 0,
            slain: 0,
            bonus: 0,
        };
        Self {
            items: [blank; MAX_OPTIONS],
            len: 0,
            group: 0,
            death: None,
        }
    }

    /// The options, best-first in no particular order.
    pub fn as_slice(&self) -> &[Option] {
        &self.items[..self.len]
    }

    /// Every way to face the three cards of a full room in `order` (the hot path of every
    /// search, unrolled): the same lines in the same order as [`Options::walk`] with `n = 3`.
    #[inline]
    fn walk3<const BARE: bool, const DISCARD: bool>(
        &mut self,
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        left: u8,
        start: Hero,
    ) {
        let codes = [0, 1, 2].map(|k| room[usize::from(order[k])]);
        let line = |hero: Hero, mask: u8, slain: u8, k: usize| Option {
            turn: Turn::plan(order, mask),
            hero,
            left,
            last: codes[k],
            slain,
            bonus: 0,
        };
        for a0 in 0..arms::<BARE, DISCARD>(&start, codes[0]) {
            let (h1, s1) = faced::<BARE, DISCARD>(rules, start, codes[0], a0, 0);
            let m1 = a0;
            if !h1.alive() {
                self.died(line(h1, m1, s1, 0));
                continue;
            }
            for a1 in 0..arms::<BARE, DISCARD>(&h1, codes[1]) {
                let (h2, s2) = faced::<BARE, DISCARD>(rules, h1, codes[1], a1, s1);
                let m2 = m1 | a1 << 1;
                if !h2.alive() {
                    self.died(line(h2, m2, s2, 1));
                    continue;
                }
                for a2 in 0..arms::<BARE, DISCARD>(&h2, codes[2]) {
                    let (h3, s3) = faced::<BARE, DISCARD>(rules, h2, codes[2], a2, s2);
                    let m3 = m2 | a2 << 2;
                    if !h3.alive() {
                        self.died(line(h3, m3, s3, 2));
                        continue;
                    }
                    self.insert(Option {
                        bonus: super::engine::bonus(rules, h3.hp, codes[2]),
                        ..line(h3, m3, s3, 2)
                    });
                }
            }
        }
    }

    /// Keeps `dead` if it is the best way to die so far: the most monsters faced.
    #[inline]
    fn died(&mut self, dead: Option) {
        let better = self
            .death
            .is_none_or(|d| i16::from(dead.slain) + dead.hero.hp > i16::from(d.slain) + d.hero.hp);
        if better {
            self.death = Some(dead);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn walk<const BARE: bool, const DISCARD: bool>(
        &mut self,
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        n: usize,
        left: u8,
        hero: Hero,
        step: usize,
        mask: u8,
        slain: u8,
    ) {
        if step == n {
            let last = room[usize::from(order[n - 1])];
            self.insert(Option {
                turn: Turn::plan(order, mask),
                hero,
                left,
                last,
                slain,
                bonus: super::engine::bonus(rules, hero.hp, last),
            });
            return;
        }
        let code = room[usize::from(order[step])];
        let monster = card::is_monster(code);
        let slain = slain + if monster { card::value(code) } else { 0 };
        let (next, _) = faced::<BARE, DISCARD>(rules, hero, code, 0, 0);
        self.branch::<BARE, DISCARD>(rules, room, order, n, left, next, step, mask, slain, code);
        if arms::<BARE, DISCARD>(&hero, code) == 2 {
            let (armed, _) = faced::<BARE, DISCARD>(rules, hero, code, 1, 0);
            self.branch::<BARE, DISCARD>(
                rules,
                room,
                order,
                n,
                left,
                armed,
                step,
                mask | 1 << step,
                slain,
                code,
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn branch<const BARE: bool, const DISCARD: bool>(
        &mut self,
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        n: usize,
        left: u8,
        hero: Hero,
        step: usize,
        mask: u8,
        slain: u8,
        code: u8,
    ) {
        if hero.alive() {
            self.walk::<BARE, DISCARD>(rules, room, order, n, left, hero, step + 1, mask, slain);
            return;
        }
        let dead = Option {
            turn: Turn::plan(order, mask),
            hero,
            left,
            last: code,
            slain,
            bonus: 0,
        };
        self.died(dead);
    }

    fn insert(&mut self, new: Option) {
        let mut i = self.group;
        while i < self.len {
            if self.items[i].dominates(&new) {
                return;
            }
            if new.dominates(&self.items[i]) {
                self.len -= 1;
                self.items[i] = self.items[self.len];
            } else {
                i += 1;
            }
        }
        self.items[self.len] = new;
        self.len += 1;
    }
}

/// The choices for `code`: 2 for a monster the weapon may be used on while the rules let the
/// player fight barehanded (`BARE`; 0 barehanded, 1 with the weapon), and for a weapon the rules
/// let the player discard (`DISCARD`; 0 equip, 1 discard); else 1.
#[inline(always)]
fn arms<const BARE: bool, const DISCARD: bool>(hero: &Hero, code: u8) -> u8 {
    let fight = BARE && card::is_monster(code) && hero.can_use_weapon(card::value(code));
    let discard = DISCARD && card::is_weapon(code);
    1 + u8::from(fight | discard)
}

/// `hero` after facing `code` with choice `armed` (see [`arms`]; the weapon is always used
/// when the rules give no barehanded choice), and the monsters slain so far.
#[inline(always)]
fn faced<const BARE: bool, const DISCARD: bool>(
    rules: &Rules,
    mut hero: Hero,
    code: u8,
    armed: u8,
    slain: u8,
) -> (Hero, u8) {
    if !(DISCARD && armed == 1 && card::is_weapon(code)) {
        hero.face(rules, code, armed == 1 || !BARE);
    }
    let monster = if card::is_monster(code) {
        card::value(code)
    } else {
        0
    };
    (hero, slain + monster)
}

type Vec3 = [u8; 3];

/// The three indices of a full room other than `left`.
fn others(left: usize) -> Vec3 {
    let mut out = [0u8; 3];
    let mut k = 0;
    for i in 0..ROOM {
        if i != left {
            out[k] = i as u8;
            k += 1;
        }
    }
    out
}

/// Calls `f` with every order of the first `n` entries of `idx` (the rest unchanged).
fn permute(idx: &mut [u8; ROOM], k: usize, n: usize, f: &mut impl FnMut([u8; ROOM])) {
    if k + 1 >= n {
        f(*idx);
        return;
    }
    for i in k..n {
        idx.swap(k, i);
        permute(idx, k + 1, n, f);
        idx.swap(k, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoundrel::hero::FRESH;
    use crate::rng::GameRng;
    use crate::rules::load;

    /// The unrolled and the general walk of `room` in `order`, leaving `left`.
    fn both<const B: bool, const D: bool>(
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        left: usize,
        hero: Hero,
    ) -> (Options, Options) {
        let mut fast = Options::empty(hero);
        fast.walk3::<B, D>(rules, room, order, room[left], hero);
        let mut slow = Options::empty(hero);
        slow.walk::<B, D>(rules, room, order, ROOM - 1, room[left], hero, 0, 0, 0);
        (fast, slow)
    }

    #[test]
    fn the_unrolled_full_room_gives_the_general_walks_lines_in_its_order() {
        for sets in [
            vec![],
            vec!["weapon_wear=strict".to_string()],
            vec!["barehanded=false".to_string()],
            vec!["weapon_discard=true".to_string()],
        ] {
            let rules: Rules = load(None, &sets).unwrap();
            for game in 0..2000u64 {
                let mut cards = rules.deck();
                GameRng::new(3, game, 0).shuffle(&mut cards);
                let room = &cards[..ROOM];
                let g = game as usize;
                let mut hero = Hero::new(&rules);
                hero.hp = 1 + (g % 20) as i16;
                hero.weapon = [0, 3, 7, 10][g % 4];
                hero.limit = [FRESH, 5, 9, 14][g / 4 % 4];
                for left in 0..ROOM {
                    let rest = others(left);
                    for o in ORDERS {
                        let order = [rest[o[0]], rest[o[1]], rest[o[2]], left as u8];
                        let (fast, slow) = match (rules.barehanded, rules.weapon_discard) {
                            (true, false) => both::<true, false>(&rules, room, order, left, hero),
                            (false, false) => both::<false, false>(&rules, room, order, left, hero),
                            (true, true) => both::<true, true>(&rules, room, order, left, hero),
                            (false, true) => both::<false, true>(&rules, room, order, left, hero),
                        };
                        assert_eq!(fast.as_slice(), slow.as_slice(), "{room:?} {hero:?}");
                        assert_eq!(fast.death, slow.death, "{room:?} {hero:?}");
                    }
                }
            }
        }
    }
}
