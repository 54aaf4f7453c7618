//! A recorded game replayed through the state API: the deal line's heaps stacked, the batches
//! going back under them in their recorded orders, and at each decision the recorded move (or,
//! if the record's move is not legal there, a legal one: a replay that drifts shows as
//! different events, never a panic).

use serde_json::{Value, json};

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::junkyard::cards::Heap;
use crate::games::junkyard::combat::{self, MAX_BOTS};
use crate::games::junkyard::events::Event;
use crate::games::junkyard::state::{At, Move, State as Position};
use crate::games::junkyard::{Engine, Junkyard, Outcome};
use crate::games::observe::Scripted;
use crate::trace::{Traced, check_deal_cards};

use super::{Seen, State, Watch, deal_heaps};

/// What one turn of a recorded game decided.
#[derive(Clone, Debug, Default)]
struct Turn {
    /// Step 3's builds and tear-downs.
    acts: Vec<Move>,
    /// The attackers.
    attack: u32,
    /// The defender's blocks, if attacked.
    blocks: [u8; MAX_BOTS],
    /// Each blocked attacker's split, in order: the blockers destroyed (bit `k`: its `k`-th
    /// blocker in index order).
    splits: Vec<u32>,
}

/// The decisions of a recorded game: each seat's set-up building, then each turn's.
#[derive(Clone, Debug, Default)]
struct Script {
    setup: [Vec<Move>; 2],
    turns: Vec<Turn>,
}

impl Script {
    fn of(events: &[Seen]) -> Self {
        let mut script = Self::default();
        for seen in events {
            let act = match seen.event {
                Event::TurnStarted { .. } => {
                    script.turns.push(Turn::default());
                    continue;
                }
                Event::Built { seat, bot } => (seat, Move::Build(bot)),
                Event::Deployed {
                    seat,
                    card,
                    target_at,
                    own_at,
                    ..
                } => (
                    seat,
                    Move::Deploy {
                        card,
                        target: target_at,
                        own: own_at,
                    },
                ),
                _ => {
                    if let Some(turn) = script.turns.last_mut() {
                        match seen.event {
                            Event::Attacked { mask, .. } => turn.attack = mask,
                            Event::Blocked { of, .. } => turn.blocks = of,
                            Event::Split { mask, .. } => turn.splits.push(mask),
                            _ => {}
                        }
                    }
                    continue;
                }
            };
            match script.turns.last_mut() {
                Some(turn) => turn.acts.push(act.1),
                None => script.setup[usize::from(act.0 & 1)].push(act.1),
            }
        }
        script
    }

    /// The recorded move at `state`'s decision, the `k`-th of its kind in this call (step 3 or
    /// set-up actions, splits), if the record has one there.
    fn recorded(&self, state: &Position<'_, Scripted>, k: usize) -> Option<Move> {
        let turn = usize::from(state.engine().turns());
        let this = turn.checked_sub(1).and_then(|t| self.turns.get(t));
        Some(match state.at() {
            At::Setup(seat) => self.setup[usize::from(seat)]
                .get(k)
                .copied()
                .unwrap_or(Move::Stop),
            At::Act => this?.acts.get(k).copied().unwrap_or(Move::Stop),
            At::Attack { next, .. } => Move::Attack(this?.attack >> next & 1 == 1),
            At::Block { next, .. } => Move::Block(
                this?
                    .blocks
                    .get(usize::from(next))
                    .and_then(|&of| of.checked_sub(1)),
            ),
            At::Split { blocks, strike } => {
                let j = strike.next()?;
                let destroyed = *this?.splits.get(k)?;
                // From a mask over the attacker's blockers to one over the defender's automatons.
                let blockers = blocks.blockers_of(j);
                Move::Split(
                    combat::bits(blockers)
                        .enumerate()
                        .filter(|&(n, _)| destroyed >> n & 1 == 1)
                        .fold(0, |m, (_, i)| m | 1 << i),
                )
            }
            At::Over(_) => return None,
        })
    }
}

/// The kind of decision `at` is, for counting the moves of one call.
fn kind(at: At) -> u8 {
    match at {
        At::Setup(seat) => seat,
        At::Act => 2,
        At::Attack { .. } => 3,
        At::Block { .. } => 4,
        At::Split { .. } => 5,
        At::Over(_) => 6,
    }
}

impl Junkyard {
    /// Replays the deal line `deal` with the decisions of `events` through the state API from
    /// the stacked heaps; the engine is returned too, at the game's end.
    pub fn replay_engine(
        &self,
        deal: &Value,
        events: &[Seen],
    ) -> Result<(Traced<Seen, Outcome>, Engine)> {
        check_deal_cards(self, deal, &[&["heaps"]])?;
        let rules = self.rules();
        let [a, b] = deal_heaps(deal)?;
        let returns: Vec<Vec<Vec<u8>>> =
            serde_json::from_value(deal.get("returns").cloned().unwrap_or(json!([[], []])))
                .map_err(|e| SimError::input(format!("the deal's returns: {e}")))?;
        let [ra, rb]: [Vec<Vec<u8>>; 2] = returns
            .try_into()
            .map_err(|_| SimError::input("the deal's returns: not one list per seat"))?;
        let engine = Engine::from_heaps(rules, [Heap::stacked(&a), Heap::stacked(&b)]);
        let script = Script::of(events);
        let mut seen = Vec::new();
        let mut obs = Watch {
            state: State::start(rules),
            each: |s| seen.push(s),
        };
        let returns = [Scripted::new(ra), Scripted::new(rb)];
        let mut state = Position::from_engine(rules, engine, returns, &mut obs);
        let mut moves = Vec::new();
        // The call under way (turn and kind of decision) and the moves made in it.
        let (mut call, mut k) = ((0, 0), 0);
        while state.deciding().is_some() {
            let now = (state.engine().turns(), kind(state.at()));
            if now != call {
                (call, k) = (now, 0);
            }
            state.legal_moves(&mut moves);
            // Off the record: stop building, no block, the first split.
            let off = match state.at() {
                At::Setup(_) | At::Act => Move::Stop,
                _ => moves[0],
            };
            let mv = script
                .recorded(&state, k)
                .filter(|m| moves.contains(m))
                .unwrap_or(off);
            state.apply_observed(mv, &mut obs);
            k += 1;
        }
        let outcome = state.outcome();
        Ok((
            Traced {
                events: seen,
                outcome,
            },
            *state.engine(),
        ))
    }
}
