//! The solved plan for people: a chart of stand totals per enemy and HP (with where the tower left
//! changes them) and the Joker choice by HP, as text and as a Parquet table of every state.

use std::collections::HashMap;
use std::fmt::Write;

use polars::prelude::*;

use crate::error::{Result, SimError};

use super::super::outcome::Enemy;
use super::dp::Solution;
use super::strike::TOP;

/// The totals in bit mask `mask` from `low` to 21 as runs: "17+", "12-13, 17+", or "never".
pub fn totals(mask: u32, low: u8) -> String {
    let mut runs = Vec::new();
    let mut s = low;
    while s <= TOP {
        if mask >> s & 1 == 0 {
            s += 1;
            continue;
        }
        let start = s;
        while s <= TOP && mask >> s & 1 != 0 {
            s += 1;
        }
        runs.push(match (start, s - 1) {
            (a, TOP) if a < TOP => format!("{a}+"),
            (a, b) if a == b => a.to_string(),
            (a, b) => format!("{a}-{b}"),
        });
    }
    if runs.is_empty() {
        "never".into()
    } else {
        runs.join(", ")
    }
}

/// The HP values in `hps` as runs: "1-4, 7".
fn hp_runs(hps: &[u8]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < hps.len() {
        let mut j = i;
        while j + 1 < hps.len() && hps[j + 1] == hps[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            hps[i].to_string()
        } else {
            format!("{}-{}", hps[i], hps[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

const ROYALS: [Enemy; 3] = [Enemy::Jack, Enemy::Queen, Enemy::King];

/// The chart as text: per royal and HP, the totals to bank at (hard and soft) in most tower
/// states, then the others with the number of tower states where they apply; the Joker by HP.
pub fn text(solution: &Solution) -> String {
    let space = solution.space();
    let rules = &solution.rules;
    let mut s = String::new();
    for enemy in ROYALS {
        let towers = (0..space.rests).filter(|&r| space.fits(r, enemy)).count();
        let _ = writeln!(
            s,
            "{} (target {}): bank at these best totals, hard | soft; in most of the {towers} towers it can face, then where the tower left changes it",
            enemy.name(),
            rules.target.of(enemy)
        );
        for hp in 1..=space.max_hp {
            let mut seen: HashMap<(String, String), usize> = HashMap::new();
            for rest in (0..space.rests).filter(|&r| space.fits(r, enemy)) {
                let m = solution.plan.strikes[space.state(rest, enemy, hp)].moves;
                *seen
                    .entry((totals(m.hard, 2), totals(m.soft, 11)))
                    .or_default() += 1;
            }
            let mut all: Vec<_> = seen.into_iter().collect();
            all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let ((hard, soft), _) = &all[0];
            let _ = write!(s, "  hp {hp:>2}  {hard:<16} | {soft:<12}");
            if all.len() > 1 {
                let others: Vec<String> = all[1..]
                    .iter()
                    .take(3)
                    .map(|((h, so), n)| format!("{h} | {so} in {n}"))
                    .collect();
                let more = if all.len() > 4 {
                    format!("; {} more", all.len() - 4)
                } else {
                    String::new()
                };
                let _ = write!(s, "  (else {}{more})", others.join("; "));
            }
            s.push('\n');
        }
    }
    let towers: Vec<usize> = (0..space.rests)
        .filter(|&r| space.fits(r, Enemy::Joker))
        .collect();
    let (mut always, mut some) = (Vec::new(), Vec::new());
    for hp in 1..=space.max_hp {
        let n = towers
            .iter()
            .filter(|&&r| solution.plan.gamble[space.between(r, hp)])
            .count();
        if n == towers.len() {
            always.push(hp);
        } else if n > 0 {
            some.push(format!("{hp} ({n} of {})", towers.len()));
        }
    }
    let _ = writeln!(
        s,
        "joker, after an odd flip: double or nothing at hp {}; at hp {}; accept otherwise",
        if always.is_empty() {
            "none in every tower".into()
        } else {
            format!("{} in every tower", hp_runs(&always))
        },
        if some.is_empty() {
            "no other".into()
        } else {
            format!("{} towers", some.join(", "))
        }
    );
    s
}

/// Every state of the plan as a table: enemy, hp, the tower cards left (unrevealed; after a
/// Joker, the ones after it), the totals to bank at (royals), double or nothing (Joker), and the
/// state's win probability.
pub fn frame(solution: &Solution) -> Result<DataFrame> {
    let space = solution.space();
    let mut enemy = Vec::new();
    let mut hp_col = Vec::new();
    let mut left: [Vec<u32>; 4] = Default::default();
    let mut hard = Vec::new();
    let mut soft = Vec::new();
    let mut gamble = Vec::new();
    let mut win = Vec::new();
    for rest in 0..space.rests {
        let c = space.counts(rest);
        for e in Enemy::ALL {
            if !space.fits(rest, e) {
                continue;
            }
            for hp in 1..=space.max_hp {
                enemy.push(e.name());
                hp_col.push(u32::from(hp));
                for k in 0..4 {
                    left[k].push(u32::from(c[k]));
                }
                if e == Enemy::Joker {
                    hard.push(String::new());
                    soft.push(String::new());
                    gamble.push(solution.plan.gamble[space.between(rest, hp)]);
                } else {
                    let m = solution.plan.strikes[space.state(rest, e, hp)].moves;
                    hard.push(totals(m.hard, 2));
                    soft.push(totals(m.soft, 11));
                    gamble.push(false);
                }
                win.push(solution.value[space.state(rest, e, hp)]);
            }
        }
    }
    let [j, q, k, x] = left;
    DataFrame::new_infer_height(vec![
        Column::new("enemy".into(), enemy),
        Column::new("hp".into(), hp_col),
        Column::new("jacks_left".into(), j),
        Column::new("queens_left".into(), q),
        Column::new("kings_left".into(), k),
        Column::new("jokers_left".into(), x),
        Column::new("bank_hard".into(), hard),
        Column::new("bank_soft".into(), soft),
        Column::new("double_or_nothing".into(), gamble),
        Column::new("win_probability".into(), win),
    ])
    .map_err(|e| SimError::input(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_read_as_runs() {
        assert_eq!(totals(0, 2), "never");
        assert_eq!(totals(((1 << 22) - 1) & !((1 << 17) - 1), 2), "17+");
        assert_eq!(totals((1 << 12) | (1 << 13) | (1 << 21), 2), "12-13, 21");
        assert_eq!(hp_runs(&[1, 2, 3, 7]), "1-3, 7");
    }
}
