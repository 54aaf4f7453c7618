//! The search players, written once over the state API ([`GameState`]) for every game:
//! `ismcts[-N]` ([`ismcts`]) and `pimc[-N]` ([`pimc`]), with their settings and strategy files
//! ([`settings`]), the loop that plays a real game with a player in each seat ([`play`]), and the
//! time each decision takes ([`think`]).
//!
//! A searcher sees the real game only through worlds sampled for its seat
//! ([`GameState::sample_into`]), so it is as fair as the game's sampling; all its randomness
//! comes from its own generator, so a run is reproducible on any thread count. A simulated
//! game's value to the seat is `result + credit x progress` ([`GameState::result`],
//! [`GameState::progress`]): a win counts 1, and among lost games those that got further count
//! a little more (a win always outweighs any loss while `credit` is below 1).

pub mod ismcts;
pub mod pimc;
pub mod play;
pub mod seat;
pub mod settings;
pub mod solve;
pub mod think;
pub mod value_model;

use crate::games::state::{GameState, ToMove};
use crate::rng::GameRng;

pub use settings::{Algorithm, Defaults, Settings};

/// Simulations between two looks at the stop request: a search of millions of simulations
/// stops within a moment of a signal, one of a few hundred pays nothing for it.
pub const STOP_POLL: u32 = 64;

/// A search player ready to seat: its name, settings and rollout policy (one of the game's).
#[derive(Clone, Debug, PartialEq)]
pub struct Searcher<P> {
    /// Display name.
    pub name: String,
    /// Its settings.
    pub settings: Settings,
    /// The policy that finishes simulated games.
    pub rollout: P,
}

impl<P> Searcher<P> {
    /// A simulated game's value to `seat` (see the module notes).
    #[inline]
    pub fn value<S: GameState<Policy = P>>(&self, state: &S, seat: u8) -> f32 {
        state.result(seat) + self.settings.credit * state.progress(seat)
    }

    /// The value model's estimate of `seat`'s chance to win at `state`, if the search has a
    /// model and the game is not over (`buf` holds the features).
    #[inline]
    pub fn estimate_at<S: GameState<Policy = P>>(
        &self,
        state: &S,
        seat: u8,
        buf: &mut Vec<f32>,
    ) -> Option<f32> {
        let model = self.settings.model.as_ref()?;
        if state.to_move() == ToMove::Over {
            return None;
        }
        state.value_features(seat, buf);
        Some(model.predict(buf))
    }

    /// Plays `first` in `play` and values the game for `seat`: (value, result) of the rollout
    /// to its end, mixed with the estimate right after `first` by the settings' `leaf` (the
    /// estimate alone at `leaf` 1, without a rollout).
    #[inline]
    pub fn leaf<S: GameState<Policy = P>>(
        &self,
        play: &mut S,
        first: S::Move,
        seat: u8,
        coins: &mut GameRng,
        buf: &mut Vec<f32>,
    ) -> (f32, f32) {
        let weight = self.settings.leaf;
        if weight <= 0.0 || self.settings.model.is_none() {
            play.play_out(first, &self.rollout, coins);
            return (self.value(play, seat), play.result(seat));
        }
        play.apply(first);
        let Some(estimate) = self.estimate_at(play, seat, buf) else {
            return (self.value(play, seat), play.result(seat));
        };
        if weight >= 1.0 {
            return (estimate, estimate);
        }
        play.rollout(&self.rollout, coins);
        let mix = |x: f32| (1.0 - weight) * x + weight * estimate;
        (mix(self.value(play, seat)), mix(play.result(seat)))
    }
}

