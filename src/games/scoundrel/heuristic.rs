//! The parameterized heuristic: every way to play the room, scored by [`Weights`]; the weights
//! come from a strategy file or the built-in defaults.
//!
//! ```toml
//! name = "weapon-saver"        # optional; defaults to the file name
//! description = "..."          # optional
//! [weights]                    # any subset; the rest keep their defaults
//! potion = 1.1                 # worth of a potion point still to come
//! weapon = 0.2                 # worth of a point the weapon in hand can still absorb
//! spare = 1.5                  # worth of a weapon point still to come
//! danger_hp = 18.0             # HP under which low HP costs extra...
//! danger = 0.8                 # ...this much per HP
//! avoid = 0.0                  # the cost of avoiding a room
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::rng::GameRng;

use super::card::Counts;
use super::engine::{Turn, View};
use super::evaluate::{Evaluation, Weights};
use super::features::Summary;
use super::plans::Options;
use super::policy::Policy;
use super::rules::Rules;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: core::option::Option<String>,
    #[serde(default)]
    description: core::option::Option<String>,
    #[serde(default)]
    weights: Weights,
}

/// The heuristic with its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Heuristic {
    /// Display name.
    pub name: String,
    /// What the file says the strategy is for.
    pub description: core::option::Option<String>,
    /// The evaluation's weights.
    pub weights: Weights,
}

impl Default for Heuristic {
    fn default() -> Self {
        Self {
            name: "heuristic".into(),
            description: None,
            weights: Weights::default(),
        }
    }
}

impl Heuristic {
    /// Reads and checks a strategy file.
    pub fn load(path: &Path) -> Result<Self> {
        let file: File = crate::rules::read_toml(path, "cannot read strategy file")?;
        let w = file.weights;
        for (field, v) in [
            ("potion", w.potion),
            ("weapon", w.weapon),
            ("spare", w.spare),
            ("danger_hp", w.danger_hp),
            ("danger", w.danger),
            ("avoid", w.avoid),
        ] {
            if !v.is_finite() || !(-100.0..=100.0).contains(&v) {
                return Err(SimError::input(format!(
                    "{}: weights.{field} = {v} is out of range: allowed -100..=100",
                    path.display()
                )));
            }
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "strategy".into());
        Ok(Self {
            name: file.name.unwrap_or(stem),
            description: file.description,
            weights: w,
        })
    }
}

/// The future cards after avoiding the room of `view`.
#[inline]
pub fn future_avoided(view: &View) -> Counts {
    let mut f = *view.dungeon;
    for &c in view.room {
        f.add(c);
    }
    f
}

/// The best turn in `view` by `weights`, with its value; `options` are the room's ways to face.
#[inline]
pub fn best_turn<E: Evaluation>(weights: &E, view: &View, options: &Options) -> (Turn, f32) {
    let mut best = (Turn::AVOID, f32::NEG_INFINITY);
    let ready = Summary::of(view.dungeon);
    for o in options.as_slice() {
        let v = weights.value_after(&ready, &o.hero, o.left);
        if v > best.1 {
            best = (o.turn, v);
        }
    }
    if view.can_avoid {
        let v = weights.value(&view.hero, &future_avoided(view), true);
        if v > best.1 {
            best = (Turn::AVOID, v);
        }
    }
    if best.1 == f32::NEG_INFINITY {
        // Every way kills: die facing the most monsters.
        let death = options
            .death
            .expect("a room with no living play has a fatal one");
        best = (death.turn, super::evaluate::DEAD);
    }
    best
}

impl Policy for Heuristic {
    #[inline]
    fn choose(&self, rules: &Rules, view: &View, _: &mut GameRng) -> Turn {
        best_turn(&self.weights, view, &Options::of(rules, view)).0
    }
}
