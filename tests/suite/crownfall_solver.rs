//! The solver against simulation and against itself.
//!
//! - Under `deck = "infinite"` the engine plays the fresh-odds model the solver assumes, so the
//!   solver's win probability for `optimal`, and for bank-at-17 evaluated with its moves fixed,
//!   must match simulated win rates within 4 standard errors.
//! - Under the real deck, `optimal` must beat every bank-at-N and bank-at-target game by game on
//!   the same deals (the paired difference's 4-standard-error interval above 0), and
//!   `expectimax` must not do worse than `optimal`.
//! - Zero-damage rules make a strike return to its own state: the solver's Newton fixed point must
//!   equal plain value iteration run to convergence, and simulation.
//! - A strategy file the solver writes loads back as the same plan and plays the same games.

use rayon::prelude::*;
use sim::games::Game;
use sim::games::crownfall::policy::BankAt;
use sim::games::crownfall::solver::{self, Plan, export};
use sim::games::crownfall::{Crownfall, Outcome, PolicyKind, Rules};
use sim::rules::load;

const SEED: u64 = 20_261_130;

fn rules(sets: &[&str]) -> Rules {
    load(
        None,
        &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    )
    .unwrap()
}

/// Wins of `policy` over games `0..games`.
fn wins(rules: &Rules, policy: &str, games: u64) -> u64 {
    let game = Crownfall::with_policy(rules.clone(), policy).unwrap();
    (0..games)
        .into_par_iter()
        .map(|i| u64::from(game.play(SEED, i).win))
        .sum()
}

/// Asserts a simulated win count matches probability `p` within 4 standard errors.
fn assert_matches(what: &str, wins: u64, games: u64, p: f64) {
    let rate = wins as f64 / games as f64;
    let se = (p * (1.0 - p) / games as f64).sqrt();
    assert!(
        (rate - p).abs() <= 4.0 * se,
        "{what}: simulated {rate:.5}, predicted {p:.5}, 4 se = {:.5}",
        4.0 * se
    );
}

/// Wins of `policy` game by game over games `0..games`.
fn wins_by_game(rules: &Rules, policy: &str, games: u64) -> Vec<bool> {
    let game = Crownfall::with_policy(rules.clone(), policy).unwrap();
    (0..games)
        .into_par_iter()
        .map(|i| game.play(SEED, i).win)
        .collect()
}

/// Mean and standard error of the per-game difference in wins of `a` over `b` on the same deals.
fn paired(a: &[bool], b: &[bool]) -> (f64, f64) {
    let n = a.len() as f64;
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(u8::from(x)) - f64::from(u8::from(y)))
        .collect();
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn under_fresh_odds_the_solver_predicts_optimal_and_bank_at_17() {
    let r = rules(&["deck=infinite"]);
    let games = 4_000_000;
    let solution = solver::solve(&r).unwrap();
    assert_matches("optimal", wins(&r, "optimal", games), games, solution.win);
    let plan = Plan::from_policy(&r, &BankAt(17)).unwrap();
    let p17 = solver::evaluate(&r, &plan).unwrap();
    assert_matches("bank-at-17", wins(&r, "bank-at-17", games), games, p17);
    assert!(solution.win > p17 + 0.05, "{} vs {p17}", solution.win);
}

#[test]
fn under_the_real_deck_optimal_beats_every_threshold_and_expectimax_is_no_worse() {
    let r = Rules::default();
    let optimal = wins_by_game(&r, "optimal", 100_000);
    let mut others: Vec<String> = (2..=21).map(|n| format!("bank-at-{n}")).collect();
    others.push("bank-at-target".into());
    for other in &others {
        let (d, se) = paired(&optimal, &wins_by_game(&r, other, 100_000));
        assert!(d - 4.0 * se > 0.0, "optimal - {other}: {d:.5} (se {se:.5})");
    }
    let (d, se) = paired(&wins_by_game(&r, "expectimax", 100_000), &optimal);
    assert!(
        d + 4.0 * se >= 0.0,
        "expectimax - optimal: {d:.5} (se {se:.5})"
    );
}

/// Plain value iteration on a one-King game: the value of the start state is iterated as
/// "best strike, the strike's own state worth the last value" from 0 until it stops moving.
fn value_iteration(r: &Rules) -> f64 {
    use solver::strike::{Affine, solve};
    // One King, start at hp 1, nothing else in the tower: banking at or over the target wins
    // (worth 1), a bust or a short total costs its damage (any damage kills at hp 1) or, at zero
    // damage, returns to the start.
    let end = |d: u8| {
        if d == 0 {
            Affine::AGAIN
        } else {
            Affine::value(0.0)
        }
    };
    let mut ends = [Affine::value(0.0); 22];
    ends[0] = end(r.damage.king);
    for s in 1..=21u8 {
        ends[usize::from(s)] = if s >= r.target.king {
            Affine::value(1.0)
        } else if r.target.king - s <= r.guard_zone {
            end(r.guard_damage.king)
        } else {
            end(r.damage.king)
        };
    }
    let mut x = 0.0;
    for _ in 0..100_000 {
        let next = solve(&ends, x, r.target.king, None).start.at(x);
        if (next - x).abs() < 1e-15 {
            break;
        }
        x = next;
    }
    x
}

#[test]
fn zero_damage_cycles_solve_to_the_fixed_point_and_match_simulation() {
    // A short bank inside the guard zone costs nothing: the strike starts over. A bust or a
    // short total outside the zone kills.
    let r = rules(&[
        "tower.jacks=0",
        "tower.queens=0",
        "tower.kings=1",
        "tower.jokers=0",
        "start_hp=1",
        "guard_damage.king=0",
        "guard_zone=3",
        "deck=infinite",
    ]);
    let solution = solver::solve(&r).unwrap();
    let iterated = value_iteration(&r);
    assert!(
        (solution.win - iterated).abs() < 1e-9,
        "solver {} vs value iteration {iterated}",
        solution.win
    );
    let games = 1_000_000;
    assert_matches(
        "zero-damage optimal",
        wins(&r, "optimal", games),
        games,
        solution.win,
    );
}

#[test]
fn a_written_strategy_file_loads_back_and_plays_the_same_games() {
    let dir = std::env::temp_dir().join(format!("sim-solver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for sets in [
        vec![],
        vec!["guard_zone=3", "start_hp=12"],
        vec!["damage.jack=0", "tower.kings=2"],
    ] {
        let r = rules(&sets);
        let solution = solver::solve(&r).unwrap();
        let path = dir.join("plan.toml");
        std::fs::write(&path, export::strategy_toml(&solution, "plan")).unwrap();
        let path = path.to_string_lossy().into_owned();
        let (loaded, name) = PolicyKind::parse(&path, &r).unwrap();
        assert_eq!(name, "plan");
        match &loaded {
            PolicyKind::Plan(p) => assert_eq!(p.as_ref(), &solution.plan, "{sets:?}"),
            other => panic!("not a plan: {other:?}"),
        }
        let (from_file, in_memory) = (
            Crownfall::with_policy(r.clone(), &path).unwrap(),
            Crownfall::with_policy(r.clone(), "optimal").unwrap(),
        );
        let differ = (0..20_000u64)
            .filter(|&i| -> bool {
                let (a, b): (Outcome, Outcome) = (from_file.play(SEED, i), in_memory.play(SEED, i));
                a != b
            })
            .count();
        assert_eq!(differ, 0, "{sets:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
