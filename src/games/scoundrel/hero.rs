//! The player's state between cards and the effect of facing one card: the one place the
//! rules of weapons, potions and monsters live, shared by the engine and every search.

use super::card;
use super::rules::{Rules, Wear};

/// A weapon's limit while it has slain nothing: any monster.
pub const FRESH: u8 = u8::MAX;

/// All ones if `b`, else zero: selects a value without a branch.
#[inline(always)]
pub(super) fn mask(b: bool) -> u8 {
    u8::from(b).wrapping_neg()
}

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
    ///
    /// Written without branches on the card's kind (the searches call it for every card of every
    /// way to play a room, and the kinds come in random order): each effect is computed and kept
    /// or dropped by a mask of all ones or all zeros.
    #[inline(always)]
    pub fn face(&mut self, rules: &Rules, code: u8, with_weapon: bool) -> Effect {
        let v = card::value(code);
        let is_weapon = card::is_weapon(code);
        let is_monster = card::is_monster(code);
        let drinks = card::is_potion(code);
        // `&` rather than `&&`: every operand is cheap, and no branch is taken on the card.
        let heals = drinks & (self.heals < rules.potions_per_turn);
        let armed = is_monster & with_weapon & (self.weapon > 0) & (v <= self.limit);
        // `v.saturating_sub(weapon)` armed, `v` barehanded; nothing from a card not a monster.
        let damage = (v - (self.weapon.min(v) & mask(armed))) & mask(is_monster);
        // `(hp + v).min(max_hp) - hp`. HP never exceeds `max_hp` (`start_hp <= max_hp`), so this
        // is never negative.
        let room = i16::from(rules.max_hp) - self.hp;
        let healed = i16::from(v).min(room) & i16::from(mask(heals) as i8);
        self.hp += healed - i16::from(damage);
        self.heals += u8::from(heals);
        let slew = match rules.weapon_wear {
            Wear::Lenient => v,
            Wear::Strict => v.wrapping_sub(1),
        };
        // A weapon resets the limit to FRESH (all ones), a monster slain with the weapon sets it.
        let limit = (slew & mask(armed)) | (self.limit & !mask(armed));
        self.limit = limit | (FRESH & mask(is_weapon));
        self.weapon = (v & mask(is_weapon)) | (self.weapon & !mask(is_weapon));
        Effect {
            damage,
            healed: healed as u8,
            wasted: drinks & !heals,
        }
    }
}
