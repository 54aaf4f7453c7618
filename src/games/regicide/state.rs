//! Regicide one decision at a time: its [`GameState`], on the fast engine.
//!
//! A state is the [`Engine`] paused before a decision ([`Engine::halt_at`]), where it stopped
//! ([`Resume`]), the hearts generator, and, for a real game, what each seat knows
//! ([`Knowledge`], from the public events). Applying a move resumes the engine with that move
//! and pauses it again before the next decision, so the state plays exactly the fast engine's
//! game. A sampled world is [`determinize::sample`]'s, with hearts drawn afresh.

mod twin;

use crate::games::state::{GameState, ToMove};
use crate::rng::{GameKey, GameRng};

use super::card;
use super::engine::{Engine, Resume, Streams};
use super::events::{Event, Observer, Unobserved};
use super::moves::{Covers, Plays};
use super::policy::{Action, Defence, Policy, PolicyKind, Step1, Step4, each_kind};
use super::rules::{ROYALS, Rules};
use super::search::determinize;
use super::search::knowledge::Knowledge;
use super::search::moves::{Forced, Move};
use super::view::View;

/// A game of Regicide waiting for a decision, or over.
#[derive(Clone, Debug)]
pub struct State<'r> {
    rules: &'r Rules,
    engine: Engine,
    /// The decision the engine paused before; `None` once the game is over.
    at: Option<Resume>,
    hearts: GameRng,
    /// What each seat knows (kept from the events: a world sampled from a state starts from the
    /// state's).
    knowledge: Vec<Knowledge>,
}

/// A policy for the engine's calls that are never decisions: the engine pauses before every
/// decision of a state, so it asks nothing but which covers to list (all of them).
struct Paused;

impl Policy for Paused {
    fn attack(&self, _: &View, _: &Step1, _: &mut GameRng) -> Action {
        unreachable!("a state's engine pauses before step 1")
    }
    fn next_seat(&self, _: &View, _: &mut GameRng) -> u8 {
        unreachable!("a state's engine pauses before a next seat")
    }
    fn defend(&self, _: &View, _: &Step4, _: &mut GameRng) -> Defence {
        unreachable!("a state's engine pauses before step 4")
    }
}

/// Keeps every seat's knowledge up to date with the engine's public events, and passes the
/// events on to `O` (a trace; a no-op otherwise).
struct Watch<'a, O>(&'a mut [Knowledge], &'a mut O);

impl<O: Observer> Observer for Watch<'_, O> {
    fn event(&mut self, engine: &Engine, event: Event) {
        for k in self.0.iter_mut() {
            k.event(engine, &event);
        }
        self.1.event(engine, event);
    }
}

/// What one seat has observed: its knowledge of the face-down cards (from the public events),
/// its hand and everything face up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The seat's knowledge.
    pub knowledge: Knowledge,
    /// Its hand.
    pub hand: u64,
    /// Where the game waits (the same for every seat).
    pub at: Option<Resume>,
    /// The face-up and counted parts of the game, as a policy's view has them.
    pub public: [u64; 8],
}

impl<'r> State<'r> {
    /// Game `key` of a run dealt from `fresh` (an unshuffled engine for `rules`), up to its
    /// first decision; `track` keeps each seat's knowledge (needed to sample worlds from it).
    pub fn deal(rules: &'r Rules, fresh: &Engine, key: GameKey, track: bool) -> Self {
        Self::deal_observed(rules, fresh, key, track, &mut Unobserved)
    }

    /// [`State::deal`], every event of the deal to `obs`.
    pub fn deal_observed<O: Observer>(
        rules: &'r Rules,
        fresh: &Engine,
        key: GameKey,
        track: bool,
        obs: &mut O,
    ) -> Self {
        let mut engine = fresh.clone();
        engine.shuffle(
            &mut key.stream(Streams::CASTLE),
            &mut key.stream(Streams::TAVERN),
        );
        Self::from_shuffled(rules, engine, key.stream(Streams::HEARTS), track, obs)
    }

