//! Scoundrel's rule parameters: every choice of `shared/rulings/scoundrel.md`, defaults = the
//! rulings. Where public implementations split, the parameter names both sides.

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::rules::{RuleSet, check_range};

use super::card::{self, MAX_VALUE};

/// The most cards a dungeon may hold (fixed so the engine's arrays are fixed).
pub const MAX_CARDS: usize = 60;
/// The highest HP the rules may set.
pub const MAX_HP: u8 = 99;
/// Cards in a full room.
pub const ROOM: usize = 4;

/// Which monsters a weapon that has slain may still be used on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wear {
    /// Monsters of value <= the last one it slew (the seed's "less than equal").
    Lenient,
    /// Monsters of value < the last one it slew.
    Strict,
}

/// Where the cards of an avoided room go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AvoidOrder {
    /// To the bottom of the dungeon in the room's order.
    Keep,
    /// To the bottom of the dungeon, shuffled among themselves.
    Shuffle,
    /// Back into the dungeon, and the whole dungeon shuffled (johnmatthiggins/scoundrel-mc).
    Reshuffle,
}

/// When the game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Every card faced with HP above 0; the last, short room is faced whole.
    AllCards,
    /// As soon as a full room can no longer be formed.
    Lenient,
    /// As soon as every monster is slain, whatever is left (johnmatthiggins/scoundrel-mc).
    Monsters,
}

/// Scoundrel's rules. Every field is a rule parameter; the defaults are the rulings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// HP at the start.
    pub start_hp: u8,
    /// The cap on healing.
    pub max_hp: u8,
    /// Monster suits (clubs and spades): each holds one monster of every value below.
    pub monster_suits: u8,
    /// The lowest monster value.
    pub monster_min: u8,
    /// The highest monster value (Ace = 14).
    pub monster_max: u8,
    /// The lowest weapon (diamond) value.
    pub weapon_min: u8,
    /// The highest weapon value.
    pub weapon_max: u8,
    /// The lowest potion (heart) value.
    pub potion_min: u8,
    /// The highest potion value.
    pub potion_max: u8,
    /// Potions that heal per turn; later ones in the same turn are discarded for nothing.
    pub potions_per_turn: u8,
    /// True to allow avoiding two rooms in a row (the rulings forbid it).
    pub avoid_in_a_row: bool,
    /// `lenient` (<=) or `strict` (<): the monsters a weapon may still slay.
    pub weapon_wear: Wear,
    /// `keep` or `shuffle`: the order avoided cards go to the bottom in.
    pub avoid_order: AvoidOrder,
    /// `all-cards` or `lenient`: when the game is won.
    pub end: End,
    /// True to add the last potion's value to a winning score of full HP.
    pub potion_bonus: bool,
    /// True to let the player fight a monster barehanded when the weapon may be used on it;
    /// false uses the weapon whenever it may be (Lizzard1123/scoundrel).
    pub barehanded: bool,
    /// True to let the player discard a weapon faced instead of equipping it (the old weapon
    /// and its wear stay; Bachmann1234/scoundroid).
    pub weapon_discard: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            start_hp: 20,
            max_hp: 20,
            monster_suits: 2,
            monster_min: 2,
            monster_max: 14,
            weapon_min: 2,
            weapon_max: 10,
            potion_min: 2,
            potion_max: 10,
            potions_per_turn: 1,
            avoid_in_a_row: false,
            weapon_wear: Wear::Lenient,
            avoid_order: AvoidOrder::Keep,
            end: End::AllCards,
            potion_bonus: true,
            barehanded: true,
            weapon_discard: false,
        }
    }
}

fn span(min: u8, max: u8) -> usize {
    usize::from(max + 1).saturating_sub(usize::from(min))
}

impl Rules {
    /// The dungeon's cards, monsters first, then weapons, then potions (unshuffled).
    pub fn deck(&self) -> Vec<u8> {
        let mut cards = Vec::with_capacity(self.cards());
        for _ in 0..self.monster_suits {
            cards.extend((self.monster_min..=self.monster_max).map(card::monster));
        }
        cards.extend((self.weapon_min..=self.weapon_max).map(card::weapon));
        cards.extend((self.potion_min..=self.potion_max).map(card::potion));
        cards
    }

    /// Cards in the dungeon.
    pub fn cards(&self) -> usize {
        usize::from(self.monster_suits) * span(self.monster_min, self.monster_max)
            + span(self.weapon_min, self.weapon_max)
            + span(self.potion_min, self.potion_max)
    }

