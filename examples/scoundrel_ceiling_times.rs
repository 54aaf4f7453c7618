//! How long the clairvoyant solver takes per deal: solves the best score of deals 0..N (seed 1,
//! the deals `sim scoundrel` plays) and prints the distribution of the time per deal, with the
//! win share and the mean best score (each with its 95% interval).
//!
//! `cargo run --release --example scoundrel_ceiling_times -- 1000 [strict]`

use sim::games::scoundrel::clairvoyant::best_score_counted;
use sim::games::scoundrel::{Engine, Rules, Streams};
use sim::rng::GameRng;
use sim::rules::load;
use sim::search::think::cpu_now;
use sim::stats::interval::{Proportion, Z95};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let sets: Vec<String> = args.map(|wear| format!("weapon_wear={wear}")).collect();
    let rules: Rules = load(None, &sets).expect("weapon wear is lenient or strict");
    let mut times = Vec::with_capacity(deals as usize);
    let mut nodes = Vec::with_capacity(deals as usize);
    let (mut wins, mut total, mut squares) = (0u64, 0i64, 0i64);
    for deal in 0..deals {
        let mut engine = Engine::new(&rules);
        engine.shuffle(&mut GameRng::new(1, deal, Streams::DUNGEON));
        let start = cpu_now();
        let (score, n) = best_score_counted(&rules, &engine);
        times.push((cpu_now() - start).as_secs_f64());
        nodes.push(n as f64);
        if std::env::var_os("CEILING_VERBOSE").is_some() {
            println!("{deal} {score} {n} {:.1}", times.last().unwrap() * 1e3);
        }
        wins += u64::from(score > 0);
        total += i64::from(score);
        squares += i64::from(score) * i64::from(score);
    }
    let n = deals as f64;
    let mean = total as f64 / n;
    let variance = (squares as f64 - n * mean * mean) / (n - 1.0);
    let half = Z95 * (variance / n).sqrt();
    let winnable = Proportion::wilson(wins, deals);
    println!(
        "{deals} deals: {:.2}% winnable (95% CI {:.2} to {:.2}), mean best score {mean:.3} (95% CI {:.2} to {:.2})",
        100.0 * winnable.rate,
        100.0 * winnable.low,
        100.0 * winnable.high,
        mean - half,
        mean + half
    );
    for (what, scale, v) in [("ms of CPU", 1e3, &mut times), ("nodes", 1.0, &mut nodes)] {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize] * scale;
        println!(
            "{what} per deal: mean {:.1}, median {:.1}, 90% {:.1}, 99% {:.1}, 99.9% {:.1}, max {:.1}",
            v.iter().sum::<f64>() / v.len() as f64 * scale,
            at(0.5),
            at(0.9),
            at(0.99),
            at(0.999),
            at(1.0)
        );
    }
}
