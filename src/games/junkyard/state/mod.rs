//! Junkyard Frankenstein one decision at a time: its [`GameState`], on the fast engine.
//!
//! A state is the [`Engine`] between two of its phases, where it would ask a policy ([`At`]):
//! a seat's set-up building and its step 3, one action at a time ([`Move::Build`],
//! [`Move::Deploy`], [`Move::Stop`]); its attack, one automaton at a time in index order
//! ([`Move::Attack`]); the defender's blocks, one automaton at a time in index order, those in
//! the attack area skipped ([`Move::Block`]); and each blocked attacker's split
//! ([`Move::Split`]). Applying a move runs the engine's own phase functions up to the next
//! decision, so the moves a game's policies make give the fast engine's very game (each
//! plain policy's whole call is run once and replayed one move at a time, see
//! [`plan`]). A seat is asked wherever the engine asks its policy, even with one choice (a
//! policy draws its coins there all the same: `random`'s step 3 and splits, `lookahead`'s
//! blocks); the attack's and blocks' later automatons always have two choices or more.
//!
//! Attacks and blocks go one automaton at a time because their whole sets cannot be listed (2^21
//! attacks, (attackers + 1)^blockers blocks); a split is one decision, since an attacker's
//! legal splits are few. The game's chance is in the state: both heaps in order and each seat's
//! generator of the order cards go back under its heap ([`Returns`]). A sampled world
//! ([`world`]) places what a seat cannot see uniformly, with the returns drawn afresh.

pub mod moves;
pub mod plan;
mod twin;
pub mod world;

use crate::cards::Dealer;
use crate::games::state::{GameState, ToMove};
use crate::rng::{GameKey, GameRng};

use super::combat::{self, Blocks};
use super::engine::{Engine, Sources, Streams, Strike, Turn};
use super::events::Observer;
use super::outcome::Outcome;
use super::policy::{Policy, PolicyKind, dispatch};
use super::random::Random;
use super::rules::Rules;
use super::simple::Simple;
use super::view::View;

pub use moves::Move;
use plan::Plan;
pub use world::Observation;

/// The dealer of the cards going back under a seat's heap: shuffled by the seat's own
/// generator, or (with `shuffle_returns` off) left in the rules' fixed order.
#[derive(Clone, Debug)]
pub enum Returns {
    /// Shuffled by this generator.
    Shuffled(GameRng),
    /// Left in order.
    Fixed,
}

impl Dealer for Returns {
    #[inline]
    fn shuffle(&mut self, cards: &mut [u8]) {
        if let Returns::Shuffled(rng) = self {
            rng.shuffle(cards);
        }
    }
}

impl Returns {
    /// Both seats' dealers of game `key` under `rules`.
    pub fn of(rules: &Rules, key: GameKey) -> [Self; 2] {
        [0, 1].map(|seat| {
            if rules.shuffle_returns {
                Returns::Shuffled(key.stream(Streams::RETURNS + seat))
            } else {
                Returns::Fixed
            }
        })
    }
}

/// No blocker can block: the defender is asked once all the same ([`At::Block`]).
pub const NO_BLOCKER: u8 = u8::MAX;

/// Where a game waits: the decision the engine would ask a policy for next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum At {
    /// Set-up building of this seat (both opening draws done).
    Setup(u8),
    /// Step 3 of the seat whose turn it is.
    Act,
    /// Step 4: whether automaton `next` attacks; those before it chose `mask`.
    Attack {
        /// The attackers so far.
        mask: u32,
        /// The automaton that decides now.
        next: u8,
    },
    /// The defender's blocks against `attackers`: `blocks` so far, and the automaton that
    /// decides now ([`NO_BLOCKER`] when none can block: one decision, with no block its only
    /// move).
    Block {
        /// The attackers (declared).
        attackers: u32,
        /// The blocks so far.
        blocks: Blocks,
        /// The defender's automaton that decides now.
        next: u8,
    },
    /// Step 5: the split of the attacker `strike.next()` against `blocks`.
    Split {
        /// The blocks (final).
        blocks: Blocks,
        /// Where the strikes stand.
        strike: Strike,
    },
    /// The game is over: the winner, or `None` for a draw at the turn cap.
    Over(Option<u8>),
}

