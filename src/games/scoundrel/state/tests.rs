//! Tests of Scoundrel's state API: the two doors (the state loop and the fast `Game::play`) give
//! the same games; rollouts are the fast engine's games; the moves (legal, candidates, a
//! policy's) agree; determinization keeps every known fact, places the unseen cards uniformly
//! and depends only on the observation; and a small stacked puzzle the searches solve.

use crate::games::Game;
use crate::games::observe::Unobserved;
use crate::games::state::{GameState, ToMove};
use crate::rng::{GameKey, GameRng};

use super::super::card::{monster, potion, weapon};
use super::super::engine::Streams;
use super::super::rules::{AvoidOrder, Rules};
use super::super::{PolicyKind, Scoundrel, search};
use super::{Move, State};

fn rules(sets: &[&str]) -> Rules {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    crate::rules::load(None, &sets).unwrap()
}

/// Rule variants: the rulings, and every flag the peers' rule sets turn.
const VARIANTS: &[&[&str]] = &[
    &[],
    &["weapon_wear=strict", "potions_per_turn=2"],
    &["avoid_order=shuffle", "avoid_in_a_row=true"],
    &["avoid_order=reshuffle", "end=monsters"],
    &["barehanded=false", "weapon_discard=true"],
    &["weapon_discard=true", "end=lenient", "start_hp=12"],
];

/// Game `index` of seed `seed` played through the state loop (`Scoundrel::play_state`, the
/// plain policy in the seat).
fn through_the_state(game: &Scoundrel, seed: u64, index: u64) -> super::super::Outcome {
    let state = game.state(seed, index, &mut Unobserved);
    game.play_state(state, GameKey::new(seed, index), None, &mut Unobserved)
}

#[test]
fn the_state_loop_plays_the_fast_engines_games() {
    for sets in VARIANTS {
        let r = rules(sets);
        for (policy, games) in [
            ("random", 400),
            ("greedy", 400),
            ("heuristic", 300),
            ("strategies/scoundrel/cautious.toml", 100),
            ("tuned", 200),
            ("lookahead-4", 60),
            ("tuned-lookahead-3", 40),
        ] {
            let path;
            let spec = if policy.ends_with(".toml") {
                path = format!("{}/{policy}", env!("CARGO_MANIFEST_DIR"));
                path.as_str()
            } else {
                policy
            };
            let game = Scoundrel::with_policy(r.clone(), spec).unwrap();
            for i in 0..games {
                let seed = 3 + i % 5;
                assert_eq!(
                    through_the_state(&game, seed, i),
                    game.play(seed, i),
                    "{policy} under {sets:?}, seed {seed} game {i}"
                );
            }
        }
    }
}

#[test]
fn the_state_loop_plays_the_clairvoyants_games() {
    for (policy, games) in [("clairvoyant-win", 30), ("clairvoyant", 12)] {
        let game = Scoundrel::with_policy(Rules::default(), policy).unwrap();
        for i in 0..games {
            assert_eq!(
                through_the_state(&game, 1, i),
                game.play(1, i),
                "{policy} game {i}"
            );
        }
    }
}

/// Game `index` of seed 5 under `r`, played by `policy` for `moves` decisions through the state
/// (its coins the game's policy stream, as a run's).
fn played<'r>(
    game: &'r Scoundrel,
    policy: &PolicyKind,
    index: u64,
    moves: usize,
) -> (State<'r>, GameRng) {
    let mut state = game.state(5, index, &mut Unobserved);
    let mut coins = GameRng::new(5, index, Streams::POLICY);
    for _ in 0..moves {
        if state.to_move() == ToMove::Over {
            break;
        }
        let mv = state.policy_move(policy, &mut coins);
        state.apply(mv);
    }
    (state, coins)
}

#[test]
fn a_rollout_from_any_decision_is_the_fast_engines_game() {
    for sets in VARIANTS {
        let r = rules(sets);
        for policy in ["random", "greedy", "heuristic", "lookahead-2"] {
            let game = Scoundrel::with_policy(r.clone(), policy).unwrap();
            for i in 0..80 {
                let (mut state, mut coins) = played(&game, game.policy(), i, (i % 9) as usize);
                state.rollout(game.policy(), &mut coins);
                assert_eq!(state.to_move(), ToMove::Over);
                assert_eq!(
                    *state.outcome(),
                    game.play(5, i),
                    "{policy} {sets:?} game {i}"
                );
                assert_eq!(state.result(0), f32::from(u8::from(state.outcome().win)));
                let faced = f32::from(state.outcome().cards_faced) / r.cards() as f32;
                assert_eq!(state.progress(0), faced);
            }
        }
    }
}

