//! Regicide's rule parameters: every number and variant of `shared/rulings/regicide.md`, with
//! the rulings as defaults.
//!
//! Two parameters follow the player count unless set: `max_hand` (8, 7, 6, 5 for 1 to 4 players)
//! and `jesters` (the Jesters shuffled into the tavern: 0, 0, 1, 2). Their default is the string
//! `"by-players"`; a number (`--set max_hand=6`) fixes them whatever `players` says.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Result;
use crate::rules::{RuleSet, check_range};

/// The most players a table seats.
pub const MAX_PLAYERS: usize = 4;
/// The largest hand the rules may set (fixes the engine's arrays).
pub const MAX_HAND: u8 = 10;
/// The most Jesters the tavern may hold (the card codes have room for four).
pub const MAX_JESTERS: u8 = 4;
/// Royals in the castle.
pub const ROYALS: usize = 12;

/// Max hand by player count (index `players - 1`).
const HAND_BY_PLAYERS: [u8; MAX_PLAYERS] = [8, 7, 6, 5];
/// Tavern Jesters by player count.
const JESTERS_BY_PLAYERS: [u8; MAX_PLAYERS] = [0, 0, 1, 2];

/// A number that follows the player count unless set: `"by-players"` or an integer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByPlayers(pub Option<u8>);

impl Serialize for ByPlayers {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            None => s.serialize_str("by-players"),
            Some(n) => s.serialize_u8(n),
        }
    }
}

impl<'de> Deserialize<'de> for ByPlayers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ByPlayers;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number from 0 to 255 or \"by-players\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<ByPlayers, E> {
                u8::try_from(v).map(|n| ByPlayers(Some(n))).map_err(|_| {
                    E::custom(format!(
                        "{v} is not a number from 0 to 255 or \"by-players\""
                    ))
                })
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<ByPlayers, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(-1))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<ByPlayers, E> {
                if v == "by-players" {
                    Ok(ByPlayers(None))
                } else {
                    Err(E::custom(format!(
                        "\"{v}\" is not a number or \"by-players\""
                    )))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// One rank of royal: as an enemy, and as a captured card in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Royal {
    /// Health as an enemy.
    pub health: u8,
    /// Attack as an enemy.
    pub attack: u8,
    /// Value when played or discarded from hand (after an exact kill).
    pub value: u8,
}

/// Regicide's rules. Every field is a rule parameter; the defaults are the rulings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Players at the table, 1 to 4 (`--players N`).
    pub players: u8,
    /// Cards a hand may hold: `"by-players"` (8, 7, 6, 5) or 1..=10.
    pub max_hand: ByPlayers,
    /// Jesters shuffled into the tavern: `"by-players"` (0, 0, 1, 2) or 0..=4.
    pub jesters: ByPlayers,
    /// The highest total of a same-rank combo (the rulings' variant: the limit).
    pub max_combo: u8,
    /// The most cards in a same-rank combo.
    pub combo_cards: u8,
    /// Solo: the Jesters set aside, each usable once (graded gold, silver, bronze by use).
    pub solo_jesters: u8,
    /// Solo: the cards a set-aside Jester draws (at most the max hand, at most the tavern).
    pub solo_jester_draw: u8,
    /// Solo variant: a yield is allowed, never two in a row (the rulings: no yield).
    pub solo_yield: bool,
    /// The Jacks.
    pub jack: Royal,
    /// The Queens.
    pub queen: Royal,
    /// The Kings.
    pub king: Royal,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            players: 1,
            max_hand: ByPlayers(None),
            jesters: ByPlayers(None),
            max_combo: 10,
            combo_cards: 4,
            solo_jesters: 2,
            solo_jester_draw: 8,
            solo_yield: false,
            jack: Royal {
                health: 20,
                attack: 10,
                value: 10,
            },
            queen: Royal {
                health: 30,
                attack: 15,
                value: 15,
            },
            king: Royal {
                health: 40,
                attack: 20,
                value: 20,
            },
        }
    }
}

impl Rules {
    /// The hand limit in force: `max_hand`, or by the player count.
    pub fn hand_limit(&self) -> u8 {
        self.max_hand
            .0
            .unwrap_or(HAND_BY_PLAYERS[usize::from(self.players.clamp(1, 4)) - 1])
    }

    /// The Jesters in the tavern: `jesters`, or by the player count.
    pub fn tavern_jesters(&self) -> u8 {
        self.jesters
            .0
            .unwrap_or(JESTERS_BY_PLAYERS[usize::from(self.players.clamp(1, 4)) - 1])
    }

