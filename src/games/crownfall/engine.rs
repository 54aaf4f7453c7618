//! The Crownfall engine: a pure, allocation-free function of (rules, policy, card sources).

use crate::cards::{Dealer, Shoe};

use super::outcome::{Enemy, Outcome};
use super::policy::{BankTable, Policy};
use super::rules::{MAX_TOWER, Rules};
use super::strike;

/// Cards in the player deck: Ace (1) to 10 of four suits.
pub const DECK_CARDS: usize = 40;
/// The player deck's array: the 40 cards and room to read a whole window past the top at any
/// position.
pub const DECK_SIZE: usize = DECK_CARDS + strike::WINDOW;

/// The chance streams of a game: each source of randomness draws from its own generator.
pub struct Streams;

impl Streams {
    /// The order of the enemy tower.
    pub const TOWER: u64 = 0;
    /// The player deck and its reshuffles.
    pub const PLAYER_DECK: u64 = 1;
}

/// What the player knows when choosing to push or bank during a strike (at its start, with both
/// totals 0, when asked for a whole strike's table).
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
    /// The tower: its deck holds the current enemy first, then the unrevealed cards (known to
    /// the player as a multiset, not in order).
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
    /// The tower: its deck holds this Joker first, then the unrevealed cards.
    pub tower: &'a Shoe<MAX_TOWER>,
}

/// A royal's numbers by enemy code, for lookups without branches.
struct ByKind {
    target: [u8; 3],
    heal: [u8; 3],
    /// Damage by how a strike ended: full (bust or short), guarded, defeated.
    damage: [[u8; 4]; 3],
}

impl ByKind {
    fn new(rules: &Rules) -> Self {
        let royals = [Enemy::Jack, Enemy::Queen, Enemy::King];
        Self {
            target: royals.map(|e| rules.target.of(e)),
            heal: royals.map(|e| rules.heal.of(e)),
            damage: royals.map(|e| [rules.damage.of(e), rules.guard_damage.of(e), 0, 0]),
        }
    }
}

/// A game in progress: the tower and the player deck. HP and the running report live in the
/// play loop's local variables, where the compiler keeps them in registers.
#[derive(Clone, Debug)]
pub struct Engine {
    tower: Shoe<MAX_TOWER>,
    deck: Shoe<DECK_SIZE>,
    /// HP at the start.
    hp: i16,
    /// Cards drawn from earlier decks: with the cards out of the current deck, all cards drawn.
    earlier_draws: u16,
    reshuffles: u16,
}

/// A game's running figures, other than what the tower and the deck record themselves.
struct Running {
    hp: i16,
    strikes: u16,
    perfect_21s: u8,
    damage: [u16; 4],
}

