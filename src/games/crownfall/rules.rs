//! Crownfall's rule parameters: every number of `shared/rulings/crownfall.md`, defaults = the rulings.

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::rules::{RuleSet, check_range};

use super::outcome::Enemy;

/// The most cards the tower may hold (fixed so the engine's tower is an array).
pub const MAX_TOWER: usize = 64;
/// The most strikes a game may last before it ends as a stalemate loss.
pub const MAX_STRIKES: u16 = 1000;
/// The highest HP the rules may set.
pub const MAX_HP: u8 = 99;

/// One value per royal kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerRoyal {
    /// For Jacks.
    pub jack: u8,
    /// For Queens.
    pub queen: u8,
    /// For Kings.
    pub king: u8,
}

impl PerRoyal {
    /// The value for `enemy` (a royal, not a Joker).
    #[inline]
    pub fn of(&self, enemy: Enemy) -> u8 {
        match enemy {
            Enemy::Jack => self.jack,
            Enemy::Queen => self.queen,
            Enemy::King | Enemy::Joker => self.king,
        }
    }

    fn check(&self, field: &str, min: u8, max: u8) -> Result<()> {
        check_range(&format!("{field}.jack"), self.jack, min, max)?;
        check_range(&format!("{field}.queen"), self.queen, min, max)?;
        check_range(&format!("{field}.king"), self.king, min, max)
    }
}

/// How many of each card the tower holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tower {
    /// Jacks.
    pub jacks: u8,
    /// Queens.
    pub queens: u8,
    /// Kings.
    pub kings: u8,
    /// Jokers.
    pub jokers: u8,
}

impl Tower {
    /// Cards in the tower.
    pub fn len(&self) -> usize {
        usize::from(self.jacks)
            + usize::from(self.queens)
            + usize::from(self.kings)
            + usize::from(self.jokers)
    }

    /// True if the tower is empty (never valid).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The count of `enemy`.
    pub fn count(&self, enemy: Enemy) -> u8 {
        match enemy {
            Enemy::Jack => self.jacks,
            Enemy::Queen => self.queens,
            Enemy::King => self.kings,
            Enemy::Joker => self.jokers,
        }
    }
}

/// How the player deck deals its cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Deck {
    /// The rulings: 40 cards, drawn without replacement, the discard reshuffled when the deck
    /// runs out.
    #[default]
    Finite,
    /// The fresh-odds model the solver assumes: every flip is Ace..10 with equal odds,
    /// independent of every other flip.
    Infinite,
}

/// Crownfall's rules. Every field is a rule parameter; the defaults are the rulings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// HP at the start.
    pub start_hp: u8,
    /// The cap on healing.
    pub max_hp: u8,
    /// A short total this many points or fewer below the target takes guard damage (0: no guard).
    pub guard_zone: u8,
    /// The total that defeats each royal.
    pub target: PerRoyal,
    /// Damage from a bust or a short total outside the guard zone.
    pub damage: PerRoyal,
    /// Damage from a short total inside the guard zone.
    pub guard_damage: PerRoyal,
    /// HP healed by defeating the royal with exactly 21.
    pub heal: PerRoyal,
    /// Damage when a Joker's first flip is odd and the player accepts.
    pub joker_damage: u8,
    /// Damage when the double-or-nothing flip is odd too.
    pub crushing_damage: u8,
    /// The tower's cards.
    pub tower: Tower,
    /// The player deck: `"finite"` (the rulings) or `"infinite"` (fresh odds on every flip).
    pub deck: Deck,
    /// A game still going after this many strikes ends as a loss (possible only with zero-damage
    /// settings; not in the rulings, which never need it).
    pub max_strikes: u16,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            start_hp: 20,
            max_hp: 20,
            guard_zone: 2,
            target: PerRoyal {
                jack: 12,
                queen: 15,
                king: 18,
            },
            damage: PerRoyal {
                jack: 2,
                queen: 3,
                king: 5,
            },
            guard_damage: PerRoyal {
                jack: 1,
                queen: 2,
                king: 3,
            },
            heal: PerRoyal {
                jack: 2,
                queen: 2,
                king: 3,
            },
            joker_damage: 4,
            crushing_damage: 8,
            tower: Tower {
                jacks: 4,
                queens: 4,
                kings: 4,
                jokers: 2,
            },
            deck: Deck::Finite,
            max_strikes: MAX_STRIKES,
        }
    }
}

