//! `expectimax`: a card counter. At every push/bank and every Joker choice it takes the exact
//! expectation, over the real remaining player deck, of the solved (fresh-odds) value at the end
//! of the strike: draws without replacement, a reshuffle mid-strike included (when the deck runs
//! out, every card not on the strike pile comes back).
//!
//! The search below a decision is memoized per thread by what it depends on: the strike's start
//! state, the totals, the deck size and the counts of the cards that do not bust (plus the strike
//! pile when a reshuffle can happen before the strike ends). Two bounds settle most decisions
//! and prune most of each search: bank if banking is worth at least what pushing could reach at
//! best (the next card's real odds, then the most any end reachable after it is worth), push if
//! pushing and then banking at once is worth more than banking now.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::super::engine::{DECK_CARDS, JokerView, StrikeView};
use super::super::policy::{BankTable, Policy};
use super::super::rules::{Deck, Rules};
use super::dp::Solution;
use super::strike::{FACES, TIE, TOP, best, prefers_bank};

/// Cards of each value in the full player deck.
const PER_FACE: u8 = (DECK_CARDS / FACES) as u8;
/// Memo entries per thread (a power of two).
const MEMO: usize = 1 << 14;

/// Card counts by value (index v - 1).
type Counts = [u8; FACES];

/// The expectimax player over a solved game.
#[derive(Debug)]
pub struct Expectimax {
    solution: Arc<Solution>,
    /// Tells this player's memo entries from another's in the same thread.
    id: u32,
}

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

thread_local! {
    static MEMO_TABLE: RefCell<Vec<(u128, f64)>> = RefCell::new(vec![(0, 0.0); MEMO]);
}

impl Expectimax {
    /// The card counter for `solution`.
    pub fn new(solution: Arc<Solution>) -> Self {
        Self {
            solution,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed) & 0xFFFF,
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

fn count(cards: &[u8]) -> Counts {
    let mut c = [0u8; FACES];
    for &v in cards {
        c[usize::from(v - 1)] += 1;
    }
    c
}

/// The deck after the discard is shuffled back: every card not on the strike pile.
fn reshuffled(held: &Counts) -> (Counts, u8) {
    let deck = held.map(|h| PER_FACE - h);
    (deck, deck.iter().sum())
}

/// The most any end reachable from each (hard total, Ace) is worth, banking there included,
/// whatever the cards: `reach[h][ace]`.
type Reach = [[f64; 2]; TOP as usize + 1];

fn reach(ends: &[f64; TOP as usize + 1]) -> Reach {
    let mut r = [[0.0; 2]; TOP as usize + 1];
    for h in (1..=TOP).rev() {
        for ace in [false, true] {
            let mut m = ends[usize::from(best(h, ace).0)];
            for v in 1..=FACES as u8 {
                m = m.max(if h + v > TOP {
                    ends[0]
                } else {
                    r[usize::from(h + v)][usize::from(ace || v == 1)]
                });
            }
            r[usize::from(h)][usize::from(ace)] = m;
        }
    }
    r
}

/// One decision's search: the values of the strike's ends and the memo key of its start state.
struct Search<'a> {
    ends: &'a [f64; TOP as usize + 1],
    /// The most reachable from each total: where banking is worth that, no search is needed.
    reach: &'a Reach,
    key: u128,
    memo: &'a mut [(u128, f64)],
}

impl Search<'_> {
    /// The value of a strike standing at (`hard`, `ace`) with the best move from here on.
    fn node(&mut self, hard: u8, ace: bool, deck: &mut Counts, n: u8, held: &mut Counts) -> f64 {
        let (b, _) = best(hard, ace);
        let stay = self.ends[usize::from(b)];
        if stay >= self.reach[usize::from(hard)][usize::from(ace)]
            || stay >= self.push_at_most(hard, ace, deck, n, held)
        {
            return stay;
        }
        stay.max(self.push(hard, ace, deck, n, held))
    }

    /// An upper bound on pushing: the next card's odds from the real deck, then the most
    /// reachable after it.
    fn push_at_most(&self, hard: u8, ace: bool, deck: &Counts, n: u8, held: &Counts) -> f64 {
        let (deck, n) = if n == 0 { reshuffled(held) } else { (*deck, n) };
        let mut sum = 0.0;
        for v in 1..=FACES as u8 {
            let c = f64::from(deck[usize::from(v - 1)]);
            sum += c * if hard + v > TOP {
                self.ends[0]
            } else {
                self.reach[usize::from(hard + v)][usize::from(ace || v == 1)]
            };
        }
        sum / f64::from(n)
    }

    /// The value of flipping one more card at (`hard`, `ace`), playing best after it.
    fn push(&mut self, hard: u8, ace: bool, deck: &mut Counts, n: u8, held: &mut Counts) -> f64 {
        if n == 0 {
            let (mut fresh, m) = reshuffled(held);
            return self.push(hard, ace, &mut fresh, m, held);
        }
        let room = TOP - hard;
        let ace = ace && hard <= 11;
        let relevant = usize::from(room).min(FACES);
        let mut key =
            self.key | u128::from(hard) << 32 | u128::from(ace) << 37 | u128::from(n) << 38;
        for (i, &c) in deck[..relevant].iter().enumerate() {
            key |= u128::from(c) << (44 + 3 * i);
        }
        if n <= room {
            // A reshuffle may come before the strike ends: it depends on the strike pile.
            for (i, &c) in held.iter().enumerate() {
                key |= u128::from(c) << (74 + 3 * i);
            }
            key |= 1 << 104;
        }
        let slot = {
            let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (h >> (64 - MEMO.trailing_zeros())) as usize
        };
        if self.memo[slot].0 == key {
            return self.memo[slot].1;
        }
        let mut sum = 0.0;
        let mut busts = 0u8;
        for v in 1..=FACES as u8 {
            let c = deck[usize::from(v - 1)];
            if c == 0 {
                continue;
            }
            if v > room {
                busts += c;
                continue;
            }
            deck[usize::from(v - 1)] -= 1;
            held[usize::from(v - 1)] += 1;
            let q = self.node(hard + v, ace || v == 1, deck, n - 1, held);
            deck[usize::from(v - 1)] += 1;
            held[usize::from(v - 1)] -= 1;
            sum += f64::from(c) * q;
        }
        let value = (sum + f64::from(busts) * self.ends[0]) / f64::from(n);
        self.memo[slot] = (key, value);
        value
    }
}

