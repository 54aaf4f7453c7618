//! A plain policy's decisions at the state's granularity. The engine asks a policy for a
//! whole call at once (its set-up building, its step 3 with the attack, its blocks), the state
//! for one move at a time. So at a call's first decision the policy's whole call is run once on
//! a copy of the game, its coins drawn from the seat's generator as the engine draws them, and
//! its moves recorded: the [`Plan`], replayed one move a decision while the game follows it.
//! A move off the plan drops it; a policy asked in a call it did not start (a person or a search
//! played the first moves) plays the rest of the call from where it stands (its step 3 again,
//! its attack alone ([`Policy::attackers`]), its blocks for the automatons left).

use std::hash::{Hash, Hasher};

use crate::cards::Dealer;
use crate::games::junkyard::combat::{self, Blocks};
use crate::games::junkyard::engine::{Sources, Turn};
use crate::games::junkyard::events::{Event, Observer};
use crate::games::junkyard::policy::{Policy, PolicyKind};
use crate::rng::GameRng;

use super::{At, Move, NO_BLOCKER, State};

/// The most actions of one step 3 a plan holds: at most 21 builds (each of at least three of at
/// most 64 cards), two tear-downs and the stop.
const MAX_ACTS: usize = 32;

/// Which call of a policy a plan is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// None (no decision, or a split: one decision a call).
    None,
    /// A seat's set-up building.
    Setup(u8),
    /// The step 3 and attack of this turn.
    Main(u16),
    /// The blocks of this turn's combat.
    Block(u16),
}

/// A plain policy's recorded call: the moves it makes, from the call's first decision (or from
/// where it was first asked) to its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The policy that made it; `None` for no plan.
    policy: Option<PolicyKind>,
    /// The call it is for.
    call: Call,
    /// Step 3's (or set-up's) actions, the stop last.
    acts: [Move; MAX_ACTS],
    len: u8,
    /// The next action.
    next: u8,
    /// The attack (a mask over the automatons after step 3).
    mask: u32,
    /// The blocks (legal).
    blocks: Blocks,
}

/// A policy's weights are finite numbers, so equality is reflexive.
impl Eq for Plan {}

/// The policy is left out (equal plans hash alike all the same): the moves tell plans apart.
impl Hash for Plan {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.call.hash(state);
        self.acts[..usize::from(self.len)].hash(state);
        (self.next, self.mask, self.blocks).hash(state);
    }
}

impl Plan {
    /// No plan.
    pub const NONE: Self = Self {
        policy: None,
        call: Call::None,
        acts: [Move::Stop; MAX_ACTS],
        len: 0,
        next: 0,
        mask: 0,
        blocks: Blocks::NONE,
    };

    /// True if `policy` made this plan for `call`.
    fn serves(&self, policy: &PolicyKind, call: Call) -> bool {
        self.call == call && self.policy.as_ref() == Some(policy)
    }

    /// The plan's move at `at`.
    fn move_at(&self, at: At) -> Option<Move> {
        match at {
            At::Setup(_) | At::Act => self.acts[..usize::from(self.len)]
                .get(usize::from(self.next))
                .copied(),
            At::Attack { next, .. } => Some(Move::Attack(self.mask >> next & 1 == 1)),
            At::Block { next, .. } if next == NO_BLOCKER => Some(Move::Block(None)),
            At::Block { next, .. } => Some(Move::Block(
                self.blocks.target(usize::from(next)).map(|j| j as u8),
            )),
            At::Split { .. } | At::Over(_) => None,
        }
    }

    /// Follows `mv`, played at `at` in `call`: the plan goes on if it is the plan's move there,
    /// and is dropped otherwise.
    pub(super) fn follow(&mut self, call: Call, at: At, mv: Move) {
        if self.policy.is_none() {
            return;
        }
        if self.call != call || self.move_at(at) != Some(mv) {
            *self = Self::NONE;
        } else if matches!(at, At::Setup(_) | At::Act) {
            self.next += 1;
        }
    }

    /// Drops the plan unless it is for `call` (the call under way).
    pub(super) fn keep_for(&mut self, call: Call) {
        if self.call != call {
            *self = Self::NONE;
        }
    }

