//! Scoundrel one room at a time: its [`GameState`], on the fast engine.
//!
//! A state is the [`Engine`] waiting in a room for the player's turn ([`Engine::enter_room`]
//! returned true), the dealer of avoided rooms, and how much of the dungeon's bottom the player
//! knows. A move is a whole room's play, as the engine takes it: avoid the room, or face its
//! cards in an order (which card to leave, the order, weapon or barehanded on each monster, a
//! weapon discarded where the rules allow it). Applying a move plays it through the engine and
//! fills the next room; a room with a single legal play (a last room of one card and no choice)
//! is played by the state itself. Rollouts finish the game with the fast engine.
//!
//! **What the player knows** of the dungeon: its cards as a multiset, and below the cards never
//! seen, the cards of the rooms it avoided, as `avoid_order` put them back: in the room's order
//! (`keep`), each room's four in an order unseen (`shuffle`), or nothing (`reshuffle`: the whole
//! dungeon shuffled). The dungeon is always the unseen cards on top of those (cards are drawn
//! from the top, avoided rooms go to the bottom), so a world is sampled by shuffling the unseen
//! cards, and under `shuffle` each avoided room's cards among themselves, each set sorted first
//! so that the world depends on the observation and the generator only; later avoid shuffles
//! draw from a fresh generator.

mod twin;

use crate::cards::Stacked;
use crate::games::observe::{Cards, Observer, Unobserved};
use crate::games::state::{GameState, ToMove};
use crate::rng::GameRng;

use super::card::Counts;
use super::clairvoyant::Clairvoyant;
use super::engine::{Engine, Streams, Turn, View};
use super::evaluate::{DEAD, Evaluation};
use super::events::Seen;
use super::features::{Rich, Summary};
use super::hero::Hero;
use super::heuristic::future_avoided;
use super::outcome::Outcome;
use super::plans::{self, Options};
use super::policy::PolicyKind;
use super::rules::{AvoidOrder, MAX_CARDS, ROOM, Rules};
use super::{AvoidDealer, Scoundrel};

/// One room's play: a [`Turn`] in its canonical form ([`State::canonical`]), with the room's
/// cards in the turn's order (what tells the plays of different rooms apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The turn. Canonical: an avoid is [`Turn::AVOID`]; the order lists the cards faced, then
    /// the others by index; bit `i` of both `weapon` and `discard` is the choice at the `i`-th
    /// card faced where the rules give one there (the weapon on a monster it may be used on,
    /// discarding a weapon), else 0, and 0 past a card that kills.
    pub turn: Turn,
    /// The room's cards: those faced, in order, then the card left (0 past the room); for an
    /// avoid, the room in its order.
    pub cards: [u8; ROOM],
}

impl Move {
    /// A key that tells plays apart by their cards and choices, whatever room they are of.
    pub fn key(&self) -> u64 {
        u64::from(u32::from_le_bytes(self.cards))
            | u64::from(self.turn.weapon) << 32
            | u64::from(self.turn.avoid) << 40
    }
}

/// What the player has observed: the room, the hero, the game so far, the dungeon as a multiset,
/// and what it knows of the dungeon's bottom. Equal for two states the player cannot tell apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The room, in its order (empty once the game is over).
    pub room: Cards,
    /// HP, the weapon and its wear.
    pub hero: Hero,
    /// The game's report so far.
    pub outcome: Outcome,
    /// True if the last room was avoided.
    pub avoided_last: bool,
    /// The last card faced (0 before any).
    pub last_faced: u8,
    /// The dungeon's cards as a multiset.
    pub dungeon: Counts,
    /// The dungeon's bottom cards the player knows, top first (the rest, above them, never
    /// seen): `keep`, the avoided rooms' cards in their order; `shuffle`, each avoided room's
    /// cards (four from the bottom up, the top set possibly fewer: some were drawn), sorted
    /// within a room, their order unseen; `reshuffle`, none.
    pub bottom: Cards,
}

/// A game of Scoundrel waiting for the player's turn in a room, or over.
#[derive(Clone, Debug)]
pub struct State<'r> {
    rules: &'r Rules,
    engine: Engine,
    avoid: AvoidDealer,
    /// The dungeon's bottom cards the player knows ([`Observation::bottom`]).
    known: u8,
    /// True while a room waits for a turn.
    waiting: bool,
}

