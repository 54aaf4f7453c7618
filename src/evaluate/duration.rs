//! Duration, from the profile line's games: the length in the game's unit (mean, quartiles,
//! histogram) and, with `--ideal-turns A..B`, Ludii's ideal-duration score: the mean over games
//! of 1 for a length inside `A..=B`, `length / A` below it, and `(2B - length) / B` above it
//! (0 from twice `B`).

use super::data::LineTally;
use super::profile::{Figure, Part, Unit};
use crate::stats::estimate::Estimate;

/// Ludii's ideal-duration score of one game of `length` for the range `a..=b`.
pub fn ideal_score(length: u32, (a, b): (u32, u32)) -> f64 {
    let (l, a, b) = (f64::from(length), f64::from(a), f64::from(b));
    if l < a {
        l / a
    } else if l <= b {
        1.0
    } else {
        ((2.0 * b - l) / b).max(0.0)
    }
}

/// The duration figures of the profile line's games (`rung`'s).
pub fn figures(line: &LineTally, rung: &str, ideal: Option<(u32, u32)>) -> Vec<Figure> {
    let counts: Vec<(u32, u64)> = line.lengths.iter().map(|(&l, &c)| (l, c)).collect();
    let n: u64 = counts.iter().map(|(_, c)| c).sum();
    let fig = |metric, unit, estimate| Figure {
        part: Part::Duration,
        metric,
        rung: Some(rung.to_string()),
        unit,
        estimate,
        games: n,
    };
    let mean_of = |f: &dyn Fn(u32) -> f64| {
        let (mut sum, mut squares) = (0.0, 0.0);
        for &(l, c) in &counts {
            let (x, c) = (f(l), c as f64);
            sum += c * x;
            squares += c * x * x;
        }
        Estimate::mean(n as f64, sum, squares)
    };
    let mut out = vec![
        fig("length_mean", Unit::Length, mean_of(&|l| f64::from(l))),
        fig("length_q1", Unit::Length, Estimate::quantile(&counts, 0.25)),
        fig(
            "length_median",
            Unit::Length,
            Estimate::quantile(&counts, 0.5),
        ),
        fig("length_q3", Unit::Length, Estimate::quantile(&counts, 0.75)),
    ];
    if let Some(range) = ideal {
        out.push(fig(
            "ideal_duration",
            Unit::Number,
            mean_of(&|l| ideal_score(l, range)),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ideal_duration_score_rises_holds_and_falls() {
        let r = (10, 20);
        assert_eq!(ideal_score(0, r), 0.0);
        assert_eq!(ideal_score(5, r), 0.5);
        assert_eq!(ideal_score(10, r), 1.0);
        assert_eq!(ideal_score(20, r), 1.0);
        assert_eq!(ideal_score(30, r), 0.5);
        assert_eq!(ideal_score(40, r), 0.0);
        assert_eq!(ideal_score(90, r), 0.0);
    }
}
