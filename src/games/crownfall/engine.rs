//! The Crownfall engine: a pure, allocation-free function of (rules, policy, card sources).

use crate::cards::{Dealer, Shoe};
use crate::games::observe::{Cards, Observer, Unobserved};

use super::events::{Event, Seen, State};
use super::outcome::{Enemy, Outcome};
use super::policy::{BankTable, Policy};
use super::rules::{MAX_TOWER, Rules};
use super::scoring::Scoring;
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
    /// The player deck as a card counter knows it.
    pub deck: DeckView<'a>,
    /// The tower as the player knows it.
    pub tower: TowerView<'a>,
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
    /// The player deck (the odd card is already in the discard).
    pub deck: DeckView<'a>,
    /// The tower: this Joker is its current card.
    pub tower: TowerView<'a>,
}

/// The player deck as a player may know it: how many cards of each value are still in it (a card
/// counter's knowledge, never their order) and the strike pile, face up. Its type offers nothing
/// more, so a policy cannot read the order.
#[derive(Clone, Copy)]
pub struct DeckView<'a>(&'a Shoe<DECK_SIZE>);

impl<'a> DeckView<'a> {
    /// The view of `deck` (its order stays out of reach).
    pub fn of(deck: &'a Shoe<DECK_SIZE>) -> Self {
        Self(deck)
    }

    /// Cards left in the deck.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.deck_len()
    }

    /// True if the deck is empty (the next flip reshuffles the discard).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.deck_len() == 0
    }

    /// The cards left in the deck by value: `counts()[v]` cards of value `v` (1 for an Ace).
    pub fn counts(&self) -> [u8; 11] {
        let mut counts = [0u8; 11];
        for &v in self.0.deck_cards() {
            counts[usize::from(v)] += 1;
        }
        counts
    }

    /// The discard pile by value (face up since each card was flipped).
    pub fn discarded(&self) -> [u8; 11] {
        let mut counts = [0u8; 11];
        for &v in self.0.discard_cards() {
            counts[usize::from(v)] += 1;
        }
        counts
    }

    /// The strike pile: the cards flipped in this strike, face up, in order.
    #[inline]
    pub fn held(&self) -> &[u8] {
        self.0.held_cards()
    }
}

/// The tower as the player knows it: the current enemy (face up) and how many of each kind are
/// still face down under it, never their order.
#[derive(Clone, Copy)]
pub struct TowerView<'a>(&'a Shoe<MAX_TOWER>);

impl<'a> TowerView<'a> {
    /// The view of `tower`, current enemy first (its order stays out of reach).
    pub fn of(tower: &'a Shoe<MAX_TOWER>) -> Self {
        Self(tower)
    }

    /// The enemies still face down under the current one, by kind (`Enemy as usize`).
    pub fn unrevealed(&self) -> [u8; 4] {
        let mut counts = [0u8; 4];
        for &code in self.0.deck_cards().get(1..).unwrap_or(&[]) {
            counts[usize::from(code & 3)] += 1;
        }
        counts
    }

    /// How many enemies are still face down under the current one.
    #[inline]
    pub fn unrevealed_len(&self) -> usize {
        self.0.deck_len().saturating_sub(1)
    }
}

/// A game ready to play: the tower and the player deck in their starting order, and the rules'
/// lookups. [`Engine::play`] plays a copy of the cards, so one engine plays any number of games.
#[derive(Clone, Debug)]
pub struct Engine {
    cards: Board,
    scoring: Scoring,
}

