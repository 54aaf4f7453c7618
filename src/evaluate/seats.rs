//! Fairness between seats, from the profile line's games (the top fair rung in every seat):
//! completion (the share of games ended by the rules, not cut off by a cap), draws (the share
//! of games ended by the rules in a draw: Ludii's drawishness), and in a duel each seat's win
//! rate, the first-move advantage (seat 0's win rate minus seat 1's: the mean, game by game, of
//! +1 for a seat-0 win, -1 for a seat-1 win, 0 for a draw) and Ludii's balance (1 minus the
//! largest gap between the seats' win rates, a draw counting half to each: with two seats,
//! 1 minus the absolute first-move advantage). The seats of a team win and lose together,
//! so a solo or team game has only completion and draws.

use super::collect::Layout;
use super::data::{LineTally, Rows};
use super::profile::{Figure, Part, Unit};
use crate::stats::estimate::Estimate;

/// The seat figures of the profile line's games (`rung`'s).
pub fn figures(
    layout: &Layout,
    rows: &Rows,
    line: &LineTally,
    rung: &str,
    duel: bool,
) -> Vec<Figure> {
    let n = rows.deals();
    let p = layout.profile;
    let fig = |metric, who: String, unit, estimate, games| Figure {
        part: Part::Seats,
        metric,
        rung: Some(who),
        unit,
        estimate,
        games,
    };
    let ended = n - line.capped;
    let mut out = vec![
        fig(
            "completion",
            rung.into(),
            Unit::Share,
            Estimate::share(ended, n),
            n,
        ),
        fig(
            "draws",
            rung.into(),
            Unit::Share,
            Estimate::share(rows.draws(p) - line.capped_draws, ended),
            ended,
        ),
    ];
    if duel {
        let wins = [rows.wins(p), rows.count(|r| r[p] == 0)];
        for (seat, w) in wins.into_iter().enumerate() {
            let who = format!("{rung}, seat {seat}");
            out.push(fig(
                "seat_win_rate",
                who,
                Unit::Share,
                Estimate::share(w, n),
                n,
            ));
        }
        let advantage = Estimate::mean_of(rows.iter(), |r| Some(f64::from(r[p]) - 1.0));
        out.push(fig(
            "first_move_advantage",
            rung.into(),
            Unit::Points,
            advantage,
            n,
        ));
        out.push(fig(
            "balance",
            rung.into(),
            Unit::Share,
            advantage.one_minus_abs(),
            n,
        ));
    }
    out
}
