//! A grid: several cells, each a game set up with one policy under one set of rules, played over
//! the same game indices with the same seed (common random numbers).
//!
//! Every chunk of game indices is played by every cell still running, one cell after another on
//! the same worker, and the chunk's results are merged in chunk order as in a single run. A cell's
//! results are therefore the same bit for bit as a plain run of its policy and rules. With a
//! precision target, a cell stops at the first chunk boundary where its 95% interval is narrow
//! enough; the decision is taken in chunk order as results merge, so it does not depend on the
//! threads either.

use std::borrow::Borrow;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::games::{Game, Record, Tally};
use crate::stats::interval::Proportion;

use super::pairs::{PairCounts, WinBits};
use super::progress::Progress;
use super::runner::{self, Plan};

/// How a grid runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridOptions {
    /// Count wins deal by deal for every pair of cells (for paired differences). The cells then
    /// run in lockstep: with a precision target, all stop together when all have reached it.
    pub pairs: bool,
    /// Stop a cell once the half-width of its 95% win-rate interval is at most this; `None` plays
    /// every planned game.
    pub precision: Option<f64>,
}

/// What a grid played.
#[derive(Debug)]
pub struct GridRun<T> {
    /// Each cell's tally, in cell order.
    pub tallies: Vec<T>,
    /// For each cell, true if it reached the precision target (always true without one).
    pub met: Vec<bool>,
    /// Deal-by-deal win pairs, if asked for.
    pub pairs: Option<PairCounts>,
    /// False if a stop request (Ctrl-C, SIGTERM) cut the grid short.
    pub complete: bool,
    /// Games of the plan played (by the cells still running): a prefix of its indices.
    pub played: u64,
}

/// One chunk's results: the tally of each cell that played it, and the win pairs.
struct ChunkResult<T> {
    tallies: Vec<Option<T>>,
    pairs: Option<PairCounts>,
}

/// Where a grid starts: each cell's tally and the win pairs so far (a stopped grid's, to go on
/// from), or nothing played yet.
pub struct GridStart<T> {
    /// Each cell's tally.
    pub tallies: Vec<T>,
    /// The win pairs, if the grid counts them.
    pub pairs: Option<PairCounts>,
}

/// When the cells of a grid have played enough: a rule the grid consults after every chunk, in
/// chunk order, so its decisions do not depend on the threads.
pub trait Stopping<T> {
    /// Sees one chunk's tally of each cell that played it (`None` for a cell that has stopped),
    /// before they are merged into the cells' totals.
    fn observe(&mut self, _chunk: &[Option<T>]) {}
    /// True if cell `cell`, whose tally so far is `total`, has played enough.
    fn done(&mut self, cell: usize, total: &T) -> bool;
}

/// The `--precision` rule: a cell is done once the half-width of its 95% win-rate interval is at
/// most the target; never without one.
struct PrecisionTarget(Option<f64>);

impl<T: Tally> Stopping<T> for PrecisionTarget {
    fn done(&mut self, _cell: usize, total: &T) -> bool {
        self.0
            .is_some_and(|e| Proportion::wilson(total.wins(), total.games()).half_width() <= e)
    }
}

/// Plays `plan` (the most games any cell plays) for every cell of `cells` with `seed`, on the
/// current rayon pool, from `start` (a stopped grid's tallies, whose plan then begins where it
/// stopped) or from nothing.
pub fn play<G: Game>(
    cells: &[G],
    seed: u64,
    plan: &Plan,
    options: GridOptions,
    start: Option<GridStart<G::Tally>>,
    stop: &AtomicBool,
    progress: &Progress,
) -> GridRun<G::Tally> {
    let mut rule = PrecisionTarget(options.precision);
    let mut run = play_until(
        cells,
        seed,
        plan,
        options.pairs,
        start,
        &mut rule,
        stop,
        progress,
    );
    if options.precision.is_none() {
        run.met.fill(true);
    }
    run
}

