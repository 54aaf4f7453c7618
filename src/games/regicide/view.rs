//! What a player may know when it decides: its own hand, every face-up card, every pile's count
//! and what happened in public. Never another hand or a face-down order.

use super::card::{self, SPADES, Values};
use super::rules::{MAX_PLAYERS, Rules};

/// One player's view of the table at a decision.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The card values under the rules.
    pub values: &'a Values,
    /// The deciding player's seat (0 plays first; clockwise is seat + 1).
    pub seat: u8,
    /// Players at the table.
    pub players: u8,
    /// The hand limit.
    pub max_hand: u8,
    /// The deciding player's hand.
    pub hand: u64,
    /// Its total value.
    pub hand_value: u16,
    /// The current enemy (a royal's card code).
    pub enemy: u8,
    /// The enemy's health.
    pub health: u16,
    /// The enemy's attack before shields.
    pub attack: u16,
    /// Damage dealt to it so far.
    pub damage: u16,
    /// The total value of spade plays against it (counting or not).
    pub spades: u16,
    /// True once a Jester cancelled its immunity.
    pub cancelled: bool,
    /// The cards played against it (face up).
    pub table: u64,
    /// The discard pile (face up).
    pub discard: u64,
    /// Cards in the tavern.
    pub tavern: u8,
    /// Royals still in the castle under the current one.
    pub castle: u8,
    /// Each seat's hand size (seats past `players` hold 0).
    pub hand_sizes: [u8; MAX_PLAYERS],
    /// Each seat's most recent turn was a yield.
    pub yielded: [bool; MAX_PLAYERS],
    /// An exactly-defeated royal known to sit on top of the tavern.
    pub known_top: Option<u8>,
    /// Solo: set-aside Jesters left.
    pub solo_jesters: u8,
}

impl View<'_> {
    /// The suits whose powers the enemy is immune to now (its own suit, until a Jester).
    #[inline]
    pub fn immune(&self) -> u8 {
        if self.cancelled {
            0
        } else {
            1 << card::suit(self.enemy)
        }
    }

    /// Health left: health minus damage so far.
    #[inline]
    pub fn remaining(&self) -> u16 {
        self.health.saturating_sub(self.damage)
    }

    /// The spade shield in effect now (0 against a spade enemy whose immunity stands).
    #[inline]
    pub fn shield(&self) -> u16 {
        if self.immune() & (1 << SPADES) != 0 {
            0
        } else {
            self.spades
        }
    }

    /// The discard the attack asks for now: attack minus shield, at least 0.
    #[inline]
    pub fn need(&self) -> u16 {
        self.attack.saturating_sub(self.shield())
    }

    /// True if the table is one player.
    #[inline]
    pub fn solo(&self) -> bool {
        self.players == 1
    }
}