    /// A game from `engine` with castle and tavern in order (shuffled or stacked), hearts to
    /// shuffle with `hearts`, up to its first decision.
    pub fn from_shuffled<O: Observer>(
        rules: &'r Rules,
        mut engine: Engine,
        mut hearts: GameRng,
        track: bool,
        obs: &mut O,
    ) -> Self {
        let mut knowledge: Vec<Knowledge> = if track {
            (0..engine.players())
                .map(|seat| Knowledge::new(seat, &engine))
                .collect()
        } else {
            Vec::new()
        };
        engine.halt_at(0);
        engine.play(
            rules,
            &Paused,
            &mut hearts,
            &mut GameRng::unused(),
            &mut Watch(&mut knowledge, obs),
        );
        Self {
            rules,
            at: engine.paused(),
            engine,
            hearts,
            knowledge,
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The generator of hearts' shuffles to come (the clairvoyant sees them).
    pub fn hearts(&self) -> &GameRng {
        &self.hearts
    }

    /// The engine as the game stands.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The decision the game waits for (`None` once over).
    pub fn at(&self) -> Option<Resume> {
        self.at
    }

    /// The game's report (final once over).
    pub fn outcome(&self) -> &super::Outcome {
        self.engine.outcome()
    }

    /// What `seat` can see now, as a policy's view has it.
    pub fn view(&self, seat: u8) -> View<'_> {
        self.engine.view(self.rules, seat)
    }

    /// [`GameState::apply`], every event to `obs`.
    pub fn apply_observed<O: Observer>(&mut self, mv: Move, obs: &mut O) {
        let at = self.at.expect("a move is applied to a game not over");
        self.engine.halt_at(self.engine.outcome().decisions + 1);
        self.engine.resume(
            self.rules,
            &Forced::new(mv, &Paused),
            &mut self.hearts,
            &mut GameRng::unused(),
            &mut Watch(&mut self.knowledge, obs),
            at,
        );
        self.at = self.engine.paused();
    }

    /// The moves of the decision at `at` for a seat whose policy is `policy` (its list of
    /// discards is the engine's for that policy), into `moves`.
    fn moves_for<P: Policy>(&self, policy: &P, moves: &mut Vec<Move>) {
        moves.clear();
        let Some(at) = self.at else { return };
        match at {
            Resume::Turn(seat) | Resume::Attack(seat) => {
                let mut plays = Plays::default();
                self.engine.generate_plays(seat, &mut plays);
                let step = self.engine.step1(self.rules, seat, &plays);
                moves.extend(step.plays.iter().map(|&p| Move::Attack(Action::Play(p))));
                if step.can_yield {
                    moves.push(Move::Attack(Action::Yield));
                }
                if step.solo_jester {
                    moves.push(Move::Attack(Action::SoloJester));
                }
            }
            Resume::Defend { seat, .. } => {
                let mut covers = Covers::default();
                self.engine
                    .covers_for(policy, seat, self.engine.need(), &mut covers);
                let covers = covers.as_slice();
                moves.extend(covers.iter().map(|&c| Move::Defend(Defence::Discard(c))));
                if self.engine.solo_jesters_left() > 0 {
                    moves.push(Move::Defend(Defence::SoloJester));
                }
                if covers.is_empty() {
                    moves.push(Move::Defend(Defence::GiveUp));
                }
            }
            Resume::Next(_) => {
                let players = self.engine.players();
                moves.extend((0..players).map(Move::Next));
            }
        }
    }

    /// The move `policy` (any engine policy: a plain one, a person, a script) makes at the
    /// paused decision.
    pub fn policy_move_with<P: Policy>(&self, policy: &P, coins: &mut GameRng) -> Move {
        let at = self.at.expect("a decision is asked of a game not over");
        let view = self.view(at.seat());
        match at {
            Resume::Turn(seat) | Resume::Attack(seat) => {
                let mut plays = Plays::default();
                self.engine.generate_plays(seat, &mut plays);
                let step = self.engine.step1(self.rules, seat, &plays);
                Move::Attack(policy.attack(&view, &step, coins))
            }
            Resume::Defend { seat, used } => {
                let mut covers = Covers::default();
                self.engine
                    .covers_for(policy, seat, self.engine.need(), &mut covers);
                let step = Step4 {
                    covers: covers.as_slice(),
                    solo_jester: self.engine.solo_jesters_left() > 0,
                    used_jester: used,
                };
                Move::Defend(policy.defend(&view, &step, coins))
            }
            Resume::Next(_) => Move::Next(policy.next_seat(&view, coins)),
        }
    }

    /// The move the plain `policy` makes at the paused decision.
    pub fn policy_move_with_kind(&self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        each_kind!(policy, p => self.policy_move_with(p, coins))
    }

    /// Plays on from the paused decision to the end with `policy`, the first decision `first`
    /// if given.
    fn finish<P: Policy>(&mut self, first: Option<Move>, policy: &P, coins: &mut GameRng) {
        let Some(at) = self.at else { return };
        self.engine.halt_at(u16::MAX);
        match first {
            Some(mv) => self.engine.resume(
                self.rules,
                &Forced::new(mv, policy),
                &mut self.hearts,
                coins,
                &mut Unobserved,
                at,
            ),
            None => self.engine.resume(
                self.rules,
                policy,
                &mut self.hearts,
                coins,
                &mut Unobserved,
                at,
            ),
        };
        self.at = None;
    }
}

impl GameState for State<'_> {
    type Move = Move;
    type Observation = Observation;
    type Policy = PolicyKind;

    fn seats(&self) -> u8 {
        self.engine.players()
    }

    fn to_move(&self) -> ToMove {
        match self.at {
            Some(at) => ToMove::Seat(at.seat()),
            None => ToMove::Over,
        }
    }

    fn legal(&self, moves: &mut Vec<Move>) {
        self.moves_for(&Paused, moves);
    }