/// The cards of a game in progress, with the deck's running counts (the rest of the game's
/// running figures are in [`Running`]).
#[derive(Clone, Debug)]
pub(super) struct Board {
    pub(super) tower: Shoe<MAX_TOWER>,
    pub(super) deck: Shoe<DECK_SIZE>,
    /// Cards drawn from earlier decks: with the cards out of the current deck, all cards drawn.
    earlier_draws: u16,
    reshuffles: u16,
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
            cards: Board {
                tower,
                deck,
                earlier_draws: 0,
                reshuffles: 0,
            },
            scoring: Scoring::new(rules),
        }
    }

    /// Shuffles a copy of the tower with `tower` and of the player deck with `deck`, then plays
    /// the game to its end under `rules` (those the engine was made for) and reports it.
    ///
    /// The game goes strike by strike with the current enemy on top of the tower, and the result
    /// of each strike moves it on by table lookups and arithmetic rather than by branches: a
    /// strike's result is random, so a branch on it would mispredict often, and mispredictions
    /// are most of the cost of a game.
    pub fn play<P, T, D>(&self, rules: &Rules, policy: &P, tower: &mut T, deck: &mut D) -> Outcome
    where
        P: Policy,
        T: Dealer,
        D: Dealer,
    {
        self.play_observed(rules, policy, tower, deck, &mut Unobserved)
    }

    /// [`Engine::play`], reporting every event to `obs`. An observer that is on sees every card:
    /// strikes are then played card by card and Jokers flip by flip, with the same results.
    pub fn play_observed<P, T, D, O>(
        &self,
        rules: &Rules,
        policy: &P,
        tower: &mut T,
        deck: &mut D,
        obs: &mut O,
    ) -> Outcome
    where
        P: Policy,
        T: Dealer,
        D: Dealer,
        O: Observer<Seen>,
    {
        let mut game = self.start(rules, tower, deck, obs);
        while self.step(&mut game, rules, policy, deck, obs) {}
        game.outcome()
    }

    /// Plays two games as [`Engine::play`] does, one tower card of each in turn while both go
    /// on: the two games share no data, so the processor overlaps their work (a single game is
    /// mostly one chain of dependent steps, each strike waiting for the one before).
    pub fn play_two<P, T, D>(
        &self,
        rules: &Rules,
        policy: &P,
        towers: [&mut T; 2],
        decks: [&mut D; 2],
    ) -> [Outcome; 2]
    where
        P: Policy,
        T: Dealer,
        D: Dealer,
    {
        let [tower_a, tower_b] = towers;
        let [deck_a, deck_b] = decks;
        let obs = &mut Unobserved;
        let mut a = self.start(rules, tower_a, deck_a, obs);
        let mut b = self.start(rules, tower_b, deck_b, obs);
        loop {
            let a_on = self.step(&mut a, rules, policy, deck_a, obs);
            let b_on = self.step(&mut b, rules, policy, deck_b, obs);
            if !a_on {
                if b_on {
                    while self.step(&mut b, rules, policy, deck_b, obs) {}
                }
                break;
            }
            if !b_on {
                while self.step(&mut a, rules, policy, deck_a, obs) {}
                break;
            }
        }
        [a.outcome(), b.outcome()]
    }

    /// A game at its start: a copy of the cards, shuffled.
    #[inline(always)]
    pub(super) fn start<T: Dealer, D: Dealer, O: Observer<Seen>>(
        &self,
        rules: &Rules,
        tower: &mut T,
        deck: &mut D,
        obs: &mut O,
    ) -> Running {
        let mut board = self.cards.clone();
        tower.shuffle(board.tower.deck_cards_mut());
        deck.shuffle(board.deck.deck_cards_mut());
        obs.see(|| {
            let event = Event::Deal {
                tower: Cards::of(board.tower.deck_cards()),
                deck: Cards::of(board.deck.deck_cards()),
            };
            board.seen(event, rules.start_hp.into())
        });
        Running {
            board,
            hp: i16::from(rules.start_hp),
            strikes: 0,
            perfect_21s: 0,
            damage: [0; 4],
            won: false,
            killer_code: 0,
        }
    }

    /// Plays the top card of the tower: a strike against a royal, or a Joker. False once the game
    /// is over (and then not to be called again).
    #[inline(always)]
    pub(super) fn step<P: Policy, D: Dealer, O: Observer<Seen>>(
        &self,
        game: &mut Running,
        rules: &Rules,
        policy: &P,
        deck: &mut D,
        obs: &mut O,
    ) -> bool {
        let code = match game.next_enemy(rules, obs) {
            Next::Over => return false,
            Next::Joker(code) => {
                let hurt = game.board.joker(rules, policy, deck, game.hp, obs);
                return game.end_joker(code, hurt, obs);
            }
            Next::Royal(code) => code,
        };
        let enemy = Enemy::from_code(code);
        let target = self.scoring.target(code);
        game.begin_strike(enemy, target, obs);
        let total = game
            .board
            .strike(rules, enemy, target, policy, deck, game.hp, obs);
        game.end_strike(rules, &self.scoring, code, total, obs)
    }

    /// The royals' targets and each strike total's effect.
    pub(super) fn scoring(&self) -> &Scoring {
        &self.scoring
    }
}

