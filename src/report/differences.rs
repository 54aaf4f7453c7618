//! How a rule set's evaluation differs from the first rule set's, figure by figure: each
//! figure's difference with a 95% interval, and a verdict line naming what changed beyond noise.
//!
//! Figures are matched by metric and rung; a metric a profile holds once (skill headroom, the
//! seats, duration and tension, read from the best fair rung, which can differ between rule
//! sets) is matched by metric alone, so a change of best rung does not split it in two. The
//! interval of a difference adds the two figures' interval half-widths in quadrature: the
//! interval two independent samples give. The rule sets play the same deals, which correlates
//! their figures positively, so this interval is conservative: a change it calls clear is clear.

use crate::evaluate::profile::{Figure, Profile, Unit};
use crate::stats::estimate::Estimate;

use super::verdict::{self, Change, Scale};

/// One figure of a rule set against the same figure of the base rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureDiff {
    /// The metric (`skill_headroom`).
    pub metric: &'static str,
    /// The rung it is about in this rule set, if any.
    pub rung: Option<String>,
    /// The rung it is about in the base rule set, if any (another best fair rung).
    pub base_rung: Option<String>,
    /// The unit of the figures (a share's difference is in points).
    pub unit: Unit,
    /// This rule set's value minus the base's, with its 95% interval.
    pub diff: Estimate,
}

/// The figure of `base` (a profile's figures) that `f` (one of `figures`, another profile's)
/// is compared with.
pub fn matching<'a>(base: &'a [Figure], figures: &[Figure], f: &Figure) -> Option<&'a Figure> {
    let exact = base
        .iter()
        .find(|g| g.metric == f.metric && g.rung == f.rung);
    let once = |fs: &mut dyn Iterator<Item = &Figure>| fs.filter(|g| g.metric == f.metric).count();
    exact.or_else(|| {
        if once(&mut figures.iter()) == 1 && once(&mut base.iter()) == 1 {
            base.iter().find(|g| g.metric == f.metric)
        } else {
            None
        }
    })
}

/// `a - b` with the interval of independent estimates (each side's half-widths added in
/// quadrature); no interval if either has none.
pub fn difference(a: &Estimate, b: &Estimate) -> Estimate {
    let value = a.value - b.value;
    let below = ((a.value - a.low).powi(2) + (b.high - b.value).powi(2)).sqrt();
    let above = ((a.high - a.value).powi(2) + (b.value - b.low).powi(2)).sqrt();
    Estimate {
        value,
        low: value - below,
        high: value + above,
    }
}

/// Every figure of `other` that `base` has too, as its difference from the base's.
pub fn against(base: &Profile, other: &Profile) -> Vec<FigureDiff> {
    other
        .figures
        .iter()
        .filter_map(|f| {
            let b = matching(&base.figures, &other.figures, f)?;
            Some(FigureDiff {
                metric: f.metric,
                rung: f.rung.clone(),
                base_rung: b.rung.clone(),
                unit: f.unit,
                diff: difference(&f.estimate, &b.estimate),
            })
        })
        .collect()
}

/// The rung a difference is about: `optimal`, or `optimal vs expectimax` when the base's is
/// another.
pub fn rung_text(d: &FigureDiff) -> String {
    match (&d.rung, &d.base_rung) {
        (Some(r), Some(b)) if r != b => format!("{r} vs {b}"),
        (Some(r), _) => r.clone(),
        (None, _) => String::new(),
    }
}

/// The verdict line of rule set `label` from its differences (see [`verdict::changes`]): each
/// figure that moved beyond noise, then how many did not. `name` gives a metric in words.
pub fn verdict_line(label: &str, diffs: &[FigureDiff], name: impl Fn(&str) -> String) -> String {
    let changes: Vec<Change> = diffs
        .iter()
        .filter(|d| d.diff.low.is_finite() && d.diff.high.is_finite())
        .map(|d| {
            let rung = rung_text(d);
            Change {
                figure: if rung.is_empty() {
                    name(d.metric)
                } else {
                    format!("{} ({rung})", name(d.metric))
                },
                scale: match d.unit {
                    Unit::Share | Unit::Points => Scale::Points,
                    Unit::Number | Unit::Length => Scale::Number,
                },
                diff: verdict::Ranged::new(d.diff.value, d.diff.low, d.diff.high),
            }
        })
        .collect();
    verdict::changes(label, &changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_adds_the_half_widths_in_quadrature() {
        let a = Estimate {
            value: 0.6,
            low: 0.57,
            high: 0.63,
        };
        let b = Estimate {
            value: 0.5,
            low: 0.46,
            high: 0.54,
        };
        let d = difference(&a, &b);
        assert!((d.value - 0.1).abs() < 1e-12);
        assert!((d.value - d.low - 0.05).abs() < 1e-12, "{d:?}");
        assert!((d.high - d.value - 0.05).abs() < 1e-12, "{d:?}");
    }
}
