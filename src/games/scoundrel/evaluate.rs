//! A static score of where a way of playing leaves the player: the projected HP at the end of
//! the dungeon under a linear model of what the cards still to come will do.

use serde::Deserialize;

use super::card::Counts;
use super::hero::Hero;

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
    /// What the evaluation precomputes of a dungeon to score many plays of one room after it.
    type Ready: Copy;

    /// The score of `hero` with `future` still to be faced (the dungeon and any card left in the
    /// room), `avoided` if the play avoided the room; [`DEAD`] plus HP for a dead hero.
    fn value(&self, hero: &Hero, future: &Counts, avoided: bool) -> f32;

    /// Precomputes what [`Evaluation::value_after`] needs of `dungeon`.
    fn ready(&self, dungeon: &Counts) -> Self::Ready;

    /// The same as [`Evaluation::value`] with `dungeon` plus the card `left` (0 for none) to
    /// come, not avoided: `ready` is [`Evaluation::ready`] of `dungeon`.
    fn value_after(&self, ready: &Self::Ready, dungeon: &Counts, hero: &Hero, left: u8) -> f32;
}

impl Evaluation for Weights {
    type Ready = ();

    #[inline]
    fn value(&self, hero: &Hero, future: &Counts, avoided: bool) -> f32 {
        Weights::value(self, hero, future, avoided)
    }

    #[inline]
    fn ready(&self, _: &Counts) {}

    #[inline]
    fn value_after(&self, _: &(), dungeon: &Counts, hero: &Hero, left: u8) -> f32 {
        let mut future = *dungeon;
        if left != 0 {
            future.add(left);
        }
        Weights::value(self, hero, &future, false)
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
        hp + self.potion * future.potion_total() as f32 - monsters as f32
            + self.weapon * absorbed as f32
            + self.spare * future.weapon_total() as f32
            - self.danger * (self.danger_hp - hp).max(0.0)
            - if avoided { self.avoid } else { 0.0 }
    }
}
