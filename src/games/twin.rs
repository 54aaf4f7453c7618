//! A state's indistinguishable twin: the fairness test's own door into a game's hidden part.
//!
//! The fairness test (tests/suite/fairness.rs) checks that a player decides alike on two states
//! its seat cannot tell apart. Were those two states made by [`GameState::sample_into`], whatever
//! the sampler fails to re-randomise would be shared by both and never seen; so each game builds
//! the twin itself, by its own code, from the state's parts: the same visible history, the unseen
//! cards rearranged among the places the seat cannot tell apart, and every later shuffle's
//! generator replaced. The test then checks the seat's observations are equal, the hidden parts
//! differ, and that `sample_into` gives both the same world with one generator.

use std::fmt::Debug;

use super::state::GameState;
use crate::rng::GameRng;

/// A game state that can build its twin for a seat (test support; no player may call it).
///
/// The whole state's `Debug` text is what the fairness test compares: two states are the same
/// world exactly when their texts are equal.
pub trait Twin: GameState + Debug {
    /// A state `seat` cannot tell apart from this one: the same visible history, the cards
    /// hidden from `seat` placed anew with `rng` among the places it cannot tell apart (the
    /// unseen order, the other seats' hidden cards), and the generators of later shuffles drawn
    /// from `rng`. Built without [`GameState::sample_into`]. It may equal this state where little
    /// is hidden; the caller tries again with the generator moved on.
    fn twin(&self, seat: u8, rng: &mut GameRng) -> Self;
}

/// Puts `cards` in an order drawn with `rng` by random transpositions (one per card, each with
/// any card), a different procedure from the samplers' shuffles on purpose: a twin must not
/// inherit a sampler's mistakes.
pub fn rearrange(cards: &mut [u8], rng: &mut GameRng) {
    let n = cards.len() as u64;
    if n < 2 {
        return;
    }
    for i in 0..cards.len() {
        let j = rng.below(n) as usize;
        cards.swap(i, j);
    }
}
