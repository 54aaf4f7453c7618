//! A sampler of known truth for the searches' tests: candidate `c` wins game `g` when the
//! game's uniform draw is below `p[c]`, so every candidate sees the same draws (common random
//! numbers, and a metric monotone in `p` game by game) and its true win rate is `p[c]`.

use crate::error::Result;
use crate::rng::splitmix64;

use super::sampler::Sampler;
use super::sequential::{Evidence, GameRange};

/// The range of a share of games: each game 0 or 1.
pub const SHARE: GameRange = GameRange {
    low: 0.0,
    high: 1.0,
};

/// Candidates of known win probabilities.
pub struct Bernoulli {
    p: Vec<f64>,
    seed: u64,
    cap: usize,
    evidence: Vec<Evidence>,
}

impl Bernoulli {
    /// Candidates winning with probabilities `p`, batches of `batch` games, at most `cap`
    /// batches each, draws keyed by `seed`.
    pub fn new(p: &[f64], seed: u64, batch: u64, cap: usize) -> Self {
        Self {
            p: p.to_vec(),
            seed,
            cap,
            evidence: vec![Evidence::new(batch); p.len()],
        }
    }

    /// Games played by every candidate together.
    pub fn games(&self) -> u64 {
        self.evidence.iter().map(Evidence::games).sum()
    }

    /// The uniform draw of game `g`.
    fn draw(&self, g: u64) -> f64 {
        (splitmix64(splitmix64(self.seed) ^ g) >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl Sampler for Bernoulli {
    fn candidates(&self) -> usize {
        self.p.len()
    }

    fn evidence(&self, c: usize) -> &Evidence {
        &self.evidence[c]
    }

    fn cap(&self) -> usize {
        self.cap
    }

    fn policies(&self) -> u64 {
        1
    }

    fn play(
        &mut self,
        which: &[usize],
        done: &mut (dyn FnMut(usize, &Evidence) -> bool + Send),
    ) -> Result<bool> {
        let mut running: Vec<usize> = which.to_vec();
        while !running.is_empty() {
            let mut still = Vec::new();
            for c in running {
                let e = &self.evidence[c];
                let (size, first) = (e.batch_games(), e.games());
                let wins = (first..first + size)
                    .filter(|&g| self.draw(g) < self.p[c])
                    .count();
                self.evidence[c].push(wins as f64 / size as f64);
                let e = &self.evidence[c];
                if !done(c, e) && e.batches() < self.cap {
                    still.push(c);
                }
            }
            running = still;
        }
        Ok(true)
    }
}
