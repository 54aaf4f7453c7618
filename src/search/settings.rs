//! A search player's settings: the algorithm, its budget, and the value and rollout it plays
//! with; parsed from a `--policy` name (`ismcts`, `pimc-200`) or a strategy file's `[search]`.
//!
//! Strategy file (every key optional; the game's defaults fill the rest):
//! ```toml
//! name = "ismcts"
//! [search]
//! algorithm = "ismcts"      # or "pimc"
//! simulations = 1000        # ismcts: simulations per decision; pimc: worlds
//! exploration = 0.7         # UCB1's constant (ismcts)
//! credit = 0.2              # a simulated game's value is result + credit x progress
//! width = 6                 # the most moves weighed at a decision, where the game prunes
//! rollout = "heuristic"     # the game's policy that finishes simulated games
//! tree = "moves"            # ismcts: decisions after a move told apart by "moves" or "observations"
//! value = "value-solo.json" # a value model (`sim learn`), beside the strategy file
//! leaf = 0.5                # a leaf's value: (1 - leaf) x the rollout's + leaf x the estimate
//! prior = 0.5               # ismcts: the estimate after a move as a prior (progressive bias)
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::value_model::Model;
use crate::error::{Result, SimError};

/// Which search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Information-set MCTS ([`super::ismcts`]).
    Ismcts,
    /// Perfect-information Monte Carlo ([`super::pimc`]).
    Pimc,
}

impl Algorithm {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ismcts => "ismcts",
            Self::Pimc => "pimc",
        }
    }
}

/// How ISMCTS tells apart the decisions met after a move ([`super::ismcts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tree {
    /// By the moves that led there: a tree over move sequences.
    Moves,
    /// By what the seat observes there (the cards it saw drawn, ...).
    Observations,
}

/// A search player's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Which search.
    pub algorithm: Algorithm,
    /// Simulations per decision (ismcts), worlds (pimc).
    pub simulations: u32,
    /// UCB1's exploration constant (ismcts).
    pub exploration: f32,
    /// What a unit of the game's progress adds to a simulated game's value (a win is 1): losses
    /// that got further count a little more (Regicide: royals defeated, of 12).
    #[serde(alias = "royal_credit")]
    pub credit: f32,
    /// The most moves weighed at one decision where the game prunes (Regicide: the cheapest
    /// discards).
    #[serde(alias = "max_covers")]
    pub width: usize,
    /// The game's policy that finishes simulated games (a policy name or strategy file).
    pub rollout: String,
    /// ISMCTS: how the decisions after a move are told apart.
    pub tree: Tree,
    /// The value model file (`sim learn`) the search reads, if any.
    #[serde(default)]
    pub value: Option<String>,
    /// How much of a simulated game's value is the estimate after the searched move, from 0
    /// (the rollout's only) to 1 (the estimate only: no rollout).
    #[serde(default)]
    pub leaf: f32,
    /// ISMCTS: the weight of the estimate after a move as a prior (it picks which untried move
    /// is tried first and adds `prior x estimate / (1 + visits)` to a move's score).
    #[serde(default)]
    pub prior: f32,
    /// The model read from `value`.
    #[serde(skip)]
    pub model: Option<Box<Model>>,
}

/// A game's defaults for its search players: what `ismcts` and `pimc` mean there.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    /// ISMCTS's simulations per decision.
    pub ismcts: u32,
    /// PIMC's worlds per decision.
    pub pimc: u32,
    /// UCB1's constant.
    pub exploration: f32,
    /// The value of progress.
    pub credit: f32,
    /// The moves weighed at a decision.
    pub width: usize,
    /// The rollout policy.
    pub rollout: &'static str,
    /// ISMCTS's decision nodes.
    pub tree: Tree,
}

impl Defaults {
    /// The settings of `algorithm` under these defaults.
    pub fn settings(&self, algorithm: Algorithm) -> Settings {
        Settings {
            algorithm,
            simulations: match algorithm {
                Algorithm::Ismcts => self.ismcts,
                Algorithm::Pimc => self.pimc,
            },
            exploration: self.exploration,
            credit: self.credit,
            width: self.width,
            rollout: self.rollout.to_string(),
            tree: self.tree,
            value: None,
            leaf: 0.0,
            prior: 0.0,
            model: None,
        }
    }
}

