//! `tuned-lookahead[-N]` (a sampled search one room deep, not an exact expectimax): card
//! counting plus a one-room-deep expectation: the best few plays of the room by the tuned model
//! ([`Rich`]) are each scored by the mean, over N draws of the next room from the unseen cards (a
//! multiset: the player never knows their order), of the best value the model finds in that next
//! room; the same draws for every play. It is [`Lookahead`] searching wider, deeper in samples,
//! over the richer evaluation.

use super::features::Rich;
use super::lookahead::Lookahead;

/// Next rooms sampled per decision by default.
pub const SAMPLES: u16 = 24;
/// The most samples a decision may take (the lookahead's fixed buffer).
pub const MAX_SAMPLES: u16 = 64;
/// Plays of the room searched per decision.
pub const WIDTH: usize = 6;

/// What a next room that kills every way counts for (set by paired runs of 2,000 deals: -20,
/// -40, -60, -90 and -150 on seed 1, -50 then checked on seed 1001): a loss on the model's scale, not the
/// lookahead's "any chance of death outweighs everything" (which, the more rooms are sampled,
/// the more it turns every choice into avoiding the rarest deaths).
pub const DEATH: f32 = -50.0;

/// The policy with `samples` next rooms per decision.
pub fn new(samples: u16) -> Lookahead<Rich> {
    Lookahead {
        samples,
        width: WIDTH,
        weights: Rich::default(),
        death: DEATH,
    }
}