#[test]
fn the_moves_are_the_engines_plays_and_a_policys_move_is_legal() {
    let mut legal = Vec::new();
    let mut cands = Vec::new();
    for sets in VARIANTS {
        let r = rules(sets);
        let game = Scoundrel::with_policy(r.clone(), "random").unwrap();
        for i in 0..60 {
            for k in 0..12 {
                let (state, _) = played(&game, game.policy(), i, k);
                if state.to_move() == ToMove::Over {
                    break;
                }
                state.legal(&mut legal);
                let view = state.view();
                assert!(legal.len() >= 2, "a decision has a choice: {legal:?}");
                assert_eq!(legal[0].turn.avoid, view.can_avoid);
                // No move twice; each is its own canonical form; each plays as it says.
                for (j, mv) in legal.iter().enumerate() {
                    assert!(!legal[..j].contains(mv), "{mv:?} twice");
                    assert_eq!(State::canonical(&r, &view, &mv.turn), *mv);
                    let mut s = state.clone();
                    s.apply(*mv);
                }
                // The candidates are legal, avoiding where allowed, never none; a width keeps
                // the best few.
                state.candidates(&mut cands, usize::MAX);
                assert!(cands.iter().all(|m| legal.contains(m)), "{cands:?}");
                assert_eq!(cands.first().map(|m| m.turn.avoid), Some(view.can_avoid));
                let all = cands.clone();
                state.candidates(&mut cands, 2);
                assert_eq!(cands.len(), all.len().min(2));
                assert!(cands.iter().all(|m| all.contains(m)));
                // Every plain policy's move is legal.
                for policy in ["random", "greedy", "heuristic", "tuned", "lookahead-2"] {
                    let (p, _) = PolicyKind::parse(policy, &r).unwrap();
                    let mv = state.clone().policy_move(&p, &mut GameRng::new(1, i, 2));
                    assert!(legal.contains(&mv), "{policy}: {mv:?} not in {legal:?}");
                }
            }
        }
    }
}

#[test]
fn a_full_room_lists_every_order_and_choice() {
    // A full room of a 3, a 5 of weapons, a potion and a 10: with no weapon yet, the weapon's
    // choice (barehanded or not) arises only for a monster faced after the 5.
    let r = Rules::default();
    let cards = [
        monster(3),
        weapon(5),
        potion(4),
        monster(10),
        monster(2),
        potion(2),
    ];
    let state = State::stacked(&r, &cards, GameRng::unused());
    let mut legal = Vec::new();
    state.legal(&mut legal);
    // By hand, the room's indices m3 = 0, w5 = 1, p4 = 2, m10 = 3; a monster faced after the
    // weapon has a choice unless the weapon, used on the 3, may no longer be used on the 10.
    // Leaving the weapon: 6 orders, no choice. Leaving the 3 (or the 10): 6 orders, the other
    // monster after the weapon in 3 of them: 3 x 2 + 3 = 9 each. Leaving the potion: w m3 m10
    // 3 (the 3 barehanded keeps the 10's choice), w m10 m3 4, m3 w m10 and m10 w m3 2 each,
    // the weapon last 1 each: 13. With avoiding: 1 + 6 + 9 + 9 + 13 = 38.
    assert_eq!(legal.len(), 38);
    assert!(legal.iter().all(|m| m.key() != 0));
    let keys: std::collections::HashSet<u64> = legal.iter().map(Move::key).collect();
    assert_eq!(keys.len(), legal.len(), "the keys tell the moves apart");
}

/// States of `game` a few decisions in (by `tuned-lookahead-2`, which avoids often), with at
/// least one room avoided.
fn states_after_avoids(game: &Scoundrel) -> Vec<State<'_>> {
    let (p, _) = PolicyKind::parse("tuned-lookahead-2", game.rules()).unwrap();
    let mut out = Vec::new();
    for i in 0..200 {
        for k in 2..9 {
            let (state, _) = played(game, &p, i, k);
            if state.to_move() != ToMove::Over && state.outcome().rooms_avoided > 0 {
                out.push(state);
            }
        }
    }
    out
}