/// A game of Junkyard waiting for a decision, or over; `D` orders the cards going back under
/// the heaps ([`Returns`] in a real game or a sampled world; a recorded order in a replay).
#[derive(Clone, Debug)]
pub struct State<'r, D = Returns> {
    rules: &'r Rules,
    engine: Engine,
    returns: [D; 2],
    at: At,
    /// The plain policy's recorded call under way, if any.
    plan: Plan,
}

impl<'r> State<'r> {
    /// Game `key` of a run under `rules`, its heaps shuffled by their streams, up to its first
    /// decision.
    pub fn deal(rules: &'r Rules, key: GameKey) -> Self {
        Self::deal_observed(rules, key, &mut ())
    }

    /// [`State::deal`], every event of the deal to `obs`.
    pub fn deal_observed<O: Observer>(rules: &'r Rules, key: GameKey, obs: &mut O) -> Self {
        let engine = Engine::deal(
            rules,
            [
                &mut key.stream(Streams::HEAP),
                &mut key.stream(Streams::HEAP + 1),
            ],
        );
        Self::from_engine(rules, engine, Returns::of(rules, key), obs)
    }

    /// The move `policy` makes here for the deciding seat, drawing its coins from `coins`.
    pub fn policy_move_with(&mut self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        self.planned(policy, coins)
    }
}

impl<'r, D: Dealer + Clone> State<'r, D> {
    /// A game from `engine` (both heaps in order, nothing drawn), the cards going back under
    /// each seat's heap ordered by `returns`, up to its first decision; the deal's events to
    /// `obs`.
    pub fn from_engine<O: Observer>(
        rules: &'r Rules,
        mut engine: Engine,
        returns: [D; 2],
        obs: &mut O,
    ) -> Self {
        engine.opening(rules, obs);
        let mut state = Self {
            rules,
            engine,
            returns,
            at: At::Setup(0),
            plan: Plan::NONE,
        };
        if !rules.setup_build {
            state.start_turn(obs);
        }
        state
    }

    /// A game in any position (a puzzle, a test): `engine` with its last turn begun (the seat
    /// whose turn it is has drawn), at that seat's step 3; the cards going back under each
    /// seat's heap ordered by `returns`. Each seat must own the rules' whole heap (heap, hand,
    /// assembly area and automatons together) for worlds to be drawn from it.
    pub fn at_step3(rules: &'r Rules, engine: Engine, returns: [D; 2]) -> Self {
        Self {
            rules,
            engine,
            returns,
            at: At::Act,
            plan: Plan::NONE,
        }
    }

    /// The outcome (final once over; `swapped` false).
    pub fn outcome(&self) -> Outcome {
        let winner = match self.at {
            At::Over(winner) => winner,
            _ => None,
        };
        self.engine.outcome(winner)
    }

    /// The rules in force.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The engine as the game stands.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Where the game waits.
    pub fn at(&self) -> At {
        self.at
    }