impl<'r> State<'r> {
    /// Game `index` of a run seeded with `seed`, dealt from `fresh` (an unshuffled engine for
    /// `rules`) as the run deals it, up to its first decision; the deal and every event up to
    /// the decision to `obs`.
    pub fn deal<O: Observer<Seen>>(
        rules: &'r Rules,
        fresh: &Engine,
        seed: u64,
        index: u64,
        obs: &mut O,
    ) -> Self {
        let mut engine = fresh.clone();
        engine.deal(seed, index, obs);
        let avoid = AvoidDealer::new(rules, || GameRng::new(seed, index, Streams::AVOID));
        Self::from_engine(rules, engine, avoid, obs)
    }

    /// The game of `engine` (a game not started: shuffled or stacked), avoided rooms put back by
    /// `avoid`, up to its first decision (events to `obs`).
    pub fn from_engine<O: Observer<Seen>>(
        rules: &'r Rules,
        engine: Engine,
        avoid: AvoidDealer,
        obs: &mut O,
    ) -> Self {
        let mut me = Self {
            rules,
            engine,
            avoid,
            known: 0,
            waiting: false,
        };
        me.enter(obs);
        me
    }

    /// A game whose dungeon yields `cards` top first under `rules` (avoided rooms shuffled, where
    /// the rules say so, by `avoid`), up to its first decision: for tests and puzzles.
    pub fn stacked(rules: &'r Rules, cards: &[u8], avoid: GameRng) -> Self {
        let dealer = AvoidDealer::new(rules, || avoid);
        Self::from_engine(
            rules,
            Engine::stacked(rules, cards),
            dealer,
            &mut Unobserved,
        )
    }

    /// The rules in force.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The engine as the game stands (the dungeon's order included: not for fair players).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The game's report (final once over).
    pub fn outcome(&self) -> &Outcome {
        self.engine.outcome()
    }

