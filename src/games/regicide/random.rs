//! `random`: uniform over the legal moves at each decision, from the game's own policy stream.

use crate::rng::GameRng;

use super::policy::{Action, Defence, Policy, Step1, Step4};
use super::view::View;

/// Uniform at each decision: in step 1 over every play, the yield if allowed and a set-aside
/// Jester if left; after a Jester over every seat; in step 4 over every minimal cover and a
/// set-aside Jester if left (with no cover, the Jester if left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Policy for Random {
    #[inline]
    fn attack(&self, _: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        let plays = choices.plays.len() as u64;
        let n = plays + u64::from(choices.can_yield) + u64::from(choices.solo_jester);
        let pick = coins.below(n);
        if pick < plays {
            Action::Play(choices.plays[pick as usize])
        } else if pick == plays && choices.can_yield {
            Action::Yield
        } else {
            Action::SoloJester
        }
    }

    #[inline]
    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        coins.below(view.players.into()) as u8
    }

    #[inline]
    fn defend(&self, _: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        let covers = choices.covers.len() as u64;
        let n = covers + u64::from(choices.solo_jester);
        if n == 0 {
            return Defence::GiveUp;
        }
        let pick = coins.below(n);
        if pick < covers {
            Defence::Discard(choices.covers[pick as usize])
        } else {
            Defence::SoloJester
        }
    }
}
