//! The state API: a game one position at a time, the second door into every game beside the
//! fast [`Game::play`](super::Game::play).
//!
//! A [`GameState`] is a game waiting for a decision (or over): whose decision it is, the legal
//! moves in a fixed order, a move applied, each seat's result once over, what a seat has
//! observed, and a world sampled from that observation. The search players (`src/search/`), the
//! fairness test and the designer's tools are written once over it, as OpenSpiel's algorithms are
//! over its `State`.
//!
//! **Chance** lives in the state, not in separate chance nodes: a state holds its cards in the
//! order they will come (the deal) and the generators of any later shuffle, as the fast engines
//! draw them from the game's streams. So the same moves from the same deal give the fast engine's
//! game exactly (each game tests this), and a sampled world is a whole future: the unseen cards
//! placed uniformly among the orders the seat cannot tell apart, and the later shuffles drawn
//! afresh. Search players sample chance this way, which is all they need.
//!
//! **Seats** see only their [`GameState::observation`]; a player built on this API reads the
//! state only through a world [`GameState::sample_into`] made for its seat, so it cannot cheat.
//! A test plays every fair policy of every game on pairs of states that one seat cannot tell
//! apart and checks it decides alike (and catches a deliberately leaky control).

use std::fmt::Debug;

use crate::rng::GameRng;

/// Whose decision a state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// This seat's (seats count from 0).
    Seat(u8),
    /// Nobody's: the game is over.
    Over,
}

/// One game, one position at a time. Cloning a state is cheap (fixed arrays), and a clone plays
/// on independently.
pub trait GameState: Clone + Send {
    /// A decision's choice: small and copyable.
    type Move: Copy + PartialEq + Debug + Send + Sync;
    /// What one seat has observed: equal for two states the seat cannot tell apart.
    type Observation: PartialEq + Eq + std::hash::Hash + Debug;
    /// The game's plain policies (decisions from what the deciding seat may know), which also
    /// finish simulated games fast.
    type Policy: Sync;

    /// Seats at the table.
    fn seats(&self) -> u8;

    /// Whose decision it is. Forced moves (a single legal choice) are played by the state itself,
    /// as the fast engine plays them, so a seat is asked only where it has a choice.
    fn to_move(&self) -> ToMove;

    /// The legal moves of the deciding seat, in a fixed order (the game's own), into `moves`
    /// (cleared first).
    fn legal(&self, moves: &mut Vec<Self::Move>);

    /// The moves a search weighs here: the legal moves by default; a game may keep fewer (its
    /// `width` best by a cheap rule, e.g. Regicide's cheapest discards), never none.
    fn candidates(&self, moves: &mut Vec<Self::Move>, width: usize) {
        let _ = width;
        self.legal(moves);
    }

    /// Plays `mv` (one of [`GameState::legal`]'s) for the deciding seat, then everything up to
    /// the next decision or the end.
    fn apply(&mut self, mv: Self::Move);

    /// A key telling moves apart across the worlds of one information set (a search tree's
    /// children are found by it).
    fn key(mv: &Self::Move) -> u64;

    /// `seat`'s result once the game is over: 1 for a win, 0 for a loss, 1/2 for a draw.
    fn result(&self, seat: u8) -> f32;

    /// How far `seat` got, from 0 to 1 (royals defeated, rooms cleared, ...): what a search adds,
    /// weighted, to a game's result to tell losses apart.
    fn progress(&self, seat: u8) -> f32;

    /// What `seat` has observed so far.
    fn observation(&self, seat: u8) -> Self::Observation;

    /// `seat`'s features for a value estimate (the game's
    /// [`Featured`](super::value::Featured) features, read from its observation only), into
    /// `out` (cleared first); none (the default) for a game that offers none.
    fn value_features(&self, seat: u8, out: &mut Vec<f32>) {
        let _ = seat;
        out.clear();
    }

    /// Makes `world` a state drawn uniformly from those `seat` cannot tell apart from this one
    /// (every face-down card placed consistently with what the seat has seen, later shuffles
    /// drawn afresh), with `rng`. The world depends on the seat's observation and `rng` only.
    fn sample_into(&self, seat: u8, rng: &mut GameRng, world: &mut Self);

    /// A 64-bit key of everything that decides this state's future result (cards in order, the
    /// generators' states, counters), for the full-knowledge solver's table of lost states;
    /// `None` (the default) if the game offers none.
    fn fingerprint(&self) -> Option<u64> {
        None
    }

    /// The move `policy` makes here for the deciding seat, drawing any coin flips from `coins`.
    fn policy_move(&mut self, policy: &Self::Policy, coins: &mut GameRng) -> Self::Move;

    /// Plays the game to its end with `policy` in every seat (fast: the game's engine).
    fn rollout(&mut self, policy: &Self::Policy, coins: &mut GameRng);

    /// `seat`'s expected result from here (1 a win, 1/2 a draw, 0 a loss) under best play, where
    /// the game knows it exactly (a solver's value); `None` (the default) where it does not, and
    /// a search's own estimate serves instead. `sim evaluate` reads it at every decision to
    /// measure a game's tension.
    fn estimate(&self, seat: u8) -> Option<f32> {
        let _ = seat;
        None
    }

    /// The game's length once over, in its own unit (Crownfall's strikes, Regicide's turns);
    /// `None` (the default) to count the decisions instead.
    fn length(&self) -> Option<u32> {
        None
    }

    /// True once over if the game was cut off by a cap on its length rather than ended by its
    /// rules (false by default: a game without a cap).
    fn capped(&self) -> bool {
        false
    }

    /// Plays `first`, then the rest of the game with `policy` in every seat: the same as
    /// [`GameState::apply`] then [`GameState::rollout`], faster where the engine can do both in
    /// one go.
    fn play_out(&mut self, first: Self::Move, policy: &Self::Policy, coins: &mut GameRng) {
        self.apply(first);
        self.rollout(policy, coins);
    }
}

/// Plays `state` to its end one decision at a time, `policy` in every seat (coin flips from
/// `coins`): the state API's door into a game of plain policies, which each game tests against
/// its fast [`Game::play`](super::Game::play).
pub fn play_by_policy<S: GameState>(state: &mut S, policy: &S::Policy, coins: &mut GameRng) {
    while let ToMove::Seat(_) = state.to_move() {
        let mv = state.policy_move(policy, coins);
        state.apply(mv);
    }
}
