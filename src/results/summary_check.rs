//! What `summary.parquet` and `distributions.parquet` read back must be, checked field by field
//! before anything is shown: a damaged file (a flipped byte in a value) is refused with one line
//! naming the file, the row and the field, never rendered.
//!
//! A row: games at least 1, wins at most games, the win rate exactly wins over games and inside
//! its interval, the interval inside 0..1; a comparison's difference inside its intervals and
//! inside -1..1; a precision target inside 0..1; every game column a number or absent (a
//! per-game mean, `mean_X`, always a number), each
//! `X` inside `X_low..X_high` where the file has them, each `mean_X` the mean of the histogram
//! `X`. A histogram: of a row the summary has; one with a per-game mean, its counts adding up
//! to that row's games.

use crate::error::{Result, SimError};

use super::read_back::{Interval, Results};

/// How far a float read back may be from what its integers say (the file's floats are the
/// integers' quotients, rounded once).
const SLACK: f64 = 1e-9;

/// Checks every field of `results` against what it can be.
pub fn check(results: &Results) -> Result<()> {
    for (i, cell) in results.cells.iter().enumerate() {
        let bad = |field: &str, why: String| {
            SimError::input(format!(
                "summary.parquet row {i}: {field} {why}: the file is damaged or not one sim wrote"
            ))
        };
        if cell.games == 0 || cell.wins > cell.games {
            return Err(bad(
                "wins",
                format!("{} of {} games cannot be", cell.wins, cell.games),
            ));
        }
        let rate = cell.wins as f64 / cell.games as f64;
        if (cell.win.value - rate).abs() > SLACK {
            return Err(bad(
                "win_rate",
                format!(
                    "{} is not wins over games ({} / {})",
                    cell.win.value, cell.wins, cell.games
                ),
            ));
        }
        within("win_rate", &cell.win, (0.0, 1.0)).map_err(|why| bad("win_ci", why))?;
        if let Some(c) = &cell.comparison {
            within("diff", &c.paired, (-1.0, 1.0)).map_err(|why| bad("diff_ci", why))?;
            within("diff", &c.unpaired, (-1.0, 1.0)).map_err(|why| bad("diff_unpaired_ci", why))?;
        }
        if let Some((target, _)) = cell.precision
            && !(target > 0.0 && target < 1.0)
        {
            return Err(bad("precision", format!("{target} is not inside 0..1")));
        }
        for (name, value) in &cell.means {
            // A per-game mean is a number for any row of games; other figures may be absent.
            if value.is_infinite() || (name.starts_with("mean_") && value.is_nan()) {
                return Err(bad(name, format!("{value} is not a number")));
            }
            if let (Some(low), Some(high)) = (
                cell.mean(&format!("{name}_low")),
                cell.mean(&format!("{name}_high")),
            ) {
                let interval = Interval {
                    value: *value,
                    low,
                    high,
                };
                within(name, &interval, (f64::NEG_INFINITY, f64::INFINITY))
                    .map_err(|why| bad(name, why))?;
            }
        }
    }
    for d in &results.distributions {
        let bad = |why: String| {
            SimError::input(format!(
                "distributions.parquet row {}: {} of row {} {why}: the file is damaged or not one sim wrote",
                d.first_row, d.metric, d.cell
            ))
        };
        let Some(cell) = results.cells.get(d.cell) else {
            return Err(bad("is of a row the summary does not have".into()));
        };
        // A histogram with a per-game mean (`mean_X`) counts each game once; another (the
        // decisions' times) counts something else.
        let Some(mean) = cell.mean(&format!("mean_{}", d.metric)) else {
            continue;
        };
        let games = d
            .counts
            .iter()
            .try_fold(0u64, |sum, &(_, n)| sum.checked_add(n));
        if games != Some(cell.games) {
            return Err(bad(format!(
                "counts {games:?} games, the summary {}",
                cell.games
            )));
        }
        let sum: f64 = d.counts.iter().map(|&(v, n)| v as f64 * n as f64).sum();
        let expected = sum / cell.games as f64;
        let near = (mean - expected).abs() <= SLACK * expected.abs().max(1.0);
        if !near {
            return Err(bad(format!(
                "has mean {expected}, the summary's mean_{} {mean}",
                d.metric
            )));
        }
    }
    Ok(())
}

/// An error unless `interval`'s ends are in order around its value (an absent interval, NaN
/// at both ends, passes) and inside `range`.
fn within(name: &str, interval: &Interval, range: (f64, f64)) -> std::result::Result<(), String> {
    let Interval { value, low, high } = *interval;
    if low.is_nan() && high.is_nan() {
        return Ok(());
    }
    let inside = |x: f64| x >= range.0 - SLACK && x <= range.1 + SLACK;
    if !(low <= value + SLACK && value <= high + SLACK && inside(low) && inside(high)) {
        return Err(format!(
            "{low} to {high} is not an interval around {name} {value} inside {} to {}",
            range.0, range.1
        ));
    }
    Ok(())
}
