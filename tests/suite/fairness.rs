//! Fairness that could catch a cheat, generically over the state API (the conformance suite's
//! fairness check runs it for every game of the registry and every rule set its fixture names).
//!
//! For each state at a decision, the game builds an indistinguishable twin by its own code
//! ([`Twin`]), never by [`GameState::sample_into`], the function under test: the same visible
//! history, the hidden cards and later shuffles' generators changed. [`twins`] checks each twin:
//! the deciding seat's observations are equal, the hidden parts differ, and `sample_into` gives
//! both the same world from one generator. Every fair player must then decide alike on the two
//! ([`decide_on`]), and three controls must be caught deciding apart: the real-state oracle
//! ([`oracle`]), a search whose sampler returns the real state ([`cheating_sampler`]) and a
//! search whose noise is seeded by the true next card ([`peeking_noise`]).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use sim::games::state::{GameState, ToMove};
use sim::games::twin::Twin;
use sim::rng::GameRng;
use sim::search::{Searcher, Work, decide};

/// A policy as the test sees it: a seat's move at a state, from a generator.
pub type Decider<'a, S> = Box<dyn Fn(&S, u8, &GameRng) -> <S as GameState>::Move + 'a>;

/// States at a decision: each deal of `deal` played up to `k` random legal moves in (k = 0, 1,
/// ..., `depth` - 1 in turn), stopping short of a move that ends the game.
pub fn states<S: GameState>(deal: impl Fn(u64) -> S, deals: u64, depth: usize) -> Vec<S> {
    let mut out = Vec::new();
    let mut coins = GameRng::new(99, 0, 0);
    let mut moves = Vec::new();
    for d in 0..deals {
        let mut s = deal(d);
        for _ in 0..(d as usize % depth) {
            s.legal(&mut moves);
            let mut next = s.clone();
            next.apply(moves[coins.below(moves.len() as u64) as usize]);
            if next.to_move() == ToMove::Over {
                break;
            }
            s = next;
        }
        if s.to_move() != ToMove::Over {
            out.push(s);
        }
    }
    out
}

/// The seat whose decision `state` waits for.
fn deciding<S: GameState>(state: &S) -> u8 {
    match state.to_move() {
        ToMove::Seat(seat) => seat,
        ToMove::Over => unreachable!("states at a decision"),
    }
}

/// Everything `state` holds, as a key: its fingerprint where the game has one (all its future
/// depends on), else its whole `Debug` text.
fn whole<S: Twin>(state: &S) -> String {
    match state.fingerprint() {
        Some(key) => format!("{key:016x}"),
        None => format!("{state:?}"),
    }
}

/// Tries per state at a twin whose hidden part differs from the state's.
const TRIES: u64 = 8;
/// Generators per twin with which `sample_into` must give both the same world.
const WORLDS: u64 = 3;

/// A twin for each of `states` whose hidden part could be changed, each checked: the deciding
/// seat observes the same in both, the hidden parts differ, and `sample_into` (into each one's
/// own copy, as a search starts) gives the same world for both with one generator. Returns the
/// pairs, or the first check failed.
pub fn twins<S: Twin>(states: &[S]) -> Result<Vec<(S, S)>, String> {
    let mut pairs = Vec::new();
    for (i, real) in states.iter().enumerate() {
        let seat = deciding(real);
        let mut rng = GameRng::new(1_000_003, i as u64, 0);
        let Some(twin) = (0..TRIES)
            .map(|_| real.twin(seat, &mut rng))
            .find(|twin| whole(twin) != whole(real))
        else {
            continue;
        };
        if real.observation(seat) != twin.observation(seat) {
            return Err(format!(
                "state {i}: its twin does not look the same to seat {seat}"
            ));
        }
        for w in 0..WORLDS {
            let (mut a, mut b) = (real.clone(), twin.clone());
            let generator = GameRng::new(17, i as u64, w);
            real.sample_into(seat, &mut generator.clone(), &mut a);
            twin.sample_into(seat, &mut generator.clone(), &mut b);
            if whole(&a) != whole(&b) {
                return Err(format!(
                    "state {i}: sample_into gives seat {seat} different worlds for two states it cannot tell apart (generator {w})"
                ));
            }
        }
        pairs.push((real.clone(), twin));
    }
    Ok(pairs)
}

/// What one decider did on the twins.
#[derive(Debug)]
pub struct Decided {
    /// The decider's name.
    pub name: String,
    /// Pairs decided.
    pub pairs: usize,
    /// Pairs on which it decided apart.
    pub apart: usize,
}