    /// What the player may know in the room waiting (a fair policy's view).
    pub fn view(&self) -> View<'_> {
        self.engine.view(self.rules)
    }

    /// Fills rooms until one waits for a decision with a choice (a room with one legal play is
    /// played here) or the game is over, every event to `obs`.
    fn enter<O: Observer<Seen>>(&mut self, obs: &mut O) {
        loop {
            self.waiting = self.engine.enter_room(self.rules);
            if !self.waiting {
                return;
            }
            // Cards are drawn from the top: those the player knew go last.
            self.known = self.known.min(self.engine.dungeon().len() as u8);
            match self.forced() {
                Some(mv) => self
                    .engine
                    .apply_observed(self.rules, &mv.turn, &mut self.avoid, obs),
                None => return,
            }
        }
    }

    /// The room's only legal play, if it has one: a room of one card (the last, which may not
    /// be avoided) where the rules give no choice. Every other room has two plays or more.
    fn forced(&self) -> Option<Move> {
        let view = self.view();
        if view.room.len() != 1 {
            return None;
        }
        let mut hero = view.hero;
        hero.new_turn();
        (plans::choices(self.rules, &hero, view.room[0]) == 1)
            .then(|| Self::canonical(self.rules, &view, &Turn::face([0, 1, 2, 3], 0)))
    }

    /// [`GameState::apply`], every event to `obs`.
    pub fn apply_observed<O: Observer<Seen>>(&mut self, mv: Move, obs: &mut O) {
        debug_assert!(self.waiting, "a move is applied to a game not over");
        let avoided = self.engine.outcome().rooms_avoided;
        self.engine
            .apply_observed(self.rules, &mv.turn, &mut self.avoid, obs);
        if self.engine.outcome().rooms_avoided > avoided {
            self.known = match self.rules.avoid_order {
                AvoidOrder::Keep | AvoidOrder::Shuffle => self.known + ROOM as u8,
                AvoidOrder::Reshuffle => 0,
            };
        }
        self.enter(obs);
    }

    /// The move that plays `turn` in the room of `view`, in canonical form: the same play as the
    /// engine makes of `turn` (an avoid not allowed faces the room in order; a choice bit where
    /// the rules give no choice is ignored).
    pub fn canonical(rules: &Rules, view: &View, turn: &Turn) -> Move {
        let room = view.room;
        let mut cards = [0u8; ROOM];
        if turn.avoid && view.can_avoid {
            cards.copy_from_slice(room);
            return Move {
                turn: Turn::AVOID,
                cards,
            };
        }
        let faced = if turn.avoid { [0, 1, 2, 3] } else { turn.order };
        let n = view.to_face;
        let mut order = [0u8; ROOM];
        order[..n].copy_from_slice(&faced[..n]);
        let rest = (0..ROOM as u8).filter(|i| !faced[..n].contains(i));
        for (slot, i) in order[n..].iter_mut().zip(rest) {
            *slot = i;
        }
        let mut hero = view.hero;
        hero.new_turn();
        let mut mask = 0;
        for (step, &i) in order[..n].iter().enumerate() {
            let code = room[usize::from(i)];
            let bit = if !hero.alive() || plans::choices(rules, &hero, code) == 1 {
                0
            } else if super::card::is_weapon(code) {
                turn.discard >> step & 1
            } else {
                turn.weapon >> step & 1
            };
            mask |= bit << step;
            if hero.alive() {
                hero = plans::face(rules, hero, code, bit);
            }
        }
        Self::play(room, order, mask)
    }

    /// The move facing `room` in `order` with the choices `mask`.
    fn play(room: &[u8], order: [u8; ROOM], mask: u8) -> Move {
        let mut cards = [0u8; ROOM];
        for (c, &i) in cards.iter_mut().zip(&order) {
            *c = room.get(usize::from(i)).copied().unwrap_or(0);
        }
        Move {
            turn: Turn::plan(order, mask),
            cards,
        }
    }

    /// The moves of every choice of the cards faced from `step` on in `order`, `hero` (alive)
    /// facing them with `mask` so far, into `moves`: at each card the rules give two choices
    /// (choice 0 first), past a card that kills none.
    #[allow(clippy::too_many_arguments)]
    fn choices_from(
        rules: &Rules,
        room: &[u8],
        order: [u8; ROOM],
        n: usize,
        step: usize,
        hero: Hero,
        mask: u8,
        moves: &mut Vec<Move>,
    ) {
        if step == n || !hero.alive() {
            moves.push(Self::play(room, order, mask));
            return;
        }
        let code = room[usize::from(order[step])];
        for choice in 0..plans::choices(rules, &hero, code) {
            let next = plans::face(rules, hero, code, choice);
            Self::choices_from(
                rules,
                room,
                order,
                n,
                step + 1,
                next,
                mask | choice << step,
                moves,
            );
        }
    }

    /// The play `policy` (any of the game's, the clairvoyant included: it solves from the
    /// engine) makes in the room waiting, drawing its coin flips from `coins`.
    pub fn policy_move_with(&self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        let view = self.view();
        let turn = match policy {
            PolicyKind::Clairvoyant(goal) => Clairvoyant::turn(&self.engine, self.rules, *goal),
            fair => fair
                .choose(self.rules, &view, coins)
                .expect("a fair policy chooses from the view"),
        };
        Self::canonical(self.rules, &view, &turn)
    }

    /// The best play of the room by the tuned model's score of where it leaves the player
    /// ([`Rich`]; a play that kills scores [`DEAD`]), for ranking candidates.
    fn score(view: &View, ready: &Summary, mv: &Move, hero: &Hero, left: u8) -> f32 {
        let eval = Rich::default();
        if mv.turn.avoid {
            eval.value(&view.hero, &future_avoided(view), true)
        } else if hero.alive() {
            eval.value_after(ready, hero, left)
        } else {
            DEAD
        }
    }
}

