//! The screening games: every cell (the base rule set, and each other value of each rule) seats
//! every player on the same games, batch by batch. After each batch every figure of every cell
//! gets that batch's value; every few batches each rule still open has its swings read, and a
//! rule stops once its swing on every figure is settled (see [`Swing::settled`]). A cell plays
//! while a rule it belongs to is open (the base cell while any is). The whole stops at the cap
//! of games per cell, or when the budget of games is spent.

use std::sync::atomic::AtomicBool;

use crate::balance::figure::Figure;
use crate::balance::grid::{Setup, batch_size, cap_batches};
use crate::balance::sequential::{Evidence, MIN_BATCHES, Test};
use crate::games::{Game, Tally};
use crate::sim::grid::{Stopping, play_until};
use crate::sim::progress::Progress;
use crate::sim::runner::Plan;

use super::swing::{self, Swing};

/// Chunks in flight per worker thread: a rule that settles mid-wave wastes the rest.
const CHUNKS_PER_THREAD: u64 = 2;

/// After the spread is known, a rule's swings are read every this many batches.
const LOOK_EVERY: usize = 4;

/// What the screening plays: the figures, whom each is about, and when a rule is settled.
pub struct Screen<'a> {
    /// The figures.
    pub figures: &'a [Figure],
    /// Each figure's players, as their places among a cell's players.
    pub whom: &'a [Vec<usize>],
    /// Each figure's precision: a swing known to within it (or below it) is settled.
    pub precision: &'a [f64],
    /// The chance that a swing's interval misses, for each rule and figure.
    pub alpha: f64,
    /// The most games in all (every player's counted), if limited.
    pub budget: Option<u64>,
}

/// What the screening said.
pub struct Screened<T> {
    /// Each rule's swing on each figure: `[rule][figure]`.
    pub swings: Vec<Vec<Swing>>,
    /// Each rule's test on each figure.
    pub tests: Vec<Vec<Test>>,
    /// True for each rule settled on every figure before the cap or the budget.
    pub settled: Vec<bool>,
    /// Every cell's players' tallies, `players` a cell, in cell order.
    pub tallies: Vec<T>,
    /// Every cell's batches on every figure: `[cell][figure]`.
    pub evidence: Vec<Vec<Evidence>>,
    /// True if the budget ran out with a rule still open.
    pub budget_spent: bool,
    /// False if a stop request (Ctrl-C) cut the games short.
    pub complete: bool,
}

/// Plays `cells` (`players` a cell, in the order of the figures' `whom`) for the rules whose
/// values are the cells `rules[r]` (each rule's values in order, the base cell shared).
pub fn screen<G: Game>(
    cells: &[G],
    players: usize,
    rules: &[Vec<usize>],
    screen: &Screen<'_>,
    setup: &Setup<'_>,
) -> Screened<G::Tally> {
    let n = cells.len() / players;
    let tests: Vec<Vec<Test>> = rules
        .iter()
        .map(|values| {
            screen
                .figures
                .iter()
                .map(|f| swing::test(screen.alpha, values.len(), f.metric.game_range()))
                .collect()
        })
        .collect();
    let batch = batch_size(cells);
    let cap = cap_batches(setup.cap, batch);
    let mut users = vec![Vec::new(); n];
    for (r, values) in rules.iter().enumerate() {
        for &c in values {
            users[c].push(r);
        }
    }
    let mut plan = Plan::new(setup.first_game, cap as u64 * batch, batch);
    plan.wave = CHUNKS_PER_THREAD * setup.pool.current_num_threads() as u64 * plan.chunk;
    let progress = (setup.progress)(
        cap as u64 * batch * cells.len() as u64,
        &rules_left(rules.len(), rules.len()),
    );
    let mut rule = Rule {
        players,
        rules,
        screen,
        tests: &tests,
        users,
        cap,
        evidence: vec![vec![Evidence::new(batch); screen.figures.len()]; n],
        open: vec![true; rules.len()],
        settled: vec![false; rules.len()],
        budget: screen.budget,
        budget_spent: false,
        progress: &progress,
    };
    let stop: &AtomicBool = setup.stop;
    let seed = setup.seed;
    let all: Vec<&G> = cells.iter().collect();
    let run = setup.pool.install(|| {
        play_until::<G, &G>(&all, seed, &plan, false, None, &mut rule, stop, &progress)
    });
    progress.finish();
    let swings = (0..rules.len()).map(|r| rule.swings(r)).collect();
    Screened {
        swings,
        settled: rule.settled,
        evidence: rule.evidence,
        budget_spent: rule.budget_spent,
        tests,
        tallies: run.tallies,
        complete: run.complete,
    }
}

