//! A static score of where a way of playing leaves the player: the projected HP at the end of
//! the dungeon under a linear model of what the cards still to come will do.

use serde::Deserialize;

use super::card::{self, Counts};
use super::features::{self, Summary};
use super::hero::Hero;

mod bounds;

/// The model's weights. Projected HP =
/// `hp + potion * (potions to come) - (monsters to come)
///  + weapon * (what the weapon in hand can still absorb: min(m, weapon) over the monsters to
///    come that it may be used on) + spare * (weapons to come)
///  - danger * max(0, danger_hp - hp) - avoid (if this play avoids the room)`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weights {
    /// Worth of one point of potion still to come.
    pub potion: f32,
    /// Worth of one point the weapon in hand can still absorb.
    pub weapon: f32,
    /// Worth of one point of weapon still to come.
    pub spare: f32,
    /// HP under which low HP costs extra.
    pub danger_hp: f32,
    /// The extra cost per HP under `danger_hp`.
    pub danger: f32,
    /// The cost of avoiding (the next room cannot be avoided).
    pub avoid: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            potion: 1.1,
            weapon: 0.2,
            spare: 1.5,
            danger_hp: 18.0,
            danger: 0.8,
            avoid: 0.0,
        }
    }
}

/// What [`Weights::value`] scores a dead end at: below any living position.
pub const DEAD: f32 = -1.0e6;

/// A static score of where a play leaves the player, higher is better: what the one-room
/// policies maximize and the searches score their leaves by.
pub trait Evaluation {
    /// The score of `hero` with `future` still to be faced (the dungeon and any card left in the
    /// room), `avoided` if the play avoided the room; [`DEAD`] plus HP for a dead hero.
    fn value(&self, hero: &Hero, future: &Counts, avoided: bool) -> f32;

    /// The same as [`Evaluation::value`], not avoided, with the dungeon of `summary` plus the
    /// card `left` (0 for none) to come: the summary is made once for every play of a room.
    fn value_after(&self, summary: &Summary, hero: &Hero, left: u8) -> f32;

    /// These weights if the evaluation is [`Weights`] and a living play that dominates another
    /// (the same weapon and card left, at least the HP and the weapon's limit) never scores
    /// less by [`Evaluation::value_after`]: then the best play of a room can be found without
    /// listing the room's non-dominated plays (see [`super::heuristic::choose_turn`]).
    fn monotone_weights(&self) -> core::option::Option<&Weights>;
}

impl Evaluation for Weights {
    #[inline]
    fn value(&self, hero: &Hero, future: &Counts, avoided: bool) -> f32 {
        Weights::value(self, hero, future, avoided)
    }

    /// The same sums as [`Weights::value`] from the prefix sums, so the same value.
    #[inline]
    fn value_after(&self, ready: &Summary, hero: &Hero, left: u8) -> f32 {
        if !hero.alive() {
            return DEAD + f32::from(hero.hp);
        }
        let a = ready.after(left);
        let monsters = a.value_to(15);
        let absorbed = a.absorbed(hero.weapon, hero.limit);
        let hp = f32::from(hero.hp);
        self.combine(hp, a.potions(), monsters, absorbed, a.weapons(), false)
    }

    /// The value rises with HP (`danger` at least 0: the term under `danger_hp` falls as HP
    /// rises) and with the limit (`weapon` at least 0: what the weapon absorbs never falls as
    /// its limit rises); the card left and the weapon are the same, and every rounded `+`, `-`,
    /// `*` and `max` is monotone in its operands.
    #[inline]
    fn monotone_weights(&self) -> core::option::Option<&Weights> {
        (self.weapon >= 0.0 && self.danger >= 0.0).then_some(self)
    }
}

impl Weights {
    /// The projected end HP of `hero` with `future` still to be faced (the dungeon and any card
    /// left in the room), less `avoid` if the play avoided the room.
    #[inline]
    pub fn value(&self, hero: &Hero, future: &Counts, avoided: bool) -> f32 {
        if !hero.alive() {
            return DEAD + f32::from(hero.hp);
        }
        let hp = f32::from(hero.hp);
        let w = hero.weapon;
        let mut monsters = 0u32;
        let mut absorbed = 0u32;
        for v in 1..16u8 {
            let n = u32::from(future.monsters()[usize::from(v)]);
            monsters += n * u32::from(v);
            if v <= hero.limit {
                absorbed += n * u32::from(v.min(w));
            }
        }
        let (potions, weapons) = (future.potion_total(), future.weapon_total());
        self.combine(hp, potions, monsters, absorbed, weapons, avoided)
    }

    /// [`Weights::value`] of `hero` after avoiding a room, with the dungeon of `ready` and the
    /// room's cards `back` (returned to it) to come: the same integer sums read from the summary
    /// and the few cards, so the same value, without counting the dungeon again.
    #[inline]
    pub fn value_avoided(&self, ready: &Summary, hero: &Hero, back: &[u8]) -> f32 {
        if !hero.alive() {
            return DEAD + f32::from(hero.hp);
        }
        let (w, limit) = (hero.weapon, hero.limit);
        let a = ready.after(0);
        let (mut monsters, mut absorbed) = (a.value_to(15), a.absorbed(w, limit));
        let (mut potions, mut weapons) = (a.potions(), a.weapons());
        for &code in back {
            // Without a branch on the kind: the cards come in random order.
            let v = card::value(code);
            let monster = card::is_monster(code);
            monsters += u32::from(v) * u32::from(monster);
            absorbed += u32::from(v.min(w)) * u32::from(monster & (v <= limit));
            potions += u32::from(v) * u32::from(card::is_potion(code));
            weapons += u32::from(v) * u32::from(card::is_weapon(code));
        }
        self.combine(
            f32::from(hero.hp),
            potions,
            monsters,
            absorbed,
            weapons,
            true,
        )
    }

