//! The data collection: every deal played on every line, in parallel, kept as integers.
//!
//! A [`Subject`] is a game set up for evaluation: how to deal game `i`, the plain policies'
//! generators, and its ladder. Its [`Layout`] lays the rungs out in *lines* (a rung in each
//! seat): for a solo or team game one line per rung, the rung in every seat; for a duel each
//! rung against the rung below in both seat orders, the top fair rung against the bottom rung
//! in both orders (the headroom), and the top fair rung against itself. Seats, duration and
//! tension are read from the strongest fair rung's line (a duel: the top fair rung's
//! self-play).
//!
//! Every line plays the same game indices (common random numbers): deal `i` is the same cards
//! on every line, so lines compare deal by deal. Chunks of game indices are played over rayon,
//! every variant and line of a chunk on one worker, and the tallies merged in chunk order; they
//! are integers, so the result is the same bit for bit on any thread count and any sharding.
//! A seat's player draws from the game's own streams as a run of `sim <game>` does (a search
//! player from stream `16 + seat`), so a rung's games are those of `sim <game> --policy` with
//! that rung; the uniform random player draws from stream [`RANDOM`]` + seat`.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Result, SimError};
use crate::games::seats::Table;
use crate::games::state::{GameState, ToMove};
use crate::rng::{GameKey, GameRng};
use crate::search::play::{Player, Uniform};
use crate::search::seat::SEARCH;
use crate::search::think::cpu_now;
use crate::search::{self, Searcher, Work};
use crate::sim::progress::Progress;
use crate::sim::runner::{self, Plan};

use super::data::{LineTally, Score, Tally, score};
use super::ladder::{Play, Rung, RungInfo};
use super::tension::GameTension;

/// The first of the streams the uniform random player draws from (`RANDOM + seat`).
pub const RANDOM: u64 = 40;

/// A game set up for evaluation under one rule set.
pub struct Subject<'a, S: GameState> {
    /// How its seats relate.
    pub table: Table,
    /// The unit of its length (`strikes`, `turns`), as [`GameState::length`] counts it.
    pub unit: &'static str,
    /// Game `index` of a run seeded with `seed`, dealt up to its first decision.
    pub deal: Box<dyn Fn(u64, u64) -> S + Send + Sync + 'a>,
    /// The plain policies' generators for game `key`: one shared by every seat, or one per seat.
    pub coins: fn(GameKey) -> Vec<GameRng>,
    /// Where the estimates read for tension come from, in words.
    pub estimates: &'static str,
    /// The ladder, weakest first, the ceiling (if any) last.
    pub rungs: Vec<Rung<'a, S>>,
    /// The rung a designer reads the others against: the literal strategy of the rules
    /// (`bank-at-17`, `simple`), if the ladder has one.
    pub baseline: Option<&'static str>,
}

impl<S: GameState> Subject<'_, S> {
    /// What the profile needs to know of it.
    pub fn setup(&self) -> Setup {
        Setup {
            table: self.table,
            seats: (self.deal)(0, 0).seats(),
            unit: self.unit.into(),
            estimates: self.estimates.into(),
            rungs: self.rungs.iter().map(Rung::info).collect(),
            baseline: self
                .baseline
                .and_then(|name| self.rungs.iter().position(|r| r.name == name)),
        }
    }

    /// Games per unit of parallel work: few where a rung searches.
    fn games_per_chunk(&self) -> u64 {
        let slow = self
            .rungs
            .iter()
            .any(|r| matches!(r.play, Play::Search(_) | Play::Other(_)));
        if slow { 2 } else { 256 }
    }
}

/// What an evaluation played, as its profile and a shard's manifest need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// How the seats relate.
    pub table: Table,
    /// Seats at the table.
    pub seats: u8,
    /// The unit of a game's length.
    pub unit: String,
    /// Where the estimates read for tension come from.
    pub estimates: String,
    /// The rungs, weakest first.
    pub rungs: Vec<RungInfo>,
    /// The baseline rung, if any.
    pub baseline: Option<usize>,
}

/// One rung against the rung below it in a duel, in both seat orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The stronger rung.
    pub upper: usize,
    /// The weaker.
    pub lower: usize,
    /// The line with `upper` in seat 0.
    pub first: usize,
    /// The line with `upper` in seat 1.
    pub second: usize,
}

/// The lines an evaluation plays on its rungs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Each line's rung in each seat.
    pub lines: Vec<Vec<usize>>,
    /// The top fair rung.
    pub top: usize,
    /// Duels: the line read for seats, duration and tension, the top fair rung against itself
    /// (a solo or team game reads the strongest fair rung's line, known once played).
    pub profile: usize,
    /// Duels: each rung against the rung below.
    pub steps: Vec<Step>,
    /// Duels: the top fair rung against the bottom rung.
    pub headroom: Option<Step>,
}

