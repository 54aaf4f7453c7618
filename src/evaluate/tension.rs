//! Tension: how a game's result is settled, read from an estimate of seat 0's expected result
//! (1 a win, 1/2 a draw, 0 a loss) at every decision of the profile line's games: the game's
//! own value where it knows one ([`GameState::estimate`](crate::games::state::GameState::estimate):
//! Crownfall's solver), else the deciding search player's estimate of the move it chose.
//!
//! - **Decisiveness**: the share of a game's decisions made before its result was settled, the
//!   result being settled from the first decision after which every estimate lies within
//!   [`SETTLED`] of the result (1 if only the end settled it; games with a result, draws left
//!   out).
//! - **Drama**: in games with a winner (a solo or team game's wins), how far the winner's
//!   estimate fell from certainty: 1 minus its lowest estimate.
//! - **Comebacks**: the share of games with a winner whose estimate was below 1/2 at some
//!   decision.
//! - **Lead changes** (duels): the share of a game's decisions (after the first) at which the
//!   leader (the seat whose estimate is above 1/2, or neither at exactly 1/2) differs from the
//!   one before.

use super::data::{MICRO, Score, Sum, TensionTally};
use super::profile::{Figure, Part, Unit};
use crate::stats::estimate::Estimate;

/// How close to the result every later estimate must be for the result to count as settled.
pub const SETTLED: f64 = 0.1;

/// One game's tension figures (`None` where the game has none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameTension {
    /// The share of decisions before the result was settled.
    pub decisiveness: Option<f64>,
    /// 1 minus the winner's lowest estimate.
    pub drama: Option<f64>,
    /// True if the winner's estimate was below 1/2 at some decision.
    pub comeback: bool,
    /// The share of decisions after the first at which the leader changed.
    pub lead_changes: Option<f64>,
}

impl GameTension {
    /// The figures of a game whose seat-0 estimates at its decisions were `estimates` and that
    /// ended with seat 0's `score`.
    pub fn of(estimates: &[f64], score: Score, duel: bool) -> Self {
        let result = f64::from(score) / 2.0;
        let decisions = estimates.len();
        let decisiveness = (decisions > 0 && score != 1).then(|| {
            let settled = estimates
                .iter()
                .rposition(|v| (v - result).abs() > SETTLED)
                .map_or(0, |i| i + 1);
            settled as f64 / decisions as f64
        });
        // The winner's estimates: seat 0's on a win; seat 1's (1 - seat 0's) on a duel's loss.
        let lowest = match score {
            2 => estimates.iter().copied().reduce(f64::min),
            0 if duel => estimates.iter().map(|v| 1.0 - v).reduce(f64::min),
            _ => None,
        };
        let lead_changes = (duel && decisions >= 2).then(|| {
            let leader = |v: f64| v.partial_cmp(&0.5);
            let changes = estimates
                .windows(2)
                .filter(|w| leader(w[0]) != leader(w[1]))
                .count();
            changes as f64 / (decisions - 1) as f64
        });
        Self {
            decisiveness,
            drama: lowest.map(|low| 1.0 - low),
            comeback: lowest.is_some_and(|low| low < 0.5),
            lead_changes,
        }
    }

    /// Counts the game into `tally`.
    pub fn count(&self, tally: &mut TensionTally) {
        if let Some(d) = self.decisiveness {
            tally.decisiveness.add(d);
        }
        if let Some(d) = self.drama {
            tally.drama.add(d);
            tally.comebacks += u64::from(self.comeback);
        }
        if let Some(l) = self.lead_changes {
            tally.lead_changes.add(l);
        }
    }
}

/// The mean of a [`Sum`]'s values with its normal interval.
fn mean(sum: &Sum) -> Estimate {
    Estimate::mean(
        sum.n as f64,
        sum.sum as f64 / MICRO,
        sum.squares as f64 / (MICRO * MICRO),
    )
}

/// The tension figures of the profile line's games (`rung`), none if no game had an estimate.
pub fn figures(tally: &TensionTally, rung: &str, duel: bool) -> Vec<Figure> {
    let fig = |metric, unit, estimate, games| Figure {
        part: Part::Tension,
        metric,
        rung: Some(rung.to_string()),
        unit,
        estimate,
        games,
    };
    let mut out = Vec::new();
    let d = &tally.decisiveness;
    if d.n > 0 {
        out.push(fig("decisiveness", Unit::Share, mean(d), d.n));
    }
    let drama = &tally.drama;
    if drama.n > 0 {
        out.push(fig("drama", Unit::Number, mean(drama), drama.n));
        out.push(fig(
            "comebacks",
            Unit::Share,
            Estimate::share(tally.comebacks, drama.n),
            drama.n,
        ));
    }
    let lead = &tally.lead_changes;
    if duel && lead.n > 0 {
        out.push(fig("lead_changes", Unit::Share, mean(lead), lead.n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_game_settled_at_its_third_decision_after_a_dip() {
        let t = GameTension::of(&[0.6, 0.3, 0.95, 0.92, 1.0], 2, false);
        assert_eq!(t.decisiveness, Some(2.0 / 5.0));
        assert!((t.drama.unwrap() - 0.7).abs() < 1e-12);
        assert!(t.comeback);
        assert_eq!(t.lead_changes, None);
    }

    #[test]
    fn a_solo_loss_has_no_drama_and_an_unsettled_game_scores_one() {
        let t = GameTension::of(&[0.5, 0.4, 0.3], 0, false);
        assert_eq!(t.decisiveness, Some(1.0));
        assert_eq!(t.drama, None);
        assert!(!t.comeback);
    }

    #[test]
    fn a_duel_counts_lead_changes_and_the_winners_drama() {
        // Seat 1 wins; seat 0 led, then neither, then seat 1, then seat 0 again.
        let t = GameTension::of(&[0.7, 0.5, 0.2, 0.6, 0.05], 0, true);
        assert_eq!(t.lead_changes, Some(4.0 / 4.0));
        assert!((t.drama.unwrap() - 0.7).abs() < 1e-12);
        assert!(t.comeback);
        assert_eq!(t.decisiveness, Some(4.0 / 5.0));
        let draw = GameTension::of(&[0.5, 0.5], 1, true);
        assert_eq!((draw.decisiveness, draw.drama), (None, None));
        assert_eq!(draw.lead_changes, Some(0.0));
    }
}
