//! A richer static score than [`super::evaluate::Weights`]: a linear model over
//! [`FEATURES`] features of where a play leaves the player, its weights found by a search over
//! them (`examples/scoundrel_tune.rs`). The one-room policy `tuned` maximizes it; `expectimax`
//! scores its leaves by it.

use super::card::{self, Counts};
use super::evaluate::{DEAD, Evaluation, Weights};
use super::hero::Hero;

mod prefix_sums;

/// Features the model reads.
pub const FEATURES: usize = 17;

/// The features' names, in the order of [`Rich::weights`] (for the tuner's output and docs).
pub const NAMES: [&str; FEATURES] = [
    "hp",
    "below_5",
    "below_10",
    "below_15",
    "potions",
    "monsters",
    "absorbed",
    "weapons",
    "covered",
    "weapon_cards",
    "potion_cards",
    "beyond_limit",
    "avoided",
    "weapon",
    "monster_cards",
    "usable_cards",
    "cards",
];

/// The model: its value is `weights . features` where the features of a hero with `future` to
/// face are, in order:
/// - `hp`; `below_5`, `below_10`, `below_15`: how far HP is under 5, 10 and 15 (0 if not);
/// - `potions`, `monsters`, `weapons`: the value of the potions, monsters and weapons to come;
/// - `absorbed`: what the weapon in hand can still absorb, `min(m, weapon)` summed over the
///   monsters to come it may be used on;
/// - `covered`: what the best weapon to come could absorb, `min(m, best)` over every monster
///   to come;
/// - `weapon_cards`, `potion_cards`: how many weapons and potions are to come;
/// - `beyond_limit`: the value of the monsters to come the weapon in hand may not be used on
///   (every monster when there is none);
/// - `avoided`: 1 if the play avoided the room (the next may not be);
/// - `weapon`: the value of the weapon in hand;
/// - `monster_cards`, `usable_cards`: how many monsters are to come, and how many of them the
///   weapon in hand may be used on;
/// - `cards`: how many cards are to come.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rich {
    /// One weight per feature, in the order of [`NAMES`].
    pub weights: [f32; FEATURES],
}

impl Default for Rich {
    /// The weights the tuner found (see docs/scoundrel.md, "Policies").
    fn default() -> Self {
        Self { weights: TUNED }
    }
}

/// The tuned weights (lenient wear, default rules).
const TUNED: [f32; FEATURES] = [
    1.0639648,
    0.119140625,
    0.04296875,
    -0.5734375,
    1.1341797,
    -0.9975586,
    0.2,
    1.578125,
    0.03125,
    -2.453125,
    -0.546875,
    0.01953125,
    -0.21875,
    0.19140625,
    0.96875,
    -0.125,
    -0.2265625,
];

/// What the features need of a dungeon, precomputed once for every play of a room after it:
/// prefix sums over the monsters' values, so each play is scored without a loop.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// Monsters of value at most `v`, by `v`.
    count_to: [u32; 16],
    /// The value of the monsters of value at most `v`, by `v`.
    value_to: [u32; 16],
    potions: u32,
    weapons: u32,
    potion_cards: u32,
    weapon_cards: u32,
    best: u8,
}

/// A dungeon's [`Summary`] with the card left in the room added: what is to come after a play.
#[derive(Clone, Copy, Debug)]
pub struct After<'a> {
    summary: &'a Summary,
    /// The left card's value, 0 if none.
    value: u8,
    monster: bool,
    weapon: bool,
    potion: bool,
}

impl Summary {
    /// Monsters of value at most `x` and their value, without a card left (values run to 15).
    #[inline(always)]
    pub fn monsters_to(&self, x: u8) -> (u32, u32) {
        let x = usize::from(x);
        (self.count_to[x], self.value_to[x])
    }

    /// What is to come after a play that leaves `left` (0 for none).
    #[inline(always)]
    pub fn after(&self, left: u8) -> After<'_> {
        // `&` rather than `&&`: no branch on the card (the searches ask for every card left).
        let some = left != 0;
        After {
            summary: self,
            value: card::value(left),
            monster: some & card::is_monster(left),
            weapon: some & card::is_weapon(left),
            potion: some & card::is_potion(left),
        }
    }
}

