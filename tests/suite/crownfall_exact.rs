//! The engine's single-strike frequencies against exact probabilities.
//!
//! An independent enumeration walks every draw sequence of one strike from a fresh 40-card deck,
//! weighted by its probability without replacement, under bank-at-N. The engine plays 1M games
//! whose tower is one King and which end after one strike, with damages chosen so the outcome
//! tells bust from short; every class must be within 4 standard errors of its exact probability.

use rayon::prelude::*;
use sim::games::Game;
use sim::games::crownfall::{Crownfall, Rules};
use sim::rules::load;

/// Probabilities of (bust, short, defeated below 21, perfect 21) for one strike.
fn exact(bank_at: u8, target: u8) -> [f64; 4] {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        counts: &mut [u32; 11],
        left: u32,
        hard: u8,
        ace: bool,
        p: f64,
        n: u8,
        t: u8,
        out: &mut [f64; 4],
    ) {
        for rank in 1..=10u8 {
            let c = counts[usize::from(rank)];
            if c == 0 {
                continue;
            }
            let q = p * f64::from(c) / f64::from(left);
            let hard = hard + rank;
            let ace = ace || rank == 1;
            if hard > 21 {
                out[0] += q;
                continue;
            }
            let best = if ace && hard + 10 <= 21 {
                hard + 10
            } else {
                hard
            };
            if best >= n {
                let class = if best < t {
                    1
                } else if best < 21 {
                    2
                } else {
                    3
                };
                out[class] += q;
                continue;
            }
            counts[usize::from(rank)] -= 1;
            walk(counts, left - 1, hard, ace, q, n, t, out);
            counts[usize::from(rank)] += 1;
        }
    }
    let mut counts = [4u32; 11];
    counts[0] = 0;
    let mut out = [0.0; 4];
    walk(&mut counts, 40, 0, false, 1.0, bank_at, target, &mut out);
    out
}

#[test]
fn exact_probabilities_sum_to_one() {
    for n in 2..=21 {
        let p = exact(n, 18);
        let total: f64 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-12, "bank-at-{n}: {total}");
    }
    // Bank-at-2 never busts and never pushes past the first card.
    assert_eq!(exact(2, 18)[0], 0.0);
}

#[test]
fn engine_strikes_match_exact_enumeration() {
    let rules: Rules = load(
        None,
        &[
            "tower.jacks=0",
            "tower.queens=0",
            "tower.kings=1",
            "tower.jokers=0",
            "max_strikes=1",
            "guard_zone=20",
            "damage.king=5",
            "guard_damage.king=3",
        ]
        .map(String::from),
    )
    .unwrap();
    let games = 1_000_000u64;
    for n in [12u8, 15, 17, 18, 20, 21] {
        let game = Crownfall::with_policy(rules.clone(), &format!("bank-at-{n}")).unwrap();
        let counts = (0..games)
            .into_par_iter()
            .map(|i| {
                let o = game.play(20261130, i);
                let class = match (o.cleared, o.perfect_21s, o.damage[2]) {
                    (1, 1, _) => 3,
                    (1, 0, _) => 2,
                    (0, _, 3) => 1,
                    (0, _, 5) => 0,
                    other => panic!("unexpected strike outcome {other:?}"),
                };
                let mut c = [0u64; 4];
                c[class] = 1;
                c
            })
            .reduce(
                || [0; 4],
                |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]],
            );
        let want = exact(n, 18);
        for class in 0..4 {
            let p = want[class];
            let freq = counts[class] as f64 / games as f64;
            let se = (p * (1.0 - p) / games as f64).sqrt();
            assert!(
                (freq - p).abs() <= 4.0 * se + 1e-12,
                "bank-at-{n}, class {class}: engine {freq:.6}, exact {p:.6}, se {se:.6}"
            );
        }
    }
}
