//! `pimc`: perfect-information Monte Carlo. Each of N determinized worlds is searched with
//! full information: every move of the decision is played in that world (the same hearts
//! shuffles for every move) and the game finished by the rollout policy, whose result is the
//! move's value there. The move with the best mean over the worlds is played.

use crate::games::regicide::Rules;
use crate::games::regicide::engine::{Engine, Resume};
use crate::games::regicide::events::Unobserved;
use crate::rng::GameRng;

use super::determinize;
use super::knowledge::Knowledge;
use super::moves::{Forced, MAX_MOVES, Move, Moves, Rollout};

/// The settings of one PIMC decision.
pub struct Pimc<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// Worlds searched.
    pub worlds: u32,
    /// The policy that finishes each game.
    pub rollout: &'a Rollout,
    /// A game's value from its outcome.
    pub value: &'a dyn Fn(&crate::games::regicide::Outcome) -> f32,
}

impl Pimc<'_> {
    /// The best of `moves` at `at` in `real`, for the player of `knowledge`; `sums` holds each
    /// move's total value over the worlds after it.
    #[allow(clippy::too_many_arguments)]
    pub fn decide(
        &self,
        knowledge: &Knowledge,
        real: &Engine,
        at: Resume,
        moves: &Moves,
        rng: &mut GameRng,
        scratch: &mut [Engine; 2],
        sums: &mut [f32; MAX_MOVES],
    ) -> Move {
        let moves = moves.as_slice();
        sums[..moves.len()].fill(0.0);
        let [world, play] = scratch;
        for w in 0..self.worlds {
            determinize::sample(knowledge, real, rng, world);
            let hearts = GameRng::new(rng.next_u64(), u64::from(w), 0);
            for (i, &m) in moves.iter().enumerate() {
                play.clone_from(world);
                let forced = Forced::new(m, self.rollout);
                let out = play.resume(
                    self.rules,
                    &forced,
                    &mut hearts.clone(),
                    &mut GameRng::unused(),
                    &mut Unobserved,
                    at,
                );
                sums[i] += (self.value)(&out);
            }
        }
        let best = (0..moves.len())
            .reduce(|a, b| if sums[b] > sums[a] { b } else { a })
            .expect("a decision has a move");
        moves[best]
    }
}
