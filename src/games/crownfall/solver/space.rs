//! The solver's state space: the unrevealed tower as a count per kind, the current enemy, HP.
//!
//! Under fresh odds a game between strikes is fully described by HP, the current enemy and the
//! multiset of tower cards not yet revealed (their order is unknown to the player and uniformly
//! random). A multiset is numbered in mixed radix over its four counts, so removing a card always
//! lowers the number: solving in increasing number meets every successor first.

use crate::error::{Result, SimError};

use super::super::outcome::Enemy;
use super::super::rules::Rules;

/// The most strike-start states the solver will take on (about 0.4 GB of tables).
pub const MAX_STATES: usize = 1 << 24;

/// Tower multisets, enemies and HP values of one rule set, numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    /// The full tower's count per kind (jack, queen, king, joker).
    pub full: [u8; 4],
    /// The weight of one card of each kind in a multiset's number.
    pub radix: [usize; 4],
    /// Number of multisets (0..=full of each kind).
    pub rests: usize,
    /// HP values 1..=max_hp.
    pub max_hp: u8,
}

impl Space {
    /// The space of `rules`; an error if it is too large to solve.
    pub fn new(rules: &Rules) -> Result<Self> {
        let full = Enemy::ALL.map(|e| rules.tower.count(e));
        let mut radix = [0usize; 4];
        let mut rests = 1usize;
        for (r, &n) in radix.iter_mut().zip(&full) {
            *r = rests;
            rests *= usize::from(n) + 1;
        }
        let space = Self {
            full,
            radix,
            rests,
            max_hp: rules.max_hp,
        };
        if space.states() > MAX_STATES {
            return Err(SimError::input(format!(
                "rules too large to solve: {} states (tower multisets x 4 enemies x max_hp), at most {MAX_STATES}",
                space.states()
            )));
        }
        Ok(space)
    }

    /// Number of (multiset, enemy, HP) states.
    pub fn states(&self) -> usize {
        self.rests * 4 * usize::from(self.max_hp)
    }

    /// The number of the multiset with `counts`.
    pub fn rest(&self, counts: [u8; 4]) -> usize {
        counts
            .iter()
            .zip(&self.radix)
            .map(|(&c, &r)| usize::from(c) * r)
            .sum()
    }

    /// The counts of multiset number `rest`.
    pub fn counts(&self, rest: usize) -> [u8; 4] {
        std::array::from_fn(|k| ((rest / self.radix[k]) % (usize::from(self.full[k]) + 1)) as u8)
    }

    /// The number of the multiset of tower card codes `cards`.
    #[inline]
    pub fn rest_of(&self, cards: &[u8]) -> usize {
        cards.iter().map(|&c| self.radix[usize::from(c & 3)]).sum()
    }

    /// The number of the unrevealed tower with `counts[k]` enemies of kind `k` (a
    /// [`TowerView::unrevealed`](super::super::engine::TowerView::unrevealed)).
    pub fn rest_of_counts(&self, counts: [u8; 4]) -> usize {
        counts
            .iter()
            .zip(&self.radix)
            .map(|(&n, &r)| usize::from(n) * r)
            .sum()
    }

    /// The full tower's number.
    pub fn full_rest(&self) -> usize {
        self.rests - 1
    }

    /// True if `enemy` can be current while `rest` is unrevealed (the tower holds both).
    pub fn fits(&self, rest: usize, enemy: Enemy) -> bool {
        let k = enemy as usize;
        self.counts(rest)[k] < self.full[k]
    }

    /// The index of state (`rest`, `enemy`, `hp` in 1..=max_hp).
    #[inline]
    pub fn state(&self, rest: usize, enemy: Enemy, hp: u8) -> usize {
        (rest * 4 + enemy as usize) * usize::from(self.max_hp) + usize::from(hp) - 1
    }

    /// The index of (`rest`, `hp`): the moment before the next tower card of `rest` is revealed.
    #[inline]
    pub fn between(&self, rest: usize, hp: u8) -> usize {
        rest * usize::from(self.max_hp) + usize::from(hp) - 1
    }

    /// Number of between-enemies indices.
    pub fn betweens(&self) -> usize {
        self.rests * usize::from(self.max_hp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisets_number_one_to_one_and_a_removed_card_lowers_the_number() {
        let space = Space::new(&Rules::default()).unwrap();
        assert_eq!(space.rests, 5 * 5 * 5 * 3);
        for rest in 0..space.rests {
            let c = space.counts(rest);
            assert_eq!(space.rest(c), rest);
            for (k, &n) in c.iter().enumerate() {
                if n > 0 {
                    assert!(rest - space.radix[k] < rest);
                }
            }
        }
        assert_eq!(space.counts(space.full_rest()), [4, 4, 4, 2]);
        assert_eq!(space.rest_of(&[2, 2, 3, 0]), space.rest([1, 0, 2, 1]));
    }

    #[test]
    fn a_tower_too_large_is_refused() {
        let mut rules = Rules::default();
        rules.tower.jacks = 16;
        rules.tower.queens = 16;
        rules.tower.kings = 16;
        rules.tower.jokers = 16;
        rules.max_hp = 99;
        let err = Space::new(&rules).unwrap_err().to_string();
        assert!(err.contains("too large to solve"), "{err}");
    }
}
