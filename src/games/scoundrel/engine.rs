//! The Scoundrel engine: a pure, allocation-free function of (rules, policy, generators).
//!
//! A game is a loop of rooms. [`Engine::enter_room`] fills the room from the dungeon (or ends a
//! won game); the policy picks a [`Turn`] from a [`View`] of what the player may know;
//! [`Engine::apply`] plays it. Every card's effect comes from [`Hero::face`]. Unobserved, a room the
//! policy has simulated itself ([`Policy::decide`]) is applied from that result
//! ([`Engine::apply_survived`], or [`Engine::apply_lost`] for a room that kills) instead of being
//! faced again, and the dungeon's counts are kept
//! only for a policy that reads them ([`Policy::READS_DUNGEON`]).

use crate::cards::Dealer;
use crate::games::observe::{Cards, Observer, Unobserved};
use crate::rng::GameRng;

use super::card::{self, Counts, Kind};
use super::dungeon::Dungeon;
use super::events::{Event, Seen, State};
use super::hero::{Effect, Hero};
use super::outcome::Outcome;
use super::played::{Lost, Played, Survived};
use super::policy::{Decision, Policy};
use super::rules::{AvoidOrder, End, ROOM, Rules};

/// The most rooms a game may avoid; past it, avoiding is no longer offered. The rulings never
/// reach it (no two avoids in a row); it ends games under `avoid_in_a_row = true`.
pub const MAX_AVOIDS: u8 = 200;

/// The chance streams of a game: each source of randomness draws from its own generator.
pub struct Streams;

impl Streams {
    /// The dungeon's order.
    pub const DUNGEON: u64 = 0;
    /// The order of avoided cards under `avoid_order = shuffle`.
    pub const AVOID: u64 = 1;
    /// A policy's own coin flips (`random`, the lookahead's samples).
    pub const POLICY: u64 = 2;
}

/// A room's play: avoid it, or face cards in an order, each monster with or without the weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// True to avoid the room (then the rest is ignored).
    pub avoid: bool,
    /// The room's indices in the order faced; the first [`View::to_face`] count.
    pub order: [u8; ROOM],
    /// Bit `i` set: use the weapon on the `i`-th card faced, if it is a monster the weapon may
    /// be used on (otherwise the bit is ignored).
    pub weapon: u8,
    /// Bit `i` set: discard the `i`-th card faced instead of equipping it, if it is a weapon and
    /// the rules allow it (`weapon_discard`; otherwise the bit is ignored).
    pub discard: u8,
}

impl Turn {
    /// Avoid the room.
    pub const AVOID: Turn = Turn {
        avoid: false,
        order: [0, 1, 2, 3],
        weapon: 0,
        discard: 0,
    }
    .avoided();

    const fn avoided(self) -> Turn {
        Turn {
            avoid: true,
            ..self
        }
    }

    /// Face the room's cards in `order`, with the weapon on the steps set in `weapon`.
    #[inline]
    pub const fn face(order: [u8; ROOM], weapon: u8) -> Turn {
        Turn {
            avoid: false,
            order,
            weapon,
            discard: 0,
        }
    }

    /// Face the room's cards in `order`; bit `i` of `choices` is the choice at the `i`-th card:
    /// the weapon on a monster, discarding a weapon (where the rules allow it).
    #[inline]
    pub const fn plan(order: [u8; ROOM], choices: u8) -> Turn {
        Turn {
            avoid: false,
            order,
            weapon: choices,
            discard: choices,
        }
    }
}

/// What the player knows when choosing a turn.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The room's face-up cards.
    pub room: &'a [u8],
    /// HP, weapon and wear.
    pub hero: Hero,
    /// True if the room may be avoided.
    pub can_avoid: bool,
    /// How many cards to face: 3 of a full room, or all of the last, short one.
    pub to_face: usize,
    /// The cards still in the dungeon as a multiset (a card counter knows it; not the order).
    /// Unobserved, kept only for a policy that reads it ([`Policy::READS_DUNGEON`]).
    pub dungeon: &'a Counts,
    /// True if this is the last room: nothing is left in the dungeon.
    pub last_room: bool,
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Engine {
    dungeon: Dungeon,
    left: Counts,
    room: [u8; ROOM],
    room_len: u8,
    hero: Hero,
    avoided_last: bool,
    monsters_left: i16,
    last_faced: u8,
    /// The cards of the game, the dungeon's at the start: the cards faced are those neither in
    /// the dungeon nor in the room (not counted per room).
    cards: u8,
    over: bool,
    out: Outcome,
}

