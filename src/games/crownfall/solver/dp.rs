//! Dynamic programming over the whole game under fresh odds: the best win probability of every
//! state and the moves that reach it, or the win probability of a given plan.
//!
//! States are solved in increasing tower number (every successor of a state has a smaller
//! number or, within the same tower, a lower HP). A strike whose short banks or busts cost no HP
//! returns to its own state: its value is the least fixed point of "best strike given my own
//! value", found by Newton steps from below (each step solves the strike for the current value,
//! then takes the exact value of repeating those moves), which end when a step no longer improves.

use crate::error::Result;

use super::super::outcome::Enemy;
use super::super::rules::Rules;
use super::plan::{Plan, StrikePlan};
use super::space::Space;
use super::strike::{self, Affine, Ends, TOP};

/// The solved game: every state's win probability and the plan behind them.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The rules solved.
    pub rules: Rules,
    /// Win probability by [`Space::state`] (strike or Joker about to start).
    pub value: Vec<f64>,
    /// Win probability by [`Space::between`] (the next tower card about to be revealed).
    pub between: Vec<f64>,
    /// The moves.
    pub plan: Plan,
    /// The win probability of a new game.
    pub win: f64,
}

const ROYALS: [Enemy; 3] = [Enemy::Jack, Enemy::Queen, Enemy::King];

/// The best plan for `rules` under fresh odds, with its values.
pub fn solve(rules: &Rules) -> Result<Solution> {
    run(rules, None)
}

/// The win probability under fresh odds of playing `plan` under `rules`.
pub fn evaluate(rules: &Rules, plan: &Plan) -> Result<f64> {
    Ok(run(rules, Some(plan))?.win)
}

impl Solution {
    /// The space of the solution.
    pub fn space(&self) -> &Space {
        &self.plan.space
    }

    /// The value of each way a strike from state (`rest`, `enemy`, `hp`) can end: index 0 a
    /// bust, index s a bank at best total s.
    pub fn end_values(&self, rest: usize, enemy: Enemy, hp: u8) -> [f64; TOP as usize + 1] {
        spread(&self.rules, enemy, self.end_levels(rest, enemy, hp))
    }

    /// The four values a strike from state (`rest`, `enemy`, `hp`) can end with: full damage (a
    /// bust or a short total), guarded, defeated, defeated at 21. [`Solution::end_shape`] says
    /// which way of ending takes which.
    #[inline]
    pub fn end_levels(&self, rest: usize, enemy: Enemy, hp: u8) -> [f64; 4] {
        let levels = levels(
            &self.rules,
            self.space(),
            &self.value,
            &self.between,
            rest,
            enemy,
            hp,
        );
        let me = if levels.iter().any(|l| l.b != 0.0) {
            self.value[self.space().state(rest, enemy, hp)]
        } else {
            0.0
        };
        levels.map(|l| l.at(me))
    }

    /// For each way a strike against `enemy` ends (index 0 a bust, s a bank at s), the index of
    /// its value in [`Solution::end_levels`].
    pub fn end_shape(&self, enemy: Enemy) -> [u8; TOP as usize + 1] {
        spread(&self.rules, enemy, [0, 1, 2, 3])
    }

    /// The win probability between enemies with HP `hp` (0 or less: lost) and tower `rest` left.
    #[inline]
    pub fn between_value(&self, rest: usize, hp: i16) -> f64 {
        if hp <= 0 {
            0.0
        } else {
            self.between[self
                .space()
                .between(rest, hp.min(i16::from(self.rules.max_hp)) as u8)]
        }
    }
}

/// What a strike from state (`rest`, `enemy`, `hp`) is worth by how it ends, given the values
/// solved so far: `[full damage (a bust or short), guarded, defeated, defeated at 21]`; a
/// zero-damage end is the state itself ([`Affine::AGAIN`]).
fn levels(
    rules: &Rules,
    space: &Space,
    value: &[f64],
    between: &[f64],
    rest: usize,
    enemy: Enemy,
    hp: u8,
) -> [Affine; 4] {
    let hurt = |d: u8| {
        if d == 0 {
            Affine::AGAIN
        } else if hp <= d {
            Affine::value(0.0)
        } else {
            Affine::value(value[space.state(rest, enemy, hp - d)])
        }
    };
    let healed = hp.saturating_add(rules.heal.of(enemy)).min(rules.max_hp);
    [
        hurt(rules.damage.of(enemy)),
        hurt(rules.guard_damage.of(enemy)),
        Affine::value(between[space.between(rest, hp)]),
        Affine::value(between[space.between(rest, healed)]),
    ]
}

