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

/// Adds `more` to the count `sum` (named), refusing a sum past `u64::MAX` instead of wrapping:
/// what adds up tallies read from files.
pub fn add(name: &str, sum: &mut u64, more: u64) -> Check {
    *sum = sum
        .checked_add(more)
        .ok_or_else(|| format!("{name} overflow: {sum} + {more} is more than a count can hold"))?;
    Ok(())
}

/// [`add`] of each of `more` to the matching count of `sums`.
pub fn add_each(name: &str, sums: &mut [u64], more: &[u64]) -> Check {
    for (sum, &m) in sums.iter_mut().zip(more) {
        add(name, sum, m)?;
    }
    Ok(())
}

/// [`add`] of a signed sum.
pub fn add_signed(name: &str, sum: &mut i64, more: i64) -> Check {
    *sum = sum
        .checked_add(more)
        .ok_or_else(|| format!("{name} overflow: {sum} + {more} is out of a sum's range"))?;
    Ok(())
}

/// The sum `total` (named) of a per-game value over `games` games lies within what `games`
/// values in `low..=high` can add up to: a mean inside the value's range.
pub fn per_game_within(name: &str, total: i128, games: u64, (low, high): (i64, i64)) -> Check {
    let games = i128::from(games);
    let (least, most) = (games * i128::from(low), games * i128::from(high));
    if total < least || total > most {
        return Err(format!(
            "{name} ({total}) is not what {games} games can add up to ({least} to {most})"
        ));
    }
    Ok(())
}

/// [`per_game_within`] of an unsigned sum of values of at most `high` each.
pub fn per_game_max(name: &str, total: u64, games: u64, high: u64) -> Check {
    per_game_within(
        name,
        i128::from(total),
        games,
        (0, i64::try_from(high).unwrap_or(i64::MAX)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_refuse_an_overflow_and_sums_stay_within_what_the_games_add_up_to() {
        let mut x = u64::MAX - 1;
        assert_eq!(add("wins", &mut x, 1), Ok(()));
        assert!(
            add("wins", &mut x, 1)
                .unwrap_err()
                .starts_with("wins overflow")
        );
        let mut s = i64::MIN + 1;
        assert!(add_signed("hp_sum", &mut s, -2).is_err());
        assert_eq!(per_game_max("cards_drawn", 10, 2, 5), Ok(()));
        assert!(per_game_max("cards_drawn", 11, 2, 5).is_err());
        assert!(per_game_within("hp_sum", -21, 2, (-10, 10)).is_err());
    }
}
