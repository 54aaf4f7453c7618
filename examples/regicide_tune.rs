//! The search that tuned Regicide's `heuristic` weights: coordinate descent over every weight
//! with shrinking steps, each candidate played on the same deals (common random numbers) at 1 to
//! 4 players; the objective is the mean over player counts of (mean royals defeated + 20 × win
//! rate). Prints the best weights as a strategy file and their scores on fresh deals.
//!
//! `cargo run --release --example regicide_tune -- [GAMES_PER_COUNT] [PASSES] [START.toml]`
//! (the start defaults to the built-in weights).

use rayon::prelude::*;
use sim::games::regicide::engine::Engine;
use sim::games::regicide::events::Unobserved;
use sim::games::regicide::heuristic::{Heuristic, Weights};
use sim::games::regicide::policy::Policy;
use sim::games::regicide::simple::Simple;
use sim::games::regicide::{Rules, Streams};
use sim::rng::GameKey;
use sim::rules::load;

/// Mean royals and win rate of `policy` over `games` deals of `seed` at `rules`.
fn measure<P: Policy + Sync>(rules: &Rules, policy: &P, seed: u64, games: u64) -> (f64, f64) {
    let fresh = Engine::new(rules);
    let (royals, wins) = (0..games)
        .into_par_iter()
        .map(|g| {
            let key = GameKey::new(seed, g);
            let mut e = fresh.clone();
            e.shuffle(
                &mut key.stream(Streams::CASTLE),
                &mut key.stream(Streams::TAVERN),
            );
            let o = e.play(
                rules,
                policy,
                &mut key.stream(Streams::HEARTS),
                &mut key.stream(Streams::POLICY),
                &mut Unobserved,
            );
            (u64::from(o.royals), u64::from(o.win))
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (royals as f64 / games as f64, wins as f64 / games as f64)
}

fn objective(table: &[Rules], w: &Weights, seed: u64, games: u64) -> f64 {
    let h = Heuristic::with(*w);
    table
        .iter()
        .map(|r| {
            let (royals, wins) = measure(r, &h, seed, games);
            royals + 20.0 * wins
        })
        .sum::<f64>()
        / table.len() as f64
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(4000);
    let passes = args.get(1).copied().unwrap_or(4);
    let table: Vec<Rules> = (1..=4)
        .map(|p| load(None, &[format!("players={p}")]).unwrap())
        .collect();
    let train = 1000;
    let mut best = match std::env::args().nth(3) {
        Some(path) => *Heuristic::load(std::path::Path::new(&path))
            .unwrap_or_else(|e| panic!("{e}"))
            .weights(),
        None => Weights::default(),
    };
    let mut score = objective(&table, &best, train, games);
    eprintln!("start {score:.4}");
    let mut step = 0.5f32;
    for pass in 0..passes {
        let names: Vec<&str> = best.clone().fields_mut().iter().map(|f| f.0).collect();
        for (i, name) in names.iter().enumerate() {
            let base = *best.clone().fields_mut()[i].1;
            let scale = base.abs().max(1.0);
            for delta in [step * scale, -step * scale] {
                let mut w = best;
                *w.fields_mut()[i].1 = base + delta;
                let s = objective(&table, &w, train, games);
                if s > score {
                    eprintln!(
                        "pass {pass} {name}: {base} -> {} ({score:.4} -> {s:.4})",
                        base + delta
                    );
                    (best, score) = (w, s);
                    break;
                }
            }
        }
        step *= 0.6;
    }
    // Fresh deals: the tuned weights against simple at each player count.
    let check = 50_000;
    for r in &table {
        let (hr, hw) = measure(r, &Heuristic::with(best), 7, check);
        let (sr, sw) = measure(r, &Simple, 7, check);
        eprintln!(
            "players {}: heuristic {hr:.3} royals {:.3}% wins; simple {sr:.3} royals {:.3}% wins",
            r.players,
            100.0 * hw,
            100.0 * sw
        );
    }
    println!(
        "# Found by examples/regicide_tune.rs ({games} games per player count, {passes} passes)."
    );
    println!("name = \"tuned\"");
    println!("description = \"the heuristic's weights from the coordinate search\"\n\n[weights]");
    for (name, v) in best.fields_mut() {
        println!("{name} = {v}");
    }
}