    /// What `seat` can see now, as a policy's view has it.
    pub fn view(&self, seat: u8) -> View<'_> {
        self.engine.view(usize::from(seat))
    }

    /// Whose decision it is: the seat building at set-up, the seat whose turn it is at its
    /// step 3, attack and splits, the other seat at its blocks.
    pub fn deciding(&self) -> Option<u8> {
        let (seat, def) = self.engine.combatants();
        match self.at {
            At::Setup(s) => Some(s),
            At::Act | At::Attack { .. } | At::Split { .. } => Some(seat as u8),
            At::Block { .. } => Some(def as u8),
            At::Over(_) => None,
        }
    }

    /// The legal moves of the deciding seat, in a fixed order, into `moves` (cleared first):
    /// at step 3 (and set-up) the builds, the tear-downs (step 3 only), then stop (see
    /// [`moves::step3`]); at the attack no, then yes; at a block none, then each attacker it
    /// can block; at a split each legal one by increasing mask.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let Some(seat) = self.deciding() else { return };
        let view = self.view(seat);
        match self.at {
            At::Setup(_) => moves::step3(&view, false, moves),
            At::Act => moves::step3(&view, true, moves),
            At::Attack { .. } => moves.extend([Move::Attack(false), Move::Attack(true)]),
            At::Block { next, .. } if next == NO_BLOCKER => moves.push(Move::Block(None)),
            At::Block { attackers, .. } => moves::blocks(&view, attackers, moves),
            At::Split { blocks, strike } => {
                let j = strike.next().expect("a split waits for an attacker");
                moves::splits(&view, j, blocks.blockers_of(j), moves);
            }
            At::Over(_) => {}
        }
    }

    /// Plays `mv` (one of [`State::legal_moves`]) for the deciding seat, then the engine up to
    /// the next decision or the end, every event to `obs`.
    pub fn apply_observed<O: Observer>(&mut self, mv: Move, obs: &mut O) {
        self.plan.follow(self.call(), self.at, mv);
        let (seat, _) = self.engine.combatants();
        match (self.at, mv) {
            (At::Setup(s), Move::Build(_)) => self.act(usize::from(s), mv, obs),
            (At::Setup(0), Move::Stop) => self.at = At::Setup(1),
            (At::Setup(_), Move::Stop) => self.start_turn(obs),
            (At::Act, Move::Build(_) | Move::Deploy { .. }) => self.act(seat, mv, obs),
            (At::Act, Move::Stop) => self.attack_from(0, 0, obs),
            (At::Attack { mask, next }, Move::Attack(yes)) => {
                self.attack_from(mask | u32::from(yes) << next, next + 1, obs)
            }
            (
                At::Block {
                    attackers,
                    mut blocks,
                    next,
                },
                Move::Block(target),
            ) => {
                if next == NO_BLOCKER {
                    return self.blocked(attackers, blocks, obs);
                }
                if let Some(j) = target {
                    blocks.assign(usize::from(next), usize::from(j));
                }
                self.block_from(attackers, blocks, usize::from(next) + 1, obs);
            }
            (At::Split { blocks, strike }, Move::Split(split)) => {
                let mut once = Some(split);
                self.strike(blocks, strike, obs, |_, _, _| once.take());
            }
            (at, mv) => panic!("{mv:?} is not a move at {at:?}"),
        }
        let call = self.call();
        self.plan.keep_for(call);
    }

    /// A build or a tear-down of `seat`'s step 3 (or set-up).
    fn act<O: Observer>(&mut self, seat: usize, mv: Move, obs: &mut O) {
        let mut coins = [GameRng::unused(), GameRng::unused()];
        let mut src = Sources {
            returns: &mut self.returns,
            coins: &mut coins,
            obs,
        };
        let mut turn = Turn::new(&mut self.engine, seat, &mut src);
        match mv {
            Move::Build(bot) => turn.build(bot),
            Move::Deploy { card, target, own } => {
                turn.deploy(card, usize::from(target), own.map(usize::from))
            }
            _ => unreachable!("a step 3 action"),
        }
    }

    /// The next turn begun (steps 1 and 2), up to its step 3.
    fn start_turn<O: Observer>(&mut self, obs: &mut O) {
        self.engine.begin_turn(self.rules, obs);
        self.at = At::Act;
    }

    /// The attack with `mask` chosen for the automatons before `next`: the next automaton's
    /// decision, or, once all have chosen, the attack declared.
    fn attack_from<O: Observer>(&mut self, mask: u32, next: u8, obs: &mut O) {
        let (seat, _) = self.engine.combatants();
        if usize::from(next) < self.engine.side(seat).bots().len() {
            self.at = At::Attack { mask, next };
            return;
        }
        match self.engine.declare(mask, obs) {
            None => self.end_turn(false, obs),
            Some(attackers) => {
                let (_, def) = self.engine.combatants();
                let blockable = self.engine.side(seat).keys().all()
                    & !self.engine.side(seat).keys().four_ones
                    & attackers;
                let free = self.engine.side(def).keys().defense();
                if blockable == 0 || free == 0 {
                    self.at = At::Block {
                        attackers,
                        blocks: Blocks::NONE,
                        next: NO_BLOCKER,
                    };
                } else {
                    self.block_from(attackers, Blocks::NONE, 0, obs);
                }
            }
        }
    }

    /// The blocks so far: the decision of the defender's next automaton from index `from` on
    /// that is not in the attack area, or, if none is left, the blocks made.
    fn block_from<O: Observer>(
        &mut self,
        attackers: u32,
        blocks: Blocks,
        from: usize,
        obs: &mut O,
    ) {
        let (_, def) = self.engine.combatants();
        let free = self.engine.side(def).keys().defense() & !combat::all(from);
        match combat::bits(free).next() {
            Some(i) => {
                self.at = At::Block {
                    attackers,
                    blocks,
                    next: i as u8,
                }
            }
            None => self.blocked(attackers, blocks, obs),
        }
    }

    /// The blocks made: reported, then the strikes up to the first split to choose.
    fn blocked<O: Observer>(&mut self, attackers: u32, blocks: Blocks, obs: &mut O) {
        let (seat, def) = self.engine.combatants();
        obs.event(super::events::Event::Blocked {
            seat: def as u8,
            of: blocks.of,
        });
        self.strike(blocks, Strike::of(seat, attackers), obs, |_, _, _| None);
    }

    /// Steps 5 and 6 from `strike` on, the splits from `choose` until it has none: the next
    /// split's decision, or the turn's end.
    fn strike<O: Observer>(
        &mut self,
        blocks: Blocks,
        strike: Strike,
        obs: &mut O,
        choose: impl FnMut(&Engine, usize, u32) -> Option<u32>,
    ) {
        match self
            .engine
            .strike(&blocks, strike, &mut self.returns, obs, choose)
        {
            Ok(won) => self.end_turn(won, obs),
            Err(strike) => self.at = At::Split { blocks, strike },
        }
    }

    /// The turn's end: the game won by the seat whose turn it was (`won`), a draw at the turn
    /// cap, or the next turn.
    fn end_turn<O: Observer>(&mut self, won: bool, obs: &mut O) {
        let (seat, _) = self.engine.combatants();
        let winner = if won {
            Some(seat as u8)
        } else if self.engine.turns() >= self.rules.turn_cap {
            None
        } else {
            return self.start_turn(obs);
        };
        self.engine.finish(winner, obs);
        self.at = At::Over(winner);
    }

    /// Plays on from the decision the game waits at to the end, `policy` in both seats (the
    /// engine's fast phases: the rest of the call under way by the policy, then whole turns).
    fn finish<P: Policy>(&mut self, policy: &P, mut coins: [GameRng; 2]) {
        let rules = self.rules;
        let policies = [policy, policy];
        let (seat, def) = self.engine.combatants();
        let mut src = Sources {
            returns: &mut self.returns,
            coins: &mut coins,
            obs: &mut (),
        };
        let engine = &mut self.engine;
        let won = match self.at {
            At::Over(_) => return,
            At::Setup(s) => {
                for seat in usize::from(s)..2 {
                    policy.setup(rules, &mut Turn::new(engine, seat, &mut src));
                }
                false
            }
            At::Act => {
                let mask = policy.main(rules, &mut Turn::new(engine, seat, &mut src));
                engine.combat(rules, policies, mask, &mut src)
            }
            At::Attack { mask, next } => {
                let rest = policy.attackers(rules, &engine.view(seat), &mut src.coins[seat]);
                let before = combat::all(usize::from(next));
                engine.combat(rules, policies, mask | (rest & !before), &mut src)
            }
            At::Block {
                attackers,
                blocks,
                next,
            } => {
                let mut all = Blocks::NONE;
                if next != NO_BLOCKER {
                    let view = engine.view(def);
                    let theirs = policy.block(rules, &view, attackers, &mut src.coins[def]);
                    all = combat::legal_blocks(theirs, view.opp_bots(), attackers, view.bots());
                    all.of[..usize::from(next)].copy_from_slice(&blocks.of[..usize::from(next)]);
                }
                engine.strike_on(rules, policies, &all, Strike::of(seat, attackers), &mut src)
            }
            At::Split { blocks, strike } => {
                engine.strike_on(rules, policies, &blocks, strike, &mut src)
            }
        };
        let winner = if won {
            Some(seat as u8)
        } else if engine.turns() >= rules.turn_cap {
            None
        } else {
            engine.play_on(rules, policies, &mut src).winner
        };
        self.at = At::Over(winner);
        self.plan = Plan::NONE;
    }
}

