//! Everything that happens in a game flows through [`Observer::event`]: a no-op in the runner
//! (compiled away), a recorder in tests, a tracer later.

use super::engine::Engine;
use super::outcome::Loss;

/// One thing that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A card was dealt or drawn into `seat`'s hand (the set-up deal, diamonds, a solo Jester).
    Drew {
        /// Who drew.
        seat: u8,
        /// The card.
        card: u8,
    },
    /// A royal became the enemy.
    Revealed {
        /// The royal.
        enemy: u8,
    },
    /// A turn began (step 1).
    TurnStarted {
        /// Whose.
        seat: u8,
    },
    /// A set-aside Jester was used: the hand discarded, fresh cards to follow.
    SoloJester {
        /// Who used it.
        seat: u8,
        /// The hand discarded.
        discarded: u64,
    },
    /// Cards were played against the enemy.
    Played {
        /// Who played.
        seat: u8,
        /// The cards.
        cards: u64,
    },
    /// A Jester's player chose who goes next.
    Chose {
        /// The next player.
        next: u8,
    },
    /// A player yielded.
    Yielded {
        /// Who.
        seat: u8,
    },
    /// Hearts moved cards from the discard pile under the tavern.
    Healed {
        /// How many.
        cards: u8,
    },
    /// Damage was dealt.
    Damaged {
        /// This play's damage.
        dealt: u16,
        /// The enemy's damage so far.
        total: u16,
    },
    /// The enemy was defeated.
    Defeated {
        /// The royal.
        enemy: u8,
        /// True if exactly: it went on top of the tavern.
        exact: bool,
    },
    /// Cards were discarded to the enemy's attack.
    Discarded {
        /// Who.
        seat: u8,
        /// The cards.
        cards: u64,
    },
    /// The game was won.
    Won,
    /// The game was lost.
    Lost {
        /// How.
        how: Loss,
    },
}

/// Watches a game: told every event, with the engine just after it.
pub trait Observer {
    /// One event.
    fn event(&mut self, engine: &Engine, event: Event);
}

/// Watches nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unobserved;

impl Observer for Unobserved {
    #[inline(always)]
    fn event(&mut self, _: &Engine, _: Event) {}
}
