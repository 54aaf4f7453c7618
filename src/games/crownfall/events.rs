//! What the Crownfall engine reports to an observer: every chance event and decision of a game,
//! each with the state after it (see `docs/trace.md` for the JSON form).

use serde::{Deserialize, Serialize};

use crate::games::observe::Cards;

use super::outcome::Enemy;

/// One thing that happened in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The deal: the tower (enemy codes 0 jack, 1 queen, 2 king, 3 joker) and the player deck
    /// (card values, Ace = 1), top first.
    Deal {
        /// The tower, top first.
        tower: Cards,
        /// The player deck, top first.
        deck: Cards,
    },
    /// A strike against the royal on top of the tower begins.
    Strike {
        /// The royal.
        enemy: Enemy,
        /// Its target.
        target: u8,
    },
    /// A card flipped in a strike, with the strike's totals after it.
    Flip {
        /// The card's value (Ace = 1).
        card: u8,
        /// The total counting every Ace as 1.
        hard: u8,
        /// The total counting one Ace as 11 where that stays at or under 21.
        best: u8,
    },
    /// The player's choice after a flip that did not bust: bank the best total or push (flip
    /// again); both are always open.
    Choice {
        /// True for BANK, false for PUSH.
        bank: bool,
    },
    /// A strike's end and its effect.
    StrikeEnd {
        /// The banked total, or the hard total of a bust (22 or more).
        total: u8,
        /// Damage taken.
        damage: u8,
        /// The heal of a perfect 21 that defeats (HP never passes max HP).
        heal: u8,
        /// True if the royal is defeated.
        defeated: bool,
    },
    /// A Joker is turned up.
    Joker,
    /// A card flipped for a Joker (odd: the hazard strikes).
    JokerFlip {
        /// The card's value.
        card: u8,
    },
    /// The player's choice after a Joker's odd first flip: accept the damage or take double or
    /// nothing; both are always open.
    JokerChoice {
        /// True for DOUBLE-OR-NOTHING, false for ACCEPT.
        gamble: bool,
    },
    /// The Joker is resolved and cleared (unless it killed).
    JokerEnd {
        /// Damage taken.
        damage: u8,
    },
    /// The discard is shuffled into a new player deck (or, under `deck = infinite`, fresh cards
    /// are dealt).
    Reshuffle {
        /// The new deck, top first.
        deck: Cards,
    },
}

/// The state of the game after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Player HP (0 or below: lost).
    pub hp: i16,
    /// Tower cards cleared.
    pub cleared: u8,
    /// Tower cards left, the current one included.
    pub tower_left: u8,
    /// Cards left in the player deck.
    pub deck_left: u8,
    /// Cards on the strike pile.
    pub held: u8,
    /// Cards in the discard.
    pub discard: u8,
    /// Reshuffles so far.
    pub reshuffles: u16,
}

/// An event with the state after it: what an observer of the engine sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
    /// The state after it.
    pub state: State,
}
