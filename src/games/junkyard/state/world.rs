//! What a seat has observed, and a world drawn from it.
//!
//! A seat sees both tables as they stand (HP, heap sizes, assembly areas, automatons and which
//! are attacking, what each seat built, lost, dealt and deployed so far) and its own hand; it
//! never sees the other's hand or the order of any heap. The cards of each seat are its own to
//! the end (whatever is destroyed goes back under its owner's heap), so what it cannot see is
//! known as a whole: its own heap holds what it owns that is not on its table or in its hand;
//! the other's heap holds every number not on that seat's table, and its tear-downs are split
//! between its heap (as many as the heap's size leaves room for) and its hand. A world places
//! these uniformly: each heap's cards listed by value, then shuffled, the other's tear-downs
//! shuffled before the split; the cards going back under the heaps are ordered by fresh
//! generators. (A seat that remembered where returned cards went under a heap would know a little
//! more; the observation is the table as it stands.)

use crate::cards::Dealer;
use crate::games::junkyard::automaton::Automaton;
use crate::games::junkyard::cards::{Counts, Heap, KING, LESSER, MAX_HEAP, NUMBERS};
use crate::games::junkyard::combat::MAX_BOTS;
use crate::games::junkyard::engine::Side;
use crate::games::junkyard::rules::Rules;
use crate::rng::GameRng;

use super::plan::Plan;
use super::{At, Returns, State};

/// One seat's table as everybody sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Public {
    /// HP.
    pub hp: i16,
    /// Cards in the heap.
    pub heap: u8,
    /// The assembly area.
    pub assembly: Counts,
    /// The automatons in index order (the first `bots_len`; the rest four 1s).
    pub bots: [Automaton; MAX_BOTS],
    /// How many automatons.
    pub bots_len: u8,
    /// Automatons built, automatons lost, damage dealt, tear-downs deployed so far.
    pub record: [u16; 4],
}

impl Public {
    fn of(side: &Side) -> Self {
        let mut bots = [Automaton::FOUR_ONES; MAX_BOTS];
        bots[..side.bots().len()].copy_from_slice(side.bots());
        Self {
            hp: side.hp(),
            heap: side.heap().len() as u8,
            assembly: *side.assembly(),
            bots,
            bots_len: side.bots().len() as u8,
            record: [side.built, side.destroyed, side.damage, side.teardowns],
        }
    }
}

/// What one seat has observed: both tables, its own hand, the turn and where the game waits,
/// and, if the decision is its own, its policy's plan of the call under way (its own memory).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The seat.
    pub seat: u8,
    /// Turns played.
    pub turn: u16,
    /// Where the game waits.
    pub at: At,
    /// Both tables, seat 0's first.
    pub tables: [Public; 2],
    /// The seat's tear-downs in hand, `[kings, lessers]`.
    pub hand: [u8; 2],
    /// The seat's own plan of the call under way.
    pub plan: Option<Plan>,
}

/// How many of each card code (numbers 1 to 10, `LESSER`, `KING`) a seat owns under `rules`.
fn owned(rules: &Rules) -> [u8; 13] {
    let mut all = [0u8; 13];
    all[1..=NUMBERS].copy_from_slice(&rules.counts);
    all[usize::from(KING)] = rules.kings;
    all[usize::from(LESSER)] = rules.lessers;
    all
}

/// What `side` owns and does not show: `owned` less its assembly area and automatons (its
/// numbers), less `hand` (its tear-downs).
fn unseen(owned: &[u8; 13], side: &Side, hand: [u8; 2]) -> [u8; 13] {
    let mut shown = *side.assembly();
    side.bots().iter().for_each(|b| b.add_cards(&mut shown));
    let mut left = *owned;
    for v in 1..=NUMBERS {
        left[v] -= shown[v];
    }
    left[usize::from(KING)] -= hand[0];
    left[usize::from(LESSER)] -= hand[1];
    left
}

/// The numbers of `left` by value into `cards` from its start; returns how many.
fn spell_numbers(left: &[u8; 13], cards: &mut [u8; MAX_HEAP]) -> usize {
    let mut n = 0;
    for (v, &c) in left.iter().enumerate().take(NUMBERS + 1).skip(1) {
        cards[n..n + usize::from(c)].fill(v as u8);
        n += usize::from(c);
    }
    n
}

impl<D: Dealer + Clone> State<'_, D> {
    /// What `seat` has observed.
    pub(super) fn observe(&self, seat: u8) -> Observation {
        let own = self.deciding() == Some(seat) && self.plan.is_some();
        Observation {
            seat,
            turn: self.engine.turns(),
            at: self.at,
            tables: [0, 1].map(|s| Public::of(self.engine.side(s))),
            hand: self.engine.side(usize::from(seat)).hand(),
            plan: own.then(|| self.plan.clone()),
        }
    }
}

impl<'r> State<'r> {
    /// Makes `world` a game `seat` cannot tell from this one, its unseen cards placed uniformly
    /// with `rng` and the returns ordered by fresh generators (see the module notes).
    pub(super) fn sample(&self, seat: u8, rng: &mut GameRng, world: &mut Self) {
        let rules = self.rules;
        let (me, other) = (usize::from(seat), 1 - usize::from(seat));
        world.rules = rules;
        world.engine = self.engine;
        world.at = self.at;
        world.plan = match self.observe(seat).plan {
            Some(plan) => plan,
            None => Plan::NONE,
        };
        let owned = owned(rules);
        let sides = world.engine.sides_mut();
        let mut cards = [0u8; MAX_HEAP];
        // The seat's own heap: all it does not show, in a uniform order.
        let mine = &mut sides[me];
        let left = unseen(&owned, mine, mine.hand);
        let mut n = spell_numbers(&left, &mut cards);
        for card in [KING, LESSER] {
            for _ in 0..left[usize::from(card)] {
                cards[n] = card;
                n += 1;
            }
        }
        debug_assert_eq!(n, mine.heap.len());
        rng.shuffle(&mut cards[..n]);
        mine.heap = Heap::stacked(&cards[..n]);
        // The other's: its unseen numbers and as many of its tear-downs (drawn at random) as
        // its heap's size leaves room for, in a uniform order; the other tear-downs in hand.
        let theirs = &mut sides[other];
        let left = unseen(&owned, theirs, [0, 0]);
        let numbers = spell_numbers(&left, &mut cards);
        let mut tears = [0u8; 4];
        let mut t = 0;
        for card in [KING, LESSER] {
            for _ in 0..left[usize::from(card)] {
                tears[t] = card;
                t += 1;
            }
        }
        rng.shuffle(&mut tears[..t]);
        let in_heap = theirs.heap.len() - numbers;
        cards[numbers..numbers + in_heap].copy_from_slice(&tears[..in_heap]);
        let mut hand = [0u8; 2];
        for &card in &tears[in_heap..t] {
            hand[usize::from(card == LESSER)] += 1;
        }
        let n = numbers + in_heap;
        rng.shuffle(&mut cards[..n]);
        theirs.heap = Heap::stacked(&cards[..n]);
        theirs.hand = hand;
        world.returns = [0, 1].map(|_| {
            if rules.shuffle_returns {
                Returns::Shuffled(GameRng::new(rng.next_u64(), 0, 0))
            } else {
                Returns::Fixed
            }
        });
    }
}
