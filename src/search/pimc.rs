//! `pimc`: perfect-information Monte Carlo. Each of N worlds sampled from what the deciding seat
//! has seen is searched with full information: every candidate move is played in that world
//! and the game finished by the rollout policy (the same later chance and the same rollout coins
//! for every move of a world), whose value is the move's value there. The move with the best
//! mean over the worlds is played; on a tie, the rollout policy's own move (else the first in
//! the game's order), so that the search leaves its rollout policy only on evidence. With a value
//! model (`leaf` above 0), a move's value in a world mixes in the estimate right after it
//! ([`Searcher::leaf`]).

use crate::games::state::GameState;
use crate::rng::GameRng;

use super::{STOP_POLL, Searcher, Work};

/// The best of `work.root` (the decision's candidates at `real`, at least two) for `seat`;
/// `work.sums` holds each move's total value over the worlds, `work.results` its total result.
pub fn decide<S: GameState>(
    searcher: &Searcher<S::Policy>,
    real: &S,
    seat: u8,
    work: &mut Work<S>,
) -> S::Move {
    let moves = &work.root;
    work.sums.clear();
    work.sums.resize(moves.len(), 0.0);
    work.results.clear();
    work.results.resize(moves.len(), 0.0);
    let (world, play) = super::scratch(&mut work.scratch, real);
    for w in 0..searcher.settings.simulations {
        // A stop request cuts a long search short (the game is then dropped).
        if w % STOP_POLL == STOP_POLL - 1 && crate::stop::requested() {
            break;
        }
        real.sample_into(seat, &mut work.rng, world);
        let coins = GameRng::new(work.rng.next_u64(), u64::from(w), 0);
        for (i, &mv) in moves.iter().enumerate() {
            play.clone_from(world);
            let (value, result) =
                searcher.leaf(play, mv, seat, &mut coins.clone(), &mut work.features);
            work.sums[i] += value;
            work.results[i] += result;
        }
    }
    let own = real
        .clone()
        .policy_move(&searcher.rollout, &mut GameRng::unused());
    let start = moves.iter().position(|&m| m == own).unwrap_or(0);
    let best = (0..moves.len()).fold(
        start,
        |a, b| {
            if work.sums[b] > work.sums[a] { b } else { a }
        },
    );
    moves[best]
}
