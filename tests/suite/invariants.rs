//! The invariants of a tally (`Tally::check`, which `sim merge` and `--resume` apply to every tally
//! read from a file): every tally of real games keeps them, whatever the policies and under random
//! valid rules, so a sound file is never refused; and each one catches the edit that breaks it.

use serde_json::Value;
use sim::games::seats::Seating;
use sim::games::{Game, Tally};
use sim::rules::{RuleSet, from_table};
use toml::Table;

use crate::random_inputs::{Rand, mutate_table};

/// The tally of games `0..games` of seed `seed` of `game`.
fn tally_of<G: Game>(game: &G, seed: u64, games: u64) -> G::Tally {
    let mut tally = game.new_tally();
    game.play_range(seed, 0..games, |_, o| tally.record(&o));
    tally
}

/// Checks the tallies of `game` under its default rules and `variants` random valid variants of
/// them, for each seating of `seatings`: the failures.
fn real_tallies_hold<G: Game>(
    rng: &mut Rand,
    seatings: &[Seating],
    variants: u64,
    games: u64,
) -> Vec<String> {
    let defaults: Table = G::Rules::default().to_table();
    let mut rule_sets = vec![G::Rules::default()];
    while (rule_sets.len() as u64) <= variants {
        if let Ok(rules) = from_table::<G::Rules>(mutate_table(rng, &defaults, 4)) {
            rule_sets.push(rules);
        }
    }
    let mut failures = Vec::new();
    for rules in &rule_sets {
        for seating in seatings
            .iter()
            .filter(|s| s.policies.len() == G::seats(rules))
        {
            let Ok(game) = G::new(rules.clone(), seating) else {
                continue;
            };
            let seed = rng.next();
            let tally = tally_of(&game, seed, games);
            if let Err(e) = tally.check() {
                failures.push(format!(
                    "{} {} seed {seed} rules {}: {e}",
                    G::NAME,
                    game.policy_name(),
                    rules.to_json()
                ));
            }
        }
    }
    failures
}

fn solo(policies: &[&str]) -> Vec<Seating> {
    policies.iter().map(|p| Seating::solo(p)).collect()
}

#[test]
fn tallies_of_real_games_keep_every_invariant() {
    use sim::games::{
        crownfall::Crownfall, junkyard::Junkyard, regicide::Regicide, scoundrel::Scoundrel,
    };
    let mut rng = Rand::new(31_337);
    let mut failures = Vec::new();
    failures.extend(real_tallies_hold::<Crownfall>(
        &mut rng,
        &solo(&["bank-at-12", "bank-at-17", "bank-at-21", "bank-at-target"]),
        40,
        3000,
    ));
    failures.extend(real_tallies_hold::<Scoundrel>(
        &mut rng,
        &solo(&["random", "greedy", "heuristic"]),
        40,
        1000,
    ));
    let teams: Vec<Seating> = [1, 2, 4]
        .into_iter()
        .flat_map(|n| ["simple", "heuristic", "random"].map(|p| Seating::uniform(p, n)))
        .collect();
    failures.extend(real_tallies_hold::<Regicide>(&mut rng, &teams, 25, 300));
    let duels: Vec<Seating> = [
        ("simple", "simple"),
        ("greedy", "simple"),
        ("random", "greedy"),
    ]
    .into_iter()
    .map(|(a, b)| Seating {
        policies: vec![a.into(), b.into()],
        swap: a != b,
    })
    .collect();
    failures.extend(real_tallies_hold::<Junkyard>(&mut rng, &duels, 40, 600));
    crate::common::assert_no_failures(&failures);
}

/// A real tally of `game` with one field edited by `edit` (on its JSON), and the check's error.
fn edited<G: Game>(game: &G, edit: impl FnOnce(&mut Value)) -> Result<(), String> {
    let tally = tally_of(game, 5, 4000);
    tally.check().expect("the real tally holds");
    let mut value = serde_json::to_value(&tally).unwrap();
    edit(&mut value);
    let tally: G::Tally = serde_json::from_value(value).unwrap();
    tally.check()
}

fn add(v: &mut Value, n: i64) {
    *v = (v.as_i64().unwrap() + n).into();
}

#[test]
fn each_invariant_catches_the_edit_that_breaks_it() {
    use sim::games::{
        crownfall::Crownfall, junkyard::Junkyard, regicide::Regicide, scoundrel::Scoundrel,
    };
    let mut failures = Vec::new();
    let mut expect = |what: &str, result: Result<(), String>, named: &str| match result {
        Err(e) if e.contains(named) => {}
        other => failures.push(format!(
            "{what}: {other:?}, expected an error naming {named:?}"
        )),
    };
    let crownfall = Crownfall::with_policy(Default::default(), "bank-at-17").unwrap();
    expect(
        "crownfall wins above games",
        edited(&crownfall, |t| t["wins"] = 4001.into()),
        "wins (4001) exceed games (4000)",
    );
    expect(
        "crownfall one more win",
        edited(&crownfall, |t| add(&mut t["wins"], 1)),
        "wins",
    );
    expect(
        "crownfall a histogram off by one",
        edited(&crownfall, |t| add(&mut t["strikes"]["counts"][3], 1)),
        "the strikes histogram counts 4001 games",
    );
    expect(
        "crownfall a killer too many",
        edited(&crownfall, |t| add(&mut t["killed_by"][2], 1)),
        "the games by killer add up to 4001",
    );
    let scoundrel = Scoundrel::with_policy(Default::default(), "greedy").unwrap();
    expect(
        "scoundrel wins above games",
        edited(&scoundrel, |t| t["wins"] = 5000.into()),
        "wins (5000) exceed games",
    );
    expect(
        "scoundrel a score too few",
        edited(&scoundrel, |t| {
            let counts = t["score"]["counts"].as_array_mut().unwrap();
            let i = counts.iter().position(|c| c.as_u64() > Some(0)).unwrap();
            add(&mut counts[i], -1);
        }),
        "the score histogram counts 3999 games",
    );
    let regicide = Regicide::with_policy(Default::default(), "heuristic").unwrap();
    expect(
        "regicide more graded wins than wins",
        edited(&regicide, |t| {
            let wins = t["wins"].clone();
            t["grades"][0] = (wins.as_u64().unwrap() + 1).into();
            t["grades"][1] = 0.into();
            t["grades"][2] = 0.into();
        }),
        "graded wins",
    );
    expect(
        "regicide one more win",
        edited(&regicide, |t| add(&mut t["wins"], 1)),
        "wins",
    );
    expect(
        "regicide royals off by one",
        edited(&regicide, |t| add(&mut t["royals"]["counts"][0], 1)),
        "the royals histogram",
    );
    let junkyard = Junkyard::new(
        Default::default(),
        &Seating {
            policies: vec!["greedy".into(), "simple".into()],
            swap: true,
        },
    )
    .unwrap();
    expect(
        "junkyard a draw too many",
        edited(&junkyard, |t| add(&mut t["draws"], 1)),
        "the draws and each seat's wins add up to 4001",
    );
    expect(
        "junkyard a seat's games",
        edited(&junkyard, |t| add(&mut t["first_games"][0], 1)),
        "the first policy's games by seat",
    );
    expect(
        "junkyard wins above the seat's",
        edited(&junkyard, |t| {
            let above =
                t["seat_wins"][0].as_i64().unwrap() + 1 - t["first_wins"][0].as_i64().unwrap();
            add(&mut t["first_wins"][0], above);
            add(&mut t["wins"], above);
        }),
        "the first policy's wins in seat 0",
    );
    crate::common::assert_no_failures(&failures);
}