    /// At step 4, the `width` discards of least total (then fewest cards), and a set-aside
    /// Jester if one is left; giving up only when nothing else is legal (a Jester is never
    /// worse than losing now). Every legal move elsewhere.
    fn candidates(&self, moves: &mut Vec<Move>, width: usize) {
        self.legal(moves);
        if !matches!(self.at, Some(Resume::Defend { .. })) {
            return;
        }
        let (mut covers, rest): (Vec<Move>, Vec<Move>) = moves
            .iter()
            .partition(|m| matches!(m, Move::Defend(Defence::Discard(_))));
        covers.sort_by_key(|m| match m {
            Move::Defend(Defence::Discard(c)) => (c.total, c.count, c.cards),
            _ => unreachable!("partitioned"),
        });
        covers.truncate(width.max(1));
        let jester = rest.contains(&Move::Defend(Defence::SoloJester));
        moves.clear();
        moves.extend(covers);
        if jester {
            moves.push(Move::Defend(Defence::SoloJester));
        }
        if moves.is_empty() {
            moves.push(Move::Defend(Defence::GiveUp));
        }
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

    fn progress(&self, _seat: u8) -> f32 {
        f32::from(self.engine.outcome().royals) / ROYALS as f32
    }

    /// Turns: each start of step 1.
    fn length(&self) -> Option<u32> {
        Some(u32::from(self.engine.outcome().turns))
    }

    fn value_features(&self, seat: u8, out: &mut Vec<f32>) {
        crate::games::value::Featured::features_of(self, seat, out);
    }

    fn observation(&self, seat: u8) -> Observation {
        let v = self.view(seat);
        let mut sizes = 0u64;
        for (i, &n) in v.hand_sizes.iter().enumerate() {
            sizes |= u64::from(n) << (8 * i);
        }
        let mut flags = 0u64;
        for (i, &y) in v.yielded.iter().enumerate() {
            flags |= u64::from(y) << i;
        }
        flags |= u64::from(v.cancelled) << 8 | u64::from(v.known_top.map_or(0, |c| c + 1)) << 16;
        Observation {
            knowledge: self.knowledge[usize::from(seat)].clone(),
            hand: v.hand,
            at: self.at,
            public: [
                v.table,
                v.discard,
                u64::from(v.enemy) | u64::from(v.castle) << 8 | u64::from(v.tavern) << 16,
                u64::from(v.health) | u64::from(v.attack) << 16 | u64::from(v.damage) << 32,
                u64::from(v.spades) | u64::from(v.solo_jesters) << 16,
                sizes,
                flags,
                self.engine
                    .castle()
                    .iter()
                    .fold(0, |m, &c| m | card::bit(c)),
            ],
        }
    }

    fn sample_into(&self, seat: u8, rng: &mut GameRng, world: &mut Self) {
        let knowledge = &self.knowledge[usize::from(seat)];
        determinize::sample(knowledge, &self.engine, rng, &mut world.engine);
        world.rules = self.rules;
        world.at = self.at;
        world.hearts = GameRng::new(rng.next_u64(), 0, Streams::HEARTS);
        world.knowledge.clone_from(&self.knowledge);
    }

    fn fingerprint(&self) -> Option<u64> {
        let e = &self.engine;
        let mut h = 0x243F_6A88_85A3_08D3u64;
        let mut mix = |x: u64| h = crate::rng::splitmix64(h ^ x);
        for c in e.tavern().iter() {
            mix(u64::from(c));
        }
        mix(0xFF);
        for &c in e.discard().cards() {
            mix(u64::from(c));
        }
        mix(0xFE);
        for &c in e.castle() {
            mix(u64::from(c));
        }
        for hand in e.hands() {
            mix(*hand);
        }
        mix(e.table());
        let v = self.view(0);
        mix(u64::from(v.damage) | u64::from(v.spades) << 16 | u64::from(v.cancelled) << 32);
        let mut yielded = 0;
        for (i, &y) in v.yielded.iter().enumerate() {
            yielded |= u64::from(y) << i;
        }
        mix(u64::from(e.solo_jesters_left()) | yielded << 8);
        mix(match self.at {
            None => 0,
            Some(Resume::Turn(s) | Resume::Attack(s)) => 1 | u64::from(s) << 8,
            Some(Resume::Defend { seat, used }) => (2 + u64::from(used)) | (u64::from(seat) << 8),
            Some(Resume::Next(s)) => 4 | u64::from(s) << 8,
        });
        mix(self.hearts.clone().next_u64());
        Some(h)
    }

    fn policy_move(&mut self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        self.policy_move_with_kind(policy, coins)
    }

    fn rollout(&mut self, policy: &PolicyKind, coins: &mut GameRng) {
        each_kind!(policy, p => self.finish(None, p, coins));
    }

    fn play_out(&mut self, first: Move, policy: &PolicyKind, coins: &mut GameRng) {
        each_kind!(policy, p => self.finish(Some(first), p, coins));
    }
}