    /// The projection from its integer parts.
    #[inline(always)]
    fn combine(
        &self,
        hp: f32,
        potions: u32,
        monsters: u32,
        absorbed: u32,
        weapons: u32,
        avoided: bool,
    ) -> f32 {
        let fixed = self.fixed(potions, monsters, weapons);
        self.on(&fixed, hp, absorbed) - if avoided { self.avoid } else { 0.0 }
    }

    /// The terms of the projection that do not depend on the hero, each rounded as
    /// [`Weights::on`] uses it.
    #[inline(always)]
    fn fixed(&self, potions: u32, monsters: u32, weapons: u32) -> Fixed {
        Fixed {
            potions: self.potion * potions as f32,
            monsters: monsters as f32,
            weapons: self.spare * weapons as f32,
        }
    }

    /// The projection with the fixed terms `f`, not avoided: the same operations in the same
    /// order whether or not `f` was made once for many heroes, so the same bits.
    #[inline(always)]
    fn on(&self, f: &Fixed, hp: f32, absorbed: u32) -> f32 {
        hp + f.potions - f.monsters + self.weapon * absorbed as f32 + f.weapons
            - self.danger * (self.danger_hp - hp).max(0.0)
    }

    /// The scorer of the plays that leave `left` (0 for none) with the dungeon of `ready` to
    /// come: [`Evaluation::value_after`] with what does not depend on the hero made once.
    #[inline]
    pub fn after<'a>(&'a self, ready: &'a Summary, left: u8) -> After<'a> {
        let a = ready.after(left);
        After {
            weights: self,
            fixed: self.fixed(a.potions(), a.value_to(15), a.weapons()),
            left: a.monsters(),
        }
    }
}

impl Weights {
    /// A scorer that reads no dungeon, for a table whose entries [`Weights::after`] fills
    /// before they are used.
    #[inline(always)]
    pub fn unset(&self) -> After<'_> {
        After {
            weights: self,
            fixed: Fixed::default(),
            left: features::Monsters::default(),
        }
    }
}

/// The terms of [`Weights`]' projection that do not depend on the hero.
#[derive(Clone, Copy, Debug, Default)]
struct Fixed {
    potions: f32,
    monsters: f32,
    weapons: f32,
}

/// [`Weights`] prepared for the plays of a room that leave one card (see [`Weights::after`]).
#[derive(Clone, Copy, Debug)]
pub struct After<'a> {
    weights: &'a Weights,
    fixed: Fixed,
    left: features::Monsters,
}

impl After<'_> {
    /// [`Evaluation::value_after`] of a living `hero` to the bit.
    #[inline(always)]
    pub fn value(&self, hero: &Hero) -> f32 {
        debug_assert!(hero.alive());
        let absorbed = self.left.absorbed(hero.weapon, hero.limit);
        self.weights.on(&self.fixed, f32::from(hero.hp), absorbed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoundrel::Rules;
    use crate::games::scoundrel::hero::FRESH;
    use crate::rng::GameRng;

    #[test]
    fn the_prepared_avoided_and_bound_values_are_the_plain_ones_to_the_bit() {
        let rules = Rules::default();
        let w = Weights::default();
        for game in 0..3000u64 {
            let mut cards = rules.deck();
            GameRng::new(6, game, 0).shuffle(&mut cards);
            let g = game as usize;
            let cut = g % 40;
            let dungeon = Counts::of(&cards[cut + 1..]);
            let left = if g.is_multiple_of(5) { 0 } else { cards[cut] };
            let hero = Hero {
                hp: (g % 22) as i16 - 1,
                weapon: [0, 3, 8, 10][g % 4],
                limit: [FRESH, 2, 9, 13][g / 4 % 4],
                heals: 0,
            };
            let mut future = dungeon;
            if left != 0 {
                future.add(left);
            }
            // The bound of four plays at once against each play's, to the bit.
            let ends = [
                [(hero.hp, hero.limit), (hero.hp - 3, 5)],
                [(1, FRESH), (20, 0)],
            ];
            let lefts = [left, cards[cut + 1], 0, cards[cut + 2]];
            let weapons = [hero.weapon, 0, 15, (g % 16) as u8];
            let ends = [ends[g % 2], ends[1 - g % 2], ends[0], ends[1]];
            let ready = Summary::of(&dungeon);
            for weights in [
                w,
                Weights {
                    potion: -0.7,
                    weapon: 0.0,
                    spare: 2.25,
                    ..w
                },
            ] {
                let plain: [u32; 4] = core::array::from_fn(|k| {
                    weights
                        .bound_after(&ready, lefts[k], weapons[k], ends[k])
                        .to_bits()
                });
                let fast = weights.bounds_after(&ready, lefts, weapons, ends);
                assert_eq!(
                    fast.map(f32::to_bits),
                    plain,
                    "{lefts:?} {weapons:?} {ends:?}"
                );
            }
            let plain = w.value(&hero, &future, false);
            let fast = Evaluation::value_after(&w, &Summary::of(&dungeon), &hero, left);
            assert_eq!(plain.to_bits(), fast.to_bits(), "{hero:?} {left:#x}");
            // Avoided: the four cards before the cut go back to the dungeon.
            let back = &cards[cut.saturating_sub(4)..cut];
            let mut future = dungeon;
            back.iter().for_each(|&c| future.add(c));
            let plain = w.value(&hero, &future, true);
            let fast = w.value_avoided(&Summary::of(&dungeon), &hero, back);
            assert_eq!(plain.to_bits(), fast.to_bits(), "{hero:?} {back:?}");
        }
    }
}