/// What the top of the tower holds next.
pub(super) enum Next {
    /// Nothing more: the game is over (won, or out of strikes).
    Over,
    /// A Joker (its code), announced.
    Joker(u8),
    /// A royal to strike (its code).
    Royal(u8),
}

/// A game under way: its cards and its running figures.
#[derive(Clone, Debug)]
pub(super) struct Running {
    pub(super) board: Board,
    pub(super) hp: i16,
    strikes: u16,
    perfect_21s: u8,
    damage: [u16; 4],
    /// Set when the tower is cleared.
    won: bool,
    /// On a loss to damage, the code of the last blow's enemy plus one.
    killer_code: u8,
}

impl Running {
    /// What comes next from the top of the tower: the game's end (the tower cleared, which wins,
    /// or the strikes used up), a Joker (announced), or a royal.
    #[inline(always)]
    pub(super) fn next_enemy<O: Observer<Seen>>(&mut self, rules: &Rules, obs: &mut O) -> Next {
        let Some(code) = self.board.tower.top_card() else {
            self.won = true;
            return Next::Over;
        };
        if Enemy::from_code(code) == Enemy::Joker {
            obs.see(|| self.board.seen(Event::Joker, self.hp));
            return Next::Joker(code);
        }
        if self.strikes >= rules.max_strikes {
            return Next::Over;
        }
        Next::Royal(code)
    }

    /// Counts and announces a strike against `enemy` of `target`.
    #[inline(always)]
    pub(super) fn begin_strike<O: Observer<Seen>>(
        &mut self,
        enemy: Enemy,
        target: u8,
        obs: &mut O,
    ) {
        self.strikes += 1;
        obs.see(|| self.board.seen(Event::Strike { enemy, target }, self.hp));
    }

    /// The Joker `code` dealt `hurt`: false if that ended the game.
    #[inline(always)]
    pub(super) fn end_joker<O: Observer<Seen>>(&mut self, code: u8, hurt: u8, obs: &mut O) -> bool {
        self.hp -= i16::from(hurt);
        self.damage[Enemy::Joker as usize] += u16::from(hurt);
        let end = Event::JokerEnd { damage: hurt };
        if self.hp <= 0 {
            obs.see(|| self.board.seen(end, self.hp));
            self.killer_code = code + 1;
            return false;
        }
        self.board.clear_enemy(1);
        obs.see(|| self.board.seen(end, self.hp));
        true
    }

    /// The strike against royal `code` ended at `total` (its pile already released): its effect
    /// applied, false if that ended the game.
    #[inline(always)]
    pub(super) fn end_strike<O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        scoring: &Scoring,
        code: u8,
        total: u8,
        obs: &mut O,
    ) -> bool {
        let effect = scoring.effect(code, total);
        self.perfect_21s += effect.perfect;
        self.hp = (self.hp + i16::from(effect.heal)).min(i16::from(rules.max_hp))
            - i16::from(effect.damage);
        self.damage[usize::from(code & 3)] += u16::from(effect.damage);
        let end = Event::StrikeEnd {
            total,
            damage: effect.damage,
            heal: effect.heal,
            defeated: effect.defeated == 1,
        };
        if self.hp <= 0 {
            obs.see(|| self.board.seen(end, self.hp));
            self.killer_code = code + 1;
            return false;
        }
        self.board.clear_enemy(effect.defeated);
        obs.see(|| self.board.seen(end, self.hp));
        true
    }

    /// The report of the game, once over.
    #[inline(always)]
    pub(super) fn outcome(&self) -> Outcome {
        Outcome {
            win: self.won,
            final_hp: self.hp.max(0) as u8,
            cleared: self.board.tower.dealt() as u8,
            strikes: self.strikes,
            cards_drawn: self.board.earlier_draws + self.board.deck.dealt() as u16,
            reshuffles: self.board.reshuffles,
            perfect_21s: self.perfect_21s,
            damage: self.damage,
            killer_code: self.killer_code,
        }
    }
}

