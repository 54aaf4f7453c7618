//! The Crownfall engine: a pure, allocation-free function of (rules, policy, card sources).

use crate::cards::{Dealer, Shoe};

use super::outcome::{Enemy, Outcome};
use super::policy::Policy;
use super::rules::{MAX_TOWER, Rules};

/// Cards in the player deck: Ace (1) to 10 of four suits.
pub const DECK_SIZE: usize = 40;

/// The chance streams of a game: each source of randomness draws from its own generator.
pub struct Streams;

impl Streams {
    /// The order of the enemy tower.
    pub const TOWER: u64 = 0;
    /// The player deck and its reshuffles.
    pub const PLAYER_DECK: u64 = 1;
}

/// What the player knows when choosing to push or bank during a strike.
pub struct StrikeView<'a> {
    /// The enemy being fought.
    pub enemy: Enemy,
    /// Its target.
    pub target: u8,
    /// The strike total counting every Ace as 1.
    pub hard: u8,
    /// The strike total counting one Ace as 11 where that stays at or under 21.
    pub best: u8,
    /// Player HP.
    pub hp: u8,
    /// The player deck, strike pile and discard: their contents are known to a card counter.
    pub deck: &'a Shoe<DECK_SIZE>,
    /// The tower: the unrevealed cards (`deck_cards`) are known as a multiset, not in order.
    pub tower: &'a Shoe<MAX_TOWER>,
}

impl StrikeView<'_> {
    /// True if `best` counts an Ace as 11.
    #[inline]
    pub fn soft(&self) -> bool {
        self.best != self.hard
    }
}

/// What the player knows when a Joker's first flip is odd.
pub struct JokerView<'a> {
    /// Player HP.
    pub hp: u8,
    /// The player deck and discard (the odd card is already in the discard).
    pub deck: &'a Shoe<DECK_SIZE>,
    /// The tower.
    pub tower: &'a Shoe<MAX_TOWER>,
}

/// How a fight with one tower card ended.
enum Fate {
    Cleared,
    Dead,
    Stalemate,
}

/// A game in progress: the tower, the player deck, HP and the running report.
#[derive(Clone, Debug)]
pub struct Engine {
    tower: Shoe<MAX_TOWER>,
    deck: Shoe<DECK_SIZE>,
    hp: i16,
    out: Outcome,
}

impl Engine {
    /// A fresh game under `rules`: full tower and player deck, in random order when dealt by a
    /// generator.
    pub fn new(rules: &Rules) -> Self {
        let mut tower = [0u8; MAX_TOWER];
        let mut n = 0;
        for kind in Enemy::ALL {
            for _ in 0..rules.tower.count(kind) {
                tower[n] = kind as u8;
                n += 1;
            }
        }
        let mut deck = [0u8; DECK_SIZE];
        for (i, card) in deck.iter_mut().enumerate() {
            *card = (i % 10) as u8 + 1;
        }
        Self::from_shoes(rules, Shoe::new(&tower[..n]), Shoe::new(&deck))
    }

    /// A game whose tower and player deck come in exactly the given orders when dealt by
    /// [`crate::cards::Stacked`]; a reshuffle deals the discard in the order it was discarded.
    pub fn stacked(rules: &Rules, tower: &[Enemy], deck: &[u8]) -> Self {
        let codes: Vec<u8> = tower.iter().map(|&e| e as u8).collect();
        Self::from_shoes(rules, Shoe::stacked(&codes), Shoe::stacked(deck))
    }

    fn from_shoes(rules: &Rules, tower: Shoe<MAX_TOWER>, deck: Shoe<DECK_SIZE>) -> Self {
        Self {
            tower,
            deck,
            hp: i16::from(rules.start_hp),
            out: Outcome::default(),
        }
    }

