//! Strategy files: per-enemy stand totals (hard and soft), a guard option and a Joker choice.
//!
//! ```toml
//! name = "cautious"          # optional; defaults to the file name
//! guard = "never"            # "never" | "always" | N: bank inside the guard zone when HP <= N
//! joker = "safe"             # "accept" | "gamble" | "safe" (accept unless it would kill)
//! jack  = { hard = 12, soft = 12 }   # bank as soon as the total reaches these
//! queen = { hard = 15, soft = 16 }
//! king  = { hard = 17, soft = 18 }
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::rules::check_range;

use super::engine::{JokerView, StrikeView};
use super::policy::{BankTable, Policy, safe_joker};
use super::rules::Rules;

/// The totals at which to bank against one royal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stand {
    /// Bank when a hard total (no Ace counted as 11) reaches this.
    pub hard: u8,
    /// Bank when a soft total (an Ace counted as 11) reaches this.
    pub soft: u8,
}

/// When to bank a total inside the guard zone rather than push on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Guard {
    /// "never" or "always".
    Word(GuardWord),
    /// Guard when HP is at most this.
    AtHp(u8),
}

/// The words a guard option may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GuardWord {
    /// Never bank short on purpose.
    Never,
    /// Always bank inside the guard zone.
    Always,
}

/// The Joker choice after an odd first flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JokerChoice {
    /// Always take the Joker damage.
    Accept,
    /// Always flip double or nothing.
    Gamble,
    /// Accept unless accepting would kill (the rulings' default).
    Safe,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default = "default_guard")]
    guard: Guard,
    #[serde(default = "default_joker")]
    joker: JokerChoice,
    jack: Stand,
    queen: Stand,
    king: Stand,
}

fn default_guard() -> Guard {
    Guard::Word(GuardWord::Never)
}

fn default_joker() -> JokerChoice {
    JokerChoice::Safe
}

/// A strategy read from a file, compiled for the hot loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Display name.
    pub name: String,
    /// What the file says the strategy is for.
    pub description: Option<String>,
    /// Bank thresholds by royal code, then hard (0) or soft (1).
    pub stand: [[u8; 2]; 3],
    /// Guard inside the zone when HP is at most this (0: never).
    pub guard_max_hp: u8,
    /// The Joker choice.
    pub joker: JokerChoice,
}

impl Strategy {
    /// Reads and checks a strategy file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| SimError::Io {
            action: "cannot read strategy file",
            path: path.to_path_buf(),
            source,
        })?;
        let file: File = toml::from_str(&text).map_err(|e| SimError::toml(path, &text, &e))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "strategy".into());
        let mut stand = [[0u8; 2]; 3];
        for (i, (kind, s)) in [
            ("jack", file.jack),
            ("queen", file.queen),
            ("king", file.king),
        ]
        .into_iter()
        .enumerate()
        {
            check_range(&format!("{kind}.hard"), s.hard, 1, 21)
                .and_then(|_| check_range(&format!("{kind}.soft"), s.soft, 1, 21))
                .map_err(|e| {
                    SimError::input(format!("{}: {e}", path.display()).replace("rule ", ""))
                })?;
            stand[i] = [s.hard, s.soft];
        }
        Ok(Self {
            name: file.name.unwrap_or(stem),
            description: file.description,
            stand,
            guard_max_hp: match file.guard {
                Guard::Word(GuardWord::Never) => 0,
                Guard::Word(GuardWord::Always) => u8::MAX,
                Guard::AtHp(hp) => hp,
            },
            joker: file.joker,
        })
    }
}

impl Policy for Strategy {
    #[inline]
    fn strike_table(&self, rules: &Rules, view: &StrikeView) -> Option<BankTable> {
        let [hard, soft] = self.stand[view.enemy as usize];
        let table = BankTable::at_least(hard, soft);
        if view.hp <= self.guard_max_hp {
            let low = view.target.saturating_sub(rules.guard_zone);
            return Some(table.with_range(low, view.target));
        }
        Some(table)
    }

    #[inline]
    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        match self.joker {
            JokerChoice::Accept => false,
            JokerChoice::Gamble => true,
            JokerChoice::Safe => safe_joker(rules, view),
        }
    }
}
