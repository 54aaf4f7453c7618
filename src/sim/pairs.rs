//! Deal-by-deal pairing of cells that played the same game indices.

/// Which games of one chunk a cell won, one bit per game in index order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinBits(Vec<u64>);

impl WinBits {
    /// No wins among `games` games.
    pub fn new(games: usize) -> Self {
        Self(vec![0; games.div_ceil(64)])
    }

    /// Marks game `i` of the chunk as won (or not).
    #[inline]
    pub fn set(&mut self, i: usize, won: bool) {
        self.0[i / 64] |= u64::from(won) << (i % 64);
    }

    /// Games won by `self` and lost by `other`.
    fn only(&self, other: &WinBits) -> u64 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| u64::from((a & !b).count_ones()))
            .sum()
    }
}

/// For every ordered pair of cells `(a, b)`: the games `a` won and `b` lost. With the games both
/// played, that is all a paired difference of win rates needs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairCounts {
    cells: usize,
    counts: Vec<u64>,
}

impl PairCounts {
    /// No games yet, for `cells` cells.
    pub fn new(cells: usize) -> Self {
        Self {
            cells,
            counts: vec![0; cells * cells],
        }
    }

    /// Counts one chunk from each cell's wins on it (the same games for every cell).
    pub fn record(&mut self, wins: &[WinBits]) {
        assert_eq!(wins.len(), self.cells);
        for (a, wa) in wins.iter().enumerate() {
            for (b, wb) in wins.iter().enumerate() {
                if a != b {
                    self.counts[a * self.cells + b] += wa.only(wb);
                }
            }
        }
    }

    /// True if these are counts for `cells` cells (a deserialized value may not be).
    pub fn fits(&self, cells: usize) -> bool {
        self.cells == cells && self.counts.len() == cells * cells
    }

    /// Checks counts read from a file against the `games` every cell played and the `wins` of
    /// each: cell `a` won and `b` lost at most as many games as `a` won and `b` did not.
    pub fn check(&self, games: u64, wins: &[u64]) -> crate::games::invariants::Check {
        use crate::games::invariants::at_most;
        for (a, &wa) in wins.iter().enumerate() {
            for (b, &wb) in wins.iter().enumerate() {
                let only = self.only(a, b);
                if a == b {
                    at_most(
                        (&format!("the games cell {a} won and lost"), only),
                        ("none", 0),
                    )?;
                    continue;
                }
                at_most(
                    (&format!("the games cell {a} won and cell {b} lost"), only),
                    (&format!("cell {a}'s wins"), wa),
                )?;
                at_most(
                    (&format!("the games cell {a} won and cell {b} lost"), only),
                    (
                        &format!("the games cell {b} did not win"),
                        games.saturating_sub(wb),
                    ),
                )?;
            }
        }
        Ok(())
    }

    /// Adds the counts of later games.
    pub fn merge(&mut self, other: &PairCounts) {
        if let Err(e) = self.try_merge(other) {
            panic!("a run's own win pairs add up: {e}");
        }
    }

    /// Adds the counts of later games, refusing pairs of other cells or a count that would pass
    /// `u64::MAX`: what adds up win pairs read from files.
    pub fn try_merge(&mut self, other: &PairCounts) -> Result<(), String> {
        if (self.cells, self.counts.len()) != (other.cells, other.counts.len()) {
            return Err(format!(
                "win pairs of {} cells cannot be added to those of {}",
                other.cells, self.cells
            ));
        }
        for (x, &y) in self.counts.iter_mut().zip(&other.counts) {
            crate::games::invariants::add("win pairs", x, y)?;
        }
        Ok(())
    }

    /// Games cell `a` won and cell `b` lost.
    pub fn only(&self, a: usize, b: usize) -> u64 {
        self.counts[a * self.cells + b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_discordant_games_across_word_boundaries() {
        let games = 130;
        let a_won = |i: usize| i.is_multiple_of(3);
        let b_won = |i: usize| i.is_multiple_of(5);
        let (mut a, mut b) = (WinBits::new(games), WinBits::new(games));
        for i in 0..games {
            a.set(i, a_won(i));
            b.set(i, b_won(i));
        }
        let mut pairs = PairCounts::new(2);
        pairs.record(&[a.clone(), b.clone()]);
        pairs.merge(&pairs.clone());
        let a_only = (0..games).filter(|&i| a_won(i) && !b_won(i)).count() as u64;
        let b_only = (0..games).filter(|&i| !a_won(i) && b_won(i)).count() as u64;
        assert_eq!(pairs.only(0, 1), 2 * a_only);
        assert_eq!(pairs.only(1, 0), 2 * b_only);
        assert_eq!(pairs.only(0, 0), 0);
    }
}
