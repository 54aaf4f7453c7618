//! A real game played through the state API with a player in each seat: a plain policy, a
//! search player, or anything else that picks a move from a state (a solver that sees the deal,
//! a person at `sim play`). A game whose seats all hold plain policies plays through its fast
//! engine instead; both give the same game from the same deal (each game tests this).

use crate::games::state::{GameState, ToMove};
use crate::rng::GameRng;

use super::think::{Think, cpu_now};
use super::{Advice, Searcher, Work};

/// Who decides for one seat.
pub trait Player<S: GameState> {
    /// The move for `seat` at `state`'s decision; a plain policy draws its coin flips from
    /// `coins` (the game's policy stream for the seat).
    fn decide(&mut self, state: &mut S, seat: u8, coins: &mut GameRng) -> S::Move;
}

/// A seat played by one of the game's plain policies.
pub struct Plain<'a, P>(pub &'a P);

impl<S: GameState> Player<S> for Plain<'_, S::Policy> {
    #[inline]
    fn decide(&mut self, state: &mut S, _seat: u8, coins: &mut GameRng) -> S::Move {
        state.policy_move(self.0, coins)
    }
}

/// A seat played uniformly at random among the legal moves, drawing from its own generator
/// (the `random` player of a game without a random policy of its own, and of `sim evaluate`'s
/// ladders).
pub struct Uniform<M> {
    rng: GameRng,
    moves: Vec<M>,
}

impl<M> Uniform<M> {
    /// A uniform player drawing from `rng`.
    pub fn new(rng: GameRng) -> Self {
        Self {
            rng,
            moves: Vec::new(),
        }
    }
}

impl<S: GameState> Player<S> for Uniform<S::Move> {
    #[inline]
    fn decide(&mut self, state: &mut S, _seat: u8, _coins: &mut GameRng) -> S::Move {
        state.legal(&mut self.moves);
        self.moves[self.rng.below(self.moves.len() as u64) as usize]
    }
}

/// A seat played by a search player, its decisions timed.
pub struct Searching<'a, S: GameState> {
    /// The player.
    pub searcher: &'a Searcher<S::Policy>,
    /// Its working state.
    pub work: Work<S>,
    /// Its decisions' CPU times.
    pub think: Think,
}

impl<'a, S: GameState> Searching<'a, S> {
    /// `searcher` drawing from `rng`.
    pub fn new(searcher: &'a Searcher<S::Policy>, rng: GameRng) -> Self {
        Self {
            searcher,
            work: Work::new(rng),
            think: Think::default(),
        }
    }

    /// The move with what the search weighed, timed like a decision.
    pub fn advise(&mut self, state: &S, seat: u8) -> Advice<S::Move> {
        let start = cpu_now();
        let advice = super::advise(self.searcher, state, seat, &mut self.work);
        self.think.add(cpu_now().saturating_sub(start));
        advice
    }
}

impl<S: GameState> Player<S> for Searching<'_, S> {
    fn decide(&mut self, state: &mut S, seat: u8, _coins: &mut GameRng) -> S::Move {
        let start = cpu_now();
        let mv = super::decide(self.searcher, state, seat, &mut self.work);
        self.think.add(cpu_now().saturating_sub(start));
        mv
    }
}

/// Plays `state` to its end, each decision by its seat's player (`players[seat]`), each move
/// applied by `apply` (a plain [`GameState::apply`], or one that reports events). `coins` holds
/// the policies' generators: one shared by every seat, or one per seat.
pub fn play_to_end<S: GameState>(
    state: &mut S,
    players: &mut [&mut dyn Player<S>],
    coins: &mut [GameRng],
    mut apply: impl FnMut(&mut S, S::Move),
) {
    while let ToMove::Seat(seat) = state.to_move() {
        let s = usize::from(seat);
        let c = s.min(coins.len() - 1);
        let mv = players[s].decide(state, seat, &mut coins[c]);
        apply(state, mv);
    }
}
