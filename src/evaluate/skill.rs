//! What the ladder shows about skill: each rung's win rate and its paired gain over the rung
//! below (a duel: each rung's score against the rung below, both seat orders), the skill
//! headroom (the best fair rung minus the bottom rung), the best fair rung's gain over the
//! game's baseline (its literal strategy), whether the last doubling of the search budget still
//! pays, and Ludii's skill trace computed from the ladder.
//!
//! **Skill trace.** The levels are the consecutive pairs of search rungs (budget `k`, then
//! `2k`). Level `i`'s result `y_i` is the stronger rung's mean result against the weaker on
//! Ludii's scale of -1 (a loss) to 1 (a win): in a duel `2 x score - 1`; in a solo or team game,
//! deal by deal, +1 where only the stronger won, -1 where only the weaker won, 0 otherwise
//! (the paired gain). A least-squares line through `(i, y_i)`, `i = 0..L-1`, predicts the next
//! level's `y_L`, clipped to 0..1; the score is `y_L + (1 - y_L) x mean_i max(y_i, 0)`: near 1
//! where more thinking keeps paying, near 0 where it stopped paying.

use super::collect::{Layout, Setup, Step};
use super::data::{Rows, Score, Tally};
use super::profile::{Figure, LadderRow, Part, Unit};
use crate::stats::estimate::Estimate;

/// Ludii's skill-trace score of the levels' results `y` (see the module notes); `None`
/// without a level.
pub fn skill_trace(y: &[f64]) -> Option<f64> {
    let l = y.len();
    if l == 0 {
        return None;
    }
    let n = l as f64;
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = y.iter().sum::<f64>() / n;
    let sxx: f64 = (0..l).map(|i| (i as f64 - mean_x).powi(2)).sum();
    let sxy: f64 = y
        .iter()
        .enumerate()
        .map(|(i, v)| (i as f64 - mean_x) * (v - mean_y))
        .sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let next = (mean_y + slope * (n - mean_x)).clamp(0.0, 1.0);
    let area = y.iter().map(|v| v.max(0.0)).sum::<f64>() / n;
    Some(next + (1.0 - next) * area)
}

/// The skill trace of sums over deals: each level's summed result, then the deals.
fn trace_of_sums(m: &[f64]) -> Option<f64> {
    let (deals, sums) = m.split_last()?;
    let y: Vec<f64> = sums.iter().map(|s| s / deals).collect();
    skill_trace(&y)
}

/// A duel step's score for the stronger rung on one deal: its mean result over the two seat
/// orders (0..1).
fn step_score(row: &[Score], step: &Step) -> f64 {
    (f64::from(row[step.first]) + 2.0 - f64::from(row[step.second])) / 4.0
}

/// A duel step's score for the stronger rung over the deals, with its normal interval clipped
/// to 0..1, the range of a score.
fn step_estimate(rows: &Rows, step: &Step) -> Estimate {
    Estimate::mean_of(rows.iter(), |r| Some(step_score(r, step))).clip(0.0, 1.0)
}

