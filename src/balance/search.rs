//! What every search shares: the candidates' sampler, the test each is played against, the
//! budget of games, and each candidate's verdict and turn.

use crate::error::Result;

use super::sampler::Sampler;
use super::sequential::{Evidence, Test, Verdict};

/// A search in progress over the candidates of a sampler.
pub struct Search<'a, S: Sampler> {
    sampler: &'a mut S,
    test: Test,
    /// Games left to play, if the search has a budget.
    budget: Option<u64>,
    verdicts: Vec<Option<Verdict>>,
    order: Vec<usize>,
    budget_spent: bool,
    complete: bool,
}

/// How a search left the candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Each candidate's verdict; `None` if it was never played.
    pub verdicts: Vec<Option<Verdict>>,
    /// The candidates in the order they were first played.
    pub order: Vec<usize>,
    /// True if the budget ran out while some candidate played was still open.
    pub budget_spent: bool,
    /// False if a stop request (Ctrl-C) cut the search short.
    pub complete: bool,
}

impl<'a, S: Sampler> Search<'a, S> {
    /// A search of `sampler`'s candidates, each judged by `test`, playing at most `budget` games
    /// in all (every policy's games counted).
    pub fn new(sampler: &'a mut S, test: Test, budget: Option<u64>) -> Self {
        let n = sampler.candidates();
        Self {
            sampler,
            test,
            budget,
            verdicts: vec![None; n],
            order: Vec::new(),
            budget_spent: false,
            complete: true,
        }
    }

    /// The number of candidates.
    pub fn candidates(&self) -> usize {
        self.verdicts.len()
    }

    /// The test every candidate is played against.
    pub fn test(&self) -> &Test {
        &self.test
    }

    /// Candidate `c`'s verdict, `None` if it has not played.
    pub fn verdict(&self, c: usize) -> Option<Verdict> {
        self.verdicts[c]
    }

    /// Every candidate's verdict.
    pub fn verdicts(&self) -> &[Option<Verdict>] {
        &self.verdicts
    }

    /// What candidate `c`'s games said.
    pub fn evidence(&self, c: usize) -> &Evidence {
        self.sampler.evidence(c)
    }

    /// Plays the candidates of `which` that can still learn something (untried, or open below
    /// the cap) until each is settled, reaches the cap, or the budget runs out. Returns false if
    /// the search cannot go on: the budget is spent or a stop request came.
    pub fn play(&mut self, which: &[usize]) -> Result<bool> {
        let cap = self.sampler.cap();
        let which: Vec<usize> = which
            .iter()
            .copied()
            .filter(|&c| {
                self.verdicts[c].is_none_or(|v| v == Verdict::Open)
                    && self.sampler.evidence(c).batches() < cap
            })
            .collect();
        for &c in &which {
            if self.verdicts[c].is_none() {
                self.order.push(c);
            }
        }
        let test = self.test;
        let policies = self.sampler.policies();
        let mut left = self.budget;
        let mut done = |_c: usize, evidence: &Evidence| {
            if let Some(left) = left.as_mut() {
                *left = left.saturating_sub(evidence.batch_games() * policies);
            }
            left == Some(0) || test.verdict(evidence) != Verdict::Open
        };
        let complete = self.sampler.play(&which, &mut done)?;
        for &c in &which {
            self.verdicts[c] = Some(test.verdict(self.sampler.evidence(c)));
        }
        self.budget = left;
        let open = which
            .iter()
            .any(|&c| self.verdicts[c] == Some(Verdict::Open));
        self.budget_spent |= left == Some(0) && open;
        self.complete &= complete;
        Ok(complete && left != Some(0))
    }

    /// The verdicts and the order of play, once the search is over.
    pub fn finish(self) -> Played {
        Played {
            verdicts: self.verdicts,
            order: self.order,
            budget_spent: self.budget_spent,
            complete: self.complete,
        }
    }
}