impl RuleSet for Rules {
    const MEANINGS: &'static [(&'static str, &'static str)] = &[
        ("start_hp", "HP at the start"),
        ("max_hp", "the cap on healing"),
        (
            "guard_zone",
            "a short total this many points or fewer below the target takes guard damage (0: no guard)",
        ),
        ("target", "the total that defeats the royal"),
        (
            "damage",
            "damage from a bust or a short total outside the guard zone",
        ),
        (
            "guard_damage",
            "damage from a short total inside the guard zone",
        ),
        ("heal", "HP healed by defeating the royal with exactly 21"),
        (
            "joker_damage",
            "damage when a Joker's first flip is odd and the player accepts",
        ),
        (
            "crushing_damage",
            "damage when the double-or-nothing flip is odd too",
        ),
        ("tower", "the tower's cards of that kind"),
        (
            "deck",
            "finite: 40 cards, the discard reshuffled (the rulings); infinite: fresh odds on every flip",
        ),
        (
            "max_strikes",
            "a game still going after this many strikes ends as a loss (only zero-damage settings need it)",
        ),
    ];
    fn validate(&self) -> Result<()> {
        check_range("max_hp", self.max_hp, 1, MAX_HP)?;
        check_range("start_hp", self.start_hp, 1, self.max_hp)?;
        check_range("guard_zone", self.guard_zone, 0, 20)?;
        self.target.check("target", 1, 21)?;
        self.damage.check("damage", 0, MAX_HP)?;
        self.guard_damage.check("guard_damage", 0, MAX_HP)?;
        self.heal.check("heal", 0, MAX_HP)?;
        check_range("joker_damage", self.joker_damage, 0, MAX_HP)?;
        check_range("crushing_damage", self.crushing_damage, 0, MAX_HP)?;
        check_range("max_strikes", self.max_strikes, 1, MAX_STRIKES)?;
        let t = &self.tower;
        for (field, n) in [
            ("tower.jacks", t.jacks),
            ("tower.queens", t.queens),
            ("tower.kings", t.kings),
            ("tower.jokers", t.jokers),
        ] {
            check_range(field, n, 0, MAX_TOWER as u8)?;
        }
        if t.is_empty() || t.len() > MAX_TOWER {
            return Err(SimError::input(format!(
                "rule tower holds {} cards: allowed 1..={MAX_TOWER}",
                t.len()
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
        assert_eq!(r.tower.len(), 14);
        assert_eq!((r.target.of(Enemy::King), r.heal.of(Enemy::King)), (18, 3));
    }

    #[test]
    fn sets_override_and_bad_values_name_the_field() {
        let r: Rules = load(None, &["guard_zone=3".into(), "guard_damage.king=1".into()]).unwrap();
        assert_eq!((r.guard_zone, r.guard_damage.king), (3, 1));
        let err = load_error::<Rules>(&["start_hp=25"]);
        assert!(
            err.contains("start_hp = 25") && err.contains("1..=20"),
            "{err}"
        );
        let err = load_error::<Rules>(&["target.ace=3"]);
        assert!(
            err.contains("unknown rule target.ace") && err.contains("king"),
            "{err}"
        );
        let err = load_error::<Rules>(&["target=3"]);
        assert!(err.contains("is a table"), "{err}");
        let err = load_error::<Rules>(&["guard_zone=wide"]);
        assert_eq!(
            err,
            "rule guard_zone expects u8 (a whole number from 0 to 255), got string \"wide\""
        );
        let err = load_error::<Rules>(&[
            "tower.jokers=0",
            "tower.jacks=0",
            "tower.queens=0",
            "tower.kings=0",
        ]);
        assert!(err.contains("tower holds 0 cards"), "{err}");
    }

    #[test]
    fn the_deck_is_a_word_finite_or_infinite() {
        let r: Rules = load(None, &["deck=infinite".into()]).unwrap();
        assert_eq!(r.deck, Deck::Infinite);
        assert_eq!(Rules::default().deck, Deck::Finite);
        let err = load_error::<Rules>(&["deck=endless"]);
        assert!(
            err.contains("endless") && err.contains("finite") && err.contains("infinite"),
            "{err}"
        );
    }
}