    /// The set-aside Jesters of a game: `solo_jesters` for one player, none at a bigger table.
    pub fn set_aside_jesters(&self) -> u8 {
        if self.players == 1 {
            self.solo_jesters
        } else {
            0
        }
    }

    /// True if the table is one player.
    pub fn solo(&self) -> bool {
        self.players == 1
    }

    /// The royal of `rank` (Jack, Queen, King).
    pub fn royal(&self, rank: u8) -> &Royal {
        match rank {
            super::card::JACK => &self.jack,
            super::card::QUEEN => &self.queen,
            _ => &self.king,
        }
    }
}

impl RuleSet for Rules {
    const MEANINGS: &'static [(&'static str, &'static str)] = &[
        ("players", "players at the table (--players N)"),
        (
            "max_hand",
            "cards a hand may hold: by-players (8, 7, 6, 5) or 1..=10",
        ),
        (
            "jesters",
            "Jesters shuffled into the tavern: by-players (0, 0, 1, 2) or 0..=4",
        ),
        ("max_combo", "the highest total of a same-rank combo"),
        ("combo_cards", "the most cards in a same-rank combo"),
        (
            "solo_jesters",
            "solo: the Jesters set aside, each usable once",
        ),
        (
            "solo_jester_draw",
            "solo: the cards a set-aside Jester draws",
        ),
        (
            "solo_yield",
            "solo variant: a yield is allowed, never two in a row (the rulings: no yield)",
        ),
        (
            "jack",
            "the Jacks: health and attack as an enemy, value in hand",
        ),
        (
            "queen",
            "the Queens: health and attack as an enemy, value in hand",
        ),
        (
            "king",
            "the Kings: health and attack as an enemy, value in hand",
        ),
    ];
    fn validate(&self) -> Result<()> {
        check_range("players", self.players, 1, MAX_PLAYERS as u8)?;
        if let Some(n) = self.max_hand.0 {
            check_range("max_hand", n, 1, MAX_HAND)?;
        }
        if let Some(n) = self.jesters.0 {
            check_range("jesters", n, 0, MAX_JESTERS)?;
        }
        check_range("max_combo", self.max_combo, 2, 80)?;
        check_range("combo_cards", self.combo_cards, 2, 4)?;
        check_range("solo_jesters", self.solo_jesters, 0, 2)?;
        check_range("solo_jester_draw", self.solo_jester_draw, 1, MAX_HAND)?;
        for (name, r) in [
            ("jack", &self.jack),
            ("queen", &self.queen),
            ("king", &self.king),
        ] {
            check_range(&format!("{name}.health"), r.health, 1, 250)?;
            check_range(&format!("{name}.attack"), r.attack, 0, 250)?;
            check_range(&format!("{name}.value"), r.value, 0, 25)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load, load_error};

    fn load_sets(sets: &[&str]) -> Result<Rules> {
        load(
            None,
            &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    }

    #[test]
    fn defaults_are_the_rulings_and_the_player_count_sets_hand_and_jesters() {
        let r = Rules::default();
        r.validate().unwrap();
        assert_eq!(
            (r.hand_limit(), r.tavern_jesters(), r.set_aside_jesters()),
            (8, 0, 2)
        );
        let by: Vec<(u8, u8, u8)> = (1..=4)
            .map(|p| {
                let r = load_sets(&[&format!("players={p}")]).unwrap();
                (r.hand_limit(), r.tavern_jesters(), r.set_aside_jesters())
            })
            .collect();
        assert_eq!(by, vec![(8, 0, 2), (7, 0, 0), (6, 1, 0), (5, 2, 0)]);
        let r = load_sets(&["players=4", "max_hand=7", "jesters=0"]).unwrap();
        assert_eq!((r.hand_limit(), r.tavern_jesters()), (7, 0));
        let r = load_sets(&["max_hand=by-players", "players=3"]).unwrap();
        assert_eq!(r.hand_limit(), 6);
    }

    #[test]
    fn bad_values_name_the_field_and_range() {
        for (set, want) in [
            ("players=0", "players = 0 is out of range: allowed 1..=4"),
            ("players=5", "players = 5 is out of range: allowed 1..=4"),
            (
                "max_hand=11",
                "max_hand = 11 is out of range: allowed 1..=10",
            ),
            ("jesters=5", "jesters = 5"),
            ("max_combo=1", "max_combo = 1"),
            (
                "solo_jesters=3",
                "solo_jesters = 3 is out of range: allowed 0..=2",
            ),
            ("king.health=0", "king.health = 0"),
            ("max_hand=lots", "by-players"),
        ] {
            let err = load_error::<Rules>(&[set]);
            assert!(err.contains(want), "{set}: {err}");
        }
    }
}