#[test]
fn every_world_keeps_every_known_fact() {
    for order in ["keep", "shuffle", "reshuffle"] {
        let r = rules(&[&format!("avoid_order={order}")]);
        let game = Scoundrel::with_policy(r.clone(), "greedy").unwrap();
        let states = states_after_avoids(&game);
        assert!(states.len() > 300, "{order}: {}", states.len());
        let mut known_seen = 0;
        for (n, real) in states.iter().enumerate() {
            let seen = real.observation(0);
            let mut world = real.clone();
            let mut rng = GameRng::new(9, n as u64, 0);
            for _ in 0..3 {
                real.sample_into(0, &mut rng, &mut world);
                assert_eq!(world.observation(0), seen, "{order} state {n}");
                assert_eq!(world.to_move(), real.to_move());
                // Under keep, the known bottom is the real one card for card.
                if r.avoid_order == AvoidOrder::Keep && real.known > 0 {
                    let bottom = |s: &State| {
                        let d: Vec<u8> = s.engine().dungeon().iter().collect();
                        d[d.len() - usize::from(real.known)..].to_vec()
                    };
                    assert_eq!(bottom(&world), bottom(real));
                    known_seen += 1;
                }
            }
            // Under reshuffle, nothing is known of the order.
            if r.avoid_order == AvoidOrder::Reshuffle {
                assert!(seen.bottom.as_slice().is_empty());
            }
        }
        if r.avoid_order == AvoidOrder::Keep {
            assert!(known_seen > 100, "{known_seen}");
        }
    }
}

#[test]
fn a_world_depends_only_on_what_the_player_has_seen() {
    // Two real games the player cannot tell apart: the same deal but for the cards never drawn,
    // in another order, and another generator of avoid shuffles (under shuffle, the avoided
    // rooms' orders differ too). Kept where the observations are equal (under reshuffle, an
    // avoid mixes the cards seen back in, and the next rooms mostly differ).
    for order in ["keep", "shuffle", "reshuffle"] {
        let r = rules(&[&format!("avoid_order={order}")]);
        let (policy, _) = PolicyKind::parse("tuned", &r).unwrap();
        let (greedy, _) = PolicyKind::parse("greedy", &r).unwrap();
        let play = |cards: &[u8], avoid: u64, deal: u64, decisions: usize| {
            let mut s = State::stacked(&r, cards, GameRng::new(avoid, deal, Streams::AVOID));
            for _ in 0..decisions {
                if s.to_move() == ToMove::Over {
                    break;
                }
                let mv = s.policy_move(&policy, &mut GameRng::unused());
                s.apply(mv);
            }
            s
        };
        let mut pairs = 0;
        for deal in 0..120u64 {
            let mut cards = r.deck();
            GameRng::new(11, deal, Streams::DUNGEON).shuffle(&mut cards);
            let decisions = (deal % 8) as usize;
            let a = play(&cards, 1, deal, decisions);
            let never_drawn = a.engine().dungeon().len() - usize::from(a.known);
            let mut other = cards.clone();
            let n = other.len();
            GameRng::new(12, deal, 0).shuffle(&mut other[n - never_drawn..]);
            let b = play(&other, 2, deal, decisions);
            let dungeon = |s: &State| s.engine().dungeon().iter().collect::<Vec<u8>>();
            if a.to_move() == ToMove::Over
                || a.observation(0) != b.observation(0)
                || dungeon(&a) == dungeon(&b)
            {
                continue;
            }
            pairs += 1;
            let (mut wa, mut wb) = (a.clone(), b.clone());
            for k in 0..4 {
                a.sample_into(0, &mut GameRng::new(5, k, 0), &mut wa);
                b.sample_into(0, &mut GameRng::new(5, k, 0), &mut wb);
                assert_eq!(wa.engine(), wb.engine(), "{order} deal {deal}");
                // Their futures, avoid shuffles included, are the same game.
                let (mut fa, mut fb) = (wa.clone(), wb.clone());
                fa.rollout(&greedy, &mut GameRng::unused());
                fb.rollout(&greedy, &mut GameRng::unused());
                assert_eq!(fa.outcome(), fb.outcome());
            }
        }
        assert!(pairs > 25, "{order}: {pairs} pairs");
    }
}

/// Chi-square's 0.9999 quantile for `df` degrees of freedom (Wilson and Hilferty).
fn chi2_limit(df: f64) -> f64 {
    let z = 3.719;
    df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
}

/// Pearson's statistic of `observed` counts against `expected` shares (summing to 1).
fn chi2(observed: &[u64], expected: &[f64]) -> f64 {
    let n: u64 = observed.iter().sum();
    observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| (o as f64 - n as f64 * p).powi(2) / (n as f64 * p))
        .sum()
}