impl GameState for State<'_> {
    type Move = Move;
    type Observation = Observation;
    type Policy = PolicyKind;

    fn seats(&self) -> u8 {
        1
    }

    fn to_move(&self) -> ToMove {
        if self.waiting {
            ToMove::Seat(0)
        } else {
            ToMove::Over
        }
    }

    /// Avoiding (where allowed) first; then, by the card left (the room's index: 0 first; none
    /// in a last room), every order of the cards faced (lexicographic by index), and for each
    /// every choice (0 first, the first card's outermost).
    fn legal(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if !self.waiting {
            return;
        }
        let view = self.view();
        let room = view.room;
        if view.can_avoid {
            moves.push(Self::canonical(self.rules, &view, &Turn::AVOID));
        }
        let n = view.to_face;
        let mut hero = view.hero;
        hero.new_turn();
        // The cards faced: all but the one left (a full room), or all (the last room).
        let lefts: &[Option<u8>] = if n < room.len() {
            &[Some(0), Some(1), Some(2), Some(3)]
        } else {
            &[None]
        };
        for &left in lefts {
            let faced: Vec<u8> = (0..room.len() as u8).filter(|&i| Some(i) != left).collect();
            let mut orders = Vec::new();
            permutations(&faced, &mut Vec::new(), &mut orders);
            for o in orders {
                let mut order = [0u8; ROOM];
                order[..n].copy_from_slice(&o);
                let rest = (0..ROOM as u8).filter(|i| !o.contains(i));
                for (slot, i) in order[n..].iter_mut().zip(rest) {
                    *slot = i;
                }
                Self::choices_from(self.rules, room, order, n, 0, hero, 0, moves);
            }
        }
    }

    /// Avoiding (where allowed), then the ways to face the room that no other way beats (the
    /// same card left, at least the HP, the same weapon no more worn: [`Options`]), in their
    /// order, or the best way to die if every way kills; past `width` moves, the `width` best by
    /// the tuned model's score of where each leaves the player, in the same order.
    fn candidates(&self, moves: &mut Vec<Move>, width: usize) {
        moves.clear();
        if !self.waiting {
            return;
        }
        let view = self.view();
        if view.can_avoid {
            moves.push(Self::canonical(self.rules, &view, &Turn::AVOID));
        }
        // The living ways (their turns are canonical), else the best way to die.
        let mut options = Options::living(self.rules, &view);
        if options.as_slice().is_empty() {
            options = Options::of(self.rules, &view);
        }
        let ways = match options.as_slice() {
            [] => options.death.as_slice(),
            living => living,
        };
        moves.extend(
            ways.iter()
                .map(|o| Self::play(view.room, o.turn.order, o.turn.weapon)),
        );
        let width = width.max(1);
        if moves.len() <= width {
            return;
        }
        let ready = Summary::of(view.dungeon);
        let offset = usize::from(view.can_avoid);
        let mut scored: Vec<(usize, f32)> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let (hero, left) = match i.checked_sub(offset) {
                    Some(k) => (ways[k].hero, ways[k].left),
                    None => (view.hero, 0),
                };
                (i, Self::score(&view, &ready, mv, &hero, left))
            })
            .collect();
        // The best first (the first of equals), then back in the list's order.
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(width);
        scored.sort_by_key(|s| s.0);
        let kept: Vec<Move> = scored.iter().map(|&(i, _)| moves[i]).collect();
        *moves = kept;
    }

    fn apply(&mut self, mv: Move) {
        self.apply_observed(mv, &mut Unobserved);
    }

    fn key(mv: &Move) -> u64 {
        mv.key()
    }

    fn result(&self, _seat: u8) -> f32 {
        f32::from(u8::from(self.engine.outcome().win))
    }

    /// The share of the dungeon's cards faced.
    fn progress(&self, _seat: u8) -> f32 {
        f32::from(self.engine.faced()) / self.rules.cards() as f32
    }

    /// The rooms met: faced or avoided.
    fn length(&self) -> Option<u32> {
        let outcome = self.engine.outcome();
        Some(u32::from(outcome.rooms_entered) + u32::from(outcome.rooms_avoided))
    }

    fn value_features(&self, seat: u8, out: &mut Vec<f32>) {
        crate::games::value::Featured::features_of(self, seat, out);
    }

    fn observation(&self, _seat: u8) -> Observation {
        let n = self.engine.dungeon().len();
        let mut bottom: Vec<u8> = self
            .engine
            .dungeon()
            .iter()
            .skip(n - usize::from(self.known))
            .collect();
        if self.rules.avoid_order == AvoidOrder::Shuffle {
            for room in rooms_from_the_bottom(&mut bottom) {
                room.sort_unstable();
            }
        }
        let dungeon: Vec<u8> = self.engine.dungeon().iter().collect();
        Observation {
            room: Cards::of(if self.waiting {
                self.engine.room()
            } else {
                &[]
            }),
            hero: *self.engine.hero(),
            outcome: *self.engine.outcome(),
            avoided_last: self.engine.avoided_last(),
            last_faced: self.engine.last_faced(),
            dungeon: Counts::of(&dungeon),
            bottom: Cards::of(&bottom),
        }
    }

    fn sample_into(&self, _seat: u8, rng: &mut GameRng, world: &mut Self) {
        let dungeon = self.engine.dungeon();
        let n = dungeon.len();
        let mut cards = [0u8; MAX_CARDS];
        for (slot, code) in cards.iter_mut().zip(dungeon.iter()) {
            *slot = code;
        }
        let (unseen, bottom) = cards[..n].split_at_mut(n - usize::from(self.known));
        unseen.sort_unstable();
        rng.shuffle(unseen);
        if self.rules.avoid_order == AvoidOrder::Shuffle {
            for room in rooms_from_the_bottom(bottom) {
                room.sort_unstable();
                rng.shuffle(room);
            }
        }
        world.rules = self.rules;
        world.engine.clone_from(&self.engine);
        world.engine.reorder(&cards[..n]);
        world.avoid = match self.rules.avoid_order {
            AvoidOrder::Keep => AvoidDealer::Keep(Stacked),
            AvoidOrder::Shuffle | AvoidOrder::Reshuffle => {
                AvoidDealer::Shuffle(GameRng::new(rng.next_u64(), 0, Streams::AVOID))
            }
        };
        world.known = self.known;
        world.waiting = self.waiting;
    }

    /// The dungeon in order, the room, the hero, the last room avoided or not, the last card
    /// faced (the win's bonus) and the avoid generator's next draw: all the future depends on.
    fn fingerprint(&self) -> Option<u64> {
        let e = &self.engine;
        let mut h = 0x243F_6A88_85A3_08D3u64;
        let mut mix = |x: u64| h = crate::rng::splitmix64(h ^ x);
        for code in e.dungeon().iter() {
            mix(u64::from(code));
        }
        mix(0xFF);
        for &code in e.room() {
            mix(u64::from(code));
        }
        mix(0xFE);
        let hero = e.hero();
        mix(u64::from(hero.hp as u16)
            | u64::from(hero.weapon) << 16
            | u64::from(hero.limit) << 24
            | u64::from(hero.heals) << 32
            | u64::from(e.avoided_last()) << 40
            | u64::from(e.last_faced()) << 48
            | u64::from(self.waiting) << 56);
        if let AvoidDealer::Shuffle(rng) = &self.avoid {
            mix(rng.clone().next_u64());
        }
        Some(h)
    }

    fn policy_move(&mut self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        self.policy_move_with(policy, coins)
    }

    fn rollout(&mut self, policy: &PolicyKind, coins: &mut GameRng) {
        if self.waiting {
            let first = self.policy_move_with(policy, coins);
            self.play_out(first, policy, coins);
        }
    }

    /// The first move through the engine, then the fast engine's game with `policy` (the
    /// clairvoyant, which solves rather than plays, room by room through the state).
    fn play_out(&mut self, first: Move, policy: &PolicyKind, coins: &mut GameRng) {
        if let PolicyKind::Clairvoyant(_) = policy {
            self.apply(first);
            while self.waiting {
                let mv = self.policy_move_with(policy, coins);
                self.apply(mv);
            }
            return;
        }
        self.engine.apply(self.rules, &first.turn, &mut self.avoid);
        policy.play_from(&mut self.engine, self.rules, &mut self.avoid, coins);
        self.waiting = false;
    }
}

/// The avoided rooms' cards among `bottom` (the dungeon's known bottom, top first) under
/// `avoid_order = shuffle`: four from the bottom up, the top one possibly fewer.
fn rooms_from_the_bottom(bottom: &mut [u8]) -> std::slice::RChunksMut<'_, u8> {
    bottom.rchunks_mut(ROOM)
}

/// Every order of `items`, lexicographic by position, into `out`.
fn permutations(items: &[u8], prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if items.is_empty() {
        out.push(prefix.clone());
        return;
    }
    for k in 0..items.len() {
        prefix.push(items[k]);
        let rest: Vec<u8> = items[..k].iter().chain(&items[k + 1..]).copied().collect();
        permutations(&rest, prefix, out);
        prefix.pop();
    }
}

impl Scoundrel {
    /// Game `index` of a run seeded with `seed`, dealt as the run deals it, up to its first
    /// decision: the state API's door into the game (events of the deal to `obs`).
    pub fn state<O: Observer<Seen>>(&self, seed: u64, index: u64, obs: &mut O) -> State<'_> {
        State::deal(&self.rules, &self.fresh, seed, index, obs)
    }
}

#[cfg(test)]
mod tests;