impl Board {
    /// `event` with the state after it, at `hp`.
    pub(super) fn seen(&self, event: Event, hp: i16) -> Seen {
        Seen {
            event,
            state: State {
                hp,
                cleared: self.tower.dealt() as u8,
                tower_left: self.tower.deck_len() as u8,
                deck_left: self.deck.deck_len() as u8,
                held: self.deck.held_cards().len() as u8,
                discard: self.deck.discard_cards().len() as u8,
                reshuffles: self.reshuffles,
            },
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
    fn flip<D: Dealer, O: Observer<Seen>>(&mut self, dealer: &mut D, obs: &mut O, hp: i16) -> u8 {
        if self.deck.deck_len() == 0 {
            self.refill(dealer);
            obs.see(|| {
                let deck = Cards::of(self.deck.deck_cards());
                self.seen(Event::Reshuffle { deck }, hp)
            });
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

    /// Resolves a Joker met with `hp`; returns the damage it deals.
    ///
    /// A policy that makes its choice from HP alone has the Joker resolved from the next two
    /// cards at once, with no branch on them; otherwise (or with fewer than two cards left in the
    /// deck) it is asked after an odd first flip.
    #[inline(always)]
    fn joker<P: Policy, D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        policy: &P,
        dealer: &mut D,
        hp: i16,
        obs: &mut O,
    ) -> u8 {
        let choice = policy.joker_choice(rules, hp as u8).filter(|_| !O::ON);
        if let (Some(gamble), Some(&[first, second])) = (choice, self.deck.deck_cards().get(..2)) {
            let odd = first & 1;
            let flips = 1 + (odd & u8::from(gamble));
            let damage = if gamble {
                (second & 1) * rules.crushing_damage
            } else {
                rules.joker_damage
            };
            self.deck.draw_many(flips);
            self.deck.release_held();
            return odd * damage;
        }
        self.asked_joker(rules, policy, dealer, hp, obs)
    }

    /// A Joker whose choice the policy makes after seeing an odd first flip.
    fn asked_joker<P: Policy, D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        policy: &P,
        dealer: &mut D,
        hp: i16,
        obs: &mut O,
    ) -> u8 {
        if !self.joker_first(dealer, obs, hp) {
            return 0;
        }
        let gamble = policy.double_or_nothing(rules, &self.joker_view(hp));
        self.joker_choice(rules, gamble, dealer, obs, hp)
    }

    /// A Joker's first flip: true if it is odd (the player then chooses).
    pub(super) fn joker_first<D: Dealer, O: Observer<Seen>>(
        &mut self,
        dealer: &mut D,
        obs: &mut O,
        hp: i16,
    ) -> bool {
        let first = self.flip(dealer, obs, hp);
        self.deck.release_held();
        obs.see(|| self.seen(Event::JokerFlip { card: first }, hp));
        first % 2 == 1
    }

    /// What the player knows after a Joker's odd first flip.
    pub(super) fn joker_view(&self, hp: i16) -> JokerView<'_> {
        JokerView {
            hp: hp as u8,
            deck: DeckView(&self.deck),
            tower: TowerView(&self.tower),
        }
    }

    /// The player's choice after a Joker's odd first flip (`gamble`: double or nothing) played
    /// out: the damage it deals.
    pub(super) fn joker_choice<D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        gamble: bool,
        dealer: &mut D,
        obs: &mut O,
        hp: i16,
    ) -> u8 {
        obs.see(|| self.seen(Event::JokerChoice { gamble }, hp));
        if gamble {
            let second = self.flip(dealer, obs, hp);
            self.deck.release_held();
            obs.see(|| self.seen(Event::JokerFlip { card: second }, hp));
            if second.is_multiple_of(2) {
                0
            } else {
                rules.crushing_damage
            }
        } else {
            rules.joker_damage
        }
    }