/// The value of each way a strike against `enemy` ends (index 0 a bust, s a bank at best total
/// s), from its [`levels`].
fn spread<T: Copy>(
    rules: &Rules,
    enemy: Enemy,
    [full, guarded, defeated, perfect]: [T; 4],
) -> [T; 22] {
    let target = rules.target.of(enemy);
    let mut ends = [full; TOP as usize + 1];
    for s in 1..=TOP {
        if s >= target {
            ends[usize::from(s)] = if s == TOP { perfect } else { defeated };
        } else if target - s <= rules.guard_zone {
            ends[usize::from(s)] = guarded;
        }
    }
    ends
}

/// The best strike from `ends`, or the strike `fixed` makes; its value and moves.
/// A tie banks at `target` and over.
fn strike_value(ends: &Ends, target: u8, fixed: Option<&StrikePlan>) -> (f64, StrikePlan) {
    if let Some(f) = fixed {
        return (
            strike::solve(ends, 0.0, target, Some(&f.moves))
                .start
                .fixed_point(),
            *f,
        );
    }
    let mut best = strike::solve(ends, 0.0, target, None);
    if ends.iter().all(|e| e.b == 0.0) {
        return (best.start.a, StrikePlan::new(best.moves));
    }
    let mut x = best.start.fixed_point();
    for _ in 0..200 {
        let next = strike::solve(ends, x, target, None);
        let y = next.start.fixed_point();
        if y <= x + 1e-15 {
            break;
        }
        (x, best) = (y, next);
    }
    (x, StrikePlan::new(best.moves))
}

fn run(rules: &Rules, fixed: Option<&Plan>) -> Result<Solution> {
    let space = Space::new(rules)?;
    let mut plan = Plan::empty(space.clone());
    let mut value = vec![0.0; space.states()];
    let mut between = vec![0.0; space.betweens()];
    let hp_range = 1..=space.max_hp;
    for rest in 0..space.rests {
        let counts = space.counts(rest);
        let left: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        for hp in hp_range.clone() {
            between[space.between(rest, hp)] = if left == 0 {
                1.0
            } else {
                Enemy::ALL
                    .iter()
                    .filter(|&&k| counts[k as usize] > 0)
                    .map(|&k| {
                        let next = rest - space.radix[k as usize];
                        f64::from(counts[k as usize]) / f64::from(left)
                            * value[space.state(next, k, hp)]
                    })
                    .sum()
            };
        }
        if space.fits(rest, Enemy::Joker) {
            let at = |hp: i16| {
                if hp <= 0 {
                    0.0
                } else {
                    between[space.between(rest, hp as u8)]
                }
            };
            for hp in hp_range.clone() {
                let h = i16::from(hp);
                let accept = at(h - i16::from(rules.joker_damage));
                let gamble = 0.5 * at(h) + 0.5 * at(h - i16::from(rules.crushing_damage));
                let i = space.between(rest, hp);
                let doubles = match fixed {
                    Some(f) => f.gamble[i],
                    None => gamble > accept + strike::TIE,
                };
                plan.gamble[i] = doubles;
                value[space.state(rest, Enemy::Joker, hp)] =
                    0.5 * at(h) + 0.5 * if doubles { gamble } else { accept };
            }
        }
        for enemy in ROYALS {
            if !space.fits(rest, enemy) {
                continue;
            }
            for hp in hp_range.clone() {
                let i = space.state(rest, enemy, hp);
                let e = spread(
                    rules,
                    enemy,
                    levels(rules, &space, &value, &between, rest, enemy, hp),
                );
                let (v, p) = strike_value(&e, rules.target.of(enemy), fixed.map(|f| &f.strikes[i]));
                value[i] = v;
                plan.strikes[i] = p;
            }
        }
    }
    let win = between[space.between(space.full_rest(), rules.start_hp)];
    Ok(Solution {
        rules: rules.clone(),
        value,
        between,
        plan,
        win,
    })
}
