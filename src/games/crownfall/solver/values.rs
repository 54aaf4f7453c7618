//! The win probability of each choice at a decision, from the solved game: what `sim play
//! --hints` shows beside `optimal` and `expectimax`, and the exact value of a state that
//! `sim evaluate` measures a game's tension with.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::games::crownfall::engine::{JokerView, StrikeView};
use crate::games::crownfall::rules::Rules;

use super::Solution;

/// The win probabilities of a decision's choices under best play: the solved game's values at
/// the end of a strike (fresh odds: every flip Ace..10 alike), reached from the decision by an
/// exact recursion over the next cards, drawn from the real deck (`counted`, as `expectimax`
/// plays) or under fresh odds (as `optimal` plays).
pub struct Values {
    solution: Arc<Solution>,
    /// True to count the real deck (expectimax on a finite deck).
    counted: bool,
}

impl Values {
    /// The values of `solution`; `counted` to count the real deck through the current strike
    /// (expectimax's view on a finite deck), else fresh odds (optimal's).
    pub fn new(solution: Arc<Solution>, counted: bool) -> Self {
        Self { solution, counted }
    }

    /// The win probability of banking and of pushing (then playing best) at `view`.
    pub fn strike(&self, view: &StrikeView) -> (f64, f64) {
        let space = self.solution.space();
        let rest = space.rest_of_counts(view.tower.unrevealed());
        let ends = self.solution.end_values(rest, view.enemy, view.hp);
        let mut search = PushSearch {
            ends,
            counted: self.counted,
            memo: HashMap::new(),
        };
        let deck = view.deck.counts();
        let mut held = [0u8; 11];
        for &v in view.deck.held() {
            held[usize::from(v)] += 1;
        }
        let ace = view.soft();
        (
            ends[usize::from(view.best)],
            search.push(deck, held, view.hard, ace),
        )
    }

    /// The win probability of accepting and of double or nothing at `view`.
    pub fn joker(&self, rules: &Rules, view: &JokerView) -> (f64, f64) {
        let rest = self
            .solution
            .space()
            .rest_of_counts(view.tower.unrevealed());
        let p_even = if self.counted && !view.deck.is_empty() {
            let even: u8 = view.deck.counts().iter().skip(2).step_by(2).sum();
            f64::from(even) / view.deck.len() as f64
        } else {
            0.5
        };
        let hp = i16::from(view.hp);
        let at = |h: i16| self.solution.between_value(rest, h);
        (
            at(hp - i16::from(rules.joker_damage)),
            p_even * at(hp) + (1.0 - p_even) * at(hp - i16::from(rules.crushing_damage)),
        )
    }
}

/// The exact value of pushing, by recursion over the next cards: from the real deck (drawn
/// without replacement, the discard coming back when it runs out) or under fresh odds.
struct PushSearch {
    /// What each end of the strike is worth: index 0 a bust, s a bank at best total s.
    ends: [f64; 22],
    counted: bool,
    memo: HashMap<([u8; 11], u8, bool), f64>,
}

impl PushSearch {
    fn node(&mut self, deck: [u8; 11], held: [u8; 11], hard: u8, ace: bool) -> f64 {
        let (best, _) = super::strike::best(hard, ace);
        let stay = self.ends[usize::from(best)];
        stay.max(self.push(deck, held, hard, ace))
    }

    fn push(&mut self, mut deck: [u8; 11], held: [u8; 11], hard: u8, ace: bool) -> f64 {
        if !self.counted {
            deck = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
        } else if deck.iter().all(|&n| n == 0) {
            // Every card not on the strike pile comes back.
            for v in 1..=10 {
                deck[v] = 4 - held[v];
            }
        }
        let key = (deck, hard, ace);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let n: u32 = deck.iter().map(|&k| u32::from(k)).sum();
        let mut sum = 0.0;
        for v in 1..=10u8 {
            let k = deck[usize::from(v)];
            if k == 0 {
                continue;
            }
            let value = if hard + v > 21 {
                self.ends[0]
            } else {
                let (mut next, mut pile) = (deck, held);
                next[usize::from(v)] -= 1;
                pile[usize::from(v)] += 1;
                self.node(next, pile, hard + v, ace || v == 1)
            };
            sum += f64::from(k) * value;
        }
        let value = sum / f64::from(n);
        self.memo.insert(key, value);
        value
    }
}

impl fmt::Debug for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Values")
            .field("counted", &self.counted)
            .finish_non_exhaustive()
    }
}
