//! Properties of Scoundrel games over many deals, policies and rule settings: every card is
//! always accounted for, HP stays in range, every game ends, and runs are reproducible.

use sim::cards::Stacked;
use sim::games::Game;
use sim::games::scoundrel::card::Counts;
use sim::games::scoundrel::engine::MAX_AVOIDS;
use sim::games::scoundrel::greedy::Greedy;
use sim::games::scoundrel::heuristic::Heuristic;
use sim::games::scoundrel::policy::Policy;
use sim::games::scoundrel::random::Random;
use sim::games::scoundrel::{Engine, PolicyKind, Rules, Scoundrel, Streams};
use sim::rng::GameRng;
use sim::rules::load;

fn variants() -> Vec<Rules> {
    [
        vec![],
        vec!["weapon_wear=strict"],
        vec!["end=lenient", "avoid_order=shuffle"],
        vec!["avoid_in_a_row=true", "potions_per_turn=2"],
        vec!["start_hp=5", "max_hp=30", "monster_suits=3"],
        vec!["monster_max=5", "weapon_max=4", "potion_max=4"],
        vec!["barehanded=false", "weapon_discard=true"],
        vec!["avoid_order=reshuffle", "end=monsters"],
    ]
    .into_iter()
    .map(|sets| {
        load(
            None,
            &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
        .unwrap()
    })
    .collect()
}

/// Plays one game room by room, checking after every turn that the deck's cards are all in the
/// dungeon, the room or the faced pile, and that HP is in range; at the end, that the cards faced
/// and the rooms entered (worked out by the engine at the end, not counted) are those counted here.
fn audited<P: Policy>(rules: &Rules, policy: &P, game: u64) {
    let deck = Counts::of(&rules.deck());
    let mut e = Engine::new(rules);
    e.shuffle(&mut GameRng::new(5, game, Streams::DUNGEON));
    let mut avoid = GameRng::new(5, game, Streams::AVOID);
    let mut coins = GameRng::new(5, game, Streams::POLICY);
    let mut faced = Counts::default();
    let mut rooms = 0;
    let mut entered = 0;
    let here = |e: &Engine| {
        let mut c = Counts::of(e.room());
        for code in e.dungeon().iter() {
            c.add(code);
        }
        c
    };
    while e.enter_room(rules) {
        rooms += 1;
        assert!(
            rooms < 2 * usize::from(MAX_AVOIDS) + 100,
            "a game that does not end"
        );
        let before = here(&e);
        let room = e.room().to_vec();
        let view = e.view(rules);
        let turn = policy.choose(rules, &view, &mut coins);
        entered += usize::from(!(turn.avoid && view.can_avoid));
        e.apply(rules, &turn, &mut avoid);
        let mut after = here(&e);
        if !e.hero().alive() {
            // A death ends the game mid-room: the room keeps the fatal room's cards, and the
            // ones faced are the first of the turn's order.
            let k = usize::from(e.outcome().cards_faced) - faced.len();
            assert!((1..=3).contains(&k), "{k} cards faced in the fatal room");
            for &i in &turn.order[..k] {
                after.remove(room[usize::from(i)]);
            }
        }
        let mut codes = rules.deck();
        codes.sort_unstable();
        codes.dedup();
        for &code in &codes {
            for _ in after.count(code)..before.count(code) {
                faced.add(code);
            }
        }
        for code in rules.deck() {
            assert_eq!(
                faced.count(code) + after.count(code),
                deck.count(code),
                "card {code:#x} not accounted for"
            );
        }
        let hp = e.hero().hp;
        assert!(hp <= i16::from(rules.max_hp), "HP {hp} above max");
        assert!(
            hp > -i16::from(rules.monster_max),
            "HP {hp} below any single blow"
        );
    }
    let o = e.outcome();
    assert_eq!(usize::from(o.cards_faced), faced.len());
    assert_eq!(usize::from(o.rooms_entered), entered);
    if o.win {
        assert!(o.final_hp >= 1 && o.score >= o.final_hp);
        assert!(i32::from(o.score) <= rules.max_score());
        if rules.end == sim::games::scoundrel::rules::End::AllCards {
            assert_eq!(usize::from(o.cards_faced), rules.cards());
        }
    } else {
        assert!(o.final_hp <= 0);
        let unfaced = rules.monster_total() - faced.monster_total() as i32;
        assert_eq!(i32::from(o.score), i32::from(o.final_hp) - unfaced);
    }
}

#[test]
fn every_card_is_accounted_for_hp_stays_in_range_and_every_game_ends() {
    for rules in variants() {
        for game in 0..300 {
            audited(&rules, &Random, game);
            audited(&rules, &Greedy, game);
            audited(&rules, &Heuristic::default(), game);
        }
    }
}

#[test]
fn a_game_is_the_same_on_any_replay_and_the_runner_matches_the_step_loop() {
    let rules = Rules::default();
    for policy in [
        "random",
        "greedy",
        "heuristic",
        "lookahead-4",
        "tuned",
        "tuned-lookahead-2",
    ] {
        let game = Scoundrel::with_policy(rules.clone(), policy).unwrap();
        let (kind, _) = PolicyKind::parse(policy, &rules).unwrap();
        for index in 0..200 {
            let a = game.play(9, index);
            assert_eq!(a, game.play(9, index));
            let mut e = Engine::new(&rules);
            e.shuffle(&mut GameRng::new(9, index, Streams::DUNGEON));
            let b = kind.play_from(
                &mut e,
                &rules,
                &mut GameRng::new(9, index, Streams::AVOID),
                &mut GameRng::new(9, index, Streams::POLICY),
            );
            assert_eq!(a, b);
        }
    }
}

#[test]
fn a_stacked_dungeon_is_played_in_its_order() {
    let rules = Rules::default();
    let deck = rules.deck();
    let o = PolicyKind::Greedy.play_from(
        &mut Engine::stacked(&rules, &deck),
        &rules,
        &mut Stacked,
        &mut GameRng::new(0, 0, 0),
    );
    // Room 1 (M2 M3 M4 M5): leave M5, face 4, 3, 2 -> 11 HP. Room 2 (M5 M6 M7 M8) would kill:
    // avoided. Room 3 (M9..M12) cannot be avoided: leave M12, M11 first -> 0 HP, dead.
    assert!(!o.win);
    assert_eq!((o.final_hp, o.cards_faced, o.rooms_avoided), (0, 4, 1));
    assert_eq!(i32::from(o.score), 0 - (rules.monster_total() - 9 - 11));
}