/// A lower bound on pushing: flip one card, then bank whatever it gives.
fn push_then_bank(
    ends: &[f64; TOP as usize + 1],
    hard: u8,
    ace: bool,
    deck: &Counts,
    n: u8,
    held: &Counts,
) -> f64 {
    let (deck, n) = if n == 0 { reshuffled(held) } else { (*deck, n) };
    let mut sum = 0.0;
    for v in 1..=FACES as u8 {
        let c = f64::from(deck[usize::from(v - 1)]);
        let end = if hard + v > TOP {
            0
        } else {
            best(hard + v, ace || v == 1).0
        };
        sum += c * ends[usize::from(end)];
    }
    sum / f64::from(n)
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
        let ends = self.solution.end_values(rest, view.enemy, view.hp);
        let stay = ends[usize::from(view.best)];
        let mut deck = count(view.deck.deck_cards());
        let mut held = count(view.deck.held_cards());
        let n = view.deck.deck_len() as u8;
        let ace = held[0] > 0;
        if push_then_bank(&ends, view.hard, ace, &deck, n, &held) > stay + TIE {
            return false;
        }
        let reach = reach(&ends);
        MEMO_TABLE.with_borrow_mut(|memo| {
            let mut search = Search {
                ends: &ends,
                reach: &reach,
                key: 1 << 127
                    | u128::from(self.id) << 110
                    | space.state(rest, view.enemy, view.hp) as u128,
                memo,
            };
            let at_most = search.push_at_most(view.hard, ace, &deck, n, &held);
            if prefers_bank(stay, at_most, view.best, view.target) {
                return true;
            }
            let push = search.push(view.hard, ace, &mut deck, n, &mut held);
            prefers_bank(stay, push, view.best, view.target)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    /// Pushing by plain recursion over every card sequence: no memo, no bounds.
    fn naive(ends: &[f64; 22], hard: u8, ace: bool, deck: &Counts, n: u8, held: &Counts) -> f64 {
        let (deck, n) = if n == 0 { reshuffled(held) } else { (*deck, n) };
        let mut sum = 0.0;
        for v in 1..=FACES as u8 {
            let c = deck[usize::from(v - 1)];
            if c == 0 {
                continue;
            }
            let q = if hard + v > TOP {
                ends[0]
            } else {
                let (mut d, mut h) = (deck, *held);
                d[usize::from(v - 1)] -= 1;
                h[usize::from(v - 1)] += 1;
                let stay = ends[usize::from(best(hard + v, ace || v == 1).0)];
                stay.max(naive(ends, hard + v, ace || v == 1, &d, n - 1, &h))
            };
            sum += f64::from(c) * q;
        }
        sum / f64::from(n)
    }

    #[test]
    fn the_memoized_search_equals_plain_recursion_reshuffles_included() {
        let mut rng = GameRng::new(9, 9, 9);
        let mut cards: Vec<u8> = (0..40).map(|i| (i % 10) as u8 + 1).collect();
        for case in 0..3000u32 {
            rng.shuffle(&mut cards);
            // The strike pile: cards from the top while the hard total stays at most 19.
            let mut held = [0u8; FACES];
            let mut hard = 0u8;
            let mut i = 0;
            while i < 40 && hard + cards[i] <= 19 && (hard < 9 || rng.below(2) == 0) {
                hard += cards[i];
                held[usize::from(cards[i] - 1)] += 1;
                i += 1;
            }
            // The deck: some of the other cards (the rest are in the discard), often few, so
            // that reshuffles happen inside the search.
            let keep = rng.below(if case % 2 == 0 { 4 } else { 40 - i as u64 + 1 }) as usize;
            let deck = count(&cards[i..(i + keep).min(40)]);
            let n = deck.iter().sum::<u8>();
            let mut ends = [0.0; 22];
            for e in &mut ends {
                *e = rng.below(1000) as f64 / 1000.0;
            }
            let reach = reach(&ends);
            let ace = held[0] > 0;
            let want = naive(&ends, hard, ace, &deck, n, &held);
            let mut memo = vec![(0u128, 0.0); MEMO];
            let mut search = Search {
                ends: &ends,
                reach: &reach,
                key: 1 << 127,
                memo: &mut memo,
            };
            let (mut d, mut h) = (deck, held);
            let got = search.push(hard, ace, &mut d, n, &mut h);
            assert!((got - want).abs() < 1e-12, "case {case}: {got} vs {want}");
            assert_eq!((d, h), (deck, held), "the search restores the counts");
            assert!(push_then_bank(&ends, hard, ace, &deck, n, &held) <= want + 1e-12);
            assert!(search.push_at_most(hard, ace, &deck, n, &held) >= want - 1e-12);
        }
    }
}