impl Running {
    /// Takes `amount` damage from `enemy`; false if that kills.
    #[inline(always)]
    fn hurt(&mut self, enemy: Enemy, amount: u8) -> bool {
        self.hp -= i16::from(amount);
        self.damage[enemy as usize] += u16::from(amount);
        self.hp > 0
    }
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
        let mut deck = [0u8; DECK_CARDS];
        for (i, card) in deck.iter_mut().enumerate() {
            *card = (i % 10) as u8 + 1;
        }
        Self::from_shoes(rules, Shoe::new(&tower[..n]), Shoe::new(&deck))
    }

    /// A game whose tower and player deck come in exactly the given orders when dealt by
    /// [`crate::cards::Stacked`]; an unshuffled reshuffle deals the discard in the order it was
    /// discarded.
    pub fn stacked(rules: &Rules, tower: &[Enemy], deck: &[u8]) -> Self {
        let codes: Vec<u8> = tower.iter().map(|&e| e as u8).collect();
        Self::from_shoes(rules, Shoe::new(&codes), Shoe::new(deck))
    }

    fn from_shoes(rules: &Rules, tower: Shoe<MAX_TOWER>, deck: Shoe<DECK_SIZE>) -> Self {
        Self {
            tower,
            deck,
            hp: i16::from(rules.start_hp),
            earlier_draws: 0,
            reshuffles: 0,
        }
    }

    /// Shuffles the tower with `tower` and the player deck with `deck`, then plays the game to
    /// its end and reports it.
    ///
    /// The loop runs strike by strike with the current enemy on top of the tower, and the result
    /// of each strike moves the game on by arithmetic rather than by branches: a strike's result
    /// is random, so a branch on it would mispredict often, and mispredictions are most of the
    /// cost of a game.
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
        tower.shuffle(self.tower.deck_cards_mut());
        deck.shuffle(self.deck.deck_cards_mut());
        let by_kind = ByKind::new(rules);
        let max_hp = i16::from(rules.max_hp);
        let mut run = Running {
            hp: self.hp,
            strikes: 0,
            perfect_21s: 0,
            damage: [0; 4],
        };
        let mut killer = None;
        let win = loop {
            let Some(&code) = self.tower.deck_cards().first() else {
                break true;
            };
            let enemy = Enemy::from_code(code);
            if enemy == Enemy::Joker {
                if !self.joker(rules, policy, deck, &mut run) {
                    killer = Some(enemy);
                    break false;
                }
                self.clear_enemy(1);
                continue;
            }
            if run.strikes >= rules.max_strikes {
                break false;
            }
            run.strikes += 1;
            let kind = usize::from(code);
            let target = by_kind.target[kind];
            let banked = self.strike(rules, enemy, target, policy, deck, run.hp);
            let defeated = banked >= target;
            let guarded = banked > 0 && banked + rules.guard_zone >= target;
            let perfect = defeated & (banked == 21);
            run.perfect_21s += u8::from(perfect);
            run.hp = (run.hp + i16::from(by_kind.heal[kind]) * i16::from(perfect)).min(max_hp);
            let damage = by_kind.damage[kind][usize::from(guarded) + 2 * usize::from(defeated)];
            if !run.hurt(enemy, damage) {
                killer = Some(enemy);
                break false;
            }
            self.clear_enemy(u8::from(defeated));
        };
        Outcome {
            win,
            final_hp: run.hp.max(0) as u8,
            cleared: self.tower.dealt() as u8,
            strikes: run.strikes,
            cards_drawn: self.earlier_draws + self.deck.dealt() as u16,
            reshuffles: self.reshuffles,
            perfect_21s: run.perfect_21s,
            damage: run.damage,
            killer_code: killer.map_or(0, |k| k as u8 + 1),
        }
    }

    /// Moves `n` (0 or 1) enemies from the top of the tower to the cleared pile.
    #[inline(always)]
    fn clear_enemy(&mut self, n: u8) {
        self.tower.draw_many(n);
        self.tower.release_held();
    }

    /// Flips one player card onto the held pile, reshuffling the discard into an empty deck.
    #[inline(always)]
    fn flip<D: Dealer>(&mut self, dealer: &mut D) -> u8 {
        if self.deck.deck_len() == 0 {
            self.refill(dealer);
        }
        self.deck
            .draw()
            .expect("the discard refills the deck: a strike holds at most 12 of 40 cards")
    }

    /// Shuffles the discard into the empty deck; the strike pile stays out.
    #[cold]
    #[inline(never)]
    fn refill<D: Dealer>(&mut self, dealer: &mut D) {
        let dealt = self.deck.dealt();
        self.deck.reshuffle_discard();
        self.earlier_draws += (dealt - self.deck.dealt()) as u16;
        dealer.shuffle(self.deck.deck_cards_mut());
        self.reshuffles += 1;
    }

    /// Resolves a Joker; false if it kills.
    fn joker<P: Policy, D: Dealer>(
        &mut self,
        rules: &Rules,
        policy: &P,
        dealer: &mut D,
        run: &mut Running,
    ) -> bool {
        let first = self.flip(dealer);
        self.deck.release_held();
        if first.is_multiple_of(2) {
            return true;
        }
        let view = JokerView {
            hp: run.hp as u8,
            deck: &self.deck,
            tower: &self.tower,
        };
        let damage = if policy.double_or_nothing(rules, &view) {
            let second = self.flip(dealer);
            self.deck.release_held();
            if second.is_multiple_of(2) {
                0
            } else {
                rules.crushing_damage
            }
        } else {
            rules.joker_damage
        };
        run.hurt(Enemy::Joker, damage)
    }

    fn view(&self, enemy: Enemy, target: u8, hard: u8, best: u8, hp: i16) -> StrikeView<'_> {
        StrikeView {
            enemy,
            target,
            hard,
            best,
            hp: hp as u8,
            deck: &self.deck,
            tower: &self.tower,
        }
    }

    /// One strike: flips until the policy banks (returns the banked total) or the hard total
    /// passes 21 (returns 0). The strike pile goes to the discard either way.
    #[inline]
    fn strike<P: Policy, D: Dealer>(
        &mut self,
        rules: &Rules,
        enemy: Enemy,
        target: u8,
        policy: &P,
        dealer: &mut D,
        hp: i16,
    ) -> u8 {
        let banked = match policy.strike_table(rules, &self.view(enemy, target, 0, 0, hp)) {
            Some(table) => self.table_strike(&table, dealer),
            None => self.stepped_strike(enemy, target, dealer, hp, |view| policy.bank(rules, view)),
        };
        self.deck.release_held();
        banked
    }

    /// A strike decided by `table` a window of cards at a time (see [`strike`]), reshuffling as
    /// needed. Returns the banked total, 0 for a bust.
    #[inline(always)]
    fn table_strike<D: Dealer>(&mut self, table: &BankTable, dealer: &mut D) -> u8 {
        let mut carry = strike::Carry {
            hard: 0,
            ace: false,
        };
        loop {
            if self.deck.deck_len() == 0 {
                self.refill(dealer);
            }
            let valid = self.deck.deck_len().min(strike::WINDOW);
            let window = self
                .deck
                .window::<{ strike::WINDOW }>()
                .expect("the deck array has a window's room past its cards");
            match strike::resolve(window, valid, table, carry) {
                Ok(end) => {
                    self.deck.draw_many(end.cards);
                    return end.banked;
                }
                Err(more) => {
                    self.deck.draw_many(valid as u8);
                    carry = more;
                }
            }
        }
    }

    /// A strike card by card, asking `bank` after each flip; reshuffles as needed. Returns the
    /// banked total, 0 for a bust.
    #[inline]
    fn stepped_strike<D: Dealer>(
        &mut self,
        enemy: Enemy,
        target: u8,
        dealer: &mut D,
        hp: i16,
        bank: impl Fn(&StrikeView) -> bool,
    ) -> u8 {
        let mut hard = 0u8;
        let mut ace = false;
        loop {
            let card = self.flip(dealer);
            hard += card;
            ace |= card == 1;
            if hard >= 22 {
                return 0;
            }
            let best = hard + 10 * u8::from(ace & (hard <= 11));
            if bank(&self.view(enemy, target, hard, best, hp)) {
                return best;
            }
        }
    }
}
