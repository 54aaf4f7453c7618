//! The state API against the fast engine, its moves, its worlds, and a search through it.

use crate::games::Game;
use crate::games::junkyard::automaton::Automaton;
use crate::games::junkyard::cards::{Counts, Heap, KING};
use crate::games::junkyard::engine::{Engine, Side};
use crate::games::junkyard::{Junkyard, PolicyKind, Rules, Streams};
use crate::games::seats::{Seating, duel_deal};
use crate::games::state::GameState;
use crate::rng::{GameKey, GameRng};
use crate::rules::load;
use crate::search::play::{Plain, play_to_end};

use super::{At, Move, Returns, State};

fn rules(sets: &[&str]) -> Rules {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load(None, &sets).unwrap()
}

/// Game `index` of `game` (seeded `seed`) played through the state loop, each seat's plain
/// policy deciding one move at a time with its own coins.
fn through_the_state(game: &Junkyard, rules: &Rules, seed: u64, index: u64) -> super::Outcome {
    let (deal, swapped) = duel_deal(index, true);
    let key = GameKey::new(seed, deal);
    let mut state = State::deal(rules, key);
    let mut seat0 = Plain(game.seated(index, 0));
    let mut seat1 = Plain(game.seated(index, 1));
    let mut coins = [key.stream(Streams::POLICY), key.stream(Streams::POLICY + 1)];
    play_to_end(
        &mut state,
        &mut [&mut seat0, &mut seat1],
        &mut coins,
        |s, m| s.apply(m),
    );
    let mut outcome = state.outcome();
    outcome.swapped = swapped;
    outcome
}