    /// What the player knows during a strike against `enemy` of `target` at these totals.
    pub(super) fn view(
        &self,
        enemy: Enemy,
        target: u8,
        hard: u8,
        best: u8,
        hp: i16,
    ) -> StrikeView<'_> {
        StrikeView {
            enemy,
            target,
            hard,
            best,
            hp: hp as u8,
            deck: DeckView(&self.deck),
            tower: TowerView(&self.tower),
        }
    }

    /// One strike: flips until the policy banks (returns the banked total) or the hard total
    /// passes 21 (returns that total, 22 to 31). The strike pile goes to the discard either way.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn strike<P: Policy, D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        enemy: Enemy,
        target: u8,
        policy: &P,
        dealer: &mut D,
        hp: i16,
        obs: &mut O,
    ) -> u8 {
        let total = match policy.strike_table(rules, &self.view(enemy, target, 0, 0, hp)) {
            Some(table) if !O::ON => self.table_strike(&table, dealer),
            Some(table) => self.stepped_strike(enemy, target, dealer, hp, obs, |view| {
                table.bank(view.best, view.soft())
            }),
            None => self.stepped_strike(enemy, target, dealer, hp, obs, |view| {
                policy.bank(rules, view)
            }),
        };
        self.deck.release_held();
        total
    }

    /// A strike decided by `table` a window of cards at a time (see [`strike`]), reshuffling as
    /// needed. Returns the strike's total (see [`Board::strike`]).
    #[inline(always)]
    fn table_strike<D: Dealer>(&mut self, table: &BankTable, dealer: &mut D) -> u8 {
        if self.deck.deck_len() == 0 {
            self.refill(dealer);
        }
        let fresh = strike::Carry {
            hard: 0,
            ace: false,
        };
        match strike::resolve(self.window(), table, fresh) {
            Ok(end) => {
                self.deck.draw_many(end.cards);
                end.total
            }
            Err(carry) => self.long_strike(table, dealer, carry),
        }
    }

    /// The rest of a table strike that did not end within its first window (it ran past eight
    /// cards or the end of the deck), from the totals `carry` after that window.
    #[inline(never)]
    fn long_strike<D: Dealer>(
        &mut self,
        table: &BankTable,
        dealer: &mut D,
        mut carry: strike::Carry,
    ) -> u8 {
        loop {
            self.deck
                .draw_many(self.deck.deck_len().min(strike::WINDOW) as u8);
            if self.deck.deck_len() == 0 {
                self.refill(dealer);
            }
            match strike::resolve(self.window(), table, carry) {
                Ok(end) => {
                    self.deck.draw_many(end.cards);
                    return end.total;
                }
                Err(more) => carry = more,
            }
        }
    }

    /// The strike's window at the top of the deck: past its cards the deck's array holds zeros,
    /// as [`strike::resolve`] needs.
    #[inline(always)]
    fn window(&self) -> &[u8; strike::WINDOW] {
        self.deck
            .window::<{ strike::WINDOW }>()
            .expect("the deck array has a window's room past its cards")
    }

    /// A strike card by card, asking `bank` after each flip; reshuffles as needed. Returns the
    /// strike's total (see [`Board::strike`]).
    #[inline]
    fn stepped_strike<D: Dealer, O: Observer<Seen>>(
        &mut self,
        enemy: Enemy,
        target: u8,
        dealer: &mut D,
        hp: i16,
        obs: &mut O,
        bank: impl Fn(&StrikeView) -> bool,
    ) -> u8 {
        let mut totals = Totals::default();
        loop {
            if let Some(bust) = self.strike_flip(&mut totals, dealer, obs, hp) {
                return bust;
            }
            let banked = bank(&self.view(enemy, target, totals.hard, totals.best(), hp));
            obs.see(|| self.seen(Event::Choice { bank: banked }, hp));
            if banked {
                return totals.best();
            }
        }
    }

    /// Flips the strike's next card into `totals`: the bust total if it passes 21.
    #[inline]
    pub(super) fn strike_flip<D: Dealer, O: Observer<Seen>>(
        &mut self,
        totals: &mut Totals,
        dealer: &mut D,
        obs: &mut O,
        hp: i16,
    ) -> Option<u8> {
        let card = self.flip(dealer, obs, hp);
        totals.hard += card;
        totals.ace |= card == 1;
        let (hard, best) = (totals.hard, totals.best());
        obs.see(|| self.seen(Event::Flip { card, hard, best }, hp));
        (hard >= 22).then_some(hard)
    }
}

/// A strike's running totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Totals {
    /// Every Ace counted as 1.
    pub hard: u8,
    /// An Ace among the cards.
    pub ace: bool,
}

impl Totals {
    /// One Ace counted as 11 where that stays at or under 21 (the hard total past 21).
    #[inline]
    pub fn best(self) -> u8 {
        self.hard + 10 * u8::from(self.ace & (self.hard <= 11))
    }
}
