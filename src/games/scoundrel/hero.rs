//! The player's state between cards and the effect of facing one card: the one place the
//! rules of weapons, potions and monsters live, shared by the engine and every search.

use super::card::{self, Kind};
use super::rules::{Rules, Wear};

/// A weapon's limit while it has slain nothing: any monster.
pub const FRESH: u8 = u8::MAX;

/// HP, the weapon in hand and how far it is worn, and the potions used this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hero {
    /// Health; the game is lost at 0 or below.
    pub hp: i16,
    /// The equipped weapon's value, 0 for none.
    pub weapon: u8,
    /// The largest monster the weapon may still be used on ([`FRESH`] if it has slain nothing).
    pub limit: u8,
    /// Potions that healed this turn.
    pub heals: u8,
}

/// What facing one card did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// HP lost.
    pub damage: u8,
    /// HP gained.
    pub healed: u8,
    /// True for a potion that healed nothing because the turn's cap was reached.
    pub wasted: bool,
}

impl Hero {
    /// A hero at the start of a game.
    pub fn new(rules: &Rules) -> Self {
        Self {
            hp: i16::from(rules.start_hp),
            weapon: 0,
            limit: FRESH,
            heals: 0,
        }
    }

    /// True if the weapon may be used on a monster of value `m`.
    #[inline(always)]
    pub fn can_use_weapon(&self, m: u8) -> bool {
        self.weapon > 0 && m <= self.limit
    }

    /// True while HP is above 0.
    #[inline(always)]
    pub fn alive(&self) -> bool {
        self.hp > 0
    }

    /// Damage from monster `m`, with the weapon if `with_weapon` and it may be used.
    #[inline(always)]
    pub fn damage_from(&self, m: u8, with_weapon: bool) -> u8 {
        if with_weapon && self.can_use_weapon(m) {
            m.saturating_sub(self.weapon)
        } else {
            m
        }
    }

    /// Starts a new turn (the potion cap resets).
    #[inline(always)]
    pub fn new_turn(&mut self) {
        self.heals = 0;
    }

    /// Faces `code`: equips a weapon, drinks a potion, or fights a monster, with the weapon if
    /// `with_weapon` and the weapon may be used on it (barehanded otherwise).
    #[inline(always)]
    pub fn face(&mut self, rules: &Rules, code: u8, with_weapon: bool) -> Effect {
        let v = card::value(code);
        let mut effect = Effect::default();
        match card::kind(code) {
            Kind::Weapon => {
                self.weapon = v;
                self.limit = FRESH;
            }
            Kind::Potion => {
                if self.heals < rules.potions_per_turn {
                    self.heals += 1;
                    let before = self.hp;
                    self.hp = (self.hp + i16::from(v)).min(i16::from(rules.max_hp));
                    effect.healed = (self.hp - before).max(0) as u8;
                } else {
                    effect.wasted = true;
                }
            }
            Kind::Monster => {
                let armed = with_weapon && self.can_use_weapon(v);
                effect.damage = self.damage_from(v, armed);
                self.hp -= i16::from(effect.damage);
                if armed {
                    self.limit = match rules.weapon_wear {
                        Wear::Lenient => v,
                        Wear::Strict => v - 1,
                    };
                }
            }
        }
        effect
    }
}
