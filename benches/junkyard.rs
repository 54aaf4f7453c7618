//! Games per second for Junkyard Frankenstein's policies, each against itself and `greedy`
//! against `simple` (seats swapped on every other game).
//!
//! `cargo bench --bench junkyard`: criterion reports the time per game (one iteration plays one
//! whole game from its own seeded generators), so games per second per core = 1 / time.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim::games::Game;
use sim::games::junkyard::{Junkyard, Rules};
use sim::games::seats::{Seating, Table};

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("junkyard_game");
    group.throughput(Throughput::Elements(1));
    for (a, b) in [
        ("simple", "simple"),
        ("greedy", "greedy"),
        ("random", "random"),
        ("greedy", "simple"),
        ("lookahead", "lookahead"),
    ] {
        let seating = Seating::assign(Table::Duel, 2, a, Some(b), &[]).expect("known policies");
        let game = Junkyard::new(Rules::default(), &seating).expect("known policies");
        if a == "lookahead" {
            group.sample_size(10);
        }
        let mut index = 0u64;
        group.bench_function(game.policy_name().to_string(), |bench| {
            bench.iter(|| {
                index += 1;
                black_box(game.play(black_box(1), index))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