impl Layout {
    /// The lines of `setup`'s ladder (which must hold a fair rung).
    pub fn of(setup: &Setup) -> Result<Self> {
        let k = setup.rungs.len();
        let top = setup
            .rungs
            .iter()
            .rposition(|r| r.fair)
            .ok_or_else(|| SimError::input("a ladder needs a fair rung"))?;
        let seats = usize::from(setup.seats);
        if setup.table != Table::Duel {
            return Ok(Self {
                lines: (0..k).map(|r| vec![r; seats]).collect(),
                top,
                profile: top,
                steps: Vec::new(),
                headroom: None,
            });
        }
        if seats != 2 {
            return Err(SimError::input("a duel has two seats"));
        }
        let mut lines = Vec::new();
        let mut pair = |upper: usize, lower: usize| {
            lines.push(vec![upper, lower]);
            lines.push(vec![lower, upper]);
            Step {
                upper,
                lower,
                first: lines.len() - 2,
                second: lines.len() - 1,
            }
        };
        let steps: Vec<Step> = (1..k).map(|i| pair(i, i - 1)).collect();
        let headroom = match top {
            0 => None,
            1 => steps.first().copied(),
            _ => Some(pair(top, 0)),
        };
        lines.push(vec![top, top]);
        Ok(Self {
            profile: lines.len() - 1,
            lines,
            top,
            steps,
            headroom,
        })
    }
}

/// What the games of one rule set cost: each line's CPU time, and the part of it spent reading
/// the states' own estimates for tension.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cost {
    /// Each line's CPU time, in microseconds.
    pub lines: Vec<u64>,
    /// The estimates' CPU time, in microseconds.
    pub estimates: u64,
}

impl Cost {
    fn merge(&mut self, other: &Cost) {
        if self.lines.is_empty() {
            self.lines = vec![0; other.lines.len()];
        }
        for (a, b) in self.lines.iter_mut().zip(&other.lines) {
            *a += b;
        }
        self.estimates += other.estimates;
    }
}

