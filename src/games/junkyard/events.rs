//! Everything that happens in a game, reported through one place: the engine hands each event
//! to an [`Observer`], a generic parameter that is a no-op in the runner (compiled away) and can
//! be a recorder for tracing.

use super::automaton::Automaton;

/// One thing that happened. `seat` is the seat it happened to or was done by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A turn began (turns count both players' turns, from 1).
    TurnStarted {
        /// The player whose turn it is.
        seat: u8,
        /// The turn's number.
        turn: u16,
    },
    /// A card was drawn from the seat's heap.
    Drew {
        /// Who drew.
        seat: u8,
        /// The card.
        card: u8,
    },
    /// An automaton was built.
    Built {
        /// Whose.
        seat: u8,
        /// The automaton.
        bot: Automaton,
    },
    /// A tear-down was deployed: it destroyed `target` of the opponent's and `own` of the seat's.
    Deployed {
        /// Who deployed it.
        seat: u8,
        /// The tear-down card.
        card: u8,
        /// The opposing automaton destroyed.
        target: Automaton,
        /// The deployer's own automaton destroyed, if it had any.
        own: Option<Automaton>,
    },
    /// Automatons moved to the attack area (bit `i`: the seat's automaton `i`).
    Attacked {
        /// The attacker.
        seat: u8,
        /// The attackers.
        mask: u32,
    },
    /// An automaton of the seat's was destroyed in combat.
    Destroyed {
        /// Whose.
        seat: u8,
        /// The automaton.
        bot: Automaton,
    },
    /// Unblocked attackers hit the defending player.
    Damage {
        /// The attacker.
        seat: u8,
        /// HP taken from the defender.
        amount: u16,
    },
    /// The game ended: the winning seat, or `None` for a draw.
    Ended {
        /// The winner.
        winner: Option<u8>,
    },
}

/// Where the engine reports its events.
pub trait Observer {
    /// Receives one event.
    fn event(&mut self, event: Event);
}

/// No observer: every event is dropped at compile time.
impl Observer for () {
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

/// Keeps every event (tests and tracing; allocates, so not for the runner).
impl Observer for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}
