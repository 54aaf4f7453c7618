//! A designer's brief played: several targets, each about its own players, over every cell (a
//! value of one rule, or a combination of several). Every cell seats every player the targets
//! name on the same games, batch by batch (common random numbers); after each batch every
//! target still open on a cell gets that batch's figure and its sequential test. A target's
//! verdict, once settled, stands; a player stops on a cell once every target about it is
//! settled there, and a cell stops as soon as one target fails (it cannot meet the brief) or
//! every target is settled. Each test runs at `alpha / (cells x targets)`, so with probability
//! at least `1 - alpha` every verdict given is right together.

use std::sync::atomic::AtomicBool;

use crate::games::{Game, Tally};
use crate::sim::grid::{Stopping, play_until};
use crate::sim::runner::Plan;

use super::figure::Goal;
use super::grid::{Setup, batch_size, cap_batches};
use super::sequential::{Evidence, Test, Tuning, Verdict};

/// Chunks in flight per worker thread, as for one target's searches.
const CHUNKS_PER_THREAD: u64 = 2;

/// What a brief's games said.
pub struct Played<T> {
    /// Each cell's evidence on each target: `[cell][target]`.
    pub evidence: Vec<Vec<Evidence>>,
    /// Each cell's verdict on each target: `None` where the cell stopped (it failed another
    /// target) before this one was settled.
    pub verdicts: Vec<Vec<Option<Verdict>>>,
    /// Every cell's players' tallies, `players` per cell, in cell order.
    pub tallies: Vec<T>,
    /// The test of each target (the same error for all).
    pub tests: Vec<Test>,
    /// The error each test runs at.
    pub test_error: f64,
    /// True if the budget ran out with some cell still open.
    pub budget_spent: bool,
    /// False if a stop request (Ctrl-C) cut the games short.
    pub complete: bool,
}

/// The games `cells` (every player of each cell, `players` a cell, in the order of
/// [`super::figure::players`]) play for `goals`, each goal's players given by their positions
/// in a cell (`whom[g]`), at total error `alpha`, at most `budget` games in all.
pub fn play<G: Game>(
    cells: &[G],
    players: usize,
    goals: &[Goal],
    whom: &[Vec<usize>],
    alpha: f64,
    budget: Option<u64>,
    setup: &Setup<'_>,
) -> Played<G::Tally> {
    let n = cells.len() / players;
    let test_error = alpha / (n * goals.len()) as f64;
    let tests: Vec<Test> = goals
        .iter()
        .map(|g| {
            Test::new(
                test_error,
                Tuning::default(),
                g.figure.metric.game_range(),
                0.0,
                0.0,
            )
        })
        .collect();
    let batch = batch_size(cells);
    let cap = cap_batches(setup.cap, batch);
    let mut rule = Rule {
        players,
        goals,
        whom,
        tests: &tests,
        cap,
        budget,
        evidence: vec![vec![Evidence::new(batch); goals.len()]; n],
        verdicts: vec![vec![None; goals.len()]; n],
        done: vec![false; n],
        budget_spent: false,
    };
    let mut plan = Plan::new(setup.first_game, cap as u64 * batch, batch);
    plan.wave = CHUNKS_PER_THREAD * setup.pool.current_num_threads() as u64 * plan.chunk;
    let progress = (setup.progress)(
        cap as u64 * batch * cells.len() as u64,
        &format!("{n} cells"),
    );
    let stop: &AtomicBool = setup.stop;
    let seed = setup.seed;
    let all: Vec<&G> = cells.iter().collect();
    let run = setup.pool.install(|| {
        play_until::<G, &G>(&all, seed, &plan, false, None, &mut rule, stop, &progress)
    });
    progress.finish();
    for verdicts in rule.verdicts.iter_mut() {
        // At the cap (or the budget), what is still unsettled is open; on a cell that failed a
        // target, the others were not needed.
        let failed = verdicts.iter().any(|v| v.is_some_and(Verdict::is_side));
        for v in verdicts.iter_mut() {
            if v.is_none() && !failed {
                *v = Some(Verdict::Open);
            }
        }
    }
    let (evidence, verdicts, budget_spent) = (rule.evidence, rule.verdicts, rule.budget_spent);
    Played {
        evidence,
        verdicts,
        tallies: run.tallies,
        tests,
        test_error,
        budget_spent,
        complete: run.complete,
    }
}

/// The stopping rule of a brief's games.
struct Rule<'r> {
    players: usize,
    goals: &'r [Goal],
    whom: &'r [Vec<usize>],
    tests: &'r [Test],
    cap: usize,
    budget: Option<u64>,
    evidence: Vec<Vec<Evidence>>,
    verdicts: Vec<Vec<Option<Verdict>>>,
    done: Vec<bool>,
    budget_spent: bool,
}

impl<T: Tally> Stopping<T> for Rule<'_> {
    fn observe(&mut self, chunk: &[Option<T>]) {
        for (c, done) in self.done.iter_mut().enumerate() {
            if *done {
                continue;
            }
            let seats = &chunk[c * self.players..(c + 1) * self.players];
            for (g, goal) in self.goals.iter().enumerate() {
                if self.verdicts[c][g].is_some() {
                    continue;
                }
                let tallies: Option<Vec<&T>> =
                    self.whom[g].iter().map(|&p| seats[p].as_ref()).collect();
                let Some(tallies) = tallies else { continue };
                let evidence = &mut self.evidence[c][g];
                evidence.push(goal.figure.metric.read(&tallies));
                let verdict = goal.verdict(&self.tests[g].interval(evidence));
                if verdict != Verdict::Open {
                    self.verdicts[c][g] = Some(verdict);
                }
            }
            let verdicts = &self.verdicts[c];
            let batches = self.evidence[c].iter().map(Evidence::batches).max();
            *done = verdicts.iter().any(|v| v.is_some_and(Verdict::is_side))
                || verdicts.iter().all(Option::is_some)
                || batches >= Some(self.cap);
            if let Some(left) = self.budget.as_mut() {
                let games: u64 = seats.iter().flatten().map(|t| t.games()).sum();
                *left = left.saturating_sub(games);
            }
        }
        if self.budget == Some(0) {
            self.budget_spent = self.done.iter().any(|d| !d);
            self.done.iter_mut().for_each(|d| *d = true);
        }
    }

    fn done(&mut self, cell: usize, _total: &T) -> bool {
        let c = cell / self.players;
        let p = cell % self.players;
        self.done[c]
            || self
                .whom
                .iter()
                .enumerate()
                .all(|(g, whom)| !whom.contains(&p) || self.verdicts[c][g].is_some())
    }
}