/// What [`collect`] played.
#[derive(Debug)]
pub struct Collected {
    /// One tally per subject.
    pub tallies: Vec<Tally>,
    /// One cost per subject.
    pub costs: Vec<Cost>,
    /// False if a stop request (Ctrl-C) cut the games short (every tally holds the same prefix
    /// of deals).
    pub complete: bool,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// Who decides for one seat in one game.
enum Decider<'r, S: GameState> {
    Random(Uniform<S::Move>),
    Plain(&'r S::Policy),
    Search(&'r Searcher<S::Policy>, Box<Work<S>>),
    Other(Box<dyn Player<S> + 'r>),
}

impl<'r, S: GameState> Decider<'r, S> {
    fn new<'a: 'r>(rung: &'r Rung<'a, S>, key: GameKey, seat: u8) -> Self {
        match &rung.play {
            Play::Random => Self::Random(Uniform::new(key.stream(RANDOM + u64::from(seat)))),
            Play::Plain(policy) => Self::Plain(policy),
            Play::Search(searcher) => Self::Search(
                searcher,
                Box::new(Work::new(key.stream(SEARCH + u64::from(seat)))),
            ),
            Play::Other(make) => Self::Other(make()),
        }
    }

    /// The move for `seat`, and the search's estimate if asked for and there is one.
    fn decide(
        &mut self,
        state: &mut S,
        seat: u8,
        coins: &mut GameRng,
        estimate: bool,
    ) -> (S::Move, Option<f32>) {
        match self {
            Self::Random(uniform) => (uniform.decide(state, seat, coins), None),
            Self::Plain(policy) => (state.policy_move(policy, coins), None),
            Self::Search(searcher, work) => {
                let mv = search::decide(searcher, state, seat, work);
                let e = if estimate {
                    search::estimate(searcher, work, mv)
                } else {
                    None
                };
                (mv, e)
            }
            Self::Other(player) => (player.decide(state, seat, coins), None),
        }
    }
}

/// One game on one line.
struct Played {
    score: Score,
    length: u32,
    capped: bool,
    tension: Option<GameTension>,
    estimate_time: Duration,
}

/// Plays game `index` of `subject` with `line`'s rungs seated, reading seat 0's expected
/// result at every decision where there is one (the state's estimate, else the deciding
/// search's).
fn play<S: GameState>(subject: &Subject<S>, line: &[usize], seed: u64, index: u64) -> Played {
    let key = GameKey::new(seed, index);
    let mut state = (subject.deal)(seed, index);
    let mut coins = (subject.coins)(key);
    let mut seats: Vec<Decider<S>> = line
        .iter()
        .enumerate()
        .map(|(seat, &r)| Decider::new(&subject.rungs[r], key, seat as u8))
        .collect();
    let duel = subject.table == Table::Duel;
    let mut estimates = Vec::new();
    let mut estimate_time = Duration::ZERO;
    let mut decisions = 0u32;
    while let ToMove::Seat(seat) = state.to_move() {
        let start = cpu_now();
        let own = state.estimate(seat);
        estimate_time += cpu_now().saturating_sub(start);
        let s = usize::from(seat);
        let c = s.min(coins.len() - 1);
        let (mv, searched) = seats[s].decide(&mut state, seat, &mut coins[c], own.is_none());
        if let Some(v) = own.or(searched) {
            let v = f64::from(v);
            estimates.push(if duel && seat == 1 { 1.0 - v } else { v });
        }
        state.apply(mv);
        decisions += 1;
    }
    let score = score(state.result(0));
    Played {
        score,
        length: state.length().unwrap_or(decisions),
        capped: state.capped(),
        tension: (!estimates.is_empty()).then(|| GameTension::of(&estimates, score, duel)),
        estimate_time,
    }
}

/// Plays game `index` of `subject` with rung `rung` in every seat, calling `visit` at each
/// decision with the state (before the move), the deciding seat and its estimate of its chance
/// (the state's own, else a search rung's), and returns the state once over: the games `sim
/// learn` learns from, the same as that rung's line of `sim evaluate`.
pub fn play_rung<S: GameState>(
    subject: &Subject<S>,
    rung: usize,
    seed: u64,
    index: u64,
    mut visit: impl FnMut(&S, u8, Option<f32>),
) -> S {
    let key = GameKey::new(seed, index);
    let mut state = (subject.deal)(seed, index);
    let mut coins = (subject.coins)(key);
    let seats = state.seats();
    let mut deciders: Vec<Decider<S>> = (0..seats)
        .map(|seat| Decider::new(&subject.rungs[rung], key, seat))
        .collect();
    while let ToMove::Seat(seat) = state.to_move() {
        let own = state.estimate(seat);
        let s = usize::from(seat);
        let c = s.min(coins.len() - 1);
        let (mv, searched) = deciders[s].decide(&mut state, seat, &mut coins[c], own.is_none());
        visit(&state, seat, own.or(searched));
        state.apply(mv);
    }
    state
}

/// Plays deals `range` of every subject on every line of its layout; after a stop request the
/// rest is left unplayed (the runner drops the chunk).
fn play_chunk<S: GameState>(
    subjects: &[Subject<S>],
    layouts: &[Layout],
    seed: u64,
    range: Range<u64>,
    stop: &AtomicBool,
    progress: &Progress,
) -> Vec<(Tally, Cost)> {
    subjects
        .iter()
        .zip(layouts)
        .map(|(subject, layout)| {
            let deals = (range.end - range.start) as usize;
            let lines = layout.lines.len();
            let mut tally = Tally::new(lines);
            let mut cost = Cost {
                lines: vec![0; lines],
                estimates: 0,
            };
            let mut rows = vec![vec![0 as Score; lines]; deals];
            for (l, line) in layout.lines.iter().enumerate() {
                let start = cpu_now();
                for (d, index) in range.clone().enumerate() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = play(subject, line, seed, index);
                    rows[d][l] = game.score;
                    count(&mut tally.lines[l], &game);
                    cost.estimates += game.estimate_time.as_micros() as u64;
                    progress.advance(1);
                }
                cost.lines[l] += cpu_now().saturating_sub(start).as_micros() as u64;
            }
            for row in &rows {
                tally.add_row(row);
            }
            (tally, cost)
        })
        .collect()
}

/// Counts one game's cap, length and tension.
fn count(line: &mut LineTally, game: &Played) {
    if let Some(t) = &game.tension {
        t.count(&mut line.tension);
    }
    if game.capped {
        line.capped += 1;
        line.capped_draws += u64::from(game.score == 1);
    }
    *line.lengths.entry(game.length).or_default() += 1;
}

/// Plays deals `span` (of `seed`) of every subject on every line of its layout, on the current
/// rayon pool; stops early, on a chunk boundary, when `stop` is set.
pub fn collect<S: GameState>(
    subjects: &[Subject<S>],
    seed: u64,
    span: Range<u64>,
    stop: &AtomicBool,
    progress: &Progress,
) -> Result<Collected> {
    let layouts: Vec<Layout> = subjects
        .iter()
        .map(|s| Layout::of(&s.setup()))
        .collect::<Result<_>>()?;
    let chunk = subjects
        .iter()
        .map(Subject::games_per_chunk)
        .min()
        .unwrap_or(1);
    let plan = Plan::new(span.start, span.end - span.start, chunk);
    let mut tallies: Vec<Tally> = layouts.iter().map(|l| Tally::new(l.lines.len())).collect();
    let mut costs = vec![Cost::default(); subjects.len()];
    let started = Instant::now();
    let played = runner::run(
        &plan,
        stop,
        |range| play_chunk(subjects, &layouts, seed, range, stop, progress),
        |chunk| {
            for ((tally, cost), (t, c)) in tallies.iter_mut().zip(&mut costs).zip(chunk) {
                tally.merge(&t);
                cost.merge(&c);
            }
            Ok::<_, std::convert::Infallible>(true)
        },
    );
    let played = match played {
        Ok(p) => p,
        Err(never) => match never {},
    };
    Ok(Collected {
        tallies,
        costs,
        complete: played.complete,
        seconds: started.elapsed().as_secs_f64(),
    })
}
