//! The Crownfall solver's speed: solving the default rules, and games per second of the players
//! built on it.
//!
//! `cargo bench --bench crownfall_solver`: `solve_default_rules` is the time of one full solve;
//! the game benches time one whole game each, so games per second per core = 1 / time.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim::games::Game;
use sim::games::crownfall::solver;
use sim::games::crownfall::{Crownfall, Rules};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("crownfall_solver");
    group.sample_size(10);
    let rules = Rules::default();
    group.bench_function("solve_default_rules", |b| {
        b.iter(|| black_box(solver::solve(black_box(&rules)).unwrap().win))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("crownfall_game");
    group.throughput(Throughput::Elements(1));
    for policy in ["optimal", "expectimax"] {
        let game = Crownfall::with_policy(Rules::default(), policy).unwrap();
        let mut index = 0u64;
        group.bench_function(policy, |b| {
            b.iter(|| {
                index += 1;
                black_box(game.play(black_box(1), index))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve, games);
criterion_main!(benches);
