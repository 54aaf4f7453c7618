//! Everything that happens in a game, reported through one place: the engine hands each event
//! to an [`Observer`], a generic parameter that is a no-op in the runner (compiled away) and can
//! be a recorder for tracing.

use serde::{Deserialize, Serialize};

use crate::games::observe::Cards;

use super::automaton::Automaton;
use super::combat::MAX_BOTS;

/// One thing that happened. `seat` is the seat it happened to or was done by. Written to JSON
/// with its name in `event` (`sim trace --json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The seat's heap as dealt, top first (before the opening draw).
    Dealt {
        /// Whose heap.
        seat: u8,
        /// The cards, top first.
        heap: Cards,
    },
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
        /// The target's index among the opponent's automatons.
        target_at: u8,
        /// The own automaton's index among the deployer's.
        own_at: Option<u8>,
    },
    /// Cards went under the seat's heap as one batch, in this order (first highest).
    Returned {
        /// Whose heap.
        seat: u8,
        /// The batch, in the order it went under.
        cards: Cards,
    },
    /// Automatons moved to the attack area (bit `i`: the seat's automaton `i`).
    Attacked {
        /// The attacker.
        seat: u8,
        /// The attackers.
        mask: u32,
    },
    /// The defender's blocks, as legalized: per defending automaton 0, or 1 + the index of
    /// the attacker it blocks.
    Blocked {
        /// The defender.
        seat: u8,
        /// The blocks.
        of: [u8; MAX_BOTS],
    },
    /// An attacker split its power over its blockers: the mask of blockers it destroys.
    Split {
        /// The attacker's seat.
        seat: u8,
        /// The attacking automaton's index.
        attacker: u8,
        /// The blockers destroyed (bit `k`: its `k`-th blocker in index order).
        mask: u32,
    },
    /// An automaton of the seat's was destroyed in combat.
    Destroyed {
        /// Whose.
        seat: u8,
        /// The automaton.
        bot: Automaton,
        /// Its index among the seat's automatons.
        at: u8,
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
    /// False for an observer that drops every event: the engine then never builds one (some
    /// events copy a pile of cards, which the compiler cannot always prove idle).
    const WATCHES: bool = true;

    /// Receives one event.
    fn event(&mut self, event: Event);

    /// Receives the event `make` builds, built only if the observer watches.
    #[inline(always)]
    fn report(&mut self, make: impl FnOnce() -> Event) {
        if Self::WATCHES {
            self.event(make());
        }
    }
}

/// No observer: no event is built.
impl Observer for () {
    const WATCHES: bool = false;

    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

/// Keeps every event (tests and tracing; allocates, so not for the runner).
impl Observer for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}
