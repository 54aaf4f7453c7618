//! The README's "Solving Crownfall" table: win rates of every threshold policy, the best strategy
//! file, `optimal` and `expectimax` on the same deals, with each policy's paired difference
//! against `optimal` (per game: won by one and not the other), until `sim compare` does this.
//!
//! `cargo run --release --example crownfall_solver_table -- 10M [SEED] [EXPECTIMAX_GAMES]`: every
//! policy plays games 0..10M of the seed, except `expectimax`, which plays the first
//! EXPECTIMAX_GAMES of them (default: all), paired with `optimal` on those.

use rayon::prelude::*;
use sim::cli::count::parse_count;
use sim::games::Game;
use sim::games::crownfall::{Crownfall, Rules};
use sim::sim::stats::{Proportion, Z95};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = parse_count(args.get(1).map_or("1M", String::as_str)).expect("a game count");
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let counted = args
        .get(3)
        .map_or(games, |s| parse_count(s).expect("a game count"));
    let mut policies: Vec<String> = vec!["optimal".into(), "expectimax".into()];
    policies.push("bank-at-target".into());
    policies.extend(
        ["cautious", "gambler", "guarded", "heal-hunter"]
            .map(|s| format!("strategies/crownfall/{s}.toml")),
    );
    policies.extend((2..=21).map(|n| format!("bank-at-{n}")));
    let optimal = Crownfall::new(Rules::default(), "optimal").expect("optimal");
    // Optimal's wins, one bit per game.
    let base: Vec<bool> = (0..games)
        .into_par_iter()
        .map(|i| optimal.play(seed, i).win)
        .collect();
    println!("| policy | win rate (95% CI) | minus optimal, paired (95% CI) |");
    println!("|---|---|---|");
    for spec in &policies {
        let game = Crownfall::new(Rules::default(), spec).expect("a policy");
        let games = if spec == "expectimax" { counted } else { games };
        let (wins, only_a, only_b) = (0..games)
            .into_par_iter()
            .map(|i| {
                let w = game.play(seed, i).win;
                let o = base[i as usize];
                (u64::from(w), u64::from(w && !o), u64::from(o && !w))
            })
            .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
        let p = Proportion::wilson(wins, games);
        let n = games as f64;
        let d = (only_a as f64 - only_b as f64) / n;
        let var = (only_a + only_b) as f64 / n - d * d;
        let half = Z95 * (var / (n - 1.0)).sqrt();
        let pct = |x: f64| format!("{:.2}", 100.0 * x);
        println!(
            "| {}{} | {}% ({} to {}) | {:+.3} ({:+.3} to {:+.3}) |",
            game.policy_name(),
            if games < base.len() as u64 {
                format!(" ({} games)", sim::report::terminal::thousands(games))
            } else {
                String::new()
            },
            pct(p.rate),
            pct(p.low),
            pct(p.high),
            100.0 * d,
            100.0 * (d - half),
            100.0 * (d + half)
        );
    }
}
