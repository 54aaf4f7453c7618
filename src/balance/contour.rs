//! Several rules: every combination of their values is a cell, and the cells play by
//! successive elimination. Every open cell plays the next batch of the same games; a cell
//! leaves as soon as its sequential test settles it (on target, below or above), so games go to
//! the cells whose answer is still uncertain, the ones near the contour. The contour is then
//! read off the verdicts: the cells on target, and the neighbours it passes between.

use crate::error::Result;

use super::sampler::Sampler;
use super::search::Search;
use super::sequential::Verdict;

/// Plays every cell of `search` until each is settled, reaches the game cap, or the budget runs
/// out.
pub fn search<S: Sampler>(search: &mut Search<S>) -> Result<()> {
    let every: Vec<usize> = (0..search.candidates()).collect();
    search.play(&every)?;
    Ok(())
}

/// The contour of a grid of cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contour {
    /// The cells on target.
    pub meets: Vec<usize>,
    /// Neighbouring cells (one step apart along one rule) settled on opposite sides: the
    /// contour passes between them.
    pub between: Vec<(usize, usize)>,
}

/// The contour of cells standing as `verdicts`, laid out as the combinations of rules with
/// `sizes` values each, the first rule varying slowest.
pub fn contour(verdicts: &[Option<Verdict>], sizes: &[usize]) -> Contour {
    let meets = (0..verdicts.len())
        .filter(|&c| verdicts[c] == Some(Verdict::OnTarget))
        .collect();
    let mut between = Vec::new();
    for (c, &here) in verdicts.iter().enumerate() {
        let mut stride = 1;
        for &size in sizes.iter().rev() {
            let at_edge = (c / stride) % size == size - 1;
            let d = c + stride;
            if !at_edge
                && let (Some(a), Some(b)) = (here, verdicts[d])
                && a.is_side()
                && b.is_side()
                && a != b
            {
                between.push((c, d));
            }
            stride *= size;
        }
    }
    Contour { meets, between }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::sequential::{Test, Tuning};
    use crate::balance::synthetic::{Bernoulli, SHARE};
    use Verdict::{Above, Below, Edge, OnTarget};

    #[test]
    fn the_contour_is_the_cells_on_target_and_the_steps_across_it() {
        // Two rules of 2 and 3 values: cells (0,0) (0,1) (0,2) / (1,0) (1,1) (1,2).
        let v = [
            Some(Below),
            Some(OnTarget),
            Some(Above),
            Some(Below),
            Some(Above),
            None,
        ];
        let c = contour(&v, &[2, 3]);
        assert_eq!(c.meets, [1]);
        // Across the second rule: 3 -> 4; across the first: 0 -> 3 is below both; 2 -> 5 untried.
        assert_eq!(c.between, [(3, 4)]);
        let v = [Some(Below), Some(Below), Some(Above), Some(Above)];
        assert_eq!(contour(&v, &[2, 2]).between, [(0, 2), (1, 3)]);
    }

    /// A 5 x 5 grid whose win rate rises along both rules: the cells within the tolerance are
    /// found, and the games go to them.
    #[test]
    fn elimination_finds_the_cells_on_target_and_spends_games_there() {
        let p: Vec<f64> = (0..25)
            .map(|c| 0.2 + 0.1 * f64::from(c / 5) + 0.027 * f64::from(c % 5))
            .collect();
        let mut sampler = Bernoulli::new(&p, 3, 256, 4096);
        let (target, tolerance) = (0.5, 0.02);
        let test = Test::new(
            0.05 / 25.0,
            Tuning::default(),
            Some(SHARE),
            target,
            tolerance,
        );
        let mut search = Search::new(&mut sampler, test, None);
        super::search(&mut search).unwrap();
        let played = search.finish();
        for (c, v) in played.verdicts.iter().enumerate() {
            let v = v.expect("every cell played");
            let d = p[c] - target;
            match v {
                OnTarget => assert!(d.abs() <= tolerance, "cell {c}: {} on target", p[c]),
                Below => assert!(d < -tolerance, "cell {c}: {} below", p[c]),
                Above => assert!(d > tolerance, "cell {c}: {} above", p[c]),
                Edge => assert!(
                    (d.abs() - tolerance).abs() <= tolerance / 2.0,
                    "cell {c}: {} at the edge",
                    p[c]
                ),
                Verdict::Open => panic!("cell {c} left open below the cap"),
            }
        }
        // The far cells leave at the first look (one batch); the most games go to a cell near
        // the edge of the tolerance (0.481 and 0.508), the hardest to settle.
        let games = |c: usize| sampler.evidence(c).games();
        assert_eq!(games(0), 256);
        let most = (0..25).max_by_key(|&c| games(c)).unwrap();
        assert!([13, 14].contains(&most), "cell {most} played most");
        assert!(
            games(most) > 4 * games(0),
            "{} vs {}",
            games(most),
            games(0)
        );
    }
}
