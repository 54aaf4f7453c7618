//! One rule: bisection on the side of the target each value's metric lies, each side settled by
//! the sequential test, until the target is bracketed by neighbours (or found within the
//! tolerance). The ends are played first; every later value is the middle of the bracket, or,
//! once a value is found too near the target to settle at the game cap, the untried value next
//! to it. When the candidates tried show the metric is not monotone in the rule, every value is
//! played instead (the scan), and the search says so.

use crate::error::Result;

use super::monotone::{self, Breach};
use super::sampler::Sampler;
use super::search::Search;
use super::sequential::Verdict;

/// How a one-rule search went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Bisection, the metric monotone as far as the values tried show.
    Bisection,
    /// Every value played, after the breach of monotonicity found while bisecting.
    Scan(Breach),
}

/// Searches the candidates of `search`, in the rule's order, for where the metric meets the
/// target.
pub fn search<S: Sampler>(search: &mut Search<S>) -> Result<Method> {
    let n = search.candidates();
    if !search.play(&[0, n - 1])? {
        return Ok(Method::Bisection);
    }
    loop {
        if let Some(breach) = monotone::breach(search) {
            let every: Vec<usize> = (0..n).collect();
            search.play(&every)?;
            return Ok(Method::Scan(breach));
        }
        let Some(c) = next(search.verdicts()) else {
            return Ok(Method::Bisection);
        };
        if !search.play(&[c])? {
            return Ok(Method::Bisection);
        }
    }
}

/// The next value to play, or `None` when the target is bracketed (or found within the
/// tolerance, or outside the range). The sides tried change at most once along the rule here
/// (more is a breach of monotonicity, found first).
fn next(verdicts: &[Option<Verdict>]) -> Option<usize> {
    let n = verdicts.len();
    if verdicts.contains(&Some(Verdict::OnTarget)) {
        return None;
    }
    let sides: Vec<(usize, Verdict)> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.filter(|v| v.is_side()).map(|v| (i, v)))
        .collect();
    let near: Vec<usize> = (0..n)
        .filter(|&i| verdicts[i].is_some_and(Verdict::is_near))
        .collect();
    let (low, high) = match (sides.windows(2).find(|w| w[0].1 != w[1].1), near.first()) {
        (Some(w), _) => (w[0].0 as isize, w[1].0 as isize),
        (None, None) => {
            // Every value tried lies on one side: after the ends, the middle once, to see
            // whether the metric comes back across the target between them.
            let middle = (n - 1) / 2;
            return (sides.len() == 2 && verdicts[middle].is_none()).then_some(middle);
        }
        (None, Some(&first)) => {
            // No bracket, but a value too near to settle: around it, between the settled values
            // on either side (or the range's ends).
            let low = sides.iter().rev().find(|(i, _)| *i < first);
            let high = sides.iter().find(|(i, _)| *i > first);
            (
                low.map_or(-1, |(i, _)| *i as isize),
                high.map_or(n as isize, |(i, _)| *i as isize),
            )
        }
    };
    let within = |i: &usize| (low..high).contains(&(*i as isize)) && *i as isize != low;
    let untried: Vec<usize> = (0..n)
        .filter(within)
        .filter(|&i| verdicts[i].is_none())
        .collect();
    let open: Vec<usize> = near.into_iter().filter(within).collect();
    if untried.is_empty() {
        None
    } else if open.is_empty() {
        Some(((low + high) / 2) as usize)
    } else {
        untried
            .into_iter()
            .min_by_key(|&u| open.iter().map(|&k| u.abs_diff(k)).min())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::sequential::{Test, Tuning};
    use crate::balance::synthetic::{Bernoulli, SHARE};
    use Verdict::{Above, Below, OnTarget, Open};

    #[test]
    fn next_halves_the_bracket_then_works_outward_from_open_values() {
        let none = None;
        let mut v = vec![none; 13];
        v[0] = Some(Below);
        v[12] = Some(Above);
        assert_eq!(next(&v), Some(6));
        v[6] = Some(Above);
        assert_eq!(next(&v), Some(3));
        v[3] = Some(Open);
        assert_eq!(next(&v), Some(2));
        v[2] = Some(Below);
        assert_eq!(next(&v), Some(4));
        v[4] = Some(Above);
        assert_eq!(next(&v), None);
        v[4] = Some(OnTarget);
        assert_eq!(next(&v), None);
        // Both ends on one side: the middle once, then nothing.
        let mut v = vec![none; 5];
        v[0] = Some(Below);
        v[4] = Some(Below);
        assert_eq!(next(&v), Some(2));
        v[2] = Some(Below);
        assert_eq!(next(&v), None);
        // An end too near to settle: its neighbour.
        let mut v = vec![none; 5];
        v[0] = Some(Open);
        v[4] = Some(Above);
        assert_eq!(next(&v), Some(1));
    }

    /// Runs a bisection over candidates of known win probabilities and returns the verdicts,
    /// the method and the games played.
    fn bisect(p: &[f64], target: f64, seed: u64) -> (Vec<Option<Verdict>>, Method, u64) {
        let mut sampler = Bernoulli::new(p, seed, 256, 4096);
        let test = Test::new(
            0.05 / p.len() as f64,
            Tuning::default(),
            Some(SHARE),
            target,
            0.0,
        );
        let mut search = Search::new(&mut sampler, test, None);
        let method = super::search(&mut search).unwrap();
        let played = search.finish();
        (played.verdicts, method, sampler.games())
    }

    #[test]
    fn a_monotone_metric_is_bracketed_by_bisection() {
        let p: Vec<f64> = (0..13).map(|i| 0.3 + 0.05 * f64::from(i)).collect();
        let (verdicts, method, games) = bisect(&p, 0.62, 1);
        assert_eq!(method, Method::Bisection);
        // 0.60 at 6, 0.65 at 7: the bracket.
        assert_eq!(verdicts[6], Some(Below));
        assert_eq!(verdicts[7], Some(Above));
        let tried = verdicts.iter().flatten().count();
        assert!(tried <= 6, "{tried} values tried: {verdicts:?}");
        assert!(games < 13 * 4096 * 256 / 4, "{games} games");
    }

    #[test]
    fn a_metric_that_turns_back_is_scanned() {
        // Rises to 0.8 in the middle and falls back: both ends below 0.6.
        let p = [0.3, 0.5, 0.7, 0.8, 0.7, 0.5, 0.3];
        let (verdicts, method, _) = bisect(&p, 0.6, 2);
        assert!(matches!(method, Method::Scan(_)), "{method:?}");
        assert!(verdicts.iter().all(Option::is_some), "{verdicts:?}");
        assert_eq!(verdicts[1], Some(Below));
        assert_eq!(verdicts[2], Some(Above));
        assert_eq!(verdicts[5], Some(Below));
    }
}
