//! The Regicide engine: a pure, allocation-free function of (rules, policies, generators).
//!
//! [`Engine::play`] runs the four steps of each turn: the player's policy chooses a play, a
//! yield or a set-aside Jester from the legal [`Step1`] choices; suit powers resolve (hearts
//! before diamonds); damage is added and a defeated enemy leaves (exactly: face down on top of
//! the tavern); otherwise the policy picks a discard among the minimal covers of [`Step4`]. Every
//! event goes through one [`Observer`].

use crate::cards::Dealer;
use crate::rng::GameRng;

use super::card::{self, CLUBS, DIAMONDS, HEARTS, JACK, KING, QUEEN, SPADES, Values};
use super::events::{Event, Observer};
use super::moves::{Covers, Play, Plays};
use super::outcome::{Grade, Loss, Outcome};
use super::piles::{Discard, Tavern};
use super::policy::{Action, Defence, Policy, Step1, Step4};
use super::rules::{MAX_PLAYERS, ROYALS, Rules};
use super::view::View;

/// The chance streams of a game: each source of randomness draws from its own generator.
pub struct Streams;

impl Streams {
    /// The order of each rank in the castle.
    pub const CASTLE: u64 = 0;
    /// The tavern's order.
    pub const TAVERN: u64 = 1;
    /// The shuffles of the discard pile by hearts.
    pub const HEARTS: u64 = 2;
    /// The policies' own coin flips (`random`).
    pub const POLICY: u64 = 3;
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Engine {
    values: Values,
    players: u8,
    max_hand: u8,
    castle: [u8; ROYALS],
    castle_len: u8,
    /// The current enemy's index in the castle.
    at: u8,
    /// The current enemy, `castle[at]` (the last royal once the game is won), kept up to date
    /// by [`Engine::shuffle`] and [`Engine::reveal`] so that reading it needs no clamp.
    enemy: u8,
    tavern: Tavern,
    discard: Discard,
    hands: [u64; MAX_PLAYERS],
    table: u64,
    health: u16,
    attack: u16,
    damage: u16,
    spades: u16,
    cancelled: bool,
    solo_left: u8,
    yielded: [bool; MAX_PLAYERS],
    known_top: Option<u8>,
    out: Outcome,
    /// Stop before a decision once this many were made (see [`Engine::resume`]).
    halt_at: u16,
    /// Where a halted game stopped.
    paused: Option<Resume>,
}

/// Where [`Engine::resume`] picks a game up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resume {
    /// A new turn of this seat (counted, announced).
    Turn(u8),
    /// This seat's step 1 decision, its turn already begun.
    Attack(u8),
    /// This seat's step 4 decision; `used`: a set-aside Jester was used in this step already.
    Defend {
        /// Whose.
        seat: u8,
        /// A set-aside Jester already used in this step.
        used: bool,
    },
    /// This seat just played a Jester (2 to 4 players) and chooses who goes next.
    Next(u8),
}

impl Resume {
    /// The seat that decides.
    pub fn seat(self) -> u8 {
        match self {
            Self::Turn(s) | Self::Attack(s) | Self::Defend { seat: s, .. } | Self::Next(s) => s,
        }
    }
}

impl Engine {
    /// A fresh game under `rules`, castle and tavern unshuffled until [`Engine::shuffle`].
    pub fn new(rules: &Rules) -> Self {
        let castle: Vec<u8> = [JACK, QUEEN, KING]
            .iter()
            .flat_map(|&r| (0..4).map(move |s| card::code(r, s)))
            .collect();
        let mut tavern: Vec<u8> = (0..rules.tavern_jesters()).collect();
        tavern.extend((card::code(1, 0)..card::code(JACK, 0)).collect::<Vec<u8>>());
        Self::stacked(rules, &castle, &tavern)
    }

    /// A game whose castle yields `castle` first (at most 12 royals; the game is won when they
    /// are all defeated) and whose tavern yields `tavern` top first, dealt from there.
    pub fn stacked(rules: &Rules, castle: &[u8], tavern: &[u8]) -> Self {
        assert!(!castle.is_empty() && castle.len() <= ROYALS);
        let mut c = [0u8; ROYALS];
        c[..castle.len()].copy_from_slice(castle);
        Self {
            values: Values::new(rules),
            players: rules.players,
            max_hand: rules.hand_limit(),
            castle: c,
            castle_len: castle.len() as u8,
            at: 0,
            enemy: c[0],
            tavern: Tavern::new(tavern),
            discard: Discard::default(),
            hands: [0; MAX_PLAYERS],
            table: 0,
            health: 0,
            attack: 0,
            damage: 0,
            spades: 0,
            cancelled: false,
            solo_left: rules.set_aside_jesters(),
            yielded: [false; MAX_PLAYERS],
            known_top: None,
            out: Outcome::default(),
            halt_at: u16::MAX,
            paused: None,
        }
    }