/// Each decider on each pair, its seat's decision in both states from the same generator.
pub fn decide_on<S: GameState>(
    pairs: &[(S, S)],
    deciders: &[(String, Decider<S>)],
) -> Vec<Decided> {
    deciders
        .iter()
        .map(|(name, decide)| {
            let apart = pairs
                .iter()
                .enumerate()
                .filter(|(i, (real, twin))| {
                    let seat = deciding(real);
                    let coins = GameRng::new(11, *i as u64, 0);
                    decide(real, seat, &coins) != decide(twin, seat, &coins)
                })
                .count();
            Decided {
                name: name.clone(),
                pairs: pairs.len(),
                apart,
            }
        })
        .collect()
}

/// A plain policy as a decider.
pub fn plain<'a, S: GameState>(policy: &'a S::Policy) -> Decider<'a, S> {
    Box::new(move |s, _seat, coins| s.clone().policy_move(policy, &mut coins.clone()))
}

/// A search player as a decider.
pub fn searching<'a, S: GameState + 'a>(searcher: Searcher<S::Policy>) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    Box::new(move |s, seat, rng| decide(&searcher, s, seat, &mut Work::new(rng.clone())))
}

/// Control 1, the real-state oracle: every legal move played out by `rollout` in the real state
/// itself (it sees the deal), the best result taken.
pub fn oracle<'a, S: GameState>(rollout: &'a S::Policy) -> Decider<'a, S> {
    Box::new(move |s, seat, rng: &GameRng| {
        let mut moves = Vec::new();
        s.legal(&mut moves);
        let value = |m: S::Move| {
            let mut play = s.clone();
            play.play_out(m, rollout, &mut rng.clone());
            play.result(seat) + 0.01 * play.progress(seat)
        };
        let mut best = (f32::NEG_INFINITY, moves[0]);
        for &m in &moves {
            let v = value(m);
            if v > best.0 {
                best = (v, m);
            }
        }
        best.1
    })
}

/// Control 2: `searcher` over a copy of the game whose `sample_into` returns the real state.
pub fn cheating_sampler<'a, S: GameState + 'a>(searcher: Searcher<S::Policy>) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    Box::new(move |s, seat, rng| {
        decide(
            &searcher,
            &RealWorld(s.clone()),
            seat,
            &mut Work::new(rng.clone()),
        )
    })
}

/// Moves the peeking control looks ahead in the real state.
const PEEK: usize = 8;

/// Control 3: `searcher` with its noise seeded by the true next cards: its generator mixed with
/// what the seat would see over the next [`PEEK`] moves in the real state (each the first legal
/// move), which the twins' hidden cards make differ.
pub fn peeking_noise<'a, S: GameState + 'a>(searcher: Searcher<S::Policy>) -> Decider<'a, S>
where
    S::Policy: 'a,
{
    Box::new(move |s, seat, rng| {
        let mut moves = Vec::new();
        let mut next = s.clone();
        let mut hasher = DefaultHasher::new();
        for _ in 0..PEEK {
            next.legal(&mut moves);
            let Some(&first) = moves.first() else { break };
            next.apply(first);
            next.observation(seat).hash(&mut hasher);
        }
        let noise = GameRng::new(rng.clone().next_u64() ^ hasher.finish(), 0, 0);
        decide(&searcher, s, seat, &mut Work::new(noise))
    })
}

/// A game whose every sampled world is the real state (the cheat of control 2); everything else
/// is the game's own.
#[derive(Clone)]
struct RealWorld<S>(S);

impl<S: GameState> GameState for RealWorld<S> {
    type Move = S::Move;
    type Observation = S::Observation;
    type Policy = S::Policy;

    fn seats(&self) -> u8 {
        self.0.seats()
    }
    fn to_move(&self) -> ToMove {
        self.0.to_move()
    }
    fn legal(&self, moves: &mut Vec<S::Move>) {
        self.0.legal(moves)
    }
    fn candidates(&self, moves: &mut Vec<S::Move>, width: usize) {
        self.0.candidates(moves, width)
    }
    fn apply(&mut self, mv: S::Move) {
        self.0.apply(mv)
    }
    fn key(mv: &S::Move) -> u64 {
        S::key(mv)
    }
    fn result(&self, seat: u8) -> f32 {
        self.0.result(seat)
    }
    fn progress(&self, seat: u8) -> f32 {
        self.0.progress(seat)
    }
    fn observation(&self, seat: u8) -> S::Observation {
        self.0.observation(seat)
    }
    fn sample_into(&self, _seat: u8, _rng: &mut GameRng, world: &mut Self) {
        world.0.clone_from(&self.0);
    }
    fn policy_move(&mut self, policy: &S::Policy, coins: &mut GameRng) -> S::Move {
        self.0.policy_move(policy, coins)
    }
    fn rollout(&mut self, policy: &S::Policy, coins: &mut GameRng) {
        self.0.rollout(policy, coins)
    }
    fn play_out(&mut self, first: S::Move, policy: &S::Policy, coins: &mut GameRng) {
        self.0.play_out(first, policy, coins)
    }
}
