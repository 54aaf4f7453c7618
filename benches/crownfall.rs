//! Games per second for each Crownfall policy, and the engine's building blocks.
//!
//! `cargo bench --bench crownfall`: criterion reports the time per game (one iteration plays one
//! whole game from its own seeded generators), so games per second per core = 1 / time.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim::games::Game;
use sim::games::crownfall::{Crownfall, Rules};
use sim::rng::GameRng;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("crownfall_game");
    group.throughput(Throughput::Elements(1));
    for policy in [
        "bank-at-17",
        "bank-at-target",
        "bank-at-12",
        "strategies/crownfall/cautious.toml",
    ] {
        let Ok(game) = Crownfall::new(Rules::default(), policy) else {
            continue;
        };
        let mut index = 0u64;
        group.bench_function(game.policy_name().to_string(), |b| {
            b.iter(|| {
                index += 1;
                black_box(game.play(black_box(1), index))
            })
        });
    }
    group.finish();
}

fn parts(c: &mut Criterion) {
    let mut group = c.benchmark_group("crownfall_parts");
    let mut rng = GameRng::new(1, 2, 3);
    let mut deck: Vec<u8> = (0..40).map(|i| (i % 10) as u8 + 1).collect();
    group.bench_function("shuffle_40", |b| {
        b.iter(|| rng.shuffle(black_box(&mut deck)))
    });
    group.bench_function("generators_for_one_game", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            black_box((GameRng::new(1, i, 0), GameRng::new(1, i, 1)))
        })
    });
    group.finish();
}

criterion_group!(benches, games, parts);
criterion_main!(benches);