    /// Orders the castle (each group of four, a rank, on its own) with `castle` and the tavern
    /// with `tavern` (before the deal).
    pub fn shuffle<C: Dealer, T: Dealer>(&mut self, castle: &mut C, tavern: &mut T) {
        for rank in self.castle[..usize::from(self.castle_len)].chunks_mut(4) {
            castle.shuffle(rank);
        }
        self.enemy = self.castle_enemy();
        tavern.shuffle(self.tavern.cards_mut());
    }

    /// Deals, then plays the game to its end with `policy` (deciding for every seat) and
    /// reports it. `hearts` shuffles the discard pile for hearts; `coins` is the policies' own
    /// generator; `obs` hears every event.
    #[inline]
    pub fn play<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policy: &P,
        hearts: &mut D,
        coins: &mut GameRng,
        obs: &mut O,
    ) -> Outcome {
        let total = u16::from(self.players) * u16::from(self.max_hand);
        self.draw_round(0, total, obs);
        self.reveal(rules, obs);
        self.resume(rules, policy, hearts, coins, obs, Resume::Turn(0))
    }

    /// Plays on from `at` to the end of the game, or until the policies have made
    /// [`Engine::halt_at`] decisions, when it stops before the next step 1 or step 4 decision and
    /// [`Engine::paused`] says where (the search players step through worlds this way).
    #[inline]
    pub fn resume<P: Policy, D: Dealer, O: Observer>(
        &mut self,
        rules: &Rules,
        policy: &P,
        hearts: &mut D,
        coins: &mut GameRng,
        obs: &mut O,
        at: Resume,
    ) -> Outcome {
        self.paused = None;
        // Scratch lists of the legal moves, outside the engine so that copying a game stays
        // cheap.
        let mut plays = Plays::default();
        let mut covers = Covers::default();
        let mut seat = at.seat();
        let mut from = Some(at);
        if let Resume::Next(chooser) = at {
            seat = self.choose_next(rules, chooser, policy, coins, obs);
            from = None;
        }
        'turns: loop {
            let mut used = false;
            let start = from.take();
            if let Some(Resume::Defend { used: u, .. }) = start {
                used = u;
            } else {
                if start != Some(Resume::Attack(seat)) {
                    self.out.turns += 1;
                    obs.event(self, Event::TurnStarted { seat });
                }
                // Step 1: a play, a yield, or a set-aside Jester and choose again.
                let action = loop {
                    self.generate_plays(seat, &mut plays);
                    let choices = self.step1(rules, seat, &plays);
                    let options = choices.plays.len() + usize::from(choices.can_yield);
                    if options + usize::from(choices.solo_jester) == 0 {
                        return self.lose(Loss::CannotPlay, obs);
                    }
                    let action = if options == 1 && !choices.solo_jester {
                        if choices.can_yield {
                            Action::Yield
                        } else {
                            Action::Play(choices.plays[0])
                        }
                    } else {
                        if self.out.decisions >= self.halt_at {
                            self.paused = Some(Resume::Attack(seat));
                            return self.out;
                        }
                        self.out.decisions += 1;
                        let view = self.view_with(rules, seat, plays.hand_value());
                        policy.attack(&view, &choices, coins)
                    };
                    if action == Action::SoloJester {
                        self.solo_jester(rules, seat, obs);
                    } else {
                        break action;
                    }
                };
                let s = usize::from(seat);
                match action {
                    Action::Yield => {
                        self.yielded[s] = true;
                        obs.event(self, Event::Yielded { seat });
                    }
                    Action::Play(p) => {
                        debug_assert_eq!(self.hands[s] & p.cards, p.cards, "{p:?} is not in hand");
                        self.yielded[s] = false;
                        self.hands[s] &= !p.cards;
                        self.table |= p.cards;
                        obs.event(
                            self,
                            Event::Played {
                                seat,
                                cards: p.cards,
                            },
                        );
                        if p.is_jester() {
                            self.cancelled = true;
                            self.out.jesters_played += 1;
                            if self.players > 1 {
                                if self.out.decisions >= self.halt_at {
                                    self.paused = Some(Resume::Next(seat));
                                    return self.out;
                                }
                                seat = self.choose_next(rules, seat, policy, coins, obs);
                            } else {
                                obs.event(self, Event::Chose { next: seat });
                            }
                            continue 'turns;
                        }
                        if self.resolve(seat, &p, hearts, obs) {
                            if self.at == self.castle_len {
                                return self.win(rules, obs);
                            }
                            self.reveal(rules, obs);
                            continue 'turns;
                        }
                    }
                    Action::SoloJester => unreachable!("handled in step 1"),
                }
            }
            // Step 4: the enemy attacks.
            let s = usize::from(seat);
            loop {
                let need = self.need();
                // No cover: the hand falls short of the attack.
                self.covers_for(policy, seat, need, &mut covers);
                if covers.as_slice().is_empty() && self.solo_left == 0 {
                    return self.lose(Loss::CannotCover, obs);
                }
                let choices = Step4 {
                    covers: covers.as_slice(),
                    solo_jester: self.solo_left > 0,
                    used_jester: used,
                };
                let defence = if covers.only_one() && !choices.solo_jester {
                    Defence::Discard(choices.covers[0])
                } else {
                    if self.out.decisions >= self.halt_at {
                        self.paused = Some(Resume::Defend { seat, used });
                        return self.out;
                    }
                    self.out.decisions += 1;
                    let view = self.view_with(rules, seat, covers.hand_value());
                    policy.defend(&view, &choices, coins)
                };
                match defence {
                    Defence::SoloJester => {
                        debug_assert!(self.solo_left > 0);
                        used = true;
                        self.solo_jester(rules, seat, obs);
                    }
                    Defence::GiveUp => return self.lose(Loss::CannotCover, obs),
                    Defence::Discard(c) => {
                        debug_assert!(self.values.sum(c.cards) >= need);
                        debug_assert_eq!(self.hands[s] & c.cards, c.cards);
                        self.hands[s] &= !c.cards;
                        self.discard.put(c.cards);
                        obs.event(
                            self,
                            Event::Discarded {
                                seat,
                                cards: c.cards,
                            },
                        );
                        break;
                    }
                }
            }
            // The next seat clockwise, without a division.
            seat = if seat + 1 == self.players {
                0
            } else {
                seat + 1
            };
        }
    }

    /// Generates `seat`'s plays into `plays`.
    #[inline(always)]
    pub(super) fn generate_plays(&self, seat: u8, plays: &mut Plays) {
        plays.generate(self.hands[usize::from(seat)], &self.values);
    }

    /// The legal choices of `seat`'s step 1, its plays generated into `plays` already.
    #[inline(always)]
    pub(super) fn step1<'a>(&self, rules: &Rules, seat: u8, plays: &'a Plays) -> Step1<'a> {
        Step1 {
            plays: plays.as_slice(),
            can_yield: self.can_yield(rules, seat),
            solo_jester: self.solo_left > 0,
        }
    }

    /// The covers of the attack's `need` that `seat`'s step 4 offers `policy`, into `covers`:
    /// every minimal cover, or only the one the policy is known to pick (see
    /// [`Policy::least_cover_only`] and [`Policy::discard_prices`]).
    #[inline(always)]
    pub(super) fn covers_for<P: Policy>(
        &self,
        policy: &P,
        seat: u8,
        need: u16,
        covers: &mut Covers,
    ) {
        let hand = self.hands[usize::from(seat)];
        if policy.least_cover_only(seat) {
            covers.generate_least(hand, need, &self.values);
        } else if let Some(prices) = policy.discard_prices(seat) {
            covers.generate_cheapest(hand, need, &self.values, &prices);
        } else {
            covers.generate(hand, need, &self.values);
        }
    }

    /// After `chooser`'s Jester (2 to 4 players): the policy names the next seat.
    fn choose_next<P: Policy, O: Observer>(
        &mut self,
        rules: &Rules,
        chooser: u8,
        policy: &P,
        coins: &mut GameRng,
        obs: &mut O,
    ) -> u8 {
        self.out.decisions += 1;
        let next = policy.next_seat(&self.view(rules, chooser), coins);
        debug_assert!(next < self.players);
        obs.event(self, Event::Chose { next });
        next
    }

    /// Steps 2 and 3 of play `p` by `seat`: suit powers, then damage. True if the enemy fell
    /// (it has then left the castle). Called from one place: inlined whole, it costs no call.
    #[inline(always)]
    fn resolve<D: Dealer, O: Observer>(
        &mut self,
        seat: u8,
        p: &Play,
        hearts: &mut D,
        obs: &mut O,
    ) -> bool {
        let enemy = self.enemy();
        let immune = if self.cancelled {
            0
        } else {
            1 << card::suit(enemy)
        };
        let works = p.suits & !immune;
        if works & (1 << HEARTS) != 0 {
            let cards = self.discard.heal(p.value, hearts, &mut self.tavern);
            obs.event(self, Event::Healed { cards });
        }
        if works & (1 << DIAMONDS) != 0 {
            self.draw_round(seat, p.value, obs);
        }
        // Counted even against a spade enemy: a later Jester makes it count. Added as a 0/1
        // factor: whether a play holds a spade is data a branch predictor cannot guess.
        self.spades += p.value * u16::from(p.suits >> SPADES & 1);
        let dealt = if works & (1 << CLUBS) != 0 {
            2 * p.value
        } else {
            p.value
        };
        self.damage += dealt;
        obs.event(
            self,
            Event::Damaged {
                dealt,
                total: self.damage,
            },
        );
        if self.damage < self.health {
            return false;
        }
        let exact = self.damage == self.health;
        self.discard.put(self.table);
        self.table = 0;
        if exact {
            self.tavern.put_top(enemy);
            self.known_top = Some(enemy);
        } else {
            self.discard.put(card::bit(enemy));
        }
        self.out.royals += 1;
        self.at += 1;
        obs.event(self, Event::Defeated { enemy, exact });
        true
    }

    /// Draws up to `n` cards one at a time round the table from `seat`, a full hand skipped,
    /// until `n` are drawn, the tavern is empty or every hand is full.
    #[inline]
    fn draw_round<O: Observer>(&mut self, seat: u8, n: u16, obs: &mut O) {
        if self.players == 1 {
            // One hand: as many as fit, without counting the hand again for each card.
            let room = u16::from(self.max_hand).saturating_sub(self.hands[0].count_ones() as u16);
            for _ in 0..n.min(room) {
                let Some(c) = self.tavern.draw() else { break };
                self.hands[0] |= card::bit(c);
                self.known_top = None;
                obs.event(self, Event::Drew { seat: 0, card: c });
            }
            return;
        }
        let mut p = seat;
        let mut drawn = 0;
        let mut skipped = 0;
        while drawn < n && skipped < self.players {
            let hand = &mut self.hands[usize::from(p)];
            if hand.count_ones() < u32::from(self.max_hand) {
                let Some(c) = self.tavern.draw() else { break };
                *hand |= card::bit(c);
                self.known_top = None;
                drawn += 1;
                skipped = 0;
                obs.event(self, Event::Drew { seat: p, card: c });
            } else {
                skipped += 1;
            }
            p = if p + 1 == self.players { 0 } else { p + 1 };
        }
    }

    /// A set-aside Jester: the hand to the discard pile, then `solo_jester_draw` fresh cards (at
    /// most the hand limit, at most the tavern).
    fn solo_jester<O: Observer>(&mut self, rules: &Rules, seat: u8, obs: &mut O) {
        let s = usize::from(seat);
        let discarded = self.hands[s];
        self.discard.put(discarded);
        self.hands[s] = 0;
        self.solo_left -= 1;
        self.out.solo_jesters += 1;
        obs.event(self, Event::SoloJester { seat, discarded });
        let n = rules.solo_jester_draw.min(self.max_hand);
        for _ in 0..n {
            let Some(c) = self.tavern.draw() else { break };
            self.hands[s] |= card::bit(c);
            self.known_top = None;
            obs.event(self, Event::Drew { seat, card: c });
        }
    }

    /// True if `seat` may yield now.
    #[inline]
    pub fn can_yield(&self, rules: &Rules, seat: u8) -> bool {
        if self.players == 1 {
            return rules.solo_yield && !self.yielded[0];
        }
        (0..self.players).any(|p| p != seat && !self.yielded[usize::from(p)])
    }

    /// Reveals the castle card at `at` as the enemy.
    fn reveal<O: Observer>(&mut self, rules: &Rules, obs: &mut O) {
        let enemy = self.castle_enemy();
        self.enemy = enemy;
        let royal = rules.royal(card::rank(enemy));
        self.health = royal.health.into();
        self.attack = royal.attack.into();
        self.damage = 0;
        self.spades = 0;
        self.cancelled = false;
        obs.event(self, Event::Revealed { enemy });
    }

    fn win<O: Observer>(&mut self, rules: &Rules, obs: &mut O) -> Outcome {
        self.out.win = true;
        if rules.solo() {
            self.out.grade = Grade::of(self.out.solo_jesters);
        }
        self.out.tavern_left = self.tavern.len();
        obs.event(self, Event::Won);
        self.out
    }

    fn lose<O: Observer>(&mut self, how: Loss, obs: &mut O) -> Outcome {
        self.out.loss = how;
        self.out.loss_royal = self.enemy();
        self.out.tavern_left = self.tavern.len();
        obs.event(self, Event::Lost { how });
        self.out
    }

    /// The current enemy (the last royal once the game is won).
    #[inline]
    pub fn enemy(&self) -> u8 {
        debug_assert_eq!(self.enemy, self.castle_enemy());
        self.enemy
    }

    /// The castle card at `at` (the last royal once the game is won).
    #[inline]
    fn castle_enemy(&self) -> u8 {
        self.castle[usize::from(self.at.min(self.castle_len - 1))]
    }

    /// The discard the attack asks for now.
    #[inline]
    pub(super) fn need(&self) -> u16 {
        let spade_immune = !self.cancelled && card::suit(self.enemy()) == SPADES;
        let shield = if spade_immune { 0 } else { self.spades };
        self.attack.saturating_sub(shield)
    }

    /// What `seat` knows now.
    #[inline]
    pub fn view<'a>(&'a self, rules: &'a Rules, seat: u8) -> View<'a> {
        let hand_value = self.values.sum(self.hands[usize::from(seat)]);
        self.view_with(rules, seat, hand_value)
    }

    /// What `seat` knows now, its hand worth `hand_value` (the move lists add it up already).
    #[inline]
    fn view_with<'a>(&'a self, rules: &'a Rules, seat: u8, hand_value: u16) -> View<'a> {
        debug_assert_eq!(hand_value, self.values.sum(self.hands[usize::from(seat)]));
        let hand = self.hands[usize::from(seat)];
        let mut hand_sizes = [0; MAX_PLAYERS];
        for (size, h) in hand_sizes
            .iter_mut()
            .zip(&self.hands[..usize::from(self.players)])
        {
            *size = h.count_ones() as u8;
        }
        View {
            rules,
            values: &self.values,
            seat,
            players: self.players,
            max_hand: self.max_hand,
            hand,
            hand_value,
            enemy: self.enemy(),
            health: self.health,
            attack: self.attack,
            damage: self.damage,
            spades: self.spades,
            cancelled: self.cancelled,
            table: self.table,
            discard: self.discard.mask(),
            tavern: self.tavern.len(),
            castle: self.castle_len - 1 - self.at.min(self.castle_len - 1),
            hand_sizes,
            yielded: self.yielded,
            known_top: self.known_top,
            solo_jesters: self.solo_left,
        }
    }

    /// The game's report so far.
    pub fn outcome(&self) -> &Outcome {
        &self.out
    }

    /// Each seat's hand (tests and the census; hidden from policies).
    pub fn hands(&self) -> &[u64; MAX_PLAYERS] {
        &self.hands
    }

    /// The cards played against the current enemy.
    pub fn table(&self) -> u64 {
        self.table
    }

    /// The discard pile.
    pub fn discard(&self) -> &Discard {
        &self.discard
    }

    /// The tavern (its order is hidden from policies).
    pub fn tavern(&self) -> &Tavern {
        &self.tavern
    }

    /// The royals not yet defeated, the current enemy first.
    pub fn castle(&self) -> &[u8] {
        &self.castle[usize::from(self.at)..usize::from(self.castle_len)]
    }

    /// Set-aside Jesters not yet used.
    pub fn solo_jesters_left(&self) -> u8 {
        self.solo_left
    }

    /// Players at the table.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The hand limit.
    pub fn max_hand(&self) -> u8 {
        self.max_hand
    }

    /// Makes [`Engine::resume`] stop before the next decision once `decisions` were made in
    /// the game (`u16::MAX`: never).
    pub fn halt_at(&mut self, decisions: u16) {
        self.halt_at = decisions;
    }

    /// Where the last [`Engine::resume`] stopped, if it halted before the game's end.
    pub fn paused(&self) -> Option<Resume> {
        self.paused
    }

    /// Search worlds: replaces what is face down, the castle's order under the current enemy
    /// (`castle`, next first), the tavern (`tavern`, top first) and every hand, keeping all
    /// that is face up.
    pub fn redeal(&mut self, castle: &[u8], tavern: &[u8], hands: &[u64; MAX_PLAYERS]) {
        let next = usize::from(self.at) + 1;
        debug_assert_eq!(
            castle.len(),
            usize::from(self.castle_len).saturating_sub(next)
        );
        self.castle[next..next + castle.len()].copy_from_slice(castle);
        self.tavern = Tavern::new(tavern);
        self.hands = *hands;
    }
}
