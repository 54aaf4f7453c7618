//! A Junkyard decision's moves: what each kind of decision offers, listed in a fixed order, and
//! a key that tells them apart across the worlds of one information set.

use crate::games::junkyard::automaton::Automaton;
use crate::games::junkyard::build::{self, MAX_CHOICES};
use crate::games::junkyard::cards::{KING, LESSER};
use crate::games::junkyard::combat;
use crate::games::junkyard::engine::hand_slot;
use crate::games::junkyard::view::View;

/// One choice at a decision of Junkyard's [`State`](super::State).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Step 3 or set-up: build this automaton from the assembly area.
    Build(Automaton),
    /// Step 3: deploy tear-down `card` on the opponent's automaton `target`, destroying the
    /// player's own automaton `own` (required if the player has any).
    Deploy {
        /// The tear-down (`KING` or `LESSER`).
        card: u8,
        /// The opponent's automaton destroyed.
        target: u8,
        /// The player's own automaton destroyed.
        own: Option<u8>,
    },
    /// Step 3 or set-up over: on to the attack (or, at set-up, to the other seat or the first
    /// turn).
    Stop,
    /// Step 4: whether the player's next automaton (in index order) attacks.
    Attack(bool),
    /// The defender's next automaton (in index order, those not in the attack area) blocks this
    /// attacker, or none.
    Block(Option<u8>),
    /// Step 5: the blocked attacker destroys these of its blockers (a mask over the defender's
    /// automatons).
    Split(u32),
}

impl Move {
    /// A number telling moves apart (the search tree's child key).
    pub fn key(&self) -> u64 {
        match *self {
            Move::Build(b) => {
                1 << 56 | u64::from(b.pattern as u8) << 16 | u64::from(b.a) << 8 | u64::from(b.b)
            }
            Move::Deploy { card, target, own } => {
                2 << 56
                    | u64::from(card) << 16
                    | u64::from(target) << 8
                    | u64::from(own.unwrap_or(u8::MAX))
            }
            Move::Stop => 3 << 56,
            Move::Attack(yes) => 4 << 56 | u64::from(yes),
            Move::Block(target) => 5 << 56 | u64::from(target.unwrap_or(u8::MAX)),
            Move::Split(mask) => 6 << 56 | u64::from(mask),
        }
    }
}

/// The moves of step 3 (`deploy`) or of set-up building for the player of `view`, into
/// `moves`: every buildable automaton (in [`build::for_each_buildable`]'s order), then with
/// `deploy` every legal tear-down (the King, then a lesser one; by target, then by own
/// automaton), then [`Move::Stop`].
pub fn step3(view: &View, deploy: bool, moves: &mut Vec<Move>) {
    let mut built = [Automaton::FOUR_ONES; MAX_CHOICES];
    let n = build::buildable(view.assembly(), &mut built);
    moves.extend(built[..n].iter().map(|&b| Move::Build(b)));
    if deploy {
        for card in [KING, LESSER] {
            deploys(view, card, |target, own| {
                moves.push(Move::Deploy { card, target, own })
            });
        }
    }
    moves.push(Move::Stop);
}

/// Calls `each(target, own)` for every legal deployment of tear-down `card` by the player of
/// `view`: one in hand, an opposing automaton to target, and the player's own automaton it
/// destroys (any for a King, one of greatest power for a lesser one; none only without any).
fn deploys(view: &View, card: u8, mut each: impl FnMut(u8, Option<u8>)) {
    if view.hand()[hand_slot(card)] == 0 {
        return;
    }
    let mine = view.bots();
    let top = mine.iter().map(|b| b.power).max().unwrap_or(0);
    for target in 0..view.opp_bots().len() as u8 {
        if mine.is_empty() {
            each(target, None);
        }
        for (i, b) in mine.iter().enumerate() {
            if card == KING || b.power == top {
                each(target, Some(i as u8));
            }
        }
    }
}

/// The moves of a blocker of the defender of `view` against `attackers`: no block, then each
/// attacker it can block (in index order).
pub fn blocks(view: &View, attackers: u32, moves: &mut Vec<Move>) {
    moves.push(Move::Block(None));
    let theirs = view.opp_bots();
    for j in combat::bits(attackers) {
        if theirs[j].blockable() {
            moves.push(Move::Block(Some(j as u8)));
        }
    }
}

/// The moves of attacker `j` of the player of `view`, blocked by `blockers` (a mask over the
/// opponent's automatons): every legal split, by increasing mask.
pub fn splits(view: &View, j: usize, blockers: u32, moves: &mut Vec<Move>) {
    let bot = view.bots()[j];
    combat::for_each_split_in(&bot, view.opp_bots(), blockers, |m| {
        moves.push(Move::Split(m))
    });
}
