//! Games per second for each Scoundrel policy.
//!
//! `cargo bench --bench scoundrel`: criterion reports the time per game (one iteration plays one
//! whole game from its own seeded generators), so games per second per core = 1 / time.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim::games::Game;
use sim::games::scoundrel::{Rules, Scoundrel};

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("scoundrel_game");
    group.throughput(Throughput::Elements(1));
    for policy in [
        "random",
        "greedy",
        "heuristic",
        "strategies/scoundrel/weapon-saver.toml",
        "lookahead",
        "tuned",
        "tuned-lookahead",
        "clairvoyant-win",
        "clairvoyant",
    ] {
        let Ok(game) = Scoundrel::with_policy(Rules::default(), policy) else {
            continue;
        };
        if policy.starts_with("clairvoyant") {
            group.sample_size(10);
        }
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

criterion_group!(benches, games);
criterion_main!(benches);
