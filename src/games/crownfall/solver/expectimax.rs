//! `expectimax`: a card counter. At every push/bank and every Joker choice it takes the exact
//! expectation, over the real remaining player deck, of the solved (fresh-odds) value at the end
//! of the strike: draws without replacement, a reshuffle mid-strike included (when the deck runs
//! out, every card not on the strike pile comes back).
//!
//! The search is in [`super::deck_search`]. Each thread keeps the end values of the last strike
//! start state it saw (a strike asks several times) and a memo of pushing values by (start
//! state, cards), where a later decision of a strike finds what the first one searched. Both are
//! exact functions of their keys: they change speed, never a decision, whatever the threads.

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
        let rest = space.rest_of_counts(view.tower.unrevealed());
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
            let pile = Pile::of_counts(view.deck.counts(), view.deck.held());
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
        let rest = self
            .solution
            .space()
            .rest_of_counts(view.tower.unrevealed());
        let counts = view.deck.counts();
        // An empty deck is refilled by the whole discard: all 40 cards, half of them even.
        let (even, n) = if view.deck.is_empty() {
            (1, 2)
        } else {
            let even: u8 = counts.iter().skip(2).step_by(2).sum();
            (usize::from(even), view.deck.len())
        };
        let p_even = even as f64 / n as f64;
        let hp = i16::from(view.hp);
        let at = |h: i16| self.solution.between_value(rest, h);
        let accept = at(hp - i16::from(rules.joker_damage));
        let gamble = p_even * at(hp) + (1.0 - p_even) * at(hp - i16::from(rules.crushing_damage));
        gamble > accept + TIE
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::deck_search::tests::push_by_recursion;
    use super::super::strike::{best, prefers_bank};
    use super::*;
    use crate::games::Game;
    use crate::games::crownfall::{Crownfall, Engine, Streams};
    use crate::rng::GameRng;

    /// The card counter by its definition: bank if banking is worth more than the exact
    /// expectation of pushing on and playing best (by plain recursion over the cards), or as
    /// much at the target or over. No bounds, no memo kept, no shortcut.
    struct Reference<'a>(&'a Expectimax);

    impl Policy for Reference<'_> {
        fn strike_table(&self, _: &Rules, _: &StrikeView) -> Option<BankTable> {
            None
        }

        fn bank(&self, _: &Rules, view: &StrikeView) -> bool {
            let solution = self.0.solution();
            let rest = solution.space().rest_of_counts(view.tower.unrevealed());
            let ends = solution.end_values(rest, view.enemy, view.hp);
            let mut held = [0u8; 10];
            for &v in view.deck.held() {
                held[usize::from(v - 1)] += 1;
            }
            let ace = held[0] > 0;
            let mut deck = [0u8; 10];
            deck.copy_from_slice(&view.deck.counts()[1..]);
            let push = push_by_recursion(&ends, view.hard, ace, deck, held, &mut HashMap::new());
            let (b, _) = best(view.hard, ace);
            prefers_bank(ends[usize::from(b)], push, b, view.target)
        }

        fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
            self.0.double_or_nothing(rules, view)
        }
    }

    #[test]
    fn plays_every_game_as_the_exact_expectation_by_plain_recursion() {
        for sets in [
            vec![],
            vec!["guard_zone=3", "start_hp=9", "heal.king=1"],
            vec!["damage.jack=0", "guard_damage.queen=0", "tower.kings=2"],
        ] {
            let rules: Rules = crate::rules::load(
                None,
                &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
            .unwrap();
            let game = Crownfall::with_policy(rules.clone(), "expectimax").unwrap();
            let player = Expectimax::new(super::super::solved(&rules).unwrap());
            for index in 0..300 {
                let mut tower = GameRng::new(7, index, Streams::TOWER);
                let mut deck = GameRng::new(7, index, Streams::PLAYER_DECK);
                let want =
                    Engine::new(&rules).play(&rules, &Reference(&player), &mut tower, &mut deck);
                assert_eq!(game.play(7, index), want, "{sets:?} game {index}");
            }
        }
    }
}
