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
//!
//! A file written by `sim solve` instead holds a `[plan]`: the moves for every strike start state
//! (enemy, HP, tower cards left) and the Joker choice for every (HP, tower left), over the states of
//! the rules it was solved for (its `rules`, as JSON). The stand tables are then optional.
//!
//! ```toml
//! name = "optimal"
//! [plan]
//! rules = '{"start_hp":20, ...}'
//! # [enemy (0 jack, 1 queen, 2 king), hp, jacks, queens, kings, jokers left, hard, soft]:
//! # bank at a hard (soft) best total t if bit t of hard (soft) is set; one row per state.
//! strikes = [[0, 1, 0, 0, 0, 0, 4190208, 4190208], ...]
//! # [hp, jacks, queens, kings, jokers left after the Joker]: double or nothing here.
//! gamble = [[1, 0, 0, 0, 0], ...]
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::rules::check_range;

use super::engine::StrikeView;
use super::outcome::Enemy;
use super::policy::{BankTable, Policy, safe_joker_at};
use super::rules::Rules;
use super::solver::plan::{Plan, StrikePlan};
use super::solver::space::Space;
use super::solver::strike::{HARD_TOTALS, Moves, SOFT_TOTALS};

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
    jack: Option<Stand>,
    queen: Option<Stand>,
    king: Option<Stand>,
    plan: Option<PlanFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    rules: String,
    strikes: Vec<[u32; 8]>,
    #[serde(default)]
    gamble: Vec<[u8; 5]>,
}

/// What a strategy file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyFile {
    /// Stand totals per enemy, guard and Joker options.
    Stands(Strategy),
    /// A solved plan, with the file's name for it.
    Plan(String, Plan),
}

impl StrategyFile {
    /// Reads and checks a strategy file.
    pub fn load(path: &Path) -> Result<Self> {
        let file: File = crate::rules::read_toml(path, "cannot read strategy file")?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "strategy".into());
        let bad =
            |e: SimError| SimError::input(format!("{}: {e}", path.display()).replace("rule ", ""));
        if let Some(plan) = file.plan {
            let name = file.name.unwrap_or(stem);
            return Ok(Self::Plan(name, plan_of(plan).map_err(bad)?));
        }
        Strategy::of_file(file, stem).map(Self::Stands).map_err(bad)
    }
}

/// The plan a `[plan]` table describes; every state must have exactly one row.
fn plan_of(file: PlanFile) -> Result<Plan> {
    let rules: Rules = serde_json::from_str(&file.rules)
        .map_err(|e| SimError::input(format!("plan rules: {e}")))?;
    crate::rules::RuleSet::validate(&rules)?;
    let space = Space::new(&rules)?;
    let mut plan = Plan::empty(space.clone());
    let mut seen = vec![false; space.states()];
    let state_of = |row: usize, counts: &[u32], enemy: Enemy| -> Result<usize> {
        let mut c = [0u8; 4];
        for k in 0..4 {
            c[k] = u8::try_from(counts[k]).unwrap_or(u8::MAX);
            if c[k] > space.full[k] {
                return Err(SimError::input(format!(
                    "plan row {row}: {} {} left, the tower holds {}",
                    counts[k],
                    Enemy::ALL[k].name(),
                    space.full[k]
                )));
            }
        }
        let rest = space.rest(c);
        if !space.fits(rest, enemy) {
            return Err(SimError::input(format!(
                "plan row {row}: no {} can be current with every one left",
                enemy.name()
            )));
        }
        Ok(rest)
    };
    let hp_of = |row: usize, hp: u32| -> Result<u8> {
        match u8::try_from(hp) {
            Ok(h) if (1..=space.max_hp).contains(&h) => Ok(h),
            _ => Err(SimError::input(format!(
                "plan row {row}: hp {hp} outside 1..={}",
                space.max_hp
            ))),
        }
    };
    for (row, r) in file.strikes.iter().enumerate() {
        let enemy = match r[0] {
            0..=2 => Enemy::ALL[r[0] as usize],
            e => {
                return Err(SimError::input(format!(
                    "plan row {row}: enemy {e}, expected 0 (jack), 1 (queen) or 2 (king)"
                )));
            }
        };
        let hp = hp_of(row, r[1])?;
        let rest = state_of(row, &r[2..6], enemy)?;
        let i = space.state(rest, enemy, hp);
        if std::mem::replace(&mut seen[i], true) {
            return Err(SimError::input(format!(
                "plan row {row}: a second row for one state"
            )));
        }
        plan.strikes[i] = StrikePlan::new(Moves {
            hard: r[6] & HARD_TOTALS,
            soft: r[7] & SOFT_TOTALS,
        });
    }
    for rest in 0..space.rests {
        for enemy in [Enemy::Jack, Enemy::Queen, Enemy::King] {
            if space.fits(rest, enemy)
                && !seen[space.state(rest, enemy, 1)..][..usize::from(space.max_hp)]
                    .iter()
                    .all(|&s| s)
            {
                let c = space.counts(rest);
                return Err(SimError::input(format!(
                    "plan has no row for every hp against a {} with {c:?} left",
                    enemy.name()
                )));
            }
        }
    }
    for (row, g) in file.gamble.iter().enumerate() {
        let counts = g[1..].iter().map(|&c| u32::from(c)).collect::<Vec<_>>();
        let hp = hp_of(row, u32::from(g[0]))?;
        let rest = state_of(row, &counts, Enemy::Joker)?;
        plan.gamble[space.between(rest, hp)] = true;
    }
    Ok(plan)
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
    fn of_file(file: File, stem: String) -> Result<Self> {
        let mut stand = [[0u8; 2]; 3];
        for (i, (kind, s)) in [
            ("jack", file.jack),
            ("queen", file.queen),
            ("king", file.king),
        ]
        .into_iter()
        .enumerate()
        {
            let s = s.ok_or_else(|| {
                SimError::input(format!("missing field `{kind}` (or a [plan] table)"))
            })?;
            check_range(&format!("{kind}.hard"), s.hard, 1, 21)?;
            check_range(&format!("{kind}.soft"), s.soft, 1, 21)?;
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
    fn joker_choice(&self, rules: &Rules, hp: u8) -> Option<bool> {
        Some(match self.joker {
            JokerChoice::Accept => false,
            JokerChoice::Gamble => true,
            JokerChoice::Safe => safe_joker_at(rules, hp),
        })
    }
}
