//! What one player knows about the face-down cards, kept up to date from the public events.
//!
//! Every card the player cannot see is in the tavern or in another player's hand. For each
//! such card the player knows the *pool* it came from: pool 0 for a card never seen (the
//! tavern as dealt), pool `k` for the cards the `k`-th hearts moved from the (face-up) discard
//! pile under the tavern, which the player saw go. A royal defeated exactly is a *known* card:
//! it sits on top of the tavern, and whoever draws it is known to hold it. The tavern is a
//! column of segments top first (a known card, or so many cards of one pool), since draws
//! take from the top, an exact kill goes on top and hearts go under the bottom; another
//! player's hand is a list of slots, each a known card or a pool, filled by the draws the
//! player watched. A card seen leaving another hand frees a slot of its own pool.
//!
//! Within a pool every order of its unseen cards over its places is equally likely (the
//! tavern's shuffle and each hearts shuffle are uniform, and what was seen since only removes
//! cards from their own pool), so [`super::determinize`] samples worlds pool by pool. Other
//! players' choices are not read as evidence about their hands.

use super::super::card::{self, CODES};
use super::super::engine::Engine;
use super::super::events::Event;
use super::super::rules::{MAX_HAND, MAX_PLAYERS};

/// A place's content: a pool number, or [`KNOWN`] plus a card code.
pub type Slot = u16;
/// Slots at or above this hold the card `slot - KNOWN`.
pub const KNOWN: Slot = 0x8000;

/// Most segments the tavern column holds (each holds at least one of at most 56 cards).
const SEGMENTS: usize = 64;

/// One segment of the tavern: `count` cards of pool `slot`, or the known card `slot`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Segment {
    /// The pool or known card.
    pub slot: Slot,
    /// Cards in the segment (1 for a known card).
    pub count: u8,
}

/// One player's knowledge of the hidden cards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Knowledge {
    me: u8,
    /// The pool each card was last known to join (meaningful for hidden cards only).
    pool: [Slot; CODES],
    /// Pools opened so far (0 is the dealt tavern).
    pools: Slot,
    tavern: [Segment; SEGMENTS],
    segments: usize,
    hands: [[Slot; MAX_HAND as usize]; MAX_PLAYERS],
    sizes: [u8; MAX_PLAYERS],
    /// The discard pile as last seen (hearts move the cards that vanish from it).
    discard: u64,
    /// Every card of the game (the tavern and castle as set up: public).
    universe: u64,
}

impl Knowledge {
    /// What seat `me` knows before the deal of `engine` (shuffled, not dealt): the tavern is
    /// one pool of unseen cards.
    pub fn new(me: u8, engine: &Engine) -> Self {
        let mut tavern = [Segment::default(); SEGMENTS];
        let len = engine.tavern().len();
        tavern[0] = Segment {
            slot: 0,
            count: len,
        };
        Self {
            me,
            pool: [0; CODES],
            pools: 1,
            tavern,
            segments: usize::from(len > 0),
            hands: [[0; MAX_HAND as usize]; MAX_PLAYERS],
            sizes: [0; MAX_PLAYERS],
            discard: engine.discard().mask(),
            universe: engine
                .tavern()
                .iter()
                .chain(engine.castle().iter().copied())
                .fold(0, |m, c| m | card::bit(c)),
        }
    }

    /// Every card of the game.
    pub fn universe(&self) -> u64 {
        self.universe
    }

    /// The seat whose knowledge this is.
    pub fn me(&self) -> u8 {
        self.me
    }

    /// The tavern column, top first.
    pub fn tavern(&self) -> &[Segment] {
        &self.tavern[..self.segments]
    }

    /// The slots of `seat`'s hand (empty for the player's own, which it sees).
    pub fn hand(&self, seat: u8) -> &[Slot] {
        &self.hands[usize::from(seat)][..usize::from(self.sizes[usize::from(seat)])]
    }

    /// The pool a hidden card belongs to.
    pub fn pool_of(&self, card: u8) -> Slot {
        self.pool[usize::from(card)]
    }

    /// Takes in one public event; `engine` is the game just after it. Only what the player may
    /// see is read: the event's public part, the discard pile and the tavern's count.
    pub fn event(&mut self, engine: &Engine, event: &Event) {
        match *event {
            Event::Drew { seat, .. } => {
                let slot = self.draw_top();
                if seat != self.me {
                    let s = usize::from(seat);
                    self.hands[s][usize::from(self.sizes[s])] = slot;
                    self.sizes[s] += 1;
                }
            }
            Event::Healed { cards } => {
                let moved = self.discard & !engine.discard().mask();
                debug_assert_eq!(moved.count_ones(), u32::from(cards));
                if cards > 0 {
                    let p = self.pools;
                    self.pools += 1;
                    for c in card::cards(moved) {
                        self.pool[usize::from(c)] = p;
                    }
                    self.tavern[self.segments] = Segment {
                        slot: p,
                        count: cards,
                    };
                    self.segments += 1;
                }
            }
            Event::Defeated { enemy, exact: true } => {
                self.tavern.copy_within(..self.segments, 1);
                self.tavern[0] = Segment {
                    slot: KNOWN + Slot::from(enemy),
                    count: 1,
                };
                self.segments += 1;
            }
            Event::Played { seat, cards } | Event::Discarded { seat, cards } if seat != self.me => {
                for c in card::cards(cards) {
                    self.leave(seat, c);
                }
            }
            _ => {}
        }
        self.discard = engine.discard().mask();
        debug_assert_eq!(
            self.tavern()
                .iter()
                .map(|s| u16::from(s.count))
                .sum::<u16>(),
            u16::from(engine.tavern().len())
        );
    }

    /// The top card's slot, taken off the column.
    fn draw_top(&mut self) -> Slot {
        let top = &mut self.tavern[0];
        debug_assert!(
            self.segments > 0 && top.count > 0,
            "a draw from an empty tavern"
        );
        let slot = top.slot;
        top.count -= 1;
        if top.count == 0 {
            self.tavern.copy_within(1..self.segments, 0);
            self.segments -= 1;
        }
        slot
    }

    /// `card`, just seen, left `seat`'s hand: its slot goes (the known one, else one of its
    /// pool).
    fn leave(&mut self, seat: u8, card: u8) {
        let s = usize::from(seat);
        let n = usize::from(self.sizes[s]);
        let hand = &mut self.hands[s][..n];
        let known = KNOWN + Slot::from(card);
        let at = hand
            .iter()
            .position(|&x| x == known)
            .or_else(|| hand.iter().position(|&x| x == self.pool[usize::from(card)]))
            .expect("a card seen leaving a hand had a slot of its pool there");
        hand[at] = hand[n - 1];
        self.sizes[s] -= 1;
    }
}
