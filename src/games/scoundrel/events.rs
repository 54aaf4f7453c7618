//! What the Scoundrel engine reports to an observer: every chance event and decision of a game,
//! each with the state after it (see `docs/trace.md` for the JSON form).

use serde::{Deserialize, Serialize};

use crate::games::observe::Cards;

use super::engine::Turn;
use super::rules::ROOM;

/// One thing that happened in a game. Cards are codes: kind in the high bits (0x00 monster,
/// 0x20 weapon, 0x40 potion), value in the low four (J 11, Q 12, K 13, A 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The deal: the dungeon, top first.
    Deal {
        /// The dungeon's cards.
        dungeon: Cards,
    },
    /// A room the player must play: the cards left from the last room first, then those drawn.
    Room {
        /// The room's cards.
        room: Cards,
        /// True if avoiding it is allowed.
        can_avoid: bool,
        /// Cards to face: 3 of a full room, or all of the last, short one.
        to_face: u8,
    },
    /// The player's turn for the room.
    Turn {
        /// True to avoid the room.
        avoid: bool,
        /// Room indices in the order faced (the first `to_face` count).
        order: [u8; ROOM],
        /// Bit i: the weapon on the i-th card faced (where it may be used).
        weapon: u8,
        /// Bit i: the i-th card faced, a weapon, discarded instead of equipped (where the rules
        /// allow it).
        discard: u8,
        /// The cards to face, in that order (none if avoiding).
        faced: Cards,
        /// The card left for the next room (0 for none).
        left: u8,
    },
    /// The room went to the bottom of the dungeon, in this order.
    Avoided {
        /// The cards put at the bottom, first to last.
        cards: Cards,
    },
    /// One card faced.
    Face {
        /// The card.
        card: u8,
        /// True if it was a monster fought with the weapon.
        armed: bool,
        /// HP lost.
        damage: u8,
        /// HP gained.
        healed: u8,
        /// True for a potion past the turn's cap.
        wasted: bool,
    },
}

impl Event {
    /// The room `room` about to be played, `to_face` of its cards.
    pub fn room(room: &[u8], can_avoid: bool, to_face: usize) -> Self {
        Self::Room {
            room: Cards::of(room),
            can_avoid,
            to_face: to_face as u8,
        }
    }

    /// The turn the engine plays when asked to play `turn` in `room`: an avoid that is not
    /// allowed faces the room in order.
    pub fn turn(room: &[u8], can_avoid: bool, to_face: usize, turn: &Turn) -> Self {
        let avoid = turn.avoid && can_avoid;
        let order = if turn.avoid { [0, 1, 2, 3] } else { turn.order };
        let faced = if avoid { 0 } else { to_face };
        let left = (0..room.len() as u8)
            .find(|i| !avoid && to_face < room.len() && !order[..to_face].contains(i))
            .map_or(0, |i| room[usize::from(i)]);
        Self::Turn {
            avoid,
            order,
            weapon: turn.weapon,
            discard: turn.discard,
            faced: order[..faced]
                .iter()
                .map(|&i| room[usize::from(i)])
                .collect(),
            left,
        }
    }
}

/// The state of the game after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// HP (0 or below: lost).
    pub hp: i16,
    /// The weapon's value, 0 for none.
    pub weapon: u8,
    /// The largest monster the weapon may still be used on (255: it has slain nothing).
    pub limit: u8,
    /// Cards left in the dungeon.
    pub dungeon_left: u8,
    /// Cards faced so far.
    pub cards_faced: u8,
    /// Rooms avoided so far.
    pub rooms_avoided: u8,
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