    /// Plays the game to its end and reports it.
    pub fn play<P, T, D>(
        mut self,
        rules: &Rules,
        policy: &P,
        tower: &mut T,
        deck: &mut D,
    ) -> Outcome
    where
        P: Policy,
        T: Dealer,
        D: Dealer,
    {
        loop {
            let Some(code) = tower.draw(&mut self.tower) else {
                self.out.win = true;
                break;
            };
            self.tower.release_held();
            let enemy = Enemy::from_code(code);
            let fate = if enemy == Enemy::Joker {
                self.joker(rules, policy, deck)
            } else {
                self.fight(rules, enemy, policy, deck)
            };
            match fate {
                Fate::Cleared => self.out.cleared += 1,
                Fate::Dead | Fate::Stalemate => break,
            }
        }
        self.out.final_hp = self.hp.max(0) as u8;
        self.out
    }

    /// Flips one player card onto the held pile, reshuffling the discard into an empty deck.
    #[inline]
    fn flip<D: Dealer>(&mut self, dealer: &mut D) -> u8 {
        self.out.cards_drawn += 1;
        if let Some(card) = dealer.draw(&mut self.deck) {
            return card;
        }
        self.deck.reshuffle_discard();
        self.out.reshuffles += 1;
        dealer
            .draw(&mut self.deck)
            .expect("the discard refills the deck: a strike holds at most 12 of 40 cards")
    }

    /// Takes `amount` damage from `enemy`; false if that kills.
    #[inline]
    fn hurt(&mut self, enemy: Enemy, amount: u8) -> bool {
        self.hp -= i16::from(amount);
        self.out.damage[enemy as usize] += u16::from(amount);
        if self.hp <= 0 {
            self.out.killer_code = enemy as u8 + 1;
            return false;
        }
        true
    }

    fn joker<P: Policy, D: Dealer>(&mut self, rules: &Rules, policy: &P, dealer: &mut D) -> Fate {
        let first = self.flip(dealer);
        self.deck.release_held();
        if first % 2 == 0 {
            return Fate::Cleared;
        }
        let view = JokerView {
            hp: self.hp as u8,
            deck: &self.deck,
            tower: &self.tower,
        };
        let damage = if policy.double_or_nothing(rules, &view) {
            let second = self.flip(dealer);
            self.deck.release_held();
            if second % 2 == 0 {
                0
            } else {
                rules.crushing_damage
            }
        } else {
            rules.joker_damage
        };
        if self.hurt(Enemy::Joker, damage) {
            Fate::Cleared
        } else {
            Fate::Dead
        }
    }

    fn fight<P: Policy, D: Dealer>(
        &mut self,
        rules: &Rules,
        enemy: Enemy,
        policy: &P,
        dealer: &mut D,
    ) -> Fate {
        let target = rules.target.of(enemy);
        loop {
            if self.out.strikes >= rules.max_strikes {
                return Fate::Stalemate;
            }
            self.out.strikes += 1;
            let damage = match self.strike(rules, enemy, target, policy, dealer) {
                Some(total) if total >= target => {
                    if total == 21 {
                        self.out.perfect_21s += 1;
                        let healed = self.hp + i16::from(rules.heal.of(enemy));
                        self.hp = healed.min(i16::from(rules.max_hp));
                    }
                    return Fate::Cleared;
                }
                Some(total) if target - total <= rules.guard_zone => rules.guard_damage.of(enemy),
                _ => rules.damage.of(enemy),
            };
            if !self.hurt(enemy, damage) {
                return Fate::Dead;
            }
        }
    }

    /// One strike: flips until the policy banks (returns the banked total) or the hard total
    /// passes 21 (returns `None`). The strike pile goes to the discard either way.
    #[inline]
    fn strike<P: Policy, D: Dealer>(
        &mut self,
        rules: &Rules,
        enemy: Enemy,
        target: u8,
        policy: &P,
        dealer: &mut D,
    ) -> Option<u8> {
        let mut hard = 0u8;
        let mut ace = false;
        let banked = loop {
            let card = self.flip(dealer);
            hard += card;
            ace |= card == 1;
            if hard >= 22 {
                break None;
            }
            let best = if ace && hard <= 11 { hard + 10 } else { hard };
            let view = StrikeView {
                enemy,
                target,
                hard,
                best,
                hp: self.hp as u8,
                deck: &self.deck,
                tower: &self.tower,
            };
            if policy.bank(rules, &view) {
                break Some(best);
            }
        };
        self.deck.release_held();
        banked
    }
}
