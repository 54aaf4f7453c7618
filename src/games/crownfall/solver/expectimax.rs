//! `expectimax`: a card counter. At every push/bank and every Joker choice it takes the exact
//! expectation, over the real remaining player deck, of the solved (fresh-odds) value at the end
//! of the strike: draws without replacement, a reshuffle mid-strike included (when the deck runs
//! out, every card not on the strike pile comes back).
//!
//! The search is in [`super::deck_search`]. Each thread keeps the end values of the last strike
//! start state it saw (a strike asks several times) and a memo of pushing values by (start
//! state, cards), kept across strikes and games: the first strikes of games repeat, and a later
//! decision of a strike finds what the first one searched.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::engine::{JokerView, StrikeView};
use super::super::outcome::Enemy;
use super::super::policy::{BankTable, Policy};
use super::super::rules::{Deck, Rules};
use super::deck_search::{Memo, Pile, Search, StrikeEnds, StrikeShape};
use super::dp::Solution;
use super::strike::TIE;

/// The expectimax player over a solved game.
#[derive(Debug)]
pub struct Expectimax {
    solution: Arc<Solution>,
    /// The shape of a strike's end values against each enemy (by code; the Joker's is unused).
    shapes: [StrikeShape; 4],
    /// Tells this player's cached values from another's in the same thread (never reused).
    id: u64,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A thread's cache: everything in it is a function of its key, so it only changes speed.
struct Cache {
    /// The player whose values these are (0: none yet).
    owner: u64,
    /// The strike start state whose end values `ends` holds (usize::MAX: none).
    state: usize,
    ends: StrikeEnds,
    memo: Memo,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache {
        owner: 0,
        state: usize::MAX,
        ends: StrikeEnds::new(&StrikeShape::new([0; 22]), [0.0; 4]),
        memo: Memo::default(),
    });
}

impl Expectimax {
    /// The card counter for `solution`.
    pub fn new(solution: Arc<Solution>) -> Self {
        Self {
            shapes: Enemy::ALL.map(|e| StrikeShape::new(solution.end_shape(e))),
            solution,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The solution it counts against.
    pub fn solution(&self) -> &Solution {
        &self.solution
    }
}

impl PartialEq for Expectimax {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.solution, &other.solution)
    }
}

impl Policy for Expectimax {
    #[inline]
    fn strike_table(&self, rules: &Rules, view: &StrikeView) -> Option<BankTable> {
        // Under fresh odds there is nothing to count: the solved plan is the exact answer.
        match rules.deck {
            Deck::Infinite => self.solution.plan.strike_table(rules, view),
            Deck::Finite => None,
        }
    }

    fn bank(&self, rules: &Rules, view: &StrikeView) -> bool {
        if rules.deck == Deck::Infinite {
            return self.solution.plan.bank(rules, view);
        }
        let space = self.solution.space();
        let rest = space.rest_of(&view.tower.deck_cards()[1..]);
        let state = space.state(rest, view.enemy, view.hp);
        // An Ace matters only while it can count 11: soft totals.
        let ace = view.soft();
        CACHE.with_borrow_mut(|cache| {
            if cache.owner != self.id {
                cache.owner = self.id;
                cache.state = usize::MAX;
                cache.memo.clear();
            }
            if cache.state != state {
                cache.ends.set(
                    &self.shapes[view.enemy as usize],
                    self.solution.end_levels(rest, view.enemy, view.hp),
                );
                cache.state = state;
            }
            let shape = &self.shapes[view.enemy as usize];
            if let Some(bank) = cache.ends.settled(shape, view.hard, ace, view.target) {
                return bank;
            }
            let pile = Pile::new(view.deck.deck_cards(), view.deck.held_cards());
            Search {
                shape,
                ends: &cache.ends,
                state,
                memo: &mut cache.memo,
            }
            .bank(pile, view.hard, ace, view.target)
        })
    }

    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        if rules.deck == Deck::Infinite {
            return self.solution.plan.double_or_nothing(rules, view);
        }
        let rest = self.solution.space().rest_of(&view.tower.deck_cards()[1..]);
        let cards = view.deck.deck_cards();
        // An empty deck is refilled by the whole discard: all 40 cards, half of them even.
        let (even, n) = if cards.is_empty() {
            (1, 2)
        } else {
            (cards.iter().filter(|&&c| c % 2 == 0).count(), cards.len())
        };
        let p_even = even as f64 / n as f64;
        let hp = i16::from(view.hp);
        let at = |h: i16| self.solution.between_value(rest, h);
        let accept = at(hp - i16::from(rules.joker_damage));
        let gamble = p_even * at(hp) + (1.0 - p_even) * at(hp - i16::from(rules.crushing_damage));
        gamble > accept + TIE
    }
}
