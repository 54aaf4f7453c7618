//! Toy games on the state API whose evaluation figures are known in closed form, for the
//! tests of `sim evaluate`'s core (tests/suite/evaluate_toys.rs):
//!
//! - [`Flips`]: all luck. Flip a coin (heads 2/5) until heads, at most [`Flips::CAP`] flips;
//!   heads on an odd flip wins; all tails is cut off by the cap. The player's call changes
//!   nothing.
//! - [`Pick`]: all skill. Three rounds, each showing the correct side; pick it every time to
//!   win. `Accurate(a)` picks it with probability `a` (from the policy's coins).
//! - [`Guard`]: a duel with a known first-move advantage. Seat 0 then seat 1 guard (left) or
//!   drop (right); a lone dropper loses; otherwise the deal's coin decides: seat 0 wins 1/2, a
//!   draw 1/5, seat 1 wins 3/10.
//! - [`Reveal`]: a known decisive moment. Eight decisions that change nothing; coin A (heads
//!   1/2) shows after the third, coin B after the sixth; the game is won if B falls under 19/20
//!   after heads, under 3/20 after tails. Its estimate is the exact win probability.
//! - [`Tug`]: a duel of lead changes. Six rounds, the seats deciding in turn (changing
//!   nothing); after each, a fair coin moves a marker a step toward one seat; the marker's side
//!   at the end wins (the middle draws). Its estimate is the seat's exact expected result.
#![allow(dead_code)]

use sim::games::state::{GameState, ToMove, play_by_policy};
use sim::rng::{GameKey, GameRng};

/// A choice: a side (in [`Pick`]), guard or drop (in [`Guard`]), or nothing at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

/// A toy's plain policy: always one side, or (in [`Pick`]) the correct side with probability
/// `a`.
#[derive(Clone, Debug, PartialEq)]
pub enum Plain {
    Always(Side),
    Accurate(f64),
}

/// The items every toy writes alike: two sides to choose from while the game is on, a move's
/// key, no progress, and a rollout by the policy.
macro_rules! toy_items {
    () => {
        type Move = Side;
        type Policy = Plain;

        fn legal(&self, moves: &mut Vec<Side>) {
            moves.clear();
            if self.to_move() != ToMove::Over {
                moves.extend([Side::Left, Side::Right]);
            }
        }
        fn key(mv: &Side) -> u64 {
            *mv as u64
        }
        fn progress(&self, _: u8) -> f32 {
            0.0
        }
        fn rollout(&mut self, policy: &Plain, coins: &mut GameRng) {
            play_by_policy(self, policy, coins);
        }
    };
}

