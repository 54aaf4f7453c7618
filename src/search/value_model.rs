//! A value model file: a logistic regression over a game's features, with where it came from.
//! Written as pretty JSON (the same bytes for the same training), read back and checked field
//! by field: a file for another game, other features, a format this `sim` does not read, or
//! numbers that are not finite is refused in one line naming the file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};

/// The model file's format; a file of another format is refused.
pub const FORMAT: u32 = 1;

/// The one kind of model this `sim` writes.
pub const KIND: &str = "logistic";

/// Where a model came from: enough to train it again byte for byte.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The game (`sim list`).
    pub game: String,
    /// The rules it was trained under, in full (as `sim` reports them).
    pub rules: serde_json::Value,
    /// The ladder rung whose games it learned from.
    pub policy: String,
    /// The seed of those games.
    pub seed: u64,
    /// How many games (indices 0 to games - 1).
    pub games: u64,
    /// The decisions met in them: one example each.
    pub positions: u64,
    /// The `sim` version that trained it.
    pub version: String,
    /// The command that trains it again.
    pub command: String,
}

/// A trained value estimate: `P(win) = 1 / (1 + exp(-(intercept + sum_i weights_i * (x_i -
/// mean_i) / scale_i)))` over the game's features `x`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// The file format ([`FORMAT`]).
    pub format: u32,
    /// The model's kind ([`KIND`]).
    pub kind: String,
    /// Where it came from.
    pub provenance: Provenance,
    /// The features' names, the game's in its order.
    pub features: Vec<String>,
    /// Each feature's mean over the training positions.
    pub mean: Vec<f64>,
    /// Each feature's standard deviation there (1 where it was constant).
    pub scale: Vec<f64>,
    /// Each standardised feature's weight.
    pub weights: Vec<f64>,
    /// The intercept.
    pub intercept: f64,
    /// The file it was read from (empty for a model made here).
    #[serde(skip)]
    pub source: String,
}

impl Model {
    /// The estimated chance of a win from features `x` (in the model's order).
    #[inline]
    pub fn predict(&self, x: &[f32]) -> f32 {
        let mut z = self.intercept;
        for (i, &v) in x.iter().enumerate() {
            z += self.weights[i] * (f64::from(v) - self.mean[i]) / self.scale[i];
        }
        (1.0 / (1.0 + (-z).exp())) as f32
    }

    /// The file's text: pretty JSON ending in a newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a model serialises");
        text.push('\n');
        text
    }

    /// Why this model cannot serve as `game`'s estimate over the features `names`, if it
    /// cannot.
    pub fn check(&self, game: &str, names: &[&str]) -> std::result::Result<(), String> {
        if self.format != FORMAT {
            return Err(format!(
                "format {} is not one this sim reads ({FORMAT})",
                self.format
            ));
        }
        if self.kind != KIND {
            return Err(format!("kind {:?} is not {KIND:?}", self.kind));
        }
        if self.provenance.game != game {
            return Err(format!(
                "a model of {}, not of {game}",
                self.provenance.game
            ));
        }
        if self.features != names {
            return Err(format!(
                "its features ({}) are not {game}'s ({})",
                self.features.join(","),
                names.join(",")
            ));
        }
        for (field, values) in [
            ("mean", &self.mean),
            ("scale", &self.scale),
            ("weights", &self.weights),
        ] {
            if values.len() != names.len() {
                return Err(format!(
                    "{field} has {} numbers for {} features",
                    values.len(),
                    names.len()
                ));
            }
            if let Some(v) = values.iter().find(|v| !v.is_finite()) {
                return Err(format!("{field} holds {v}, not a finite number"));
            }
        }
        if let Some(s) = self.scale.iter().find(|&&s| s <= 0.0) {
            return Err(format!("scale holds {s}: every scale must be above 0"));
        }
        if !self.intercept.is_finite() {
            return Err(format!(
                "intercept {} is not a finite number",
                self.intercept
            ));
        }
        if self.provenance.games == 0 || self.provenance.positions == 0 {
            return Err("provenance: trained on no games".into());
        }
        Ok(())
    }

    /// Reads and checks the model file `path` for `game` over the features `names`.
    pub fn load(path: &Path, game: &str, names: &[&str]) -> Result<Self> {
        let model = Self::read(path)?;
        model
            .check(game, names)
            .map_err(|why| SimError::input(format!("{}: {why}", model.source)))?;
        Ok(model)
    }

    /// Reads the model file `path`, checked against itself (the game's check,
    /// [`Model::check`], follows where the game is known).
    pub fn read(path: &Path) -> Result<Self> {
        let bad = |why: String| SimError::input(format!("{}: {why}", path.display()));
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad(format!("cannot read the value model: {e}")))?;
        let mut model: Self =
            serde_json::from_str(&text).map_err(|e| bad(format!("not a value model file: {e}")))?;
        let names: Vec<&str> = model.features.iter().map(|s| s.as_str()).collect();
        let game = model.provenance.game.clone();
        model.check(&game, &names).map_err(bad)?;
        model.source = path.display().to_string();
        Ok(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        Model {
            format: FORMAT,
            kind: KIND.into(),
            provenance: Provenance {
                game: "g".into(),
                rules: serde_json::json!({"hp": 20}),
                policy: "p".into(),
                seed: 1,
                games: 10,
                positions: 100,
                version: "0".into(),
                command: "sim learn g".into(),
            },
            features: vec!["a".into(), "b".into()],
            mean: vec![0.5, 0.0],
            scale: vec![0.5, 1.0],
            weights: vec![2.0, -1.0],
            intercept: 0.25,
            source: String::new(),
        }
    }

    #[test]
    fn predicts_the_logistic_of_the_standardised_sum() {
        let m = model();
        let z: f64 = 0.25 + 2.0 * (1.0 - 0.5) / 0.5 - 1.0 * 2.0;
        let want = 1.0 / (1.0 + (-z).exp());
        assert!((f64::from(m.predict(&[1.0, 2.0])) - want).abs() < 1e-6);
    }

    #[test]
    fn refuses_each_bad_field() {
        let names = ["a", "b"];
        assert_eq!(model().check("g", &names), Ok(()));
        type Spoil = fn(&mut Model);
        let cases: [(Spoil, &str); 8] = [
            (|m| m.format = 9, "format 9"),
            (|m| m.kind = "net".into(), "kind"),
            (|m| m.provenance.game = "h".into(), "a model of h"),
            (|m| m.features.pop().map(drop).unwrap_or(()), "features"),
            (|m| m.weights.push(1.0), "weights has 3"),
            (|m| m.mean[0] = f64::NAN, "mean holds NaN"),
            (|m| m.scale[1] = 0.0, "scale holds 0"),
            (|m| m.provenance.games = 0, "no games"),
        ];
        for (spoil, says) in cases {
            let mut m = model();
            spoil(&mut m);
            let why = m.check("g", &names).unwrap_err();
            assert!(why.contains(says), "{why} should say {says}");
        }
    }

    #[test]
    fn round_trips_through_its_text() {
        let m = model();
        let back: Model = serde_json::from_str(&m.to_text()).unwrap();
        assert_eq!(back, m);
    }
}
