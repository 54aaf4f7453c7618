//! What the searches need of the games: candidates that play more games on request, batch by
//! batch, each batch the same game indices for every candidate, and what their games said.

use crate::error::Result;

use super::sequential::Evidence;

/// The candidates of a search (one per combination of rule values) and their games so far.
pub trait Sampler {
    /// The number of candidates.
    fn candidates(&self) -> usize;
    /// What candidate `c`'s games said so far.
    fn evidence(&self, c: usize) -> &Evidence;
    /// The most batches a candidate plays (the game cap).
    fn cap(&self) -> usize;
    /// Games played per deal: the policies each candidate seats (2 for a gap target, else 1).
    fn policies(&self) -> u64;
    /// Plays each candidate of `which` on its next batches, batch after batch (each on the same
    /// games as every other candidate's batch of that number), until `done(c, evidence)` says
    /// it has played enough or it reaches the cap. `done` is asked in batch order, whatever the
    /// threads. Returns false if a stop request (Ctrl-C) cut the games short.
    fn play(
        &mut self,
        which: &[usize],
        done: &mut (dyn FnMut(usize, &Evidence) -> bool + Send),
    ) -> Result<bool>;
}