    /// The sum of every monster's value.
    pub fn monster_total(&self) -> i32 {
        let per_suit: i32 = (self.monster_min..=self.monster_max).map(i32::from).sum();
        per_suit * i32::from(self.monster_suits)
    }

    /// The lowest score a game can end with: death at the first card by the biggest monster.
    pub fn min_score(&self) -> i32 {
        1 - i32::from(self.monster_max) - self.monster_total()
    }

    /// The highest score a game can end with: full HP plus the biggest potion.
    pub fn max_score(&self) -> i32 {
        i32::from(self.max_hp) + i32::from(self.potion_max)
    }
}

impl RuleSet for Rules {
    const MEANINGS: &'static [(&'static str, &'static str)] = &[
        ("start_hp", "HP at the start"),
        ("max_hp", "the cap on healing"),
        (
            "monster_suits",
            "monster suits (clubs and spades): each holds one monster of every value",
        ),
        ("monster_min", "the lowest monster value"),
        ("monster_max", "the highest monster value (Ace = 14)"),
        ("weapon_min", "the lowest weapon (diamond) value"),
        ("weapon_max", "the highest weapon value"),
        ("potion_min", "the lowest potion (heart) value"),
        ("potion_max", "the highest potion value"),
        (
            "potions_per_turn",
            "potions that heal per turn; later ones in the turn are discarded for nothing",
        ),
        (
            "avoid_in_a_row",
            "true to allow avoiding two rooms in a row (the rulings forbid it)",
        ),
        (
            "weapon_wear",
            "lenient (<=) or strict (<): the monsters a used weapon may still slay",
        ),
        (
            "avoid_order",
            "keep or shuffle: the order avoided cards go to the bottom in",
        ),
        ("end", "all-cards or lenient: when the game is won"),
        (
            "potion_bonus",
            "true to add the last potion's value to a winning score of full HP",
        ),
        (
            "barehanded",
            "true to let the player fight barehanded when the weapon may be used",
        ),
        (
            "weapon_discard",
            "true to let the player discard a weapon faced instead of equipping it",
        ),
    ];
    fn validate(&self) -> Result<()> {
        check_range("max_hp", self.max_hp, 1, MAX_HP)?;
        check_range("start_hp", self.start_hp, 1, self.max_hp)?;
        check_range("monster_suits", self.monster_suits, 0, 4)?;
        for (name, min, max) in [
            ("monster", self.monster_min, self.monster_max),
            ("weapon", self.weapon_min, self.weapon_max),
            ("potion", self.potion_min, self.potion_max),
        ] {
            check_range(&format!("{name}_max"), max, 1, MAX_VALUE)?;
            check_range(&format!("{name}_min"), min, 1, max)?;
        }
        check_range("potions_per_turn", self.potions_per_turn, 0, 3)?;
        let n = self.cards();
        if !(1..=MAX_CARDS).contains(&n) {
            return Err(SimError::input(format!(
                "rule: the dungeon holds {n} cards: allowed 1..={MAX_CARDS}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, load_error};

    #[test]
    fn defaults_are_the_rulings_and_valid() {
        let r = Rules::default();
        r.validate().unwrap();
        let deck = r.deck();
        assert_eq!((deck.len(), r.cards()), (44, 44));
        assert_eq!(r.monster_total(), 208);
        assert_eq!(deck.iter().filter(|&&c| card::is_monster(c)).count(), 26);
        assert_eq!((r.min_score(), r.max_score()), (-221, 30));
    }

    #[test]
    fn enum_parameters_parse_from_set_and_bad_values_name_the_field() {
        let r: Rules = load(
            None,
            &[
                "weapon_wear=strict".into(),
                "avoid_order=shuffle".into(),
                "end=lenient".into(),
            ],
        )
        .unwrap();
        assert_eq!(
            (r.weapon_wear, r.avoid_order, r.end),
            (Wear::Strict, AvoidOrder::Shuffle, End::Lenient)
        );
        let r: Rules = load(None, &["end=all-cards".into()]).unwrap();
        assert_eq!(r.end, End::AllCards);
        let err = load_error::<Rules>(&["weapon_wear=loose"]);
        assert!(
            err.contains("rule weapon_wear") && err.contains("lenient"),
            "{err}"
        );
        let err = load_error::<Rules>(&["monster_max=16"]);
        assert!(
            err.contains("monster_max = 16") && err.contains("1..=15"),
            "{err}"
        );
        let err = load_error::<Rules>(&["monster_suits=4", "monster_min=1", "monster_max=15"]);
        assert!(err.contains("holds 78 cards"), "{err}");
    }
}