#[test]
fn the_state_loop_plays_the_fast_engines_very_games_for_every_plain_pairing() {
    let strategy = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/junkyard/rush.toml");
    let policies = [
        "simple",
        "greedy",
        "random",
        "lookahead-2",
        "aggressive",
        "defensive",
        strategy,
    ];
    let mut failures = Vec::new();
    for (sets, games) in [
        (&[][..], 60),
        (&["shuffle_returns=false"][..], 20),
        (&["setup_build=false", "kings=2", "lessers=0"][..], 20),
    ] {
        let rules = rules(sets);
        for a in policies {
            for b in policies {
                let seating = Seating {
                    policies: vec![a.into(), b.into()],
                    swap: true,
                };
                let game = Junkyard::new(rules.clone(), &seating).unwrap();
                // Both seat orders: game 2d plays deal d as seated, 2d + 1 swapped.
                for index in 0..games {
                    let fast = game.play(5, index);
                    let state = through_the_state(&game, &rules, 5, index);
                    if fast != state {
                        failures.push(format!(
                            "{a} vs {b} {sets:?} game {index}: {fast:?} {state:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ: {:#?}",
        failures.len(),
        &failures[..failures.len().min(4)]
    );
}

#[test]
fn a_plain_policy_moves_only_among_the_legal_moves() {
    let rules = rules(&[]);
    let mut moves = Vec::new();
    for (i, policy) in ["random", "greedy", "simple"].into_iter().enumerate() {
        let (kind, _) = PolicyKind::parse(policy, &rules).unwrap();
        for game in 0..30 {
            let key = GameKey::new(9, game);
            let mut state = State::deal(&rules, key);
            let mut coins = GameRng::new(9, game, 4 + i as u64);
            while state.deciding().is_some() {
                state.legal(&mut moves);
                let mv = state.policy_move(&kind, &mut coins);
                assert!(
                    moves.contains(&mv),
                    "{policy}: {mv:?} not in {moves:?} at {:?}",
                    state.at()
                );
                state.apply(mv);
            }
        }
    }
}

/// States of real games (seed 11) reached by `greedy` and `random` moves, at every kind of
/// decision: each with the deciding seat.
fn positions(rules: &Rules, games: u64) -> Vec<State<'_>> {
    let policies = ["greedy", "random"].map(|p| PolicyKind::parse(p, rules).unwrap().0);
    let mut out = Vec::new();
    for game in 0..games {
        let key = GameKey::new(11, game);
        let mut state = State::deal(rules, key);
        let mut coins = [key.stream(Streams::POLICY), key.stream(Streams::POLICY + 1)];
        let policy = &policies[(game % 2) as usize];
        let mut n = 0;
        while let Some(seat) = state.deciding() {
            if n % 3 == game % 3 {
                out.push(state.clone());
            }
            let mv = state.policy_move(policy, &mut coins[usize::from(seat)]);
            state.apply(mv);
            n += 1;
        }
    }
    out
}

/// Every card a seat owns, wherever it is (heap, hand, assembly area, automatons).
fn census(state: &State<'_>, seat: usize) -> [u16; 13] {
    state.engine.side(seat).census()
}

#[test]
fn a_world_keeps_everything_the_seat_has_seen_and_every_card_where_it_may_be() {
    let rules = rules(&[]);
    let owned = census(&State::deal(&rules, GameKey::new(1, 0)), 0);
    let states = positions(&rules, 120);
    let mut world = states[0].clone();
    let mut kinds = std::collections::HashSet::new();
    for (i, state) in states.iter().enumerate() {
        let seat = state.deciding().unwrap();
        kinds.insert(std::mem::discriminant(&state.at));
        let mut rng = GameRng::new(2, i as u64, 0);
        state.sample_into(seat, &mut rng, &mut world);
        assert_eq!(world.observation(seat), state.observation(seat), "{i}");
        let other = 1 - usize::from(seat);
        for s in 0..2 {
            assert_eq!(census(&world, s), owned, "{i} seat {s}");
            assert_eq!(
                world.engine.side(s).heap().len(),
                state.engine.side(s).heap().len()
            );
        }
        let tears = |st: &State<'_>| st.engine.side(other).hand().iter().sum::<u8>();
        assert_eq!(
            tears(&world),
            tears(state),
            "the other's hand size follows from its heap's"
        );
        // The world plays on like any game.
        let mut rest = world.clone();
        rest.rollout(&PolicyKind::Random, &mut rng);
        assert!(rest.deciding().is_none());
    }
    assert_eq!(kinds.len(), 5, "set-up, step 3, attack, blocks and splits");
}

#[test]
fn a_world_depends_only_on_what_the_seat_has_seen() {
    let rules = rules(&[]);
    let states = positions(&rules, 60);
    let (mut twin, mut a, mut b) = (states[0].clone(), states[0].clone(), states[0].clone());
    let mut differ = 0;
    for (i, state) in states.iter().enumerate() {
        let seat = state.deciding().unwrap();
        // A twin the seat cannot tell from the state: another world of it, its hidden cards
        // (most often) elsewhere.
        state.sample_into(seat, &mut GameRng::new(3, i as u64, 0), &mut twin);
        assert_eq!(twin.observation(seat), state.observation(seat));
        differ += usize::from(twin.engine != state.engine);
        state.sample_into(seat, &mut GameRng::new(4, i as u64, 0), &mut a);
        twin.sample_into(seat, &mut GameRng::new(4, i as u64, 0), &mut b);
        assert!(
            a.engine == b.engine && a.at == b.at && a.plan == b.plan,
            "{i}"
        );
        assert_eq!(format!("{:?}", a.returns), format!("{:?}", b.returns));
    }
    assert!(
        differ * 10 > states.len() * 9,
        "{differ} of {}",
        states.len()
    );
}

/// The chi-square statistic of `counts` against `expected` (proportions), and its 0.1% critical
/// value (Wilson and Hilferty's approximation, conservative at one degree of freedom).
fn chi_square(counts: &[u64], expected: &[f64]) -> (f64, f64) {
    let n: u64 = counts.iter().sum();
    let total: f64 = expected.iter().sum();
    let stat = counts
        .iter()
        .zip(expected)
        .filter(|(_, e)| **e > 0.0)
        .map(|(&c, &e)| {
            let want = n as f64 * e / total;
            (c as f64 - want).powi(2) / want
        })
        .sum();
    let df = expected.iter().filter(|&&e| e > 0.0).count() as f64 - 1.0;
    let h = 2.0 / (9.0 * df);
    (stat, df * (1.0 - h + 3.090 * h.sqrt()).powi(3))
}

#[test]
fn the_unseen_cards_of_a_world_are_uniform() {
    let rules = rules(&[]);
    // A decision of seat 0 with one tear-down in the other's hand (and one in its heap).
    let state = positions(&rules, 200)
        .into_iter()
        .find(|s| {
            s.deciding() == Some(0)
                && s.engine.side(1).hand().iter().sum::<u8>() == 1
                && s.engine.side(1).heap().len() > 10
        })
        .expect("a position with one tear-down in hand");
    let mine = state.engine.side(0);
    let theirs = state.engine.side(1);
    let mut own_top = [0u64; 13];
    let mut king_in_hand = [0u64; 2];
    let their_len = theirs.heap().len();
    let mut king_at = vec![0u64; their_len];
    let mut world = state.clone();
    let mut rng = GameRng::new(5, 0, 0);
    for _ in 0..40_000 {
        state.sample_into(0, &mut rng, &mut world);
        own_top[usize::from(world.engine.side(0).heap().iter().next().unwrap())] += 1;
        let hand = world.engine.side(1).hand();
        king_in_hand[usize::from(hand[0])] += 1;
        if let Some(at) = world.engine.side(1).heap().iter().position(|c| c == KING) {
            king_at[at] += 1;
        }
    }
    // The seat's own top card: as likely as its share of its heap (what it does not show).
    let mut expected = [0.0; 13];
    mine.heap()
        .iter()
        .for_each(|c| expected[usize::from(c)] += 1.0);
    let (stat, critical) = chi_square(&own_top, &expected);
    assert!(
        stat < critical,
        "own top card: {stat} >= {critical}, {own_top:?}"
    );
    // The other's tear-down in hand: the King or the lesser one, evenly.
    let (stat, critical) = chi_square(&king_in_hand, &[1.0, 1.0]);
    assert!(stat < critical, "the King in hand: {king_in_hand:?}");
    // The King, when in its heap, anywhere in it evenly.
    let (stat, critical) = chi_square(&king_at, &vec![1.0; their_len]);
    assert!(
        stat < critical,
        "the King's place: {stat} >= {critical}, {king_at:?}"
    );
}

/// `rules`'s heap less `out` (card codes), in its order: what a seat with `out` on its table and
/// in its hand holds in its heap.
fn heap_without(rules: &Rules, out: &[u8]) -> Heap {
    let (cards, n) = rules.heap();
    let mut left: Vec<u8> = cards[..n].to_vec();
    for c in out {
        let at = left
            .iter()
            .position(|x| x == c)
            .expect("a card of the heap");
        left.remove(at);
    }
    Heap::stacked(&left)
}

/// Seat 0's turn 3 (drawn): it has a King, a 5/6 automaton and four 1s; seat 1, at 5 HP, has a
/// run 1-5 (15/15) in the attack area and a 2x1+2x9 (2/18) at home, which blocks the 5/6
/// safely. The one win this turn: the King on the 2/18 (the four 1s given up), then the 5/6
/// attacks alone, unblocked, for 5. `greedy` deploys the King on the run (the most worth).
fn puzzle(rules: &Rules) -> State<'_> {
    let attacker = Automaton::one_three(5, 2);
    let mut run = Automaton::run(5);
    run.attacking = true;
    let wall = Automaton::two_pairs(1, 9);
    let mine = Side::new(heap_without(rules, &[5, 2, 2, 2, 1, 1, 1, 1, KING]), 10).with_table(
        Counts::default(),
        [1, 0],
        &[attacker, Automaton::FOUR_ONES],
    );
    let theirs = Side::new(heap_without(rules, &[1, 2, 3, 4, 5, 1, 1, 9, 9]), 5).with_table(
        Counts::default(),
        [0, 0],
        &[run, wall],
    );
    let key = GameKey::new(1, 1);
    State::at_step3(
        rules,
        Engine::from_sides([mine, theirs], 3),
        Returns::of(rules, key),
    )
}

#[test]
fn the_search_players_find_the_one_winning_line_the_rollout_policy_misses() {
    let rules = rules(&[]);
    let win = Move::Deploy {
        card: KING,
        target: 1,
        own: Some(1),
    };
    let greedy = PolicyKind::parse("greedy", &rules).unwrap().0;
    assert_ne!(
        puzzle(&rules).policy_move(&greedy, &mut GameRng::unused()),
        win
    );
    for spec in ["pimc-20", "ismcts-300"] {
        let searcher = crate::games::junkyard::search::parse(spec, &rules)
            .unwrap()
            .unwrap();
        let mut work = crate::search::Work::new(GameRng::new(8, 0, 16));
        let mut state = puzzle(&rules);
        let first = crate::search::decide(&searcher, &state, 0, &mut work);
        assert_eq!(first, win, "{spec}");
        // Seat 0 plays its turn by the search (seat 1 blocks by greedy): the game ends in it,
        // won.
        while let Some(seat) = state.deciding() {
            let mv = match seat {
                0 => crate::search::decide(&searcher, &state, 0, &mut work),
                _ => state.policy_move(&greedy, &mut GameRng::unused()),
            };
            state.apply(mv);
        }
        assert_eq!(state.at(), At::Over(Some(0)), "{spec}");
        assert_eq!(state.engine().turns(), 3);
    }
}

#[test]
fn the_plain_policies_decide_alike_in_states_the_seat_cannot_tell_apart() {
    let rules = rules(&[]);
    let policies = ["simple", "greedy", "random", "lookahead-2"]
        .map(|p| PolicyKind::parse(p, &rules).unwrap().0);
    let states = positions(&rules, 60);
    let mut twin = states[0].clone();
    for (i, state) in states.iter().enumerate() {
        let seat = state.deciding().unwrap();
        state.sample_into(seat, &mut GameRng::new(6, i as u64, 0), &mut twin);
        for policy in &policies {
            let coins = GameRng::new(7, i as u64, 0);
            let (mut a, mut b) = (state.clone(), twin.clone());
            let here = a.policy_move(policy, &mut coins.clone());
            let there = b.policy_move(policy, &mut coins.clone());
            assert_eq!(here, there, "{policy:?} at {i}: {:?}", state.at());
        }
    }
}

/// `deciding`'s legal moves.
fn legal(state: &State<'_>) -> Vec<Move> {
    let mut moves = Vec::new();
    state.legal(&mut moves);
    moves
}

/// Plays `mv`, which must be legal.
fn play(state: &mut State<'_>, mv: Move) {
    assert!(legal(state).contains(&mv), "{mv:?} at {:?}", state.at());
    state.apply(mv);
}

#[test]
fn stacked_set_up_step_3_attack_and_no_blocker_decide_one_move_at_a_time() {
    // Opening draws of four: seat 0 holds four 1s, seat 1 two 2s and two 9s; seat 0's first
    // turn draws the King and two 3s.
    let rules = rules(&["opening_draw=4"]);
    let heaps = [
        Heap::stacked(&[1, 1, 1, 1, KING, 3, 3, 4, 4, 4]),
        Heap::stacked(&[2, 9, 2, 9, 5, 5, 5, 6, 6, 6]),
    ];
    let engine = Engine::from_heaps(&rules, heaps);
    let mut state = State::from_engine(&rules, engine, [Returns::Fixed, Returns::Fixed], &mut ());
    // Set-up: each seat builds what its opening draw allows, then stops; nothing is deployed.
    assert_eq!(state.at(), At::Setup(0));
    assert_eq!(
        legal(&state),
        [Move::Build(Automaton::FOUR_ONES), Move::Stop]
    );
    play(&mut state, Move::Build(Automaton::FOUR_ONES));
    assert_eq!(
        (state.at(), legal(&state)),
        (At::Setup(0), vec![Move::Stop])
    );
    play(&mut state, Move::Stop);
    assert_eq!(state.at(), At::Setup(1));
    let wall = Automaton::two_pairs(2, 9);
    assert_eq!(legal(&state), [Move::Build(wall), Move::Stop]);
    play(&mut state, Move::Build(wall));
    play(&mut state, Move::Stop);
    // Turn 1, seat 0's step 3 after drawing the King and two 3s: nothing to build, the King on
    // the wall (giving up the four 1s), or stop.
    assert_eq!(
        (state.at(), state.deciding(), state.engine.turns()),
        (At::Act, Some(0), 1)
    );
    assert_eq!(state.engine.side(0).hand(), [1, 0]);
    let king = Move::Deploy {
        card: KING,
        target: 0,
        own: Some(0),
    };
    assert_eq!(legal(&state), [king, Move::Stop]);
    play(&mut state, Move::Stop);
    // Step 4, one automaton at a time; the four 1s cannot be blocked, so the defender is asked
    // once, with no block its only move.
    assert_eq!(state.at(), At::Attack { mask: 0, next: 0 });
    assert_eq!(legal(&state), [Move::Attack(false), Move::Attack(true)]);
    play(&mut state, Move::Attack(true));
    assert_eq!(state.deciding(), Some(1));
    assert!(matches!(
        state.at(),
        At::Block {
            next: super::NO_BLOCKER,
            attackers: 1,
            ..
        }
    ));
    assert_eq!(legal(&state), [Move::Block(None)]);
    play(&mut state, Move::Block(None));
    // The four 1s dealt their 1 damage; seat 1's turn 2 has begun (it drew 5, 5, 5).
    assert_eq!(state.engine.side(1).hp(), 24);
    assert!(state.engine.side(0).bots()[0].attacking);
    assert_eq!(
        (state.at(), state.deciding(), state.engine.turns()),
        (At::Act, Some(1), 2)
    );
    assert_eq!(state.engine.side(1).assembly()[5], 3);
}

#[test]
fn stacked_blocks_skip_the_attack_area_and_a_blocked_attacker_chooses_its_split() {
    // Seat 0's turn 3: a run 1-4 (10/10) and a 5/6; seat 1 has a 2/6, a 1/6 and, in the attack
    // area, a run 1-3 that cannot block.
    let rules = rules(&[]);
    let runner = Automaton::run(4);
    let mut away = Automaton::run(3);
    away.attacking = true;
    let mine = Side::new(Heap::stacked(&[7, 7, 7]), 25).with_table(
        Counts::default(),
        [0, 0],
        &[runner, Automaton::one_three(5, 2)],
    );
    let theirs = Side::new(Heap::stacked(&[8, 8, 8]), 25).with_table(
        Counts::default(),
        [0, 0],
        &[Automaton::two_pairs(1, 3), Automaton::one_three(1, 2), away],
    );
    let engine = Engine::from_sides([mine, theirs], 3);
    let mut state = State::at_step3(&rules, engine, [Returns::Fixed, Returns::Fixed]);
    assert_eq!(legal(&state), [Move::Stop]);
    play(&mut state, Move::Stop);
    // The run attacks, the 5/6 stays home.
    play(&mut state, Move::Attack(true));
    assert_eq!(state.at(), At::Attack { mask: 1, next: 1 });
    play(&mut state, Move::Attack(false));
    // The defender's automatons 0 and 1 decide in turn (2 is in the attack area): each may
    // block the run or not.
    for next in [0, 1] {
        assert_eq!(state.deciding(), Some(1));
        assert!(
            matches!(state.at(), At::Block { attackers: 1, next: n, .. } if n == next),
            "{:?}",
            state.at()
        );
        assert_eq!(legal(&state), [Move::Block(None), Move::Block(Some(0))]);
        play(&mut state, Move::Block(Some(0)));
    }
    // Blocked by both (toughness 6 and 6 against power 10): destroy neither (5 + 5 of room
    // takes the 10), either one, but not both; by increasing mask over the defender's.
    assert_eq!(state.deciding(), Some(0));
    assert!(matches!(state.at(), At::Split { .. }));
    assert_eq!(
        legal(&state),
        [Move::Split(0), Move::Split(1), Move::Split(2)]
    );
    play(&mut state, Move::Split(2));
    // The 1/6 is gone, the run survives (3 damage against 10) and dealt nothing to the player;
    // seat 1's turn 4 has begun.
    let theirs = state.engine.side(1);
    assert_eq!(theirs.bots().len(), 2);
    assert!(!theirs.bots().contains(&Automaton::one_three(1, 2)));
    assert_eq!((theirs.hp(), theirs.destroyed), (25, 1));
    assert_eq!(state.engine.side(0).bots().len(), 2);
    assert_eq!(
        (state.at(), state.deciding(), state.engine.turns()),
        (At::Act, Some(1), 4)
    );
}
