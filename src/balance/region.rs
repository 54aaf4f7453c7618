//! A brief's answer read off its verdicts: each cell meets every target, fails one (named),
//! stands at the edge of a tolerance, or is open; the cells that meet the brief; and when none
//! does, what is nearest and which targets pull against each other.

use super::figure::Goal;
use super::sequential::Verdict;
use super::target::Scale;

/// Where one cell stands against the whole brief.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Every target is met.
    Meets,
    /// This target (the first settled against) is surely missed, on this side of it.
    Fails(usize, Verdict),
    /// No target is missed, and these are within half a tolerance of an end of their values.
    Edge(Vec<usize>),
    /// No target is missed, and these are not settled (at the game cap or the budget).
    Open(Vec<usize>),
}

impl Standing {
    /// Where a cell with these verdicts (one per target; `None`: not needed) stands.
    pub fn of(verdicts: &[Option<Verdict>]) -> Self {
        if let Some((g, v)) = verdicts
            .iter()
            .enumerate()
            .find_map(|(g, v)| v.filter(|v| v.is_side()).map(|v| (g, v)))
        {
            return Self::Fails(g, v);
        }
        let which = |want: Verdict| -> Vec<usize> {
            (0..verdicts.len())
                .filter(|&g| verdicts[g].unwrap_or(Verdict::Open) == want)
                .collect()
        };
        let open = which(Verdict::Open);
        if !open.is_empty() {
            return Self::Open(open);
        }
        let edge = which(Verdict::Edge);
        if edge.is_empty() {
            Self::Meets
        } else {
            Self::Edge(edge)
        }
    }

    /// The word the files use: `meets`, `fails`, `edge`, `open`.
    pub fn word(&self) -> &'static str {
        match self {
            Self::Meets => "meets",
            Self::Fails(..) => "fails",
            Self::Edge(_) => "edge",
            Self::Open(_) => "open",
        }
    }
}

/// The cell that misses the brief by the least.
#[derive(Clone, Debug, PartialEq)]
pub struct Nearest {
    /// The cell.
    pub cell: usize,
    /// Its shortfall on each target, in the target's units (0 where its estimate meets it).
    pub misses: Vec<f64>,
}

/// The answer to a brief.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// Every cell's standing.
    pub standings: Vec<Standing>,
    /// The cells that meet every target.
    pub meets: Vec<usize>,
    /// The cell that misses by the least, among those that do not meet the brief.
    pub nearest: Option<Nearest>,
    /// Targets that every cell surely misses.
    pub never: Vec<usize>,
    /// Pairs of targets that pull against each other: every cell surely misses one or the
    /// other, though each alone is met or open somewhere.
    pub conflicts: Vec<(usize, usize)>,
}

/// The region of a brief of `goals` whose cells stand as `verdicts` (`[cell][target]`) with
/// the estimates `values` (`[cell][target]`, the figure's mean so far).
pub fn region(goals: &[Goal], verdicts: &[Vec<Option<Verdict>>], values: &[Vec<f64>]) -> Region {
    let standings: Vec<Standing> = verdicts.iter().map(|v| Standing::of(v)).collect();
    let meets: Vec<usize> = (0..standings.len())
        .filter(|&c| standings[c] == Standing::Meets)
        .collect();
    let fails = |c: usize, g: usize| verdicts[c][g].is_some_and(Verdict::is_side);
    let cells = 0..verdicts.len();
    let never: Vec<usize> = (0..goals.len())
        .filter(|&g| !verdicts.is_empty() && cells.clone().all(|c| fails(c, g)))
        .collect();
    let mut conflicts = Vec::new();
    for a in 0..goals.len() {
        for b in a + 1..goals.len() {
            if !never.contains(&a)
                && !never.contains(&b)
                && cells.clone().all(|c| fails(c, a) || fails(c, b))
            {
                conflicts.push((a, b));
            }
        }
    }
    // A mean's shortfall is counted in its span over the cells, so targets of any units weigh
    // alike; rates and differences count in their own units.
    let unit: Vec<f64> = (0..goals.len())
        .map(|g| match goals[g].figure.metric.scale() {
            Scale::Mean => {
                let (low, high) = values
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
                        (l.min(v[g]), h.max(v[g]))
                    });
                if high > low { high - low } else { 1.0 }
            }
            _ => 1.0,
        })
        .collect();
    let nearest = cells
        .clone()
        .filter(|c| !meets.contains(c) && verdicts[*c].iter().any(Option::is_some))
        .map(|c| {
            let misses: Vec<f64> = goals
                .iter()
                .enumerate()
                .map(|(g, goal)| goal.shortfall(values[c][g]))
                .collect();
            let total: f64 = misses.iter().zip(&unit).map(|(m, u)| m / u).sum();
            (total, Nearest { cell: c, misses })
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n);
    Region {
        standings,
        meets,
        nearest,
        never,
        conflicts,
    }
}

