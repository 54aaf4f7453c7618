//! The examples a value model learns from and the fit: every decision of seeded games of one
//! ladder rung (the deciding seat's features, and whether that seat went on to win), played
//! in parallel and kept in game order, so the same seed gives the same examples, and the same
//! model, on any thread count.

use std::ops::Range;

use linfa::Dataset;
use linfa::traits::Fit as _;
use linfa_logistic::LogisticRegression;
use ndarray::{Array1, Array2};
use rayon::prelude::*;

use crate::error::{Result, SimError};
use crate::evaluate::collect::{Subject, play_rung};
use crate::games::value::Featured;

/// Positions of many games: one row of features each, and whether the seat to move there won.
#[derive(Clone, Debug, PartialEq)]
pub struct Examples {
    /// The features, one row after another.
    pub features: Vec<f32>,
    /// Features a row.
    pub width: usize,
    /// Whether the deciding seat won (a draw counts as not).
    pub wins: Vec<bool>,
    /// The estimate the player itself made at each position, where it made one (a search's
    /// mean result of the move it chose, or the game's exact value).
    pub own: Vec<Option<f32>>,
}

impl Examples {
    /// None yet, of `width` features a row.
    pub fn new(width: usize) -> Self {
        Self {
            features: Vec::new(),
            width,
            wins: Vec::new(),
            own: Vec::new(),
        }
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.wins.len()
    }

    /// True if there is none.
    pub fn is_empty(&self) -> bool {
        self.wins.is_empty()
    }

    /// Row `i`'s features.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.features[i * self.width..(i + 1) * self.width]
    }
}

/// Every decision of games `games` (of seed `seed`) of `subject` with rung `rung` in every seat;
/// `None` if a stop request cut them short.
pub fn examples<S: Featured>(
    subject: &Subject<S>,
    rung: usize,
    seed: u64,
    games: Range<u64>,
) -> Option<Examples> {
    let width = S::FEATURES.len();
    let per_game: Option<Vec<Examples>> = games
        .into_par_iter()
        .map(|index| {
            if crate::stop::requested() {
                return None;
            }
            let mut seats = Vec::new();
            let mut rows = Examples::new(width);
            let mut buf = Vec::with_capacity(width);
            let end = play_rung(subject, rung, seed, index, |state, seat, own| {
                state.features_of(seat, &mut buf);
                rows.features.extend_from_slice(&buf);
                seats.push(seat);
                rows.own.push(own);
            });
            rows.wins = seats.iter().map(|&s| end.result(s) > 0.5).collect();
            Some(rows)
        })
        .collect();
    let mut all = Examples::new(width);
    for g in per_game? {
        all.features.extend(g.features);
        all.wins.extend(g.wins);
        all.own.extend(g.own);
    }
    Some(all)
}

/// A fitted logistic regression over standardised features.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Each feature's mean.
    pub mean: Vec<f64>,
    /// Each feature's standard deviation (1 where constant).
    pub scale: Vec<f64>,
    /// Each standardised feature's weight towards a win.
    pub weights: Vec<f64>,
    /// The intercept.
    pub intercept: f64,
}

/// The L2 penalty of the fit (small: it only keeps weights finite where a feature separates).
pub const PENALTY: f64 = 1e-4;

/// Fits `examples` with linfa-logistic (L-BFGS); an error if they hold only wins or only
/// losses.
pub fn fit(examples: &Examples) -> Result<Fit> {
    let (n, w) = (examples.len(), examples.width);
    let wins = examples.wins.iter().filter(|&&x| x).count();
    if wins == 0 || wins == n {
        return Err(SimError::input(format!(
            "the {n} positions played were all {}: nothing to learn (play more games, or another --policy)",
            if wins == 0 { "losses" } else { "wins" }
        )));
    }
    let mut mean = vec![0.0f64; w];
    for i in 0..n {
        for (m, &v) in mean.iter_mut().zip(examples.row(i)) {
            *m += f64::from(v);
        }
    }
    mean.iter_mut().for_each(|m| *m /= n as f64);
    let mut scale = vec![0.0f64; w];
    for i in 0..n {
        for ((s, &v), m) in scale.iter_mut().zip(examples.row(i)).zip(&mean) {
            *s += (f64::from(v) - m).powi(2);
        }
    }
    for s in &mut scale {
        *s = (*s / n as f64).sqrt();
        if *s < 1e-9 {
            *s = 1.0;
        }
    }
    let x = Array2::from_shape_fn((n, w), |(i, j)| {
        (f64::from(examples.features[i * w + j]) - mean[j]) / scale[j]
    });
    let y = Array1::from(examples.wins.clone());
    let fitted = LogisticRegression::default()
        .alpha(PENALTY)
        .max_iterations(200)
        .fit(&Dataset::new(x, y))
        .map_err(|e| SimError::input(format!("the logistic regression failed: {e}")))?;
    // linfa's "positive" class is whichever label sorts first; the model estimates a win.
    let sign = if fitted.labels().pos.class { 1.0 } else { -1.0 };
    Ok(Fit {
        mean,
        scale,
        weights: fitted.params().iter().map(|p| sign * p).collect(),
        intercept: sign * fitted.intercept(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose win chance is the logistic of `2 x0 - x1`, drawn with a fixed generator.
    fn synthetic(n: usize) -> Examples {
        let mut rng = crate::rng::GameRng::new(7, 0, 0);
        let mut ex = Examples::new(2);
        for _ in 0..n {
            let a = rng.below(1000) as f32 / 1000.0;
            let b = rng.below(1000) as f32 / 1000.0;
            let p = 1.0 / (1.0 + (-(4.0 * a - 2.0 * b - 1.0)).exp());
            ex.features.extend([a, b]);
            ex.wins.push((rng.below(1_000_000) as f32) < p * 1e6);
            ex.own.push(None);
        }
        ex
    }

    #[test]
    fn recovers_the_weights_of_a_known_logistic() {
        let fit = fit(&synthetic(20_000)).unwrap();
        // Back to raw features: weight / scale.
        let a = fit.weights[0] / fit.scale[0];
        let b = fit.weights[1] / fit.scale[1];
        assert!((a - 4.0).abs() < 0.4, "weight of a {a}");
        assert!((b + 2.0).abs() < 0.4, "weight of b {b}");
    }

    #[test]
    fn refuses_examples_of_one_outcome() {
        let mut ex = synthetic(100);
        ex.wins.iter_mut().for_each(|w| *w = false);
        let e = fit(&ex).unwrap_err().to_string();
        assert!(e.contains("all losses"), "{e}");
    }
}