impl After<'_> {
    /// Monsters of value at most `x` (values run to 15).
    #[inline(always)]
    pub fn count_to(&self, x: u8) -> u32 {
        self.summary.count_to[usize::from(x)] + u32::from(self.monster & (self.value <= x))
    }

    /// The value of the monsters of value at most `x`.
    #[inline(always)]
    pub fn value_to(&self, x: u8) -> u32 {
        let left = u32::from(self.value) * u32::from(self.monster & (self.value <= x));
        self.summary.value_to[usize::from(x)] + left
    }

    /// What a weapon of value `w` that may be used on monsters up to `limit` can absorb:
    /// `min(m, w)` summed over the monsters `m <= limit`.
    #[inline(always)]
    pub fn absorbed(&self, w: u8, limit: u8) -> u32 {
        let limit = limit.min(15);
        let low = w.min(limit);
        self.value_to(low) + u32::from(w) * (self.count_to(limit) - self.count_to(low))
    }

    /// The value of the potions.
    #[inline(always)]
    pub fn potions(&self) -> u32 {
        self.summary.potions + u32::from(self.value) * u32::from(self.potion)
    }

    /// The value of the weapons.
    #[inline(always)]
    pub fn weapons(&self) -> u32 {
        self.summary.weapons + u32::from(self.value) * u32::from(self.weapon)
    }

    fn best(&self) -> u8 {
        if self.weapon {
            self.summary.best.max(self.value)
        } else {
            self.summary.best
        }
    }
}

/// The monsters of [`After`] as prefix sums with the card left already in them: what a weapon
/// absorbs is then read without adjusting for that card (the searches read it for every way
/// of a group that leaves it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Monsters {
    /// Monsters of value at most `v`, by `v`.
    count_to: [u16; 16],
    /// The value of the monsters of value at most `v`, by `v`.
    value_to: [u16; 16],
}

impl Monsters {
    /// [`After::absorbed`]: `min(m, w)` summed over the monsters `m <= limit`.
    #[inline(always)]
    pub fn absorbed(&self, w: u8, limit: u8) -> u32 {
        let limit = usize::from(limit.min(15));
        let low = usize::from(w).min(limit);
        let above = self.count_to[limit] - self.count_to[low];
        u32::from(self.value_to[low]) + u32::from(w) * u32::from(above)
    }
}

/// The features of `hero` facing the dungeon of `summary` plus the card `left` (0 for none),
/// not avoided: the same numbers as [`features`] of the dungeon with `left` added.
#[inline]
pub fn features_after(summary: &Summary, hero: &Hero, left: u8) -> [f32; FEATURES] {
    let a = summary.after(left);
    let best = a.best();
    let (monsters, monster_cards) = (a.value_to(15), a.count_to(15));
    let covered = a.value_to(best) + u32::from(best) * (monster_cards - a.count_to(best));
    let w = hero.weapon;
    let (absorbed, usable, beyond) = if w > 0 {
        let limit = hero.limit.min(15);
        (
            a.absorbed(w, limit),
            a.count_to(limit),
            monsters - a.value_to(limit),
        )
    } else {
        (0, 0, monsters)
    };
    let weapon_cards = summary.weapon_cards + u32::from(a.weapon);
    let potion_cards = summary.potion_cards + u32::from(a.potion);
    let hp = f32::from(hero.hp);
    [
        hp,
        (5.0 - hp).max(0.0),
        (10.0 - hp).max(0.0),
        (15.0 - hp).max(0.0),
        a.potions() as f32,
        monsters as f32,
        absorbed as f32,
        a.weapons() as f32,
        covered as f32,
        weapon_cards as f32,
        potion_cards as f32,
        beyond as f32,
        0.0,
        f32::from(w),
        monster_cards as f32,
        usable as f32,
        (monster_cards + weapon_cards + potion_cards) as f32,
    ]
}

/// The features of `hero` facing `future` (see [`Rich`]).
#[inline]
pub fn features(hero: &Hero, future: &Counts, avoided: bool) -> [f32; FEATURES] {
    let hp = f32::from(hero.hp);
    let w = hero.weapon;
    let best = future.best_weapon();
    let (mut monsters, mut absorbed, mut covered, mut beyond) = (0u32, 0u32, 0u32, 0u32);
    let (mut monster_cards, mut usable) = (0u32, 0u32);
    for (v, &n) in future.monsters().iter().enumerate().skip(1) {
        let (v, n) = (v as u8, u32::from(n));
        let value = n * u32::from(v);
        monsters += value;
        monster_cards += n;
        covered += n * u32::from(v.min(best));
        if w > 0 && v <= hero.limit {
            absorbed += n * u32::from(v.min(w));
            usable += n;
        } else {
            beyond += value;
        }
    }
    let weapon_cards: u32 = future.weapons().iter().map(|&n| u32::from(n)).sum();
    let potion_cards: u32 = future.potions().iter().map(|&n| u32::from(n)).sum();
    [
        hp,
        (5.0 - hp).max(0.0),
        (10.0 - hp).max(0.0),
        (15.0 - hp).max(0.0),
        future.potion_total() as f32,
        monsters as f32,
        absorbed as f32,
        future.weapon_total() as f32,
        covered as f32,
        weapon_cards as f32,
        potion_cards as f32,
        beyond as f32,
        f32::from(u8::from(avoided)),
        f32::from(w),
        monster_cards as f32,
        usable as f32,
        (monster_cards + weapon_cards + potion_cards) as f32,
    ]
}

