//! Writes a solved plan as a strategy file that `--policy` loads back (see
//! [`super::super::strategy`] for the format).

use std::fmt::Write;

use crate::rules::RuleSet;

use super::super::outcome::Enemy;
use super::dp::Solution;

/// The strategy file text of `solution`'s plan, named `name`.
pub fn strategy_toml(solution: &Solution, name: &str) -> String {
    let space = solution.space();
    let plan = &solution.plan;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# The optimal Crownfall policy under fresh odds, written by `sim solve crownfall`.\n\
         # Predicted win probability under these rules with deck = \"infinite\": {:.6}\n\
         name = {name:?}\n\
         description = \"solved plan: moves for every (enemy, HP, tower left)\"\n\n\
         [plan]\n\
         # The rules solved (the tower and max_hp fix the states the tables cover).\n\
         rules = '{}'\n\
         # One row per strike start: [enemy (0 jack, 1 queen, 2 king), hp, jacks, queens, kings,\n\
         # jokers left unrevealed, hard, soft]: bank at a hard (soft) best total t if bit t of\n\
         # hard (soft) is set.\n\
         strikes = [",
        solution.win,
        solution.rules.to_json()
    );
    for rest in 0..space.rests {
        let c = space.counts(rest);
        for enemy in [Enemy::Jack, Enemy::Queen, Enemy::King] {
            if !space.fits(rest, enemy) {
                continue;
            }
            for hp in 1..=space.max_hp {
                let m = plan.strikes[space.state(rest, enemy, hp)].moves;
                let _ = writeln!(
                    s,
                    "[{},{hp},{},{},{},{},{},{}],",
                    enemy as u8, c[0], c[1], c[2], c[3], m.hard, m.soft
                );
            }
        }
    }
    s.push_str(
        "]\n# Double or nothing after an odd Joker flip at [hp, jacks, queens, kings, jokers left\n\
         # after this Joker]; accept everywhere else.\ngamble = [",
    );
    for rest in 0..space.rests {
        if !space.fits(rest, Enemy::Joker) {
            continue;
        }
        let c = space.counts(rest);
        for hp in 1..=space.max_hp {
            if plan.gamble[space.between(rest, hp)] {
                let _ = writeln!(s, "[{hp},{},{},{},{}],", c[0], c[1], c[2], c[3]);
            }
        }
    }
    s.push_str("]\n");
    s
}
