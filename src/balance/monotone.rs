//! Whether the metric is monotone in the rule, as far as the candidates tried can tell:
//! bisection trusts it, so the search checks after every candidate and scans every value when
//! the evidence goes against it.

use super::sampler::Sampler;
use super::search::Search;
use super::sequential::Verdict;

/// Evidence that the metric is not monotone in the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breach {
    /// Three candidates, in the rule's order, settled on one side of the target, the other,
    /// then the first again.
    Sides([usize; 3]),
    /// Two candidates, `first` before `second` in the rule's order, whose difference on the
    /// same games is settled against the direction of the range's ends (or at all, if the ends
    /// measure the same).
    Difference {
        /// The earlier candidate.
        first: usize,
        /// The later candidate.
        second: usize,
    },
}

/// The first breach of monotonicity among the candidates `search` has played, if any: sides
/// first, then the paired differences of every two candidates (at the search's own error).
pub fn breach<S: Sampler>(search: &Search<S>) -> Option<Breach> {
    sides(search.verdicts()).or_else(|| difference(search))
}

/// Settled sides, in the rule's order, that change twice.
fn sides(verdicts: &[Option<Verdict>]) -> Option<Breach> {
    let settled: Vec<(usize, Verdict)> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.filter(|v| v.is_side()).map(|v| (i, v)))
        .collect();
    let changes: Vec<usize> = (1..settled.len())
        .filter(|&k| settled[k].1 != settled[k - 1].1)
        .collect();
    match changes[..] {
        [first, second, ..] => Some(Breach::Sides([
            settled[first - 1].0,
            settled[first].0,
            settled[second].0,
        ])),
        _ => None,
    }
}

/// Two candidates whose paired difference is settled against the ends' direction.
fn difference<S: Sampler>(search: &Search<S>) -> Option<Breach> {
    let n = search.candidates();
    let tried: Vec<usize> = (0..n).filter(|&c| search.verdict(c).is_some()).collect();
    if search.verdict(0).is_none() || search.verdict(n - 1).is_none() {
        return None;
    }
    let ends = search.evidence(n - 1).minus(search.evidence(0)).mean();
    let test = search.test();
    for (k, &first) in tried.iter().enumerate() {
        for &second in &tried[k + 1..] {
            let (a, b) = (search.evidence(second), search.evidence(first));
            let against = match test.difference_side(a, b) {
                None => false,
                Some(rises) => ends == 0.0 || rises != (ends > 0.0),
            };
            if against {
                return Some(Breach::Difference { first, second });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Above, Below, Open};

    #[test]
    fn sides_that_turn_back_are_a_breach() {
        assert_eq!(sides(&[Some(Below), None, Some(Above), Some(Above)]), None);
        assert_eq!(sides(&[Some(Below), Some(Open), Some(Below)]), None);
        assert_eq!(
            sides(&[Some(Below), Some(Open), Some(Above), None, Some(Below)]),
            Some(Breach::Sides([0, 2, 4]))
        );
    }
}
