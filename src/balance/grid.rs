//! The candidates as games: each one cell of a grid (two for a gap: the policy, then the
//! baseline) played through [`crate::sim::grid`] on the same game indices, one chunk per batch,
//! its metric read from each chunk's tally as the chunks merge in order.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use rayon::ThreadPool;

use crate::error::Result;
use crate::games::{Game, Tally};
use crate::sim::grid::{Stopping, play_until};
use crate::sim::progress::Progress;
use crate::sim::runner::Plan;

use super::sampler::Sampler;
use super::sequential::Evidence;
use super::target::Metric;

/// The most games in a batch: small enough that a candidate far from the target settles after
/// a few thousand games, big enough that a batch's metric (a ratio such as a seat's win rate
/// included) is well defined.
pub const BATCH: u64 = 128;

/// The games in a batch for `cells`: [`BATCH`], or fewer if a cell's policy plays fewer in a
/// chunk (a slow search).
pub fn batch_size<G: Game>(cells: &[G]) -> u64 {
    cells
        .iter()
        .map(Game::games_per_chunk)
        .min()
        .unwrap_or(BATCH)
        .clamp(1, BATCH)
}

/// The batches a candidate of at most `cap` games plays: the cap rounded up to whole batches.
pub fn cap_batches(cap: u64, batch: u64) -> usize {
    cap.div_ceil(batch).max(1) as usize
}

/// Chunks in flight per worker thread: a candidate that settles mid-wave wastes the rest.
const CHUNKS_PER_THREAD: u64 = 2;

/// Where and how the candidates play.
pub struct Setup<'a> {
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
    /// The most games a candidate plays.
    pub cap: u64,
    /// The worker threads.
    pub pool: &'a ThreadPool,
    /// The stop request (Ctrl-C).
    pub stop: &'a AtomicBool,
    /// A progress bar over so many games with a label, or a hidden one.
    pub progress: &'a dyn Fn(u64, &str) -> Progress,
}

/// Candidates that are games.
pub struct GridSampler<'a, G: Game> {
    cells: Vec<G>,
    labels: Vec<String>,
    metric: Metric,
    setup: Setup<'a>,
    batch: u64,
    cap: usize,
    tallies: Vec<G::Tally>,
    evidence: Vec<Evidence>,
}

impl<'a, G: Game> GridSampler<'a, G> {
    /// Candidates made of `cells` ([`Metric::policies`] per candidate, in order), named by
    /// `labels` (one per candidate, for the progress bar), measured by `metric`.
    pub fn new(cells: Vec<G>, labels: Vec<String>, metric: Metric, setup: Setup<'a>) -> Self {
        let batch = batch_size(&cells);
        let cap = cap_batches(setup.cap, batch);
        Self {
            tallies: cells.iter().map(Game::new_tally).collect(),
            evidence: vec![Evidence::new(batch); labels.len()],
            cells,
            labels,
            metric,
            setup,
            batch,
            cap,
        }
    }

    /// The cells, [`Metric::policies`] per candidate.
    pub fn cells(&self) -> &[G] {
        &self.cells
    }

    /// Each cell's tally of every game it played.
    pub fn tallies(&self) -> &[G::Tally] {
        &self.tallies
    }

    /// The cells and their tallies.
    pub fn into_parts(self) -> (Vec<G>, Vec<G::Tally>) {
        (self.cells, self.tallies)
    }
}

/// The stopping rule of one grid play: the metric of each chunk (a batch) pushed onto its
/// candidate's evidence, and the search's word on whether the candidate is done.
struct Batches<'r> {
    group: &'r [usize],
    per: usize,
    metric: &'r Metric,
    evidence: &'r mut [Evidence],
    done: &'r mut (dyn FnMut(usize, &Evidence) -> bool + Send),
    finished: Vec<bool>,
}

impl<T: Tally> Stopping<T> for Batches<'_> {
    fn observe(&mut self, chunk: &[Option<T>]) {
        for (k, &c) in self.group.iter().enumerate() {
            let cells: Option<Vec<&T>> = chunk[k * self.per..(k + 1) * self.per]
                .iter()
                .map(Option::as_ref)
                .collect();
            let Some(cells) = cells else { continue };
            let evidence = &mut self.evidence[c];
            evidence.push(self.metric.read(&cells));
            self.finished[k] = (self.done)(c, evidence);
        }
    }

    fn done(&mut self, cell: usize, _total: &T) -> bool {
        self.finished[cell / self.per]
    }
}

impl<G: Game> Sampler for GridSampler<'_, G> {
    fn candidates(&self) -> usize {
        self.evidence.len()
    }

    fn evidence(&self, c: usize) -> &Evidence {
        &self.evidence[c]
    }

    fn cap(&self) -> usize {
        self.cap
    }

    fn policies(&self) -> u64 {
        self.metric.policies() as u64
    }

    /// Plays the candidates that have played as many batches together, each group on the same
    /// games, the groups one after another.
    fn play(
        &mut self,
        which: &[usize],
        done: &mut (dyn FnMut(usize, &Evidence) -> bool + Send),
    ) -> Result<bool> {
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &c in which {
            groups
                .entry(self.evidence[c].batches())
                .or_default()
                .push(c);
        }
        let per = self.metric.policies();
        let seed = self.setup.seed;
        for (start, group) in groups {
            let cells: Vec<&G> = group
                .iter()
                .flat_map(|&c| &self.cells[c * per..(c + 1) * per])
                .collect();
            let from = start as u64 * self.batch;
            let games = self.cap as u64 * self.batch - from;
            let mut plan = Plan::new(self.setup.first_game + from, games, self.batch);
            plan.wave =
                CHUNKS_PER_THREAD * self.setup.pool.current_num_threads() as u64 * plan.chunk;
            let label = match &group[..] {
                [c] => self.labels[*c].clone(),
                _ => format!("{} candidates", group.len()),
            };
            let progress = (self.setup.progress)(games * cells.len() as u64, &label);
            let mut rule = Batches {
                group: &group,
                per,
                metric: &self.metric,
                evidence: &mut self.evidence,
                done: &mut *done,
                finished: vec![false; group.len()],
            };
            let stop = self.setup.stop;
            let run = self.setup.pool.install(|| {
                play_until::<G, &G>(&cells, seed, &plan, false, None, &mut rule, stop, &progress)
            });
            progress.finish();
            for (k, tally) in run.tallies.into_iter().enumerate() {
                self.tallies[group[k / per] * per + k % per].merge(tally);
            }
            if !run.complete {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