/// The most simulations a decision may ask for.
pub const MAX_SIMULATIONS: u32 = 10_000_000;

/// A strategy file's `[search]` table, every key optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Partial {
    algorithm: Option<Algorithm>,
    simulations: Option<u32>,
    exploration: Option<f32>,
    #[serde(alias = "royal_credit")]
    credit: Option<f32>,
    #[serde(alias = "max_covers")]
    width: Option<usize>,
    rollout: Option<String>,
    tree: Option<Tree>,
    value: Option<String>,
    leaf: Option<f32>,
    prior: Option<f32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    search: Partial,
}

/// What a `--policy` value names: a search player's display name and settings, or `None` if it
/// names no search player (`Err` for a search name with a bad budget, or a bad file).
pub fn parse(spec: &str, defaults: &Defaults) -> Result<Option<(String, Settings)>> {
    for algorithm in [Algorithm::Ismcts, Algorithm::Pimc] {
        let name = algorithm.name();
        if spec == name {
            return Ok(Some((spec.into(), defaults.settings(algorithm))));
        }
        if let Some(n) = spec.strip_prefix(name).and_then(|s| s.strip_prefix('-')) {
            let mut settings = defaults.settings(algorithm);
            settings.simulations = match n.parse::<u32>() {
                Ok(n) if (1..=MAX_SIMULATIONS).contains(&n) => n,
                _ => {
                    return Err(SimError::input(format!(
                        "{spec}: {name}-N takes N from 1 to {MAX_SIMULATIONS}"
                    )));
                }
            };
            return Ok(Some((spec.into(), settings)));
        }
    }
    if !spec.ends_with(".toml") {
        return Ok(None);
    }
    let path = Path::new(spec);
    let table: toml::Table = crate::rules::read_toml(path, "cannot read strategy file")?;
    if !table.contains_key("search") {
        return Ok(None);
    }
    let file: File = crate::rules::read_toml(path, "cannot read strategy file")?;
    let p = file.search;
    let algorithm = p.algorithm.unwrap_or(Algorithm::Ismcts);
    let base = defaults.settings(algorithm);
    let settings = Settings {
        algorithm,
        simulations: p.simulations.unwrap_or(base.simulations),
        exploration: p.exploration.unwrap_or(base.exploration),
        credit: p.credit.unwrap_or(base.credit),
        width: p.width.unwrap_or(base.width),
        rollout: p.rollout.unwrap_or(base.rollout),
        tree: p.tree.unwrap_or(base.tree),
        value: p.value,
        leaf: p.leaf.unwrap_or(0.0),
        prior: p.prior.unwrap_or(0.0),
        model: None,
    };
    if !(1..=MAX_SIMULATIONS).contains(&settings.simulations)
        || !(0.0..=100.0).contains(&settings.exploration)
        || !(0.0..=1.0).contains(&settings.credit)
        || settings.width == 0
        || !(0.0..=1.0).contains(&settings.leaf)
        || !(0.0..=100.0).contains(&settings.prior)
    {
        return Err(SimError::input(format!(
            "{spec}: search settings out of range: simulations 1..={MAX_SIMULATIONS}, exploration 0..=100, credit 0..=1, width >= 1, leaf 0..=1, prior 0..=100"
        )));
    }
    let mut settings = settings;
    match &settings.value {
        Some(file) => {
            // A model named beside the strategy file.
            let model = path.parent().unwrap_or(Path::new("")).join(file);
            settings.model = Some(Box::new(Model::read(&model)?));
        }
        None if settings.leaf > 0.0 || settings.prior > 0.0 => {
            return Err(SimError::input(format!(
                "{spec}: leaf and prior weigh a value estimate: name its model with value = \"FILE.json\""
            )));
        }
        None => {}
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "search".into());
    Ok(Some((file.name.unwrap_or(stem), settings)))
}
