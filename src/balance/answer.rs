//! Reading the answer of a one-rule search off its verdicts: where the metric crosses the
//! target, and the value the target's relation picks there.

use super::sequential::{Evidence, Verdict};
use super::target::Relation;

/// A place where the metric meets the target, in the rule's order: between two values settled
/// on opposite sides, or at values the test could not tell from the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// The settled value just before it, if any.
    pub before: Option<usize>,
    /// The values in between, open at the game cap or on target.
    pub near: Vec<usize>,
    /// The settled value just after it, if any.
    pub after: Option<usize>,
}

impl Crossing {
    /// Its values in the rule's order.
    pub fn members(&self) -> Vec<usize> {
        self.before
            .into_iter()
            .chain(self.near.iter().copied())
            .chain(self.after)
            .collect()
    }
}

/// The crossings among the values played, in the rule's order: a sign change between settled
/// neighbours, or a run of values near the target.
pub fn crossings(verdicts: &[Option<Verdict>]) -> Vec<Crossing> {
    let mut found = Vec::new();
    let mut last: Option<(usize, Verdict)> = None;
    let mut near = Vec::new();
    for (i, v) in verdicts.iter().enumerate() {
        match v {
            None => {}
            Some(v) if v.is_side() => {
                if !near.is_empty() || last.is_some_and(|(_, side)| side != *v) {
                    found.push(Crossing {
                        before: last.map(|(c, _)| c),
                        near: std::mem::take(&mut near),
                        after: Some(i),
                    });
                }
                last = Some((i, *v));
            }
            Some(_) => near.push(i),
        }
    }
    if !near.is_empty() {
        found.push(Crossing {
            before: last.map(|(c, _)| c),
            near,
            after: None,
        });
    }
    found
}

/// What a one-rule search found.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The metric meets the target at these crossings; `main` is the one holding the value
    /// nearest the target, `value` the candidate the relation picks there.
    Found {
        /// Every crossing, in the rule's order.
        crossings: Vec<Crossing>,
        /// The index of the main crossing.
        main: usize,
        /// The answer's value.
        value: usize,
    },
    /// Every value played is settled on one side of the target: the target is outside the
    /// range; `nearest` is the value whose metric is nearest it.
    Outside {
        /// The side every value is on.
        side: Verdict,
        /// The value nearest the target.
        nearest: usize,
    },
    /// Nothing played was settled or near (the search was stopped first).
    Unknown,
}

/// The answer of a search whose candidates stand as `verdicts`, with `evidence(c)` their games,
/// for a target `value` in relation `relation`.
pub fn answer<'e>(
    verdicts: &[Option<Verdict>],
    evidence: impl Fn(usize) -> &'e Evidence,
    relation: Relation,
    target: f64,
) -> Answer {
    let distance = |c: usize| (evidence(c).mean() - target).abs();
    let nearest = |cs: &mut dyn Iterator<Item = usize>| {
        cs.min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
    };
    let crossings = crossings(verdicts);
    if crossings.is_empty() {
        let tried = &mut (0..verdicts.len()).filter(|&c| verdicts[c].is_some());
        let Some(nearest) = nearest(tried) else {
            return Answer::Unknown;
        };
        let side = verdicts[nearest].expect("a value tried");
        return Answer::Outside { side, nearest };
    }
    let best = nearest(&mut crossings.iter().flat_map(Crossing::members)).expect("a member");
    let main = crossings
        .iter()
        .position(|x| x.members().contains(&best))
        .expect("the nearest value is in a crossing");
    let pick = |side: Verdict, higher: bool| {
        let x = &crossings[main];
        let settled = [x.before, x.after]
            .into_iter()
            .flatten()
            .find(|&c| verdicts[c] == Some(side));
        settled.or_else(|| {
            x.near.iter().copied().max_by(|&a, &b| {
                let order = evidence(a).mean().total_cmp(&evidence(b).mean());
                if higher { order } else { order.reverse() }
            })
        })
    };
    let value = match relation {
        Relation::Equal => Some(best),
        Relation::AtLeast => pick(Verdict::Above, true),
        Relation::AtMost => pick(Verdict::Below, false),
    }
    .unwrap_or(best);
    Answer::Found {
        crossings,
        main,
        value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Above, Below, Open};

    fn evidence(means: &[f64]) -> Vec<Evidence> {
        means
            .iter()
            .map(|&m| {
                let mut e = Evidence::new(1);
                e.push(m);
                e
            })
            .collect()
    }

    #[test]
    fn crossings_are_sign_changes_and_runs_of_open_values() {
        let v = [
            Some(Below),
            None,
            Some(Below),
            Some(Above),
            None,
            Some(Above),
        ];
        assert_eq!(
            crossings(&v),
            [Crossing {
                before: Some(2),
                near: vec![],
                after: Some(3)
            }]
        );
        let v = [Some(Open), Some(Above), Some(Open), Some(Open), Some(Below)];
        let x = crossings(&v);
        assert_eq!(x.len(), 2);
        assert_eq!(x[0].members(), [0, 1]);
        assert_eq!(x[1].members(), [1, 2, 3, 4]);
        assert!(crossings(&[Some(Below), None, Some(Below)]).is_empty());
    }

    #[test]
    fn the_relation_picks_the_value() {
        let e = evidence(&[0.40, 0.50, 0.58, 0.66, 0.80]);
        let v = [Some(Below), None, Some(Below), Some(Above), Some(Above)];
        let at = |relation| answer(&v, |c| &e[c], relation, 0.6);
        let value = |a: Answer| match a {
            Answer::Found { value, .. } => value,
            other => panic!("{other:?}"),
        };
        assert_eq!(value(at(Relation::Equal)), 2);
        assert_eq!(value(at(Relation::AtLeast)), 3);
        assert_eq!(value(at(Relation::AtMost)), 2);
        let all_below = [Some(Below), None, Some(Below), None, Some(Below)];
        assert_eq!(
            answer(&all_below, |c| &e[c], Relation::Equal, 0.9),
            Answer::Outside {
                side: Below,
                nearest: 4
            }
        );
        assert_eq!(
            answer(&[None; 5], |c| &e[c], Relation::Equal, 0.9),
            Answer::Unknown
        );
    }
}
