//! The features a game offers a value estimate (`sim learn`, [`crate::learn`]): numbers read
//! from one seat's [`GameState::observation`] only, so an estimate built on them is as fair as
//! the observation (two states a seat cannot tell apart give it the same features). Each game
//! defines its own in its folder (`src/games/<game>/value.rs`).

use super::state::GameState;

/// A game whose states a value estimate can read.
pub trait Featured: GameState {
    /// The features' names, in order (a model file lists them and is refused if they differ).
    const FEATURES: &'static [&'static str];

    /// The features of what a seat has observed, appended to `out` (one per name of
    /// [`Featured::FEATURES`], each roughly from 0 to 1).
    fn features(obs: &Self::Observation, out: &mut Vec<f32>);

    /// The features of `seat`'s observation of this state, into `out` (cleared first).
    fn features_of(&self, seat: u8, out: &mut Vec<f32>) {
        out.clear();
        Self::features(&self.observation(seat), out);
        debug_assert_eq!(out.len(), Self::FEATURES.len());
    }
}
