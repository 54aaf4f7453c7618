//! The clairvoyant solver against brute force: on reduced dungeons (14 cards), every line of
//! play is enumerated through the engine itself (every avoid, every order of every three cards,
//! every weapon choice, with no pruning and no dominance, only a cache keyed on the exact game
//! state), and the solver must find the same best score; playing its line must score it too.
//! At every state the enumeration reaches, the upper bound the solver prunes with must be at
//! least the state's best score.

use std::collections::HashMap;

use sim::cards::Stacked;
use sim::games::scoundrel::clairvoyant::{Clairvoyant, Goal, best_score, score_bound};
use sim::games::scoundrel::{Engine, Rules, Turn};
use sim::rng::GameRng;
use sim::rules::load;

type Key = (Vec<u8>, Vec<u8>, i16, u8, u8, bool, u8, u8);

fn key(e: &Engine) -> Key {
    let h = e.hero();
    (
        e.dungeon().iter().collect(),
        e.room().to_vec(),
        h.hp,
        h.weapon,
        h.limit,
        e.avoided_last(),
        e.last_faced(),
        e.outcome().rooms_avoided,
    )
}

/// Every turn a player may announce in the room of `e`.
fn every_turn(rules: &Rules, e: &Engine) -> Vec<Turn> {
    let view = e.view(rules);
    let n = view.room.len();
    let mut turns = vec![];
    if view.can_avoid {
        turns.push(Turn::AVOID);
    }
    let mut orders: Vec<Vec<u8>> = vec![vec![]];
    for _ in 0..view.to_face {
        orders = orders
            .into_iter()
            .flat_map(|o| {
                (0..n as u8)
                    .filter(|i| !o.contains(i))
                    .map(|i| {
                        let mut p = o.clone();
                        p.push(i);
                        p
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    for o in orders {
        let mut order = [0u8; 4];
        order[..o.len()].copy_from_slice(&o);
        // The card left goes last (unused by the engine for a full room).
        if o.len() < n {
            order[3] = (0..n as u8).find(|i| !o.contains(i)).unwrap();
        }
        for mask in 0..1u8 << view.to_face {
            turns.push(Turn::face(order, mask));
        }
    }
    turns
}

/// The best score from `e` (before its room is filled), every line enumerated; at every state
/// it reaches, the solver's pruning bound must be at least that best score.
fn brute(rules: &Rules, mut e: Engine, memo: &mut HashMap<Key, i16>) -> i16 {
    let k = key(&e);
    let bound = score_bound(rules, &e);
    if !e.enter_room(rules) {
        return e.outcome().score;
    }
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let mut best = i16::MIN;
    for turn in every_turn(rules, &e) {
        let mut next = e.clone();
        next.apply(rules, &turn, &mut Stacked);
        best = best.max(brute(rules, next, memo));
    }
    assert!(
        bound >= best,
        "bound {bound} below the best score {best} at {k:?}"
    );
    memo.insert(k, best);
    best
}

fn reduced(extra: &[&str]) -> Rules {
    let mut sets: Vec<String> = ["monster_max=5", "weapon_max=4", "potion_max=4"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    sets.extend(extra.iter().map(|s| s.to_string()));
    load(None, &sets).unwrap()
}

fn check(rules: &Rules, deals: u64) {
    assert_eq!(rules.cards(), 14);
    let mut wins = 0;
    for game in 0..deals {
        let mut fresh = Engine::new(rules);
        fresh.shuffle(&mut GameRng::new(11, game, 0));
        let want = brute(rules, fresh.clone(), &mut HashMap::new());
        let got = best_score(rules, &fresh);
        assert_eq!(
            got,
            want,
            "deal {game}: {:?}",
            fresh.dungeon().iter().collect::<Vec<_>>()
        );
        let played = Clairvoyant::play(fresh.clone(), rules, &mut Stacked, Goal::Best);
        assert_eq!(
            played.score, want,
            "deal {game}: the solver's line scores its value"
        );
        wins += u64::from(played.win);
        // Asked only for a win: a win exactly when the deal can be won, the best loss otherwise.
        let any = Clairvoyant::play(fresh, rules, &mut Stacked, Goal::Win);
        assert_eq!(any.win, want > 0, "deal {game}: a win iff one exists");
        if want <= 0 {
            assert_eq!(any.score, want, "deal {game}: the best loss");
        }
    }
    // Vacuous if every deal went one way: the variants' HP makes some deals winnable.
    assert!(wins > 0, "no deal won");
}

#[test]
fn solver_matches_brute_force_under_default_rules_on_reduced_dungeons() {
    check(&reduced(&["start_hp=9", "max_hp=9"]), 6);
}

#[test]
fn solver_matches_brute_force_under_strict_wear_and_two_potions_a_turn() {
    check(
        &reduced(&[
            "start_hp=8",
            "max_hp=10",
            "weapon_wear=strict",
            "potions_per_turn=2",
        ]),
        6,
    );
}

#[test]
fn solver_matches_brute_force_without_the_barehanded_choice_and_with_weapon_discards() {
    check(
        &reduced(&[
            "start_hp=9",
            "max_hp=9",
            "barehanded=false",
            "weapon_discard=true",
        ]),
        6,
    );
}

#[test]
fn solver_matches_brute_force_under_the_lenient_end() {
    check(&reduced(&["start_hp=7", "max_hp=9", "end=lenient"]), 6);
}
