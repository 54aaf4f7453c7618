//! What every tally of real games satisfies. A tally read from a file (a shard's `shard.json`, a
//! stopped run's `resume.json`) is checked against these before it is trusted: an edited or
//! damaged tally is refused with the invariant it breaks, never added up.

use crate::stats::histogram::Histogram;

/// The result of a check: the broken invariant in words.
pub type Check = Result<(), String>;

/// `part` is at most `whole`, each named: `wins (7) exceed games (5)`.
pub fn at_most(part: (&str, u64), whole: (&str, u64)) -> Check {
    if part.1 > whole.1 {
        return Err(format!(
            "{} ({}) exceed {} ({})",
            part.0, part.1, whole.0, whole.1
        ));
    }
    Ok(())
}

/// The counts every tally shares: wins and draws together at most the games.
pub fn counts(games: u64, wins: u64, draws: u64) -> Check {
    at_most(("wins", wins), ("games", games))?;
    at_most(("draws", draws), ("games", games))?;
    at_most(
        ("wins and draws", wins.saturating_add(draws)),
        ("games", games),
    )
}

/// Each of `histograms` counts one value per game: its counts add up to `games`.
pub fn one_per_game(games: u64, histograms: &[(&str, &Histogram)]) -> Check {
    for (name, h) in histograms {
        let total = h.exact_total();
        if total != u128::from(games) {
            return Err(format!(
                "the {name} histogram counts {total} games, but the tally counts {games}"
            ));
        }
    }
    Ok(())
}

/// `parts` (named) add up to `whole` (named) exactly: `the games by killer add up to 9, but
/// games are 10`.
pub fn sum_is(parts: (&str, &[u64]), whole: (&str, u64)) -> Check {
    let total: u128 = parts.1.iter().map(|&p| u128::from(p)).sum();
    if total != u128::from(whole.1) {
        return Err(format!(
            "{} add up to {total}, but {} are {}",
            parts.0, whole.0, whole.1
        ));
    }
    Ok(())
}

/// The sum of `parts`, saturating (for [`at_most`]).
pub fn sum(parts: &[u64]) -> u64 {
    parts.iter().fold(0u64, |a, &b| a.saturating_add(b))
}