/// The stopping rule of the screening.
struct Rule<'r> {
    players: usize,
    rules: &'r [Vec<usize>],
    screen: &'r Screen<'r>,
    tests: &'r [Vec<Test>],
    /// The rules each cell serves.
    users: Vec<Vec<usize>>,
    cap: usize,
    /// `[cell][figure]`.
    evidence: Vec<Vec<Evidence>>,
    open: Vec<bool>,
    settled: Vec<bool>,
    budget: Option<u64>,
    budget_spent: bool,
    progress: &'r Progress,
}

/// The progress bar's label: `5 of 23 rules left`.
fn rules_left(left: usize, all: usize) -> String {
    format!("{left} of {all} rules left")
}

impl Rule<'_> {
    /// Rule `r`'s swing on every figure, from its values' evidence so far.
    fn swings(&self, r: usize) -> Vec<Swing> {
        (0..self.screen.figures.len())
            .map(|f| {
                let evidence: Vec<&Evidence> = self.rules[r]
                    .iter()
                    .map(|&c| &self.evidence[c][f])
                    .collect();
                let limit = self.screen.figures[f]
                    .metric
                    .game_range()
                    .map_or(f64::INFINITY, |g| g.high - g.low);
                swing::swing(&self.tests[r][f], &evidence, limit)
            })
            .collect()
    }
}

impl<T: Tally> Stopping<T> for Rule<'_> {
    fn observe(&mut self, chunk: &[Option<T>]) {
        for (c, row) in self.evidence.iter_mut().enumerate() {
            let seats = &chunk[c * self.players..(c + 1) * self.players];
            for (f, figure) in self.screen.figures.iter().enumerate() {
                let tallies: Option<Vec<&T>> = self.screen.whom[f]
                    .iter()
                    .map(|&p| seats[p].as_ref())
                    .collect();
                if let Some(tallies) = tallies {
                    row[f].push(figure.metric.read(&tallies));
                }
            }
            if let Some(left) = self.budget.as_mut() {
                let games: u64 = seats.iter().flatten().map(|t| t.games()).sum();
                *left = left.saturating_sub(games);
            }
        }
        for r in 0..self.rules.len() {
            if !self.open[r] {
                continue;
            }
            let batches = self.rules[r]
                .iter()
                .map(|&c| self.evidence[c][0].batches())
                .min()
                .unwrap_or(0);
            if batches >= self.cap {
                self.open[r] = false;
                continue;
            }
            if batches < MIN_BATCHES.min(8) || (batches > MIN_BATCHES && batches % LOOK_EVERY != 0)
            {
                continue;
            }
            let swings = self.swings(r);
            if swings
                .iter()
                .zip(self.screen.precision)
                .all(|(s, &e)| s.settled(e))
            {
                self.open[r] = false;
                self.settled[r] = true;
            }
        }
        if self.budget == Some(0) {
            self.budget_spent = self.open.iter().any(|&o| o);
            self.open.fill(false);
        }
        let left = self.open.iter().filter(|&&o| o).count();
        self.progress.relabel(&rules_left(left, self.rules.len()));
    }

    fn done(&mut self, cell: usize, _total: &T) -> bool {
        !self.users[cell / self.players]
            .iter()
            .any(|&r| self.open[r])
    }
}
