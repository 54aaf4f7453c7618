//! Games per second for each Crownfall policy, and the engine's building blocks.
//!
//! `cargo bench --bench crownfall`: one iteration plays two whole games, each from its own seeded
//! generators, interleaved as `sim` plays them ([`Game::play_pair`]); criterion reports the time
//! per iteration and the games per second per core (its "elem/s").

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim::games::Game;
use sim::games::crownfall::{Crownfall, Rules};
use sim::rng::GameRng;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("crownfall_game");
    group.throughput(Throughput::Elements(2));
    for policy in [
        "bank-at-17",
        "bank-at-target",
        "bank-at-12",
        "strategies/crownfall/cautious.toml",
    ] {
        let Ok(game) = Crownfall::with_policy(Rules::default(), policy) else {
            continue;
        };
        let mut index = 0u64;
        group.bench_function(game.policy_name().to_string(), |b| {
            b.iter(|| {
                index += 2;
                black_box(game.play_pair(black_box(1), index))
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