/// The search rungs' levels: consecutive fair rungs that both have a budget.
fn levels(setup: &Setup) -> Vec<(usize, usize)> {
    let searched: Vec<usize> = (0..setup.rungs.len())
        .filter(|&r| setup.rungs[r].fair && setup.rungs[r].budget.is_some())
        .collect();
    searched.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The best fair rung of a solo or team game: the most wins (the higher rung on a tie).
pub fn best_fair(setup: &Setup, rows: &Rows) -> usize {
    (0..setup.rungs.len())
        .filter(|&r| setup.rungs[r].fair)
        .max_by_key(|&r| (rows.wins(r), r))
        .unwrap_or(0)
}

/// The ladder's figures.
pub fn figures(setup: &Setup, layout: &Layout, rows: &Rows) -> Vec<Figure> {
    let deals = rows.deals();
    let names = |a: usize, b: usize| format!("{} - {}", setup.rungs[a].name, setup.rungs[b].name);
    let fig = |metric, rung: String, unit, estimate, games| Figure {
        part: Part::Ladder,
        metric,
        rung: Some(rung),
        unit,
        estimate,
        games,
    };
    let mut out = Vec::new();
    let levels = levels(setup);
    if layout.steps.is_empty() {
        // A solo or team game: line r is rung r in every seat.
        for (r, rung) in setup.rungs.iter().enumerate() {
            out.push(fig(
                "win_rate",
                rung.name.clone(),
                Unit::Share,
                Estimate::share(rows.wins(r), deals),
                deals,
            ));
        }
        for r in 1..setup.rungs.len() {
            out.push(fig(
                "gain_on_rung_below",
                names(r, r - 1),
                Unit::Points,
                rows.paired(r, r - 1),
                deals,
            ));
        }
        let best = best_fair(setup, rows);
        out.push(fig(
            "skill_headroom",
            names(best, 0),
            Unit::Points,
            rows.paired(best, 0),
            deals,
        ));
        if let Some(base) = setup.baseline.filter(|&b| b != best) {
            let gain = rows.paired(best, base);
            out.push(fig(
                "gain_over_baseline",
                names(best, base),
                Unit::Points,
                gain,
                deals,
            ));
        }
        if let Some(&(lo, hi)) = levels.last() {
            out.push(fig(
                "last_doubling_gain",
                names(hi, lo),
                Unit::Points,
                rows.paired(hi, lo),
                deals,
            ));
        }
        out.extend(trace_figure(setup, &levels, rows, deals, |r| {
            levels
                .iter()
                .map(|&(lo, hi)| (f64::from(r[hi]) - f64::from(r[lo])) / 2.0)
                .collect()
        }));
        return out;
    }
    // A duel: each step in both seat orders.
    let score = |step: &Step| step_estimate(rows, step);
    for step in &layout.steps {
        out.push(fig(
            "score_vs_rung_below",
            names(step.upper, step.lower),
            Unit::Share,
            score(step),
            2 * deals,
        ));
    }
    if let Some(h) = &layout.headroom {
        out.push(fig(
            "skill_headroom",
            names(h.upper, h.lower),
            Unit::Points,
            score(h).shift(-0.5),
            2 * deals,
        ));
    }
    let traced: Vec<&Step> = layout
        .steps
        .iter()
        .filter(|s| levels.contains(&(s.lower, s.upper)))
        .collect();
    if let Some(last) = traced.last() {
        out.push(fig(
            "last_doubling_gain",
            names(last.upper, last.lower),
            Unit::Points,
            score(last).shift(-0.5),
            2 * deals,
        ));
    }
    out.extend(trace_figure(setup, &levels, rows, 2 * deals, |r| {
        traced
            .iter()
            .map(|s| 2.0 * step_score(r, s) - 1.0)
            .collect()
    }));
    out
}

/// The skill trace of the levels whose results on a deal are `results(row)` (-1 to 1 each),
/// with its jackknife interval over deals; `games` is its sample size.
fn trace_figure(
    setup: &Setup,
    levels: &[(usize, usize)],
    rows: &Rows,
    games: u64,
    results: impl Fn(&[Score]) -> Vec<f64>,
) -> Option<Figure> {
    let moments = |r: &[Score]| {
        let mut m = results(r);
        m.push(1.0);
        m
    };
    let trace = Estimate::jackknife(rows.iter(), moments, trace_of_sums)?;
    Some(Figure {
        part: Part::Ladder,
        metric: "skill_trace",
        rung: Some(trace_rungs(setup, levels)),
        unit: Unit::Number,
        estimate: trace,
        games,
    })
}

/// The rungs a skill trace runs over: `pimc-25..pimc-1600`.
fn trace_rungs(setup: &Setup, levels: &[(usize, usize)]) -> String {
    match (levels.first(), levels.last()) {
        (Some(&(first, _)), Some(&(_, last))) => {
            format!("{}..{}", setup.rungs[first].name, setup.rungs[last].name)
        }
        _ => String::new(),
    }
}

/// The ladder's rows, one per rung.
pub fn rows(setup: &Setup, layout: &Layout, rows: &Rows, tally: &Tally) -> Vec<LadderRow> {
    let deals = rows.deals();
    let mean_length = |lines: &[usize]| {
        let (mut n, mut sum) = (0u64, 0u64);
        for &l in lines {
            for (&len, &c) in &tally.lines[l].lengths {
                n += c;
                sum += u64::from(len) * c;
            }
        }
        if n == 0 {
            f64::NAN
        } else {
            sum as f64 / n as f64
        }
    };
    setup
        .rungs
        .iter()
        .enumerate()
        .map(|(r, rung)| {
            let base = LadderRow {
                rung: r,
                name: rung.name.clone(),
                fair: rung.fair,
                budget: rung.budget,
                games: deals,
                result: None,
                gain: None,
                mean_length: f64::NAN,
                capped: 0,
            };
            if layout.steps.is_empty() {
                return LadderRow {
                    result: Some(Estimate::share(rows.wins(r), deals)),
                    gain: (r > 0).then(|| rows.paired(r, r - 1)),
                    mean_length: mean_length(&[r]),
                    capped: tally.lines[r].capped,
                    ..base
                };
            }
            let Some(step) = layout.steps.iter().find(|s| s.upper == r) else {
                return base;
            };
            let score = step_estimate(rows, step);
            LadderRow {
                games: 2 * deals,
                result: Some(score),
                gain: Some(score.shift(-0.5)),
                mean_length: mean_length(&[step.first, step.second]),
                capped: tally.lines[step.first].capped + tally.lines[step.second].capped,
                ..base
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skill_trace_follows_its_formula() {
        // One level: the line is flat at y0.
        assert!((skill_trace(&[0.4]).unwrap() - (0.4 + 0.6 * 0.4)).abs() < 1e-12);
        // A falling line predicts below zero: clipped to 0, the score is the mean area.
        let y = [0.6, 0.4, 0.2];
        assert!((skill_trace(&y).unwrap() - 0.4).abs() < 1e-12);
        // Negative levels add nothing to the area.
        let y = [0.2, -0.2];
        let next: f64 = 0.0; // 0.2 - 0.4 x 2 < 0
        assert!((skill_trace(&y).unwrap() - (next + 0.1)).abs() < 1e-12);
        // A rising line past 1 is clipped to 1.
        assert_eq!(skill_trace(&[0.5, 0.9]), Some(1.0));
        assert_eq!(skill_trace(&[]), None);
    }
}
