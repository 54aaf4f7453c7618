//! Two rules at once: for the strongest rules, every pair's grid of values off the base, and
//! each cell's interaction, its departure from the sum of the two rules' effects alone:
//! `f(a, b) - f(a, base) - f(base, b) + f(base, base)`, from the batches all four cells played
//! (the same deals). A pair's interaction on a figure is the largest such departure in size,
//! with an interval from every cell's paired interval at the error shared by the cells: so a
//! designer knows which rules cannot be tuned apart.

use crate::balance::sequential::{Evidence, GameRange, Test, Tuning};
use crate::stats::estimate::Estimate;

/// The test of a pair's `cells` grid cells on a figure whose per-game values lie in `range`:
/// each cell's interaction (a difference of two differences) at `alpha` shared by the cells.
pub fn test(alpha: f64, cells: usize, range: Option<GameRange>) -> Test {
    let wide = range.map(|r| {
        let w = r.high - r.low;
        GameRange { low: -w, high: w }
    });
    Test::new(
        alpha / cells.max(1) as f64,
        Tuning::default(),
        wide,
        0.0,
        0.0,
    )
}

/// One pair's interaction on one figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Interaction {
    /// The largest departure in size, with its interval (of the size).
    pub size: Estimate,
    /// The cell (the first rule's value, the second's) where it is largest, signed.
    pub at: (usize, usize),
    /// The signed departure there.
    pub signed: f64,
}

/// The interaction read from the evidence of the grid (`grid[i][j]`: the first rule's value
/// `i`, the second's `j`, each value off the base), the two rules' own cells off the base
/// (`first[i]`, `second[j]`) and the base cell, with `test`.
pub fn interaction(
    test: &Test,
    grid: &[Vec<&Evidence>],
    first: &[&Evidence],
    second: &[&Evidence],
    base: &Evidence,
) -> Interaction {
    let mut best = Interaction {
        size: Estimate::within(0.0, 0.0),
        at: (0, 0),
        signed: 0.0,
    };
    let (mut low, mut high) = (0.0f64, 0.0f64);
    for (i, row) in grid.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            let a = cell.minus(first[i]);
            let b = second[j].minus(base);
            let d = test.difference(&a, &b);
            let n = a.batches().min(b.batches());
            let value = a.first(n).mean() - b.first(n).mean();
            // The size's interval: |x| for x in [d.low, d.high].
            let (lo, hi) = if d.low > 0.0 {
                (d.low, d.high)
            } else if d.high < 0.0 {
                (-d.high, -d.low)
            } else {
                (0.0, d.high.max(-d.low))
            };
            low = low.max(lo);
            high = high.max(hi);
            if value.abs() > best.size.value {
                best.size.value = value.abs();
                best.at = (i, j);
                best.signed = value;
            }
        }
    }
    best.size.low = low.min(best.size.value);
    best.size.high = high.max(best.size.value);
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(values: impl Iterator<Item = f64>) -> Evidence {
        let mut e = Evidence::new(128);
        values.for_each(|v| e.push(v));
        e
    }

    #[test]
    fn additive_rules_do_not_interact_and_a_joint_effect_is_found() {
        let noise = |i: usize| 0.02 * ((i * 7 % 11) as f64 / 11.0 - 0.5);
        let at = |shift: f64| evidence((0..100).map(move |i| 0.5 + shift + noise(i)));
        let base = at(0.0);
        let (a, b) = (at(0.1), at(0.2));
        let additive = at(0.3);
        let joint = at(0.45);
        let t = test(
            0.05,
            1,
            Some(GameRange {
                low: 0.0,
                high: 1.0,
            }),
        );
        let none = interaction(&t, &[vec![&additive]], &[&a], &[&b], &base);
        assert!(none.size.value < 1e-9 && none.size.high < 1e-9, "{none:?}");
        let some = interaction(&t, &[vec![&joint]], &[&a], &[&b], &base);
        assert!((some.signed - 0.15).abs() < 1e-9, "{some:?}");
        assert!(
            some.size.low <= 0.15 + 1e-9 && some.size.high >= 0.15 - 1e-9,
            "{some:?}"
        );
    }
}
