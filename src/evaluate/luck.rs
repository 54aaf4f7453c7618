//! Luck: how much the deal decides.
//!
//! A solo or team game: the share of deals that no rung wins (the ceiling included: deals
//! nobody could win, as far as the ladder knows), the share that every fair rung wins (deals
//! anybody wins, the random player included), the share that every fair rung above the bottom
//! one wins (deals every strategy wins, the random player left out), and the ceiling minus the best fair rung, deal by
//! deal (the worth of seeing the cards). A duel: the share of the steps' deals (a rung against
//! the rung below, both seat orders) that the same seat won both times (the deal decided) and
//! that the same rung won both times (skill decided).
//!
//! **The variance split.** Results `y[d][c]` (1 a win, 1/2 a draw, 0 a loss) of `n` deals by
//! `k` columns (a solo or team game: the fair rungs; a duel: the steps' lines, seat 0's result)
//! form a two-way layout without replication. With `m` the grand mean, `m_d` deal `d`'s mean
//! and `m_c` column `c`'s, the total sum of squares `SS = sum (y - m)^2` splits into the deal's
//! part `k sum_d (m_d - m)^2`, the player's part `n sum_c (m_c - m)^2` and the rest (which
//! deals which player wins, and each game's own chance). Each part is given as its share of
//! `SS`: the deal's share is the luck share, the player's the skill share.

use super::collect::{Layout, Setup};
use super::data::{Rows, Score};
use super::profile::{Figure, Part, Unit};
use crate::stats::estimate::Estimate;

/// The three shares of the variance split over `columns` (deal, player, rest), each with its
/// jackknife interval; `None` if the results do not vary.
fn split(rows: &Rows, columns: &[usize]) -> Option<[Estimate; 3]> {
    let k = columns.len() as f64;
    if columns.len() < 2 {
        return None;
    }
    // Moments: deals, sum of squares, sum of squared deal totals, then each column's total.
    let moments = |r: &[Score]| {
        let y: Vec<f64> = columns.iter().map(|&c| f64::from(r[c]) / 2.0).collect();
        let total: f64 = y.iter().sum();
        let mut m = vec![1.0, y.iter().map(|v| v * v).sum(), total * total];
        m.extend(y);
        m
    };
    let parts = |m: &[f64]| {
        let n = m[0];
        let t: f64 = m[3..].iter().sum();
        let base = t * t / (n * k);
        let total = m[1] - base;
        let deal = m[2] / k - base;
        let player = m[3..].iter().map(|c| c * c).sum::<f64>() / n - base;
        (total > 1e-12).then_some((deal / total, player / total))
    };
    let share = |which: usize| {
        Estimate::jackknife(rows.iter(), moments, |m| {
            parts(m).map(|(d, p)| match which {
                0 => d,
                1 => p,
                _ => 1.0 - d - p,
            })
        })
    };
    Some([share(0)?, share(1)?, share(2)?])
}

/// The luck figures.
pub fn figures(setup: &Setup, layout: &Layout, rows: &Rows) -> Vec<Figure> {
    let deals = rows.deals();
    let fig = |metric, rung: Option<String>, unit, estimate| Figure {
        part: Part::Luck,
        metric,
        rung,
        unit,
        estimate,
        games: deals,
    };
    let mut out = Vec::new();
    let columns: Vec<usize> = if layout.steps.is_empty() {
        let fair: Vec<usize> = (0..setup.rungs.len())
            .filter(|&r| setup.rungs[r].fair)
            .collect();
        let none = rows.count(|r| r.iter().all(|&s| s != 2));
        let every = rows.count(|r| fair.iter().all(|&f| r[f] == 2));
        // The bottom rung (the uniform random player) wins next to nothing in most games: the
        // deals every strategy wins leave it out.
        let strategies = rows.count(|r| fair.iter().skip(1).all(|&f| r[f] == 2));
        out.push(fig(
            "deals_no_rung_wins",
            None,
            Unit::Share,
            Estimate::share(none, deals),
        ));
        out.push(fig(
            "deals_every_fair_rung_wins",
            None,
            Unit::Share,
            Estimate::share(every, deals),
        ));
        if fair.len() > 2 {
            out.push(fig(
                "deals_every_strategy_wins",
                None,
                Unit::Share,
                Estimate::share(strategies, deals),
            ));
        }
        let best = super::skill::best_fair(setup, rows);
        for (c, rung) in setup.rungs.iter().enumerate().filter(|(_, r)| !r.fair) {
            let pair = format!("{} - {}", rung.name, setup.rungs[best].name);
            out.push(fig(
                "ceiling_minus_best_fair",
                Some(pair),
                Unit::Points,
                rows.paired(c, best),
            ));
        }
        fair
    } else {
        let steps = layout.steps.len() as f64;
        let share_of = |test: fn(Score, Score) -> bool| {
            Estimate::mean_of(rows.iter(), |r| {
                let hits = layout
                    .steps
                    .iter()
                    .filter(|s| test(r[s.first], r[s.second]))
                    .count();
                Some(hits as f64 / steps)
            })
        };
        // Seat 0's results with the stronger rung in seat 0, then in seat 1.
        let seat = share_of(|a, b| a == b && a != 1);
        let skill = share_of(|a, b| (a, b) == (2, 0) || (a, b) == (0, 2));
        out.push(fig("deals_seat_decided", None, Unit::Share, seat));
        out.push(fig("deals_skill_decided", None, Unit::Share, skill));
        layout
            .steps
            .iter()
            .flat_map(|s| [s.first, s.second])
            .collect()
    };
    if let Some([deal, player, rest]) = split(rows, &columns) {
        out.push(fig("variance_deal_share", None, Unit::Share, deal));
        out.push(fig("variance_player_share", None, Unit::Share, player));
        out.push(fig("variance_rest_share", None, Unit::Share, rest));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split by the textbook formulas over the full table of results.
    fn slow_split(table: &[Vec<f64>]) -> (f64, f64) {
        let n = table.len() as f64;
        let k = table[0].len() as f64;
        let m = table.iter().flatten().sum::<f64>() / (n * k);
        let total: f64 = table.iter().flatten().map(|y| (y - m).powi(2)).sum();
        let deal: f64 = table
            .iter()
            .map(|r| k * (r.iter().sum::<f64>() / k - m).powi(2))
            .sum();
        let player: f64 = (0..table[0].len())
            .map(|c| n * (table.iter().map(|r| r[c]).sum::<f64>() / n - m).powi(2))
            .sum();
        (deal / total, player / total)
    }

    #[test]
    fn the_split_matches_the_textbook_sums_of_squares() {
        let mut tally = super::super::data::Tally::new(3);
        let rows: [([Score; 3], usize); 5] = [
            ([0, 2, 2], 7),
            ([0, 0, 2], 5),
            ([2, 2, 2], 3),
            ([0, 0, 0], 4),
            ([1, 2, 0], 2),
        ];
        let mut table = Vec::new();
        for (row, times) in rows {
            for _ in 0..times {
                tally.add_row(&row);
                table.push(
                    row.iter()
                        .map(|&s| f64::from(s) / 2.0)
                        .collect::<Vec<f64>>(),
                );
            }
        }
        let [deal, player, rest] = split(&Rows::of(&tally), &[0, 1, 2]).unwrap();
        let (d, p) = slow_split(&table);
        assert!((deal.value - d).abs() < 1e-12 && (player.value - p).abs() < 1e-12);
        assert!((rest.value - (1.0 - d - p)).abs() < 1e-12);
        assert!(deal.low < deal.value && deal.value < deal.high);
    }
}