/// The counts of each of the `orders` seen, in the order first seen.
fn tally(orders: impl Iterator<Item = Vec<u8>>) -> Vec<u64> {
    let mut seen: Vec<(Vec<u8>, u64)> = Vec::new();
    for o in orders {
        match seen.iter_mut().find(|(s, _)| *s == o) {
            Some((_, n)) => *n += 1,
            None => seen.push((o, 1)),
        }
    }
    seen.into_iter().map(|(_, n)| n).collect()
}

#[test]
fn unseen_cards_are_placed_uniformly_and_avoided_rooms_as_the_rules_say() {
    // Eleven distinct cards: the first room avoided, the next drawn from the seven never seen
    // above the four put back, leaving three never seen above them. Keep: the three in any of
    // 6 orders, the four in theirs; shuffle: 6 x 24 orders; reshuffle: the seven left in any
    // of 5,040 orders (their first two checked: 42).
    let cards = [
        monster(2),
        weapon(3),
        potion(4),
        monster(5),
        weapon(6),
        potion(7),
        monster(8),
        weapon(9),
        potion(10),
        monster(10),
        potion(2),
    ];
    for (order, want) in [("keep", 6), ("shuffle", 144), ("reshuffle", 42)] {
        let r = rules(&[&format!("avoid_order={order}"), "start_hp=30", "max_hp=30"]);
        let mut real = State::stacked(&r, &cards, GameRng::new(3, 0, Streams::AVOID));
        let avoid = State::canonical(&r, &real.view(), &super::Turn::AVOID);
        real.apply(avoid);
        assert_eq!(real.engine().dungeon().len(), 7);
        let dungeon = |s: &State| s.engine().dungeon().iter().collect::<Vec<u8>>();
        let mut world = real.clone();
        let mut rng = GameRng::new(4, 0, 0);
        let samples = 200 * want;
        let counts = tally((0..samples).map(|_| {
            real.sample_into(0, &mut rng, &mut world);
            let d = dungeon(&world);
            if order == "reshuffle" {
                d[..2].to_vec()
            } else {
                d
            }
        }));
        assert_eq!(counts.len(), want, "{order}: every order seen");
        let shares = vec![1.0 / want as f64; want];
        let x = chi2(&counts, &shares);
        assert!(x < chi2_limit(want as f64 - 1.0), "{order}: chi2 {x}");
    }
}

#[test]
fn the_top_card_of_a_world_is_each_unseen_card_as_often_as_it_is_there() {
    // The rulings' dungeon a few rooms in (duplicate monster values: expected shares by count).
    let r = Rules::default();
    let game = Scoundrel::with_policy(r.clone(), "heuristic").unwrap();
    let (real, _) = played(&game, game.policy(), 3, 3);
    let unseen: Vec<u8> = {
        let d: Vec<u8> = real.engine().dungeon().iter().collect();
        d[..d.len() - usize::from(real.known)].to_vec()
    };
    let mut codes: Vec<u8> = unseen.clone();
    codes.sort_unstable();
    codes.dedup();
    let mut counts = vec![0u64; codes.len()];
    let mut world = real.clone();
    let mut rng = GameRng::new(8, 0, 0);
    for _ in 0..40_000 {
        real.sample_into(0, &mut rng, &mut world);
        let top = world.engine().dungeon().get(0);
        counts[codes.binary_search(&top).expect("an unseen card on top")] += 1;
    }
    let shares: Vec<f64> = codes
        .iter()
        .map(|c| unseen.iter().filter(|u| *u == c).count() as f64 / unseen.len() as f64)
        .collect();
    let x = chi2(&counts, &shares);
    assert!(x < chi2_limit(codes.len() as f64 - 1.0), "chi2 {x}");
}

/// The puzzle: at 9 HP, a room of a 9, the 7 of weapons, the King and the 8 of potions, and
/// below it a 7, the 10 and an 8 in an order unseen. One play wins whatever that order: the 7 of
/// weapons, the King with it (6 damage), the 8 of potions (back to 9 HP), leaving the 9; then the
/// 10, the 9 and the 8 with the weapon (3 + 2 + 1 damage, its limit falling as it goes) and the
/// 7 last.
fn puzzle() -> (Rules, Vec<u8>) {
    let r = rules(&["start_hp=9", "max_hp=9"]);
    let cards = vec![
        monster(9),
        weapon(7),
        monster(13),
        potion(8),
        monster(7),
        monster(10),
        monster(8),
    ];
    (r, cards)
}