/// A uniform draw in [0, 1) from `rng`.
fn uniform(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

// ---------------------------------------------------------------------------------------------

/// All luck: see the module notes.
#[derive(Clone, Debug)]
pub struct Flips {
    flips: u32,
    over: bool,
    won: bool,
    cut: bool,
    chance: GameRng,
}

impl Flips {
    pub const CAP: u32 = 6;
    pub const HEADS: f64 = 0.4;

    pub fn deal(seed: u64, index: u64) -> Self {
        Self {
            flips: 0,
            over: false,
            won: false,
            cut: false,
            chance: GameKey::new(seed, index).stream(0),
        }
    }
}

impl GameState for Flips {
    type Observation = (u32, bool);
    toy_items!();

    fn seats(&self) -> u8 {
        1
    }
    fn to_move(&self) -> ToMove {
        if self.over {
            ToMove::Over
        } else {
            ToMove::Seat(0)
        }
    }
    fn apply(&mut self, _: Side) {
        self.flips += 1;
        if uniform(&mut self.chance) < Self::HEADS {
            self.over = true;
            self.won = self.flips % 2 == 1;
        } else if self.flips == Self::CAP {
            self.over = true;
            self.cut = true;
        }
    }
    fn result(&self, _: u8) -> f32 {
        f32::from(u8::from(self.won))
    }
    fn observation(&self, _: u8) -> (u32, bool) {
        (self.flips, self.over)
    }
    fn sample_into(&self, _: u8, rng: &mut GameRng, world: &mut Self) {
        *world = self.clone();
        world.chance = GameRng::new(rng.next_u64(), 0, 0);
    }
    fn policy_move(&mut self, policy: &Plain, _: &mut GameRng) -> Side {
        match policy {
            Plain::Always(side) => *side,
            Plain::Accurate(_) => Side::Left,
        }
    }
    fn length(&self) -> Option<u32> {
        Some(self.flips)
    }
    fn capped(&self) -> bool {
        self.cut
    }
}

// ---------------------------------------------------------------------------------------------

/// All skill: see the module notes.
#[derive(Clone, Debug)]
pub struct Pick {
    /// The correct side of each round.
    correct: [Side; Pick::ROUNDS],
    round: usize,
    right: usize,
}

impl Pick {
    pub const ROUNDS: usize = 3;

    pub fn deal(seed: u64, index: u64) -> Self {
        let mut rng = GameKey::new(seed, index).stream(0);
        let correct = [(); Self::ROUNDS].map(|_| {
            if rng.below(2) == 0 {
                Side::Left
            } else {
                Side::Right
            }
        });
        Self {
            correct,
            round: 0,
            right: 0,
        }
    }
}

impl GameState for Pick {
    type Observation = (usize, usize, Option<Side>);
    toy_items!();

    fn seats(&self) -> u8 {
        1
    }
    fn to_move(&self) -> ToMove {
        if self.round == Self::ROUNDS {
            ToMove::Over
        } else {
            ToMove::Seat(0)
        }
    }
    fn apply(&mut self, mv: Side) {
        self.right += usize::from(mv == self.correct[self.round]);
        self.round += 1;
    }
    fn result(&self, _: u8) -> f32 {
        f32::from(u8::from(self.right == Self::ROUNDS))
    }
    /// The round's correct side is in plain view.
    fn observation(&self, _: u8) -> (usize, usize, Option<Side>) {
        (
            self.round,
            self.right,
            self.correct.get(self.round).copied(),
        )
    }
    fn sample_into(&self, _: u8, rng: &mut GameRng, world: &mut Self) {
        *world = self.clone();
        for side in world.correct.iter_mut().skip(self.round + 1) {
            *side = if rng.below(2) == 0 {
                Side::Left
            } else {
                Side::Right
            };
        }
    }
    fn policy_move(&mut self, policy: &Plain, coins: &mut GameRng) -> Side {
        let correct = self.correct[self.round];
        let wrong = if correct == Side::Left {
            Side::Right
        } else {
            Side::Left
        };
        match policy {
            Plain::Always(side) => *side,
            Plain::Accurate(a) => {
                if uniform(coins) < *a {
                    correct
                } else {
                    wrong
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------

/// A duel with a known first-move advantage: see the module notes.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The deal's coin: below 1/2 seat 0 wins, below 7/10 a draw, else seat 1 wins.
    coin: f64,
    choices: Vec<Side>,
}

impl Guard {
    pub const SEAT0: f64 = 0.5;
    pub const DRAW: f64 = 0.2;

    pub fn deal(seed: u64, index: u64) -> Self {
        Self {
            coin: uniform(&mut GameKey::new(seed, index).stream(0)),
            choices: Vec::new(),
        }
    }
}

impl GameState for Guard {
    type Observation = (u8, usize);
    toy_items!();

    fn seats(&self) -> u8 {
        2
    }
    fn to_move(&self) -> ToMove {
        match self.choices.len() {
            0 => ToMove::Seat(0),
            1 => ToMove::Seat(1),
            _ => ToMove::Over,
        }
    }
    fn apply(&mut self, mv: Side) {
        self.choices.push(mv);
    }
    fn result(&self, seat: u8) -> f32 {
        let drops = [self.choices[0], self.choices[1]].map(|c| c == Side::Right);
        let seat0 = match drops {
            [true, false] => 0.0,
            [false, true] => 1.0,
            _ if self.coin < Self::SEAT0 => 1.0,
            _ if self.coin < Self::SEAT0 + Self::DRAW => 0.5,
            _ => 0.0,
        };
        if seat == 0 { seat0 } else { 1.0 - seat0 }
    }
    /// Neither seat sees the coin or the other's choice.
    fn observation(&self, seat: u8) -> (u8, usize) {
        (seat, self.choices.len())
    }
    fn sample_into(&self, _: u8, rng: &mut GameRng, world: &mut Self) {
        *world = self.clone();
        world.coin = uniform(rng);
    }
    fn policy_move(&mut self, policy: &Plain, _: &mut GameRng) -> Side {
        match policy {
            Plain::Always(side) => *side,
            Plain::Accurate(_) => Side::Left,
        }
    }
}

// ---------------------------------------------------------------------------------------------

/// A known decisive moment: see the module notes.
#[derive(Clone, Debug)]
pub struct Reveal {
    heads: bool,
    b: f64,
    decisions: u32,
}

impl Reveal {
    pub const DECISIONS: u32 = 8;
    /// Coin A shows once this many decisions are made.
    pub const A_SHOWS: u32 = 3;
    /// Coin B shows once this many decisions are made.
    pub const B_SHOWS: u32 = 6;
    /// The win chance after heads and after tails.
    pub const AFTER: [f64; 2] = [0.95, 0.15];

    pub fn deal(seed: u64, index: u64) -> Self {
        let mut rng = GameKey::new(seed, index).stream(0);
        Self {
            heads: rng.below(2) == 0,
            b: uniform(&mut rng),
            decisions: 0,
        }
    }

    fn threshold(&self) -> f64 {
        Self::AFTER[usize::from(!self.heads)]
    }
}

impl GameState for Reveal {
    type Observation = (u32, Option<bool>, Option<bool>);
    toy_items!();

    fn seats(&self) -> u8 {
        1
    }
    fn to_move(&self) -> ToMove {
        if self.decisions == Self::DECISIONS {
            ToMove::Over
        } else {
            ToMove::Seat(0)
        }
    }
    fn apply(&mut self, _: Side) {
        self.decisions += 1;
    }
    fn result(&self, _: u8) -> f32 {
        f32::from(u8::from(self.b < self.threshold()))
    }
    fn observation(&self, _: u8) -> (u32, Option<bool>, Option<bool>) {
        let a = (self.decisions >= Self::A_SHOWS).then_some(self.heads);
        let won = (self.decisions >= Self::B_SHOWS).then(|| self.b < self.threshold());
        (self.decisions, a, won)
    }
    fn sample_into(&self, _: u8, rng: &mut GameRng, world: &mut Self) {
        *world = self.clone();
        if self.decisions < Self::A_SHOWS {
            world.heads = rng.below(2) == 0;
        }
        if self.decisions < Self::B_SHOWS {
            world.b = uniform(rng);
        }
    }
    fn policy_move(&mut self, _: &Plain, _: &mut GameRng) -> Side {
        Side::Left
    }
    /// The exact win probability given what has been shown.
    fn estimate(&self, _: u8) -> Option<f32> {
        let v = if self.decisions >= Self::B_SHOWS {
            f64::from(self.result(0))
        } else if self.decisions >= Self::A_SHOWS {
            self.threshold()
        } else {
            (Self::AFTER[0] + Self::AFTER[1]) / 2.0
        };
        Some(v as f32)
    }
}

// ---------------------------------------------------------------------------------------------

/// A duel of lead changes: see the module notes.
#[derive(Clone, Debug)]
pub struct Tug {
    steps: [i8; Tug::ROUNDS],
    round: usize,
    marker: i32,
}

impl Tug {
    pub const ROUNDS: usize = 6;

    pub fn deal(seed: u64, index: u64) -> Self {
        let mut rng = GameKey::new(seed, index).stream(0);
        Self {
            steps: [(); Self::ROUNDS].map(|_| if rng.below(2) == 0 { 1 } else { -1 }),
            round: 0,
            marker: 0,
        }
    }

    /// Seat 0's expected result with the marker at `marker` and `left` fair steps to come.
    pub fn value(marker: i32, left: usize) -> f64 {
        let mut total = 0.0;
        for ups in 0..=left {
            let end = marker + 2 * ups as i32 - left as i32;
            let ways = (0..ups).fold(1.0, |w, i| w * (left - i) as f64 / (i + 1) as f64);
            let p = ways / 2f64.powi(left as i32);
            total += p * match end.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
        }
        total
    }
}

impl GameState for Tug {
    type Observation = (usize, i32);
    toy_items!();

    fn seats(&self) -> u8 {
        2
    }
    fn to_move(&self) -> ToMove {
        if self.round == Self::ROUNDS {
            ToMove::Over
        } else {
            ToMove::Seat((self.round % 2) as u8)
        }
    }
    fn apply(&mut self, _: Side) {
        self.marker += i32::from(self.steps[self.round]);
        self.round += 1;
    }
    fn result(&self, seat: u8) -> f32 {
        let seat0 = match self.marker.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        if seat == 0 { seat0 } else { 1.0 - seat0 }
    }
    fn observation(&self, _: u8) -> (usize, i32) {
        (self.round, self.marker)
    }
    fn sample_into(&self, _: u8, rng: &mut GameRng, world: &mut Self) {
        *world = self.clone();
        for step in world.steps.iter_mut().skip(self.round) {
            *step = if rng.below(2) == 0 { 1 } else { -1 };
        }
    }
    fn policy_move(&mut self, _: &Plain, _: &mut GameRng) -> Side {
        Side::Left
    }
    fn estimate(&self, seat: u8) -> Option<f32> {
        let v = Self::value(self.marker, Self::ROUNDS - self.round);
        Some(if seat == 0 { v } else { 1.0 - v } as f32)
    }
}