/// Where a figure lies over one rule's values: its least and greatest estimate and the runs of
/// neighbouring values where it does not move at all (the same games give the same results:
/// the rule does not touch the figure there).
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// The value with the least estimate, and the estimate.
    pub least: (usize, f64),
    /// The value with the greatest estimate, and the estimate.
    pub greatest: (usize, f64),
    /// Runs of neighbouring values played (first, last) with equal estimates.
    pub flat: Vec<(usize, usize)>,
}

/// The span of the figure whose estimates over a rule's values are `values` (`None`: not
/// played), with `same(a, b)` true if values `a` and `b` gave the same results on the same
/// games.
pub fn span(values: &[Option<f64>], same: impl Fn(usize, usize) -> bool) -> Option<Span> {
    let played: Vec<(usize, f64)> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i, v)))
        .collect();
    let least = *played.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let greatest = *played.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mut flat = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    for pair in played.windows(2) {
        let (a, b) = (pair[0].0, pair[1].0);
        if same(a, b) {
            run = Some((run.map_or(a, |r| r.0), b));
        } else if let Some(r) = run.take() {
            flat.push(r);
        }
    }
    flat.extend(run);
    Some(Span {
        least,
        greatest,
        flat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::figure::Vocabulary;
    use crate::games::seats::Table;
    use Verdict::{Below, Edge, OnTarget, Open};

    fn goals() -> Vec<Goal> {
        let columns = ["win_rate".to_string()];
        let v = Vocabulary {
            game: "solo",
            columns: &columns,
            table: Table::Solo,
            policy: "optimal",
            baseline: None,
            roster: crate::games::registry::Roster {
                baseline: "bank-at-17",
                best: "optimal",
                random: None,
                plain: "optimal",
            },
        };
        vec![
            v.goal("win_rate[optimal]>=0.7", None).unwrap(),
            v.goal("gap[optimal,bank-at-17]>=0.25", None).unwrap(),
            v.goal("win_rate[bank-at-17]<=0.5", None).unwrap(),
        ]
    }

    #[test]
    fn a_cell_stands_by_its_first_miss_else_its_least_settled_target() {
        assert_eq!(
            Standing::of(&[Some(OnTarget), Some(Below), None]),
            Standing::Fails(1, Below)
        );
        assert_eq!(
            Standing::of(&[Some(OnTarget), Some(Edge), Some(Open)]),
            Standing::Open(vec![2])
        );
        assert_eq!(
            Standing::of(&[Some(Edge), Some(OnTarget), Some(Edge)]),
            Standing::Edge(vec![0, 2])
        );
        assert_eq!(Standing::of(&[Some(OnTarget); 3]), Standing::Meets);
    }

    #[test]
    fn the_region_names_the_cells_the_nearest_and_the_targets_in_conflict() {
        let g = goals();
        let verdicts = vec![
            vec![Some(OnTarget), Some(OnTarget), Some(OnTarget)],
            vec![Some(Below), None, None],
            vec![Some(OnTarget), Some(Below), None],
        ];
        let values = vec![
            vec![0.8, 0.3, 0.4],
            vec![0.5, 0.1, 0.4],
            vec![0.75, 0.2, 0.55],
        ];
        let r = region(&g, &verdicts, &values);
        assert_eq!(r.meets, [0]);
        assert_eq!(r.standings[2], Standing::Fails(1, Below));
        // Cell 2 misses the gap by 0.23 - 0.2 and the third by 0.55 - 0.52; cell 1 by 0.18
        // on the first alone, plus 0.13 on the gap.
        let n = r.nearest.unwrap();
        assert_eq!(n.cell, 2);
        assert!((n.misses[1] - 0.03).abs() < 1e-12 && (n.misses[2] - 0.03).abs() < 1e-12);
        assert_eq!(n.misses[0], 0.0);
        assert!(r.conflicts.is_empty() && r.never.is_empty());
        // No cell meets: the win rate and the gap pull against each other.
        let verdicts = vec![
            vec![Some(Below), None, None],
            vec![Some(OnTarget), Some(Below), None],
            vec![Some(Below), Some(Below), Some(Below)],
        ];
        let r = region(&g, &verdicts, &values);
        assert!(r.meets.is_empty());
        assert_eq!(r.conflicts, [(0, 1)]);
        assert!(r.never.is_empty());
    }

    #[test]
    fn a_span_finds_the_flat_runs() {
        let values = [Some(0.5), Some(0.6), None, Some(0.7), Some(0.7), Some(0.7)];
        let s = span(&values, |a, b| values[a] == values[b]).unwrap();
        assert_eq!(s.least, (0, 0.5));
        assert_eq!(s.greatest.1, 0.7);
        assert_eq!(s.flat, [(3, 5)]);
        assert!(span(&[None, None], |_, _| true).is_none());
    }
}