impl Rich {
    #[inline]
    fn dot(&self, f: [f32; FEATURES]) -> f32 {
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
    }
}

impl Evaluation for Rich {
    #[inline]
    fn value(&self, hero: &Hero, future: &Counts, avoided: bool) -> f32 {
        if !hero.alive() {
            return DEAD + f32::from(hero.hp);
        }
        self.dot(features(hero, future, avoided))
    }

    #[inline]
    fn value_after(&self, ready: &Summary, hero: &Hero, left: u8) -> f32 {
        if !hero.alive() {
            return DEAD + f32::from(hero.hp);
        }
        self.dot(features_after(ready, hero, left))
    }

    /// Not in general: a higher limit raises `usable_cards` and lowers `beyond_limit`, and the
    /// tuned weights of both can outweigh `absorbed`'s.
    #[inline]
    fn monotone_weights(&self) -> core::option::Option<&Weights> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoundrel::card::{monster as m, potion as p, weapon as wp};
    use crate::games::scoundrel::hero::FRESH;

    #[test]
    fn features_count_what_their_names_say() {
        let future = Counts::of(&[m(14), m(9), m(3), wp(7), wp(4), p(5)]);
        let hero = Hero {
            hp: 8,
            weapon: 6,
            limit: 9,
            heals: 0,
        };
        let f = features(&hero, &future, true);
        let by = |name: &str| f[NAMES.iter().position(|&n| n == name).unwrap()];
        assert_eq!(
            (by("hp"), by("below_5"), by("below_10"), by("below_15")),
            (8.0, 0.0, 2.0, 7.0)
        );
        assert_eq!(
            (by("potions"), by("monsters"), by("weapons")),
            (5.0, 26.0, 11.0)
        );
        // The 6 may be used on the 9 and the 3 (limit 9): 6 + 3.
        assert_eq!(
            (by("absorbed"), by("usable_cards"), by("beyond_limit")),
            (9.0, 2.0, 14.0)
        );
        // The best weapon to come is the 7: 7 + 7 + 3.
        assert_eq!(by("covered"), 17.0);
        assert_eq!(
            (by("weapon_cards"), by("potion_cards"), by("monster_cards")),
            (2.0, 1.0, 3.0)
        );
        assert_eq!((by("avoided"), by("weapon"), by("cards")), (1.0, 6.0, 6.0));
        // No weapon: every monster is beyond the limit, a fresh limit notwithstanding.
        let bare = Hero {
            weapon: 0,
            limit: FRESH,
            ..hero
        };
        let f = features(&bare, &future, false);
        assert_eq!((f[6], f[11], f[15]), (0.0, 26.0, 0.0));
    }

    #[test]
    fn the_prepared_features_are_the_plain_ones_with_the_left_card_added() {
        use crate::rng::GameRng;
        let rules = crate::games::scoundrel::Rules::default();
        let mut seen = [false; 3];
        for game in 0..3000u64 {
            let mut cards = rules.deck();
            GameRng::new(4, game, 0).shuffle(&mut cards);
            let g = game as usize;
            let cut = g % 40;
            let dungeon = Counts::of(&cards[cut + 1..]);
            let left = if g.is_multiple_of(7) { 0 } else { cards[cut] };
            let hero = Hero {
                hp: 1 + (g % 20) as i16,
                weapon: [0, 2, 7, 10][g % 4],
                limit: [FRESH, 1, 6, 14][g / 4 % 4],
                heals: 0,
            };
            let mut future = dungeon;
            if left != 0 {
                future.add(left);
                seen[usize::from(left >> 5)] = true;
            }
            let fast = features_after(&Summary::of(&dungeon), &hero, left);
            assert_eq!(fast, features(&hero, &future, false), "{hero:?} {left:#x}");
        }
        assert_eq!(seen, [true; 3], "every kind of left card tried");
    }

    #[test]
    fn the_value_is_the_weighted_sum_and_death_is_below_any_life() {
        let future = Counts::of(&[m(10), p(4)]);
        let hero = Hero {
            hp: 12,
            weapon: 0,
            limit: FRESH,
            heals: 0,
        };
        let rich = Rich::default();
        let f = features(&hero, &future, false);
        let dot: f32 = rich.weights.iter().zip(f).map(|(w, x)| w * x).sum();
        assert_eq!(rich.value(&hero, &future, false), dot);
        let dead = Hero { hp: -3, ..hero };
        assert!(rich.value(&dead, &future, false) < -1.0e5);
    }
}