/// Both seats' generators for a game finished by `policy`, from `coins` (unused ones for a
/// policy that draws none).
fn rollout_coins(policy: &PolicyKind, coins: &mut GameRng) -> [GameRng; 2] {
    if policy.draws_coins() {
        [0, 1].map(|seat| GameRng::new(coins.next_u64(), 0, seat))
    } else {
        [GameRng::unused(), GameRng::unused()]
    }
}

impl GameState for State<'_> {
    type Move = Move;
    type Observation = Observation;
    type Policy = PolicyKind;

    fn seats(&self) -> u8 {
        2
    }

    fn to_move(&self) -> ToMove {
        match self.deciding() {
            Some(seat) => ToMove::Seat(seat),
            None => ToMove::Over,
        }
    }

    fn legal(&self, moves: &mut Vec<Move>) {
        self.legal_moves(moves);
    }

    /// At step 3 and set-up, the builds of the `width` strongest automatons (the policies
    /// build the strongest), every tear-down and stop; every legal move elsewhere.
    fn candidates(&self, moves: &mut Vec<Move>, width: usize) {
        self.legal_moves(moves);
        let strength = |m: &Move| match m {
            Move::Build(b) => Some(b.strength()),
            _ => None,
        };
        let mut builds: Vec<u32> = moves.iter().filter_map(strength).collect();
        if builds.len() <= width {
            return;
        }
        builds.sort_unstable_by(|a, b| b.cmp(a));
        let least = builds[width.max(1) - 1];
        moves.retain(|m| strength(m).is_none_or(|s| s >= least));
    }

    fn apply(&mut self, mv: Move) {
        self.apply_observed(mv, &mut ());
    }

    fn key(mv: &Move) -> u64 {
        mv.key()
    }

    fn result(&self, seat: u8) -> f32 {
        match self.at {
            At::Over(Some(w)) => f32::from(u8::from(w == seat)),
            _ => 0.5,
        }
    }

    /// The HP difference, `seat`'s less the other's (each counted from 0), over twice the
    /// higher starting HP, from 0 (the other at full HP, `seat` at none) to 1.
    fn progress(&self, seat: u8) -> f32 {
        let hp = |s: usize| f32::from(self.engine.side(s).hp().max(0));
        let seat = usize::from(seat);
        let full = f32::from(self.rules.hp(0).max(self.rules.hp(1)));
        ((hp(seat) - hp(1 - seat)) / (2.0 * full) + 0.5).clamp(0.0, 1.0)
    }

    /// The turns played.
    fn length(&self) -> Option<u32> {
        Some(u32::from(self.engine.turns()))
    }

    /// A game over without a winner: a draw at the turn cap (the rules' only draw).
    fn capped(&self) -> bool {
        self.at == At::Over(None)
    }

    fn value_features(&self, seat: u8, out: &mut Vec<f32>) {
        crate::games::value::Featured::features_of(self, seat, out);
    }

    fn observation(&self, seat: u8) -> Observation {
        self.observe(seat)
    }

    fn sample_into(&self, seat: u8, rng: &mut GameRng, world: &mut Self) {
        self.sample(seat, rng, world);
    }

    fn policy_move(&mut self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        self.planned(policy, coins)
    }

    fn rollout(&mut self, policy: &PolicyKind, coins: &mut GameRng) {
        let coins = rollout_coins(policy, coins);
        dispatch!(policy, p => self.finish(p, coins));
    }
}

#[cfg(test)]
mod tests;
