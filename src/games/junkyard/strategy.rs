//! Strategy files: the weights of the `greedy` family, read from TOML.
//!
//! ```toml
//! name = "rush"                # optional; defaults to the file name
//! description = "..."          # optional
//! [weights]                    # any subset; the rest keep greedy's defaults
//! power = 1.0                  # an automaton's worth per point of power...
//! toughness = 0.5              # ...and per point of toughness
//! damage = 1.0                 # worth of a point of damage dealt to the opponent
//! kill = 1.0                   # worth of destroying an opposing automaton, times its worth
//! loss = 1.0                   # cost of losing one's own automaton, times its worth
//! exposure = 0.5               # cost of a point of damage the opponent could deal next turn
//! danger = 30.0                # extra cost if that could be lethal
//! teardown_margin = 0.0        # deploy a tear-down when it removes more worth than it costs
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::{Result, SimError};

/// The weights the `greedy` family scores its choices by.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weights {
    /// An automaton's worth per point of power.
    pub power: f32,
    /// An automaton's worth per point of toughness.
    pub toughness: f32,
    /// Worth of a point of damage dealt to the opponent.
    pub damage: f32,
    /// Worth of destroying opposing automatons, per point of their worth.
    pub kill: f32,
    /// Cost of losing one's own automatons, per point of their worth.
    pub loss: f32,
    /// Cost of a point of damage the opponent could deal on its next turn past one's blockers.
    pub exposure: f32,
    /// Extra cost if that damage could be lethal.
    pub danger: f32,
    /// A tear-down is deployed when the worth it removes exceeds the worth it costs by more
    /// than this (always, when the player has no automaton).
    pub teardown_margin: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            power: 1.0,
            toughness: 0.5,
            damage: 1.0,
            kill: 1.0,
            loss: 1.0,
            exposure: 0.5,
            danger: 30.0,
            teardown_margin: 0.0,
        }
    }
}

/// A strategy file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strategy {
    /// Display name (the file's stem if not given).
    pub name: Option<String>,
    /// What the strategy is for.
    #[serde(default)]
    pub description: Option<String>,
    /// The weights; any not given keep greedy's defaults.
    #[serde(default)]
    pub weights: Weights,
}

/// The built-in strategy files: `aggressive` and `defensive`.
const BUILT_IN: [(&str, &str); 2] = [
    (
        "aggressive",
        include_str!("../../../strategies/junkyard/aggressive.toml"),
    ),
    (
        "defensive",
        include_str!("../../../strategies/junkyard/defensive.toml"),
    ),
];

impl Weights {
    /// The weights of a built-in strategy (`aggressive`, `defensive`), if `name` is one.
    pub fn built_in(name: &str) -> Option<Self> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        let file: Strategy = toml::from_str(text).expect("the built-in strategy files parse");
        Some(file.weights)
    }

    /// Reads and checks a strategy file; returns its name (the file's stem by default) and
    /// weights.
    pub fn load(path: &Path) -> Result<(String, Self)> {
        let file: Strategy = crate::rules::read_toml(path, "cannot read strategy file")?;
        let w = file.weights;
        for (field, v) in [
            ("power", w.power),
            ("toughness", w.toughness),
            ("damage", w.damage),
            ("kill", w.kill),
            ("loss", w.loss),
            ("exposure", w.exposure),
            ("danger", w.danger),
            ("teardown_margin", w.teardown_margin),
        ] {
            if !v.is_finite() || !(-1000.0..=1000.0).contains(&v) {
                return Err(SimError::input(format!(
                    "{}: weights.{field} = {v} is out of range: allowed -1000..=1000",
                    path.display()
                )));
            }
        }
        let name = file.name.unwrap_or_else(|| {
            path.file_stem()
                .map_or_else(|| "strategy".into(), |s| s.to_string_lossy().into_owned())
        });
        Ok((name, w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_files_parse_and_differ_from_the_defaults() {
        let a = Weights::built_in("aggressive").unwrap();
        let d = Weights::built_in("defensive").unwrap();
        assert!(a.damage > Weights::default().damage);
        assert!(d.exposure > Weights::default().exposure);
        assert!(Weights::built_in("nonsense").is_none());
    }
}