impl Engine {
    /// A fresh game under `rules`, the dungeon unshuffled until [`Engine::shuffle`].
    pub fn new(rules: &Rules) -> Self {
        Self::stacked(rules, &rules.deck())
    }

    /// A game whose dungeon yields `cards` top first (card codes from [`super::card`]).
    pub fn stacked(rules: &Rules, cards: &[u8]) -> Self {
        let left = Counts::of(cards);
        Self {
            dungeon: Dungeon::new(cards),
            left,
            room: [0; ROOM],
            room_len: 0,
            hero: Hero::new(rules),
            avoided_last: false,
            monsters_left: left.monster_total() as i16,
            last_faced: 0,
            cards: cards.len() as u8,
            over: false,
            out: Outcome::default(),
        }
    }

    /// Orders the dungeon with `dealer` (before the first room).
    pub fn shuffle<D: Dealer>(&mut self, dealer: &mut D) {
        dealer.shuffle(self.dungeon.cards_mut());
    }

    /// Orders the dungeon of a fresh game as game `index` of a run seeded with `seed` deals it
    /// (its dungeon stream), the deal reported to `obs`.
    #[inline]
    pub fn deal<O: Observer<Seen>>(&mut self, seed: u64, index: u64, obs: &mut O) {
        self.shuffle(&mut GameRng::new(seed, index, Streams::DUNGEON));
        obs.see(|| {
            let dungeon = self.dungeon.iter().collect::<Cards>();
            self.seen(Event::Deal { dungeon }, 0)
        });
    }

    /// Plays the game to its end with `policy` and reports it. `avoid` orders avoided rooms
    /// under `avoid_order = shuffle`; `coins` is the policy's own generator.
    #[inline]
    pub fn play<P: Policy, D: Dealer>(
        &mut self,
        rules: &Rules,
        policy: &P,
        avoid: &mut D,
        coins: &mut GameRng,
    ) -> Outcome {
        self.play_observed(rules, policy, avoid, coins, &mut Unobserved)
    }

