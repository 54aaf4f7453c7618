//! A state game's trace: the deal (its seed and index: every chance of the game is drawn from
//! them) and each decision, replayed by dealing the same game again and applying the recorded
//! moves, each checked to be legal; and a person's game at `sim play`.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Result, SimError};
use crate::games::state::{GameState, ToMove};
use crate::rng::{GameKey, GameRng};
use crate::search::play::Player;
use crate::trace::play::{Answer, Ask, Desk};
use crate::trace::{Traceable, Traced};

use super::{COINS, MoveOf, OnState, Outcome, Rulebook, SeatOf};

/// An event of a state game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Step<M> {
    /// Game `index` of a run seeded `seed` was dealt (every card and later chance with it).
    Deal {
        /// The run's seed.
        seed: u64,
        /// The game's index in the run.
        index: u64,
    },
    /// `seat` decided `choice`.
    Move {
        /// The deciding seat.
        seat: u8,
        /// Its move.
        choice: M,
    },
}

/// The seat deciding in `state`; a state at a decision has one.
fn deciding<S: GameState>(state: &S) -> u8 {
    match state.to_move() {
        ToMove::Seat(seat) => seat,
        ToMove::Over => unreachable!("a move is applied at a decision"),
    }
}

impl<B: Rulebook> OnState<B> {
    /// Plays game `index` of seed `seed`, seat 0 by `seat0` if given, every event to `seen`.
    fn traced(
        &self,
        seed: u64,
        index: u64,
        seat0: Option<&mut dyn Player<B::State>>,
        mut seen: impl FnMut(Step<MoveOf<B>>),
    ) -> Outcome {
        let key = GameKey::new(seed, index);
        let mut state = self.deal(key);
        seen(Step::Deal { seed, index });
        let decisions = self.play_state(&mut state, key, seat0, |s, choice| {
            seen(Step::Move {
                seat: deciding(s),
                choice,
            });
            s.apply(choice);
        });
        Outcome::of(&state, decisions)
    }
}

/// The person in seat 0 of `sim play`, asked at each decision, with seat 0's player's advice.
struct Person<'d, 'p, B: Rulebook> {
    desk: &'d RefCell<&'p mut dyn Desk>,
    adviser: Option<(&'d str, SeatOf<'d, B>)>,
    coins: GameRng,
    quit: bool,
}

impl<B: Rulebook> Player<B::State> for Person<'_, '_, B> {
    fn decide(&mut self, state: &mut B::State, seat: u8, _: &mut GameRng) -> MoveOf<B> {
        let mut moves = Vec::new();
        state.legal(&mut moves);
        if self.quit {
            return moves[0];
        }
        let choices: Vec<String> = moves.iter().map(B::words).collect();
        let hint = match &mut self.adviser {
            Some((name, adviser)) => {
                let best = adviser.decide(&mut state.clone(), seat, &mut self.coins.clone());
                let at = moves.iter().position(|m| *m == best).unwrap_or(0);
                vec![format!("hint ({name}): {}) {}", at + 1, choices[at])]
            }
            None => Vec::new(),
        };
        let ask = Ask {
            table: B::table(state, seat),
            choices,
            hint,
        };
        match self.desk.borrow_mut().ask(&ask) {
            Answer::Pick(i) => moves[i],
            Answer::Quit => {
                self.quit = true;
                moves[0]
            }
        }
    }
}

impl<B: Rulebook> Traceable for OnState<B> {
    type Seen = Step<MoveOf<B>>;

    fn trace(&self, seed: u64, index: u64) -> Traced<Self::Seen, Outcome> {
        let mut events = Vec::new();
        let outcome = self.traced(seed, index, None, |s| events.push(s));
        Traced { events, outcome }
    }

    fn deal(events: &[Self::Seen]) -> Value {
        match events.first() {
            Some(Step::Deal { seed, index }) => json!({ "seed": seed, "index": index }),
            _ => json!({}),
        }
    }

    fn replay(&self, deal: &Value, events: &[Self::Seen]) -> Result<Traced<Self::Seen, Outcome>> {
        let number = |key: &str| {
            deal.get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| SimError::input(format!("the deal's {key}: not a whole number")))
        };
        let (seed, index) = (number("seed")?, number("index")?);
        let mut state = self.deal(GameKey::new(seed, index));
        let mut replayed = vec![Step::Deal { seed, index }];
        let mut moves = Vec::new();
        for (n, step) in events.iter().enumerate().skip(1) {
            let Step::Move { seat, choice } = *step else {
                return Err(SimError::input(format!("event {n}: a second deal")));
            };
            let ToMove::Seat(deciding) = state.to_move() else {
                return Err(SimError::input(format!(
                    "event {n}: a move after the game's end"
                )));
            };
            state.legal(&mut moves);
            if seat != deciding || !moves.contains(&choice) {
                return Err(SimError::input(format!(
                    "event {n}: not a legal move of the deciding seat ({deciding})"
                )));
            }
            replayed.push(*step);
            state.apply(choice);
        }
        if state.to_move() != ToMove::Over {
            return Err(SimError::input(
                "the record's moves end before the game".to_string(),
            ));
        }
        let decisions = replayed.len() as u32 - 1;
        Ok(Traced {
            events: replayed,
            outcome: Outcome::of(&state, decisions),
        })
    }

    fn words(&self, seen: &Self::Seen) -> Option<String> {
        Some(match seen {
            Step::Deal { seed, index } => format!("deal: game {index} of seed {seed}"),
            Step::Move { seat, choice } => format!("seat {seat}: {}", B::words(choice)),
        })
    }

    fn is_decision(seen: &Self::Seen) -> bool {
        matches!(seen, Step::Move { .. })
    }

    fn play_person(
        &self,
        seed: u64,
        index: u64,
        hints: bool,
        desk: &mut dyn Desk,
    ) -> Option<Traced<Self::Seen, Outcome>> {
        let key = GameKey::new(seed, index);
        let desk = RefCell::new(desk);
        let adviser = hints.then(|| (self.seat_name(0), self.player_of(0, key)));
        let mut person = Person::<B> {
            desk: &desk,
            adviser,
            coins: key.stream(COINS),
            quit: false,
        };
        let mut events = Vec::new();
        let seat0: &mut dyn Player<B::State> = &mut person;
        let outcome = self.traced(seed, index, Some(seat0), |step| {
            if let Step::Move { seat: 1.., .. } = step
                && let Some(words) = self.words(&step)
            {
                desk.borrow_mut().show(&words);
            }
            events.push(step);
        });
        (!person.quit).then_some(Traced { events, outcome })
    }
}