/// Plays `plan` for every cell of `cells` (games, or references to them) with `seed`, on the
/// current rayon pool, from `start` (a stopped grid's tallies, whose plan then begins where it
/// stopped) or from nothing, each cell until `rule` says it is done; with `pairs`, the cells run
/// in lockstep and stop together when all are done. `met` in the result is the rule's last word
/// on each cell. A grid that goes on from `start` goes on as it would have: its cells that were
/// done stay done.
#[allow(clippy::too_many_arguments)]
pub fn play_until<G: Game, C: Borrow<G> + Sync>(
    cells: &[C],
    seed: u64,
    plan: &Plan,
    pairs: bool,
    start: Option<GridStart<G::Tally>>,
    rule: &mut impl Stopping<G::Tally>,
    stop: &AtomicBool,
    progress: &Progress,
) -> GridRun<G::Tally> {
    let (mut tallies, mut pair_counts) = match start {
        Some(s) => (s.tallies, s.pairs),
        None => (
            cells
                .iter()
                .map(|g| g.borrow().new_tally())
                .collect::<Vec<_>>(),
            pairs.then(|| PairCounts::new(cells.len())),
        ),
    };
    let mut met: Vec<bool> = tallies
        .iter()
        .enumerate()
        .map(|(c, t)| t.games() > 0 && rule.done(c, t))
        .collect();
    let all_met = met.iter().all(|&m| m);
    let running: Vec<AtomicBool> = met
        .iter()
        .map(|&m| AtomicBool::new(!if pairs { all_met } else { m }))
        .collect();
    if running.iter().all(|r| !r.load(Ordering::Relaxed)) {
        return GridRun {
            tallies,
            met,
            pairs: pair_counts,
            complete: true,
            played: 0,
        };
    }
    let work = |range: Range<u64>| {
        let games = (range.end - range.start) as usize;
        let mut wins = Vec::new();
        let mut cut = false;
        let tallies = cells
            .iter()
            .zip(&running)
            .map(|(game, running)| {
                if !running.load(Ordering::Relaxed) {
                    return None;
                }
                // After a stop request the rest of the chunk's cells are not played (the runner
                // drops the chunk).
                if stop.load(Ordering::Relaxed) {
                    cut = true;
                    return None;
                }
                let game = game.borrow();
                let tally = if pairs {
                    let mut bits = WinBits::new(games);
                    let tally = play_chunk(game, seed, range.clone(), |i, o| bits.set(i, o.won()));
                    wins.push(bits);
                    tally
                } else {
                    play_chunk(game, seed, range.clone(), |_, _| {})
                };
                progress.advance(games as u64);
                Some(tally)
            })
            .collect();
        let pair_counts = (pairs && !cut).then(|| {
            let mut p = PairCounts::new(cells.len());
            p.record(&wins);
            p
        });
        ChunkResult {
            tallies,
            pairs: pair_counts,
        }
    };
    let sink = |chunk: ChunkResult<G::Tally>| {
        // A cell that stopped mid-wave still played the wave's later chunks: they are dropped.
        let chunk_tallies: Vec<Option<G::Tally>> = chunk
            .tallies
            .into_iter()
            .zip(&running)
            .map(|(tally, r)| tally.filter(|_| r.load(Ordering::Relaxed)))
            .collect();
        rule.observe(&chunk_tallies);
        for (c, tally) in chunk_tallies.into_iter().enumerate() {
            let Some(tally) = tally else { continue };
            tallies[c].merge(tally);
            met[c] = rule.done(c, &tallies[c]);
        }
        if let (Some(total), Some(p)) = (pair_counts.as_mut(), chunk.pairs.as_ref()) {
            total.merge(p);
        }
        if pairs {
            if met.iter().all(|&m| m) {
                running
                    .iter()
                    .for_each(|r| r.store(false, Ordering::Relaxed));
            }
        } else {
            for (r, &m) in running.iter().zip(&met) {
                if m {
                    r.store(false, Ordering::Relaxed);
                }
            }
        }
        Ok::<_, std::convert::Infallible>(running.iter().any(|r| r.load(Ordering::Relaxed)))
    };
    let played = match runner::run(plan, stop, work, sink) {
        Ok(played) => played,
        Err(never) => match never {},
    };
    let settled = running.iter().all(|r| !r.load(Ordering::Relaxed));
    GridRun {
        tallies,
        met,
        pairs: pair_counts,
        complete: played.complete || settled,
        played: played.games,
    }
}

/// Plays games `range` of one cell and hands each game's position in the chunk and outcome to
/// `each` after tallying it (a no-op closure costs nothing).
pub fn play_chunk<G: Game>(
    game: &G,
    seed: u64,
    range: Range<u64>,
    mut each: impl FnMut(usize, G::Outcome),
) -> G::Tally {
    let mut tally = game.new_tally();
    let first = range.start;
    game.play_range(seed, range, |index, outcome| {
        tally.record(&outcome);
        each((index - first) as usize, outcome);
    });
    tally
}
