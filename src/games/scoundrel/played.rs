//! A room's play simulated once: the hero after it and everything the engine records of it, so
//! a policy that simulates its own turn (`greedy`) hands the result over and the engine applies
//! it without facing the cards a second time ([`super::Engine`]'s fast path).

use super::card;
use super::hero::Hero;
use super::rules::Rules;

/// The running result of facing a room's cards one by one, as the engine would record them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The hero after the cards faced so far (the turn's potion count included).
    pub hero: Hero,
    /// HP lost to monsters.
    pub damage: u16,
    /// HP gained from potions.
    pub healed: u16,
    /// Potions that healed nothing (past the turn's cap).
    pub wasted: u8,
    /// The sum of the monsters faced.
    pub slain: u8,
    /// The largest weapon held after any card faced (0 if none).
    pub largest: u8,
    /// True while HP stayed above 0 after every card faced.
    pub alive: bool,
}

impl Played {
    /// A room about to be faced by `hero`: the turn's potion count reset, nothing faced yet.
    #[inline(always)]
    pub fn start(hero: Hero) -> Self {
        let mut hero = hero;
        hero.new_turn();
        Self {
            hero,
            damage: 0,
            healed: 0,
            wasted: 0,
            slain: 0,
            largest: 0,
            alive: true,
        }
    }

    /// Faces `code` (see [`Hero::face`]; weapons are equipped, never discarded) and adds what it
    /// did.
    #[inline(always)]
    pub fn face(&mut self, rules: &Rules, code: u8, with_weapon: bool) {
        let effect = self.hero.face(rules, code, with_weapon);
        self.damage += u16::from(effect.damage);
        self.healed += u16::from(effect.healed);
        self.wasted += u8::from(effect.wasted);
        self.slain += if card::is_monster(code) {
            card::value(code)
        } else {
            0
        };
        self.largest = self.largest.max(self.hero.weapon);
        self.alive &= self.hero.alive();
    }
}