#[test]
fn the_puzzle_has_one_winning_play_and_the_plain_policies_miss_it() {
    let (r, cards) = puzzle();
    let state = State::stacked(&r, &cards, GameRng::unused());
    let mut legal = Vec::new();
    state.legal(&mut legal);
    // Brute force over every order of the three unseen cards and every line of play.
    let mut orders = Vec::new();
    super::permutations(&cards[4..], &mut Vec::new(), &mut orders);
    let wins: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| {
            orders.iter().all(|o| {
                let mut c = cards[..4].to_vec();
                c.extend(o);
                let mut s = State::stacked(&r, &c, GameRng::unused());
                s.apply(mv);
                winnable(&s)
            })
        })
        .collect();
    assert_eq!(legal.len(), 34);
    assert_eq!(wins.len(), 1);
    assert_eq!(
        wins[0].cards,
        [weapon(7), monster(13), potion(8), monster(9)]
    );
    for p in ["greedy", "heuristic", "tuned", "tuned-lookahead"] {
        let (k, _) = PolicyKind::parse(p, &r).unwrap();
        let mv = state.clone().policy_move(&k, &mut GameRng::new(1, 0, 2));
        assert_ne!(mv, wins[0], "{p} finds it");
    }
}

#[test]
fn the_searches_solve_the_puzzle() {
    let (r, cards) = puzzle();
    for spec in ["pimc-20", "ismcts-300"] {
        let searcher = Some(search::parse(spec, &r).unwrap().expect("a search player"));
        let rollout = [searcher.as_ref().unwrap().rollout.clone()];
        for game in 0..8 {
            let seats = crate::search::seat::Seats {
                plain: &rollout,
                search: std::slice::from_ref(&searcher),
            };
            // The unseen cards in another order each game.
            let mut c = cards.clone();
            GameRng::new(2, game, 0).shuffle(&mut c[4..]);
            let state = State::stacked(&r, &c, GameRng::unused());
            let key = GameKey::new(7, game);
            let mut state = state;
            let coins = &mut [key.stream(Streams::POLICY)];
            crate::search::seat::play(&mut state, seats, key, coins, None, |s, m| s.apply(m));
            let out = state.outcome();
            assert!(out.win, "{spec} game {game}: {out:?}");
        }
    }
}

/// True if `state` can be won from here knowing the dungeon's order (every legal move tried).
fn winnable(state: &State) -> bool {
    if state.to_move() == ToMove::Over {
        return state.outcome().win;
    }
    let mut moves = Vec::new();
    state.legal(&mut moves);
    moves.iter().any(|&mv| {
        let mut s = state.clone();
        s.apply(mv);
        winnable(&s)
    })
}

/// The generic full-knowledge solver (`src/search/solve.rs`, every legal move of the state
/// tried, lost states kept by the state's fingerprint) and Scoundrel's own `clairvoyant-win`
/// (its solver over the engine, with dominance and bounds) agree on which deals can be won:
/// reduced dungeons of 12 cards dealt at random from the deck, at a few starting HP so that both
/// verdicts come up, under the rule variants the clairvoyant plays (`avoid_order = keep`).
#[test]
fn the_generic_solver_and_the_clairvoyant_agree_on_which_deals_can_be_won() {
    use crate::cards::Stacked;
    use crate::search::solve::{Verdict, solve};

    use super::super::Engine;
    use super::super::clairvoyant::{Clairvoyant, Goal};

    let (mut won, mut lost) = (0, 0);
    for sets in [
        &["start_hp=6"][..],
        &["start_hp=9", "weapon_wear=strict", "potions_per_turn=2"],
        &["start_hp=7", "barehanded=false", "weapon_discard=true"],
        &["start_hp=8", "end=lenient"],
    ] {
        let r = rules(sets);
        let (heuristic, _) = PolicyKind::parse("heuristic", &r).unwrap();
        for deal in 0..100u64 {
            let mut deck = r.deck();
            GameRng::new(deal, 0, 0).shuffle(&mut deck);
            let cards = &deck[..12];
            let state = State::stacked(&r, cards, GameRng::unused());
            let generic = solve(&state, &heuristic, 50_000_000);
            let own =
                Clairvoyant::play(Engine::stacked(&r, cards), &r, &mut Stacked, Goal::Win).win;
            let want = if own { Verdict::Won } else { Verdict::Lost };
            assert_eq!(generic.verdict, want, "{sets:?} deal {deal}: {cards:?}");
            won += usize::from(own);
            lost += usize::from(!own);
        }
    }
    // Both verdicts, many times each.
    assert!(won >= 60 && lost >= 60, "{won} won, {lost} lost");
}
