//! `tuned`: the one-room heuristic with the richer evaluation: every way to play the room (and
//! avoiding it) scored by [`Rich`], the best played.

use crate::rng::GameRng;

use super::engine::{Turn, View};
use super::features::Rich;
use super::heuristic::choose_turn;
use super::policy::Policy;
use super::rules::Rules;

/// The one-room policy over [`Rich`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tuned {
    /// The evaluation.
    pub eval: Rich,
}

impl Policy for Tuned {
    #[inline]
    fn choose(&self, rules: &Rules, view: &View, _: &mut GameRng) -> Turn {
        choose_turn(rules, &self.eval, view).0
    }
}
