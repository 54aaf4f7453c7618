//! A complete Crownfall policy as tables: the strike moves for every (tower left, enemy, HP) and
//! the Joker choice for every (tower left, HP). The solver fills one; it plays as a [`Policy`].

use crate::cards::Shoe;
use crate::error::Result;

use super::super::engine::{DECK_CARDS, DECK_SIZE, DeckView, JokerView, StrikeView, TowerView};
use super::super::outcome::Enemy;
use super::super::policy::{BankTable, Policy};
use super::super::rules::{MAX_TOWER, Rules};
use super::space::Space;
use super::strike::{Moves, TOP};

/// The moves of one strike start state, with the bank table that makes them if there is one
/// (then the engine plays the strike a window of cards at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrikePlan {
    /// Where to bank.
    pub moves: Moves,
    /// The same moves as a bank table, if they fit one.
    pub table: Option<BankTable>,
}

impl StrikePlan {
    /// The plan making `moves`.
    pub fn new(moves: Moves) -> Self {
        Self {
            moves,
            table: moves.table(),
        }
    }
}

/// A policy given by tables over the solver's state space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The states the tables cover.
    pub space: Space,
    /// Strike moves by [`Space::state`] (the Joker slots are unused).
    pub strikes: Vec<StrikePlan>,
    /// Double or nothing after an odd Joker flip, by [`Space::between`] of the tower left
    /// after the Joker and the HP.
    pub gamble: Vec<bool>,
}

impl Plan {
    /// An empty plan (bank nowhere, always accept) over `space`.
    pub fn empty(space: Space) -> Self {
        Self {
            strikes: vec![StrikePlan::default(); space.states()],
            gamble: vec![false; space.betweens()],
            space,
        }
    }

    /// The plan that makes the same moves as `policy` in every state, for a policy that looks
    /// at nothing but the strike totals, HP, the enemy and the tower (not the player deck).
    pub fn from_policy<P: Policy>(rules: &Rules, policy: &P) -> Result<Self> {
        let mut plan = Self::empty(Space::new(rules)?);
        let space = plan.space.clone();
        let deck_cards: Vec<u8> = (0..DECK_CARDS).map(|i| (i % 10) as u8 + 1).collect();
        let deck = Shoe::<DECK_SIZE>::new(&deck_cards);
        for rest in 0..space.rests {
            let counts = space.counts(rest);
            let mut left: Vec<u8> = Vec::new();
            for (code, &n) in counts.iter().enumerate() {
                left.extend(std::iter::repeat_n(code as u8, usize::from(n)));
            }
            for enemy in Enemy::ALL {
                if !space.fits(rest, enemy) {
                    continue;
                }
                let mut cards = vec![enemy as u8];
                cards.extend_from_slice(&left);
                let tower = Shoe::<MAX_TOWER>::new(&cards);
                for hp in 1..=space.max_hp {
                    if enemy == Enemy::Joker {
                        let view = JokerView {
                            hp,
                            deck: DeckView::of(&deck),
                            tower: TowerView::of(&tower),
                        };
                        plan.gamble[space.between(rest, hp)] =
                            policy.double_or_nothing(rules, &view);
                        continue;
                    }
                    let view = |hard: u8, best: u8| StrikeView {
                        enemy,
                        target: rules.target.of(enemy),
                        hard,
                        best,
                        hp,
                        deck: DeckView::of(&deck),
                        tower: TowerView::of(&tower),
                    };
                    let moves = match policy.strike_table(rules, &view(0, 0)) {
                        Some(t) => Moves::of_table(&t),
                        None => {
                            let mut m = Moves::default();
                            for s in 2..=TOP {
                                m.hard |= u32::from(policy.bank(rules, &view(s, s))) << s;
                            }
                            for s in 11..=TOP {
                                m.soft |= u32::from(policy.bank(rules, &view(s - 10, s))) << s;
                            }
                            m
                        }
                    };
                    plan.strikes[space.state(rest, enemy, hp)] = StrikePlan::new(moves);
                }
            }
        }
        Ok(plan)
    }

    /// The plan for a strike whose tower (current enemy first) is `tower`.
    #[inline(always)]
    fn strike(&self, view: &StrikeView) -> &StrikePlan {
        let rest = self.space.rest_of_counts(view.tower.unrevealed());
        &self.strikes[self.space.state(rest, view.enemy, view.hp)]
    }
}

impl Policy for Plan {
    #[inline]
    fn strike_table(&self, _: &Rules, view: &StrikeView) -> Option<BankTable> {
        self.strike(view).table
    }

    #[inline]
    fn bank(&self, _: &Rules, view: &StrikeView) -> bool {
        self.strike(view).moves.bank(view.best, view.soft())
    }

    #[inline]
    fn double_or_nothing(&self, _: &Rules, view: &JokerView) -> bool {
        let rest = self.space.rest_of_counts(view.tower.unrevealed());
        self.gamble[self.space.between(rest, view.hp)]
    }
}