    /// True if there is a plan.
    pub(super) fn is_some(&self) -> bool {
        self.policy.is_some()
    }
}

/// Records a step 3's (or set-up's) actions from the engine's events.
struct Recorder {
    acts: [Move; MAX_ACTS],
    len: usize,
}

impl Recorder {
    fn push(&mut self, mv: Move) {
        assert!(
            self.len < MAX_ACTS,
            "a step 3 of more than {MAX_ACTS} actions"
        );
        self.acts[self.len] = mv;
        self.len += 1;
    }
}

impl Observer for Recorder {
    fn event(&mut self, event: Event) {
        match event {
            Event::Built { bot, .. } => self.push(Move::Build(bot)),
            Event::Deployed {
                card,
                target_at,
                own_at,
                ..
            } => self.push(Move::Deploy {
                card,
                target: target_at,
                own: own_at,
            }),
            _ => {}
        }
    }
}

impl<D: Dealer + Clone> State<'_, D> {
    /// The call the game is in.
    pub(super) fn call(&self) -> Call {
        let turn = self.engine.turns();
        match self.at {
            At::Setup(seat) => Call::Setup(seat),
            At::Act | At::Attack { .. } => Call::Main(turn),
            At::Block { .. } => Call::Block(turn),
            At::Split { .. } | At::Over(_) => Call::None,
        }
    }

    /// The move `policy` makes at the decision the game waits at, from its plan of the call
    /// (made now, with `coins`, if it has none).
    pub(super) fn planned(&mut self, policy: &PolicyKind, coins: &mut GameRng) -> Move {
        let seat = self
            .deciding()
            .expect("a decision is asked of a game not over");
        let s = usize::from(seat);
        let call = self.call();
        let rules = self.rules;
        if !self.plan.serves(policy, call) {
            let mut plan = Plan {
                policy: Some(policy.clone()),
                call,
                ..Plan::NONE
            };
            match self.at {
                At::Setup(_) | At::Act => self.record_step3(policy, s, coins, &mut plan),
                At::Attack { .. } => plan.mask = policy.attackers(rules, &self.view(seat), coins),
                At::Block { attackers, .. } => {
                    let view = self.view(seat);
                    let blocks = policy.block(rules, &view, attackers, coins);
                    plan.blocks =
                        combat::legal_blocks(blocks, view.opp_bots(), attackers, view.bots());
                }
                At::Split { blocks, strike } => {
                    let j = strike.next().expect("a split waits for an attacker");
                    let view = self.view(seat);
                    let bot = view.bots()[j];
                    return Move::Split(policy.split_in(
                        rules,
                        &view,
                        &bot,
                        blocks.blockers_of(j),
                        coins,
                    ));
                }
                At::Over(_) => unreachable!("the game is not over"),
            }
            self.plan = plan;
        }
        self.plan
            .move_at(self.at)
            .expect("a plan moves at its call")
    }

    /// `policy`'s step 3 (or set-up building) for `seat` from here, run on a copy of the game
    /// with its coins from `coins`: its actions (then the stop) and its attack into `plan`.
    fn record_step3(&self, policy: &PolicyKind, seat: usize, coins: &mut GameRng, plan: &mut Plan) {
        let mut engine = self.engine;
        let mut returns = self.returns.clone();
        let mut seats = [GameRng::unused(), GameRng::unused()];
        std::mem::swap(&mut seats[seat], coins);
        let mut recorder = Recorder {
            acts: [Move::Stop; MAX_ACTS],
            len: 0,
        };
        let mask = {
            let mut src = Sources {
                returns: &mut returns,
                coins: &mut seats,
                obs: &mut recorder,
            };
            let mut turn = Turn::new(&mut engine, seat, &mut src);
            if matches!(self.at, At::Setup(_)) {
                policy.setup(self.rules, &mut turn);
                0
            } else {
                policy.main(self.rules, &mut turn)
            }
        };
        std::mem::swap(&mut seats[seat], coins);
        recorder.push(Move::Stop);
        plan.acts = recorder.acts;
        plan.len = recorder.len as u8;
        plan.mask = mask & combat::all(engine.side(seat).bots().len());
    }
}