    /// [`Engine::play`], reporting every event to `obs`.
    #[inline]
    pub fn play_observed<P: Policy, D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        policy: &P,
        avoid: &mut D,
        coins: &mut GameRng,
        obs: &mut O,
    ) -> Outcome {
        // Observed, the counts are part of what is reported.
        let count = P::READS_DUNGEON || O::ON;
        // The game ends in `draw_room` (won), or in the room played (lost): the loop stops there,
        // without a test of `over` per room.
        if self.over {
            return self.out;
        }
        let slaying = rules.end == End::Monsters;
        if !O::ON {
            // The end rule a constant of the compiled loop: only under `end = monsters` does
            // each draw test whether every monster is slain.
            return if slaying {
                self.play_unobserved::<P, D, true>(rules, policy, avoid, coins)
            } else {
                self.play_unobserved::<P, D, false>(rules, policy, avoid, coins)
            };
        }
        let mut drawn = self.draw_room(rules, count, slaying);
        while drawn.is_some() {
            let turn = policy.choose(rules, &self.view(rules), coins);
            self.play_turn(rules, &turn, avoid, obs, count);
            if self.over {
                break;
            }
            drawn = self.draw_room(rules, count, slaying);
        }
        self.out
    }

    /// [`Engine::play_observed`] unobserved, in a game not over: a room the policy simulated is
    /// applied from its result, and a full room goes to the policy's narrow decision first (no
    /// view built if it has one). `SLAYING` if the rules end the game once every monster is
    /// slain (`end = monsters`), the only rule under which a draw tests it. Inlined: out of
    /// line, with the engine reached through a pointer kept on the stack, it took about 80
    /// instructions a game more and 2 to 5% more CPU time.
    #[inline(always)]
    fn play_unobserved<P: Policy, D: Dealer, const SLAYING: bool>(
        &mut self,
        rules: &Rules,
        policy: &P,
        avoid: &mut D,
        coins: &mut GameRng,
    ) -> Outcome {
        let count = P::READS_DUNGEON;
        // A game's first room (an empty room, a dungeon of four cards or more): the top four,
        // as after a room avoided, without the general draw's shifts by the room's length.
        let mut drawn = if self.room_len == 0 && self.dungeon.len() >= ROOM {
            let may_avoid = rules.avoid_in_a_row || !self.avoided_last;
            self.draw_four(rules, count, SLAYING, may_avoid)
        } else {
            self.draw_room(rules, count, SLAYING)
        };
        while let Some(can_avoid) = drawn {
            let room = self.full_room();
            let narrow =
                room.and_then(|room| policy.decide_full(rules, self.hero, room, can_avoid));
            // Each source of a decision follows it on its own (the narrow one's result never
            // stored as a `Decision` and matched again).
            drawn = match narrow {
                Some(decision) => {
                    self.follow::<D, SLAYING>(rules, decision, can_avoid, avoid, count)
                }
                None => {
                    let decision = policy.decide(rules, &self.view(rules), coins);
                    self.follow::<D, SLAYING>(rules, decision, can_avoid, avoid, count)
                }
            };
        }
        self.out
    }

    /// Applies `decision` in the current room (which may be avoided if `can_avoid`) and draws
    /// the next: what [`Engine::draw_room`] returns, `None` once the game is over (lost here,
    /// or won at the draw). The dungeon's counts are kept if `count`.
    #[inline(always)]
    fn follow<D: Dealer, const SLAYING: bool>(
        &mut self,
        rules: &Rules,
        decision: Decision,
        can_avoid: bool,
        avoid: &mut D,
        count: bool,
    ) -> Option<bool> {
        // Each way draws the next room itself: after a room survived, the draw is compiled
        // knowing the room holds the one card kept (no test of the room's length, the card not
        // read back).
        match decision {
            // Where the common draw follows (three or more cards left), the card kept goes
            // straight into the next room, not written to the room and read back first.
            Decision::Survived(survived) if self.dungeon.len() >= ROOM - 1 => {
                self.add_played(&survived.played);
                self.draw_three(rules, count, SLAYING, survived.kept)
            }
            Decision::Survived(survived) => {
                self.apply_survived(&survived);
                self.draw_room(rules, count, SLAYING)
            }
            Decision::Lost(lost) => {
                self.apply_lost(rules, &lost);
                None
            }
            Decision::Turn(turn) if turn.avoid && can_avoid => {
                self.avoid_room(rules, avoid, count);
                self.draw_four(rules, count, SLAYING, rules.avoid_in_a_row)
            }
            Decision::Turn(turn) => {
                self.play_turn(rules, &turn, avoid, &mut Unobserved, count);
                if self.over {
                    return None;
                }
                self.draw_room(rules, count, SLAYING)
            }
        }
    }

    /// `event` with the state after it, `faced` cards of the current room faced so far.
    pub fn seen(&self, event: Event, faced: u8) -> Seen {
        Seen {
            event,
            state: State {
                hp: self.hero.hp,
                weapon: self.hero.weapon,
                limit: self.hero.limit,
                dungeon_left: self.dungeon.len() as u8,
                cards_faced: self.cards_faced(faced),
                rooms_avoided: self.out.rooms_avoided,
            },
        }
    }

    /// The cards faced so far, `faced` of the current room among them: those no longer in the
    /// dungeon nor in the room, plus those faced in it.
    #[inline(always)]
    fn cards_faced(&self, faced: u8) -> u8 {
        self.cards - self.dungeon.len() as u8 - self.room_len + faced
    }

    /// Fills the room from the dungeon. Returns true if the player must choose a turn, false if
    /// the game is over (lost, or won: every card faced, or under `end = lenient` a full room
    /// can no longer be formed).
    #[inline]
    pub fn enter_room(&mut self, rules: &Rules) -> bool {
        !self.over
            && self
                .draw_room(rules, true, rules.end == End::Monsters)
                .is_some()
    }

    /// [`Engine::enter_room`] in a game not over, the dungeon's counts updated only if `count`,
    /// `slaying` if the rules end the game once every monster is slain: whether the room drawn
    /// may be avoided ([`View::can_avoid`]), `None` if the game is over.
    #[inline(always)]
    fn draw_room(&mut self, rules: &Rules, count: bool, slaying: bool) -> Option<bool> {
        debug_assert!(!self.over);
        // The common case, one card kept and three drawn to a full room: constant shifts, and
        // only the `end = monsters` check applies.
        if self.room_len == 1 && self.dungeon.len() >= ROOM - 1 {
            return self.draw_three(rules, count, slaying, self.room[0]);
        }
        let have = usize::from(self.room_len);
        let draws = (ROOM - have).min(self.dungeon.len());
        // Four slots are read and the room shifted in as one word, whatever `draws` is: no
        // loop of a varying length. Slots past the room's cards are never read.
        let top = self.dungeon.top4();
        if count {
            for (k, &code) in top.iter().enumerate() {
                self.left.remove_if(code, k < draws);
            }
        }
        self.dungeon.skip(draws);
        let (room, top) = (u32::from_le_bytes(self.room), u32::from_le_bytes(top));
        let kept = u64::from(room) & ((1u64 << (8 * have)) - 1);
        let drawn = u64::from(top) << (8 * have);
        self.room = ((kept | drawn) as u32).to_le_bytes();
        self.room_len += draws as u8;
        let short = usize::from(self.room_len) < ROOM;
        let slain = slaying && self.monsters_left == 0;
        if slain || self.room_len == 0 || (short && rules.end == End::Lenient) {
            self.finish(rules, true, 0);
            return None;
        }
        Some(self.can_avoid(rules))
    }

    /// [`Engine::draw_room`]'s common case: the card `kept` (the room before's, entered, not
    /// avoided) and the dungeon's top three (it holds three or more) as the room. Constant
    /// shifts, and only the `end = monsters` check applies.
    #[inline(always)]
    fn draw_three(&mut self, rules: &Rules, count: bool, slaying: bool, kept: u8) -> Option<bool> {
        debug_assert!(!self.over && self.dungeon.len() >= ROOM - 1);
        let top = self.dungeon.top4();
        if count {
            for &code in &top[..ROOM - 1] {
                self.left.remove(code);
            }
        }
        self.dungeon.skip(ROOM - 1);
        let top = u32::from_le_bytes(top);
        self.room = (u32::from(kept) | top << 8).to_le_bytes();
        self.room_len = ROOM as u8;
        if slaying && self.won_by_slaying(rules) {
            return None;
        }
        // The room before was entered (a card kept), not avoided.
        Some(self.out.rooms_avoided < MAX_AVOIDS)
    }

    /// [`Engine::draw_room`] with the room empty and the dungeon holding four cards or more (at
    /// the start, or right after a room avoided: its cards among them), so the room drawn is its
    /// top four, full. It may be avoided if `may_avoid` (after a room avoided only under
    /// `avoid_in_a_row`) and fewer than [`MAX_AVOIDS`] rooms were.
    #[inline(always)]
    fn draw_four(
        &mut self,
        rules: &Rules,
        count: bool,
        slaying: bool,
        may_avoid: bool,
    ) -> Option<bool> {
        debug_assert!(!self.over && self.room_len == 0);
        debug_assert!(self.dungeon.len() >= ROOM);
        debug_assert_eq!(may_avoid, rules.avoid_in_a_row || !self.avoided_last);
        let top = self.dungeon.top4();
        if count {
            for &code in &top {
                self.left.remove(code);
            }
        }
        self.dungeon.skip(ROOM);
        self.room = top;
        self.room_len = ROOM as u8;
        if slaying && self.won_by_slaying(rules) {
            return None;
        }
        Some(may_avoid && self.out.rooms_avoided < MAX_AVOIDS)
    }

    /// Under `end = monsters`, ends the game won once every monster is slain; true if it did.
    #[inline(always)]
    fn won_by_slaying(&mut self, rules: &Rules) -> bool {
        debug_assert_eq!(rules.end, End::Monsters);
        if self.monsters_left == 0 {
            self.finish(rules, true, 0);
            return true;
        }
        false
    }

    /// What the player knows now (after [`Engine::enter_room`] returned true).
    #[inline]
    pub fn view(&self, rules: &Rules) -> View<'_> {
        let full = usize::from(self.room_len) == ROOM;
        View {
            room: &self.room[..usize::from(self.room_len)],
            hero: self.hero,
            can_avoid: self.can_avoid(rules),
            to_face: if full { ROOM - 1 } else { self.room_len.into() },
            dungeon: &self.left,
            last_room: self.dungeon.is_empty(),
        }
    }

    /// True if the current room may be avoided ([`View::can_avoid`]).
    #[inline(always)]
    fn can_avoid(&self, rules: &Rules) -> bool {
        usize::from(self.room_len) == ROOM
            && (rules.avoid_in_a_row || !self.avoided_last)
            && self.out.rooms_avoided < MAX_AVOIDS
    }

    /// The current room's four cards if it is full.
    #[inline(always)]
    fn full_room(&self) -> Option<[u8; ROOM]> {
        (usize::from(self.room_len) == ROOM).then_some(self.room)
    }

    /// Plays `turn` in the current room. An avoid that is not allowed is played as facing the
    /// room in order; a weapon bit on a card the weapon may not be used on is ignored.
    #[inline]
    pub fn apply<D: Dealer>(&mut self, rules: &Rules, turn: &Turn, avoid: &mut D) {
        self.apply_observed(rules, turn, avoid, &mut Unobserved);
    }

    /// [`Engine::apply`], reporting the room, the turn and every card faced to `obs`.
    #[inline]
    pub fn apply_observed<D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        turn: &Turn,
        avoid: &mut D,
        obs: &mut O,
    ) {
        self.play_turn(rules, turn, avoid, obs, true);
    }

    /// [`Engine::apply_observed`], the dungeon's counts updated only if `count`.
    #[inline]
    fn play_turn<D: Dealer, O: Observer<Seen>>(
        &mut self,
        rules: &Rules,
        turn: &Turn,
        avoid: &mut D,
        obs: &mut O,
        count: bool,
    ) {
        let view = self.view(rules);
        let to_face = view.to_face;
        obs.see(|| {
            let room = Event::room(view.room, view.can_avoid, to_face);
            self.seen(room, 0)
        });
        obs.see(|| self.seen(Event::turn(view.room, view.can_avoid, to_face, turn), 0));
        if turn.avoid && view.can_avoid {
            self.avoid_room(rules, avoid, count);
            obs.see(|| {
                self.seen(
                    Event::Avoided {
                        cards: Cards::of(&self.room),
                    },
                    0,
                )
            });
            return;
        }
        let order = if turn.avoid { [0, 1, 2, 3] } else { turn.order };
        debug_assert!(
            (0..to_face).all(|i| usize::from(order[i]) < usize::from(self.room_len)
                && !order[..i].contains(&order[i])),
            "bad turn {turn:?} for a room of {}",
            self.room_len
        );
        self.avoided_last = false;
        self.hero.new_turn();
        for (step, &i) in order[..to_face].iter().enumerate() {
            let code = self.room[usize::from(i)];
            let armed = turn.weapon >> step & 1 == 1 || !rules.barehanded;
            let discard = rules.weapon_discard && turn.discard >> step & 1 == 1;
            let effect = if discard && card::is_weapon(code) {
                Effect::default()
            } else {
                self.hero.face(rules, code, armed)
            };
            self.out.damage_taken += u16::from(effect.damage);
            self.out.potions_wasted += u8::from(effect.wasted);
            let v = card::value(code);
            let monster = if card::is_monster(code) { v } else { 0 };
            self.monsters_left -= i16::from(monster);
            self.out.largest_weapon = self.out.largest_weapon.max(self.hero.weapon);
            obs.see(|| {
                let (damage, healed, wasted) = (effect.damage, effect.healed, effect.wasted);
                let armed = armed && card::is_monster(code) && damage < v;
                let event = Event::Face {
                    card: code,
                    armed,
                    damage,
                    healed,
                    wasted,
                };
                self.seen(event, step as u8 + 1)
            });
            if !self.hero.alive() {
                self.last_faced = code;
                self.finish(rules, false, step as u8 + 1);
                return;
            }
        }
        self.survived(order, to_face);
    }

    /// Avoids the current room (which may be avoided): its cards go to the bottom of the
    /// dungeon as `avoid_order` says, the dungeon's counts updated only if `count`.
    #[inline(always)]
    fn avoid_room<D: Dealer>(&mut self, rules: &Rules, avoid: &mut D, count: bool) {
        self.out.rooms_avoided += 1;
        if rules.avoid_order == AvoidOrder::Shuffle {
            avoid.shuffle(&mut self.room);
        }
        self.dungeon.put_bottom4(self.room);
        if count {
            for &code in &self.room {
                self.left.add(code);
            }
        }
        if rules.avoid_order == AvoidOrder::Reshuffle {
            avoid.shuffle(self.dungeon.gather());
        }
        self.room_len = 0;
        self.avoided_last = true;
    }

    /// Plays the current room, full, from `survived`: what the policy's own simulation of its
    /// turn did (see [`Policy::decide`]). The same game as [`Engine::apply`] with that turn,
    /// without facing the cards again.
    #[inline]
    pub fn apply_survived(&mut self, survived: &Survived) {
        debug_assert!(survived.played.alive && usize::from(self.room_len) == ROOM);
        self.add_played(&survived.played);
        self.keep(survived.kept);
    }

    /// Plays the current room, full, from `lost`: the policy's own simulation of its turn, in
    /// which the hero dies. The same game as [`Engine::apply`] with that turn, without facing
    /// the cards again.
    #[inline]
    pub fn apply_lost(&mut self, rules: &Rules, lost: &Lost) {
        debug_assert!(!lost.played.alive && usize::from(self.room_len) == ROOM);
        self.add_played(&lost.played);
        self.finish(rules, false, lost.faced);
    }

    /// Keeps the card `code` for the next room. The room is written as one word, the card in
    /// each slot (the slots past the first are never read): the next draw reads the room as one
    /// word, and a load the processor cannot forward from one narrower store (a byte written
    /// alone) waits for that store to reach the cache.
    #[inline(always)]
    fn keep(&mut self, code: u8) {
        self.room = (u32::from(code) * 0x0101_0101).to_le_bytes();
        self.room_len = 1;
    }

    /// Records a room entered whose cards faced did `played`. What the potions healed, the
    /// cards faced and the rooms entered are not summed: [`Engine::finish`] works them out.
    #[inline(always)]
    fn add_played(&mut self, played: &Played) {
        self.avoided_last = false;
        self.hero = played.hero;
        self.out.damage_taken += played.damage;
        self.out.potions_wasted += played.wasted;
        self.monsters_left -= i16::from(played.slain);
        self.out.largest_weapon = self.out.largest_weapon.max(played.largest);
        self.last_faced = played.last;
    }

    /// Ends a room survived after facing its first `to_face` cards in `order`: keeps the card
    /// not faced (if any) for the next room.
    #[inline(always)]
    fn survived(&mut self, order: [u8; ROOM], to_face: usize) {
        self.last_faced = self.room[usize::from(order[to_face - 1])];
        if to_face < usize::from(self.room_len) {
            // A full room keeps the one card not faced: the indices of a room of 4 sum to 6.
            let faced: u8 = order[..ROOM - 1].iter().sum();
            self.keep(self.room[usize::from(6 - faced) % ROOM]);
        } else {
            self.room_len = 0;
        }
    }

    /// Ends the game, `faced` cards of the current room faced, and works out what is not summed
    /// as the game goes: what the potions healed, from HP and the damage (HP changes only by
    /// them); the cards faced, from those left ([`Engine::cards_faced`]); the rooms entered,
    /// from the cards faced (every room entered but the last faces `ROOM - 1` cards, the last
    /// one or more).
    fn finish(&mut self, rules: &Rules, won: bool, faced: u8) {
        self.over = true;
        let cards_faced = self.cards_faced(faced);
        self.out.cards_faced = cards_faced;
        self.out.rooms_entered = cards_faced.div_ceil((ROOM - 1) as u8);
        let hp = self.hero.hp;
        self.out.win = won;
        self.out.final_hp = hp;
        let healed = i32::from(hp) - i32::from(rules.start_hp) + i32::from(self.out.damage_taken);
        self.out.healed = healed as u16;
        self.out.score = if won {
            hp + i16::from(bonus(rules, hp, self.last_faced))
        } else {
            hp - self.monsters_left
        };
    }

    /// The game's report so far (final once [`Engine::enter_room`] returned false; `healed`,
    /// `cards_faced` and `rooms_entered` are filled in only then).
    pub fn outcome(&self) -> &Outcome {
        &self.out
    }

    /// The cards in the room: between rooms, the card left for the next.
    pub fn room(&self) -> &[u8] {
        &self.room[..usize::from(self.room_len)]
    }

    /// The player's state.
    pub fn hero(&self) -> &Hero {
        &self.hero
    }

    /// The dungeon in order: hidden from fair policies, for the clairvoyant ceiling and tests.
    pub fn dungeon(&self) -> &Dungeon {
        &self.dungeon
    }

    /// True if the last room was avoided.
    pub fn avoided_last(&self) -> bool {
        self.avoided_last
    }

    /// The last card faced (0 before any).
    pub fn last_faced(&self) -> u8 {
        self.last_faced
    }

    /// The cards faced so far (the final count once the game is over).
    pub fn faced(&self) -> u8 {
        if self.over {
            self.out.cards_faced
        } else {
            self.cards_faced(0)
        }
    }

    /// True once the game is over.
    pub fn over(&self) -> bool {
        self.over
    }

    /// Puts the dungeon's cards in the order `cards` (top first): the same cards, another order
    /// (a world sampled from what the player has seen, `super::state`).
    pub fn reorder(&mut self, cards: &[u8]) {
        debug_assert_eq!(
            Counts::of(cards),
            Counts::of(&self.dungeon.iter().collect::<Vec<_>>())
        );
        self.dungeon = Dungeon::new(cards);
    }

    /// The game as it stood before the current room was filled ([`Engine::enter_room`] returned
    /// true): the cards drawn back on top of the dungeon, the card kept from the room before (if
    /// any) alone in the room. What the clairvoyant solves from when asked mid-room.
    pub fn unfilled(&self) -> Engine {
        debug_assert!(!self.over);
        // A room entered and survived keeps one card for the next; the first room and a room
        // after an avoid keep none.
        let kept = usize::from(self.cards_faced(0) > 0 && !self.avoided_last);
        let drawn = &self.room()[kept..];
        let mut me = self.clone();
        let cards: Vec<u8> = drawn.iter().copied().chain(self.dungeon.iter()).collect();
        me.dungeon = Dungeon::new(&cards);
        for &code in drawn {
            me.left.add(code);
        }
        me.room_len = kept as u8;
        me
    }
}

/// The score bonus of a win at `hp` whose last card faced was `last`: the potion's value at full
/// HP when the rules give it, else 0.
#[inline]
pub fn bonus(rules: &Rules, hp: i16, last: u8) -> u8 {
    if rules.potion_bonus && hp == i16::from(rules.max_hp) && card::kind(last) == Kind::Potion {
        card::value(last)
    } else {
        0
    }
}