/// A searching seat's working state, kept from one decision to the next so that a search
/// allocates only while its buffers grow.
pub struct Work<S: GameState> {
    /// The seat's own generator.
    pub rng: GameRng,
    /// The candidate moves of the decision searched.
    pub root: Vec<S::Move>,
    /// The moves of a decision in a world (ISMCTS's walk).
    moves: Vec<S::Move>,
    /// PIMC: each candidate's total value.
    pub sums: Vec<f32>,
    /// PIMC: each candidate's total result (the value without the credit for progress).
    pub results: Vec<f32>,
    ids: Vec<u32>,
    /// A value estimate's features.
    features: Vec<f32>,
    tree: ismcts::Tree<S::Move>,
    scratch: Option<Box<(S, S)>>,
}

impl<S: GameState> Work<S> {
    /// Fresh working state drawing from `rng`.
    pub fn new(rng: GameRng) -> Self {
        Self {
            rng,
            root: Vec::new(),
            moves: Vec::new(),
            sums: Vec::new(),
            results: Vec::new(),
            ids: Vec::new(),
            features: Vec::new(),
            tree: ismcts::Tree::default(),
            scratch: None,
        }
    }
}

/// Two scratch states (a world and a copy to play in) kept in `slot`, made from `like` the first
/// time.
fn scratch<'a, S: Clone>(slot: &'a mut Option<Box<(S, S)>>, like: &S) -> (&'a mut S, &'a mut S) {
    let pair = slot.get_or_insert_with(|| Box::new((like.clone(), like.clone())));
    (&mut pair.0, &mut pair.1)
}

/// What a search said at its last decision (`sim play --hints`): each candidate with its visits
/// (ISMCTS) and mean value.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice<M> {
    /// The move chosen.
    pub best: M,
    /// Each move weighed: (move, visits (ISMCTS only), mean value).
    pub values: Vec<(M, Option<u32>, f32)>,
}

/// `searcher`'s move at `real`'s decision for `seat`.
pub fn decide<S: GameState>(
    searcher: &Searcher<S::Policy>,
    real: &S,
    seat: u8,
    work: &mut Work<S>,
) -> S::Move {
    real.candidates(&mut work.root, searcher.settings.width);
    if work.root.len() == 1 {
        return work.root[0];
    }
    match searcher.settings.algorithm {
        Algorithm::Ismcts => ismcts::decide(searcher, real, seat, work),
        Algorithm::Pimc => pimc::decide(searcher, real, seat, work),
    }
}

/// `searcher`'s move at `real`'s decision for `seat`, with what it weighed.
pub fn advise<S: GameState>(
    searcher: &Searcher<S::Policy>,
    real: &S,
    seat: u8,
    work: &mut Work<S>,
) -> Advice<S::Move> {
    let best = decide(searcher, real, seat, work);
    let values = if work.root.len() < 2 {
        Vec::new()
    } else {
        match searcher.settings.algorithm {
            Algorithm::Ismcts => work
                .tree
                .root_stats()
                .into_iter()
                .map(|(m, n, v)| (m, Some(n), v))
                .collect(),
            Algorithm::Pimc => {
                let worlds = searcher.settings.simulations as f32;
                work.root
                    .iter()
                    .zip(&work.sums)
                    .map(|(&m, &sum)| (m, None, sum / worlds))
                    .collect()
            }
        }
    };
    Advice { best, values }
}

/// The deciding seat's expected result (1 a win, 1/2 a draw, 0 a loss) after `best`, as the
/// search estimated it at the decision [`decide`] just took from at least two candidates: the
/// mean result of `best` over its simulated games (PIMC: over its worlds; ISMCTS: over the
/// simulations through it), without the credit for progress; `None` if a single candidate was
/// not searched.
pub fn estimate<S: GameState>(
    searcher: &Searcher<S::Policy>,
    work: &Work<S>,
    best: S::Move,
) -> Option<f32> {
    if work.root.len() < 2 {
        return None;
    }
    match searcher.settings.algorithm {
        Algorithm::Pimc => {
            let i = work.root.iter().position(|&m| m == best)?;
            Some(work.results[i] / searcher.settings.simulations as f32)
        }
        Algorithm::Ismcts => work.tree.mean_result(best),
    }
}
