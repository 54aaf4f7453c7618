//! Each rule of `shared/rulings/regicide.md` played through a stacked castle and tavern.

use std::cell::RefCell;

use crate::cards::Stacked;
use crate::rng::GameRng;
use crate::rules::load;

use super::card::{self, mask_of, parse};
use super::engine::Engine;
use super::events::{Event, Observer};
use super::outcome::{Grade, Loss, Outcome};
use super::policy::{Action, Defence, Policy, Step1, Step4};
use super::rules::Rules;
use super::simple::Simple;
use super::view::View;

fn rules(sets: &[&str]) -> Rules {
    load(
        None,
        &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    )
    .unwrap()
}

fn c(name: &str) -> u8 {
    parse(name).unwrap_or_else(|| panic!("no card {name}"))
}

fn list(names: &str) -> Vec<u8> {
    names.split_whitespace().map(c).collect()
}

/// The tavern that deals `hands` (seat 0 first, all of one size) one card at a time round the
/// table, with `rest` under them.
fn tavern(hands: &[&str], rest: &str) -> Vec<u8> {
    let hands: Vec<Vec<u8>> = hands.iter().map(|h| list(h)).collect();
    let mut t = vec![];
    for i in 0..hands[0].len() {
        for h in &hands {
            t.push(h[i]);
        }
    }
    t.extend(list(rest));
    t
}

/// One scripted decision.
#[derive(Clone, Debug)]
enum Do {
    Play(&'static str),
    Yield,
    Solo,
    Next(u8),
    Discard(&'static str),
}

/// What a decision saw: seat, hand, need, damage, cancelled, and for step 1 the yield right.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    seat: u8,
    hand: u64,
    need: u16,
    damage: u16,
    cancelled: bool,
    can_yield: Option<bool>,
    known_top: Option<u8>,
}

/// Plays a script in order, then `simple`; records every view.
struct Script {
    todo: RefCell<Vec<Do>>,
    seen: RefCell<Vec<Seen>>,
}

impl Script {
    fn new(todo: &[Do]) -> Self {
        let mut v = todo.to_vec();
        v.reverse();
        Self {
            todo: RefCell::new(v),
            seen: RefCell::new(vec![]),
        }
    }

    fn see(&self, view: &View, can_yield: Option<bool>) {
        self.seen.borrow_mut().push(Seen {
            seat: view.seat,
            hand: view.hand,
            need: view.need(),
            damage: view.damage,
            cancelled: view.cancelled,
            can_yield,
            known_top: view.known_top,
        });
    }

    fn next(&self) -> Option<Do> {
        self.todo.borrow_mut().pop()
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.borrow().clone()
    }
}

impl Policy for Script {
    fn attack(&self, view: &View, choices: &Step1, coins: &mut GameRng) -> Action {
        self.see(view, Some(choices.can_yield));
        match self.next() {
            None => Simple.attack(view, choices, coins),
            Some(Do::Play(cards)) => {
                let m = mask_of(cards);
                let p = choices.plays.iter().find(|p| p.cards == m);
                Action::Play(*p.unwrap_or_else(|| panic!("{cards} is not a legal play")))
            }
            Some(Do::Yield) => {
                assert!(choices.can_yield, "a yield is not allowed");
                Action::Yield
            }
            Some(Do::Solo) => {
                assert!(choices.solo_jester);
                Action::SoloJester
            }
            Some(other) => panic!("step 1 scripted {other:?}"),
        }
    }

    fn next_seat(&self, view: &View, coins: &mut GameRng) -> u8 {
        match self.next() {
            None => Simple.next_seat(view, coins),
            Some(Do::Next(s)) => s,
            Some(other) => panic!("next seat scripted {other:?}"),
        }
    }

    fn defend(&self, view: &View, choices: &Step4, coins: &mut GameRng) -> Defence {
        self.see(view, None);
        match self.next() {
            None => Simple.defend(view, choices, coins),
            Some(Do::Discard(cards)) => {
                let m = mask_of(cards);
                let cv = choices.covers.iter().find(|c| c.cards == m);
                Defence::Discard(*cv.unwrap_or_else(|| panic!("{cards} is not a minimal cover")))
            }
            Some(Do::Solo) => Defence::SoloJester,
            Some(other) => panic!("step 4 scripted {other:?}"),
        }
    }
}

/// Records every event with the tavern's top card and size just after it.
#[derive(Default)]
struct Log(Vec<(Event, Option<u8>, u8)>);

impl Observer for Log {
    fn event(&mut self, e: &Engine, event: Event) {
        self.0
            .push((event, e.tavern().iter().next(), e.tavern().len()));
    }
}

impl Log {
    fn events(&self) -> Vec<Event> {
        self.0.iter().map(|x| x.0).collect()
    }

    /// The events from the first that satisfies `from` on.
    fn after(&self, from: impl Fn(&Event) -> bool) -> Vec<Event> {
        let ev = self.events();
        let at = ev.iter().position(from).expect("the event happened");
        ev[at..].to_vec()
    }
}

fn play(r: &Rules, castle: &str, tavern: &[u8], script: &Script, log: &mut Log) -> Outcome {
    Engine::stacked(r, &list(castle), tavern).play(
        r,
        script,
        &mut Stacked,
        &mut GameRng::unused(),
        log,
    )
}

#[test]
fn the_deal_goes_round_the_table_one_card_at_a_time_and_the_castle_ranks_shuffle_apart() {
    let r = rules(&["players=3", "jesters=0"]);
    let t = tavern(
        &[
            "2C 3C 4C 5C 6C 7C",
            "2S 3S 4S 5S 6S 7S",
            "2H 3H 4H 5H 6H 7H",
        ],
        "8C",
    );
    let mut log = Log::default();
    let s = Script::new(&[]);
    play(&r, "JC", &t, &s, &mut log);
    let drew: Vec<(u8, u8)> = log
        .events()
        .iter()
        .take(4)
        .map(|e| match e {
            Event::Drew { seat, card } => (*seat, *card),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        drew,
        vec![(0, c("2C")), (1, c("2S")), (2, c("2H")), (0, c("3C"))]
    );
    // A fresh game: Jacks, then Queens, then Kings, each rank in its own order; the tavern
    // holds the 40 number cards and the Jesters for the player count.
    for p in 1..=4u8 {
        let r = rules(&[&format!("players={p}")]);
        let mut e = Engine::new(&r);
        e.shuffle(
            &mut GameRng::new(1, u64::from(p), 0),
            &mut GameRng::new(1, 2, 1),
        );
        let ranks: Vec<u8> = e.castle().iter().map(|&x| card::rank(x)).collect();
        assert_eq!(ranks, [[11u8; 4], [12; 4], [13; 4]].concat());
        let jesters = e.tavern().iter().filter(|&x| card::is_jester(x)).count();
        assert_eq!(
            (e.tavern().len(), jesters),
            (40 + r.tavern_jesters(), usize::from(r.tavern_jesters()))
        );
        assert_eq!(e.solo_jesters_left(), if p == 1 { 2 } else { 0 });
    }
}

#[test]
fn a_jester_cancels_immunity_and_the_spades_played_before_start_to_count() {
    let r = rules(&["players=2"]);
    let t = tavern(
        &["4S 10H 9H 8H 7H 6H 5H", "Jo1 2C 10D 9D 8D 7D 6D"],
        "3C 3D",
    );
    let s = Script::new(&[
        Do::Play("4S"),
        Do::Discard("10H"),
        Do::Play("Jo1"),
        Do::Next(1),
        Do::Play("2C"),
        Do::Discard("6D"),
    ]);
    let mut log = Log::default();
    play(&r, "JS JC", &t, &s, &mut log);
    let seen = s.seen();
    // Against the Jack of spades, the 4 of spades shields nothing: the attack asks for 10.
    assert_eq!((seen[1].seat, seen[1].need, seen[1].damage), (0, 10, 4));
    // After the Jester (seat 1 chose itself), the 4 counts: 6; clubs now double.
    assert_eq!(
        (seen[3].seat, seen[3].cancelled, seen[3].need),
        (1, true, 6)
    );
    assert_eq!((seen[4].need, seen[4].damage), (6, 8));
    assert!(
        log.events()
            .contains(&Event::Damaged { dealt: 4, total: 8 })
    );
    assert!(log.events().contains(&Event::Chose { next: 1 }));
}

#[test]
fn clubs_against_a_club_enemy_do_not_double_and_spade_shields_add_up() {
    let r = rules(&[]);
    let t = list("5C 2S 3S 10H 9H 8H 7H 6H 4D");
    let s = Script::new(&[
        Do::Play("5C"),
        Do::Discard("10H"),
        Do::Play("2S"),
        Do::Discard("8H"),
        Do::Play("3S"),
    ]);
    let mut log = Log::default();
    play(&r, "JC JD", &t, &s, &mut log);
    let seen = s.seen();
    assert_eq!((seen[1].need, seen[1].damage), (10, 5));
    assert_eq!((seen[3].need, seen[3].damage), (8, 7));
    assert_eq!((seen[5].need, seen[5].damage), (5, 10));
}

#[test]
fn an_exact_kill_goes_on_top_of_the_tavern_and_is_drawn_next() {
    let r = rules(&[]);
    let t = list("10C 5D 2S 3S 4S 6S 7S 8S 9C 9S");
    let s = Script::new(&[Do::Play("10C"), Do::Play("5D")]);
    let mut log = Log::default();
    play(&r, "JH JC", &t, &s, &mut log);
    let ev = log.after(|e| matches!(e, Event::Defeated { .. }));
    assert_eq!(
        ev[0],
        Event::Defeated {
            enemy: c("JH"),
            exact: true
        }
    );
    let at = log
        .0
        .iter()
        .position(|x| matches!(x.0, Event::Defeated { .. }))
        .unwrap();
    assert_eq!(
        log.0[at].1,
        Some(c("JH")),
        "the Jack is on top of the tavern"
    );
    assert_eq!(ev[1], Event::Revealed { enemy: c("JC") });
    // The same player's new turn; the Jack known on top; diamonds draw it first.
    assert_eq!(ev[2], Event::TurnStarted { seat: 0 });
    assert_eq!(s.seen()[1].known_top, Some(c("JH")));
    assert_eq!(
        ev[3],
        Event::Played {
            seat: 0,
            cards: mask_of("5D")
        }
    );
    assert_eq!(
        ev[4],
        Event::Drew {
            seat: 0,
            card: c("JH")
        }
    );
    assert_eq!(
        ev[5],
        Event::Drew {
            seat: 0,
            card: c("9C")
        }
    );
    assert!(matches!(ev[6], Event::Damaged { dealt: 5, total: 5 }));
    // The captured Jack is worth 10 in hand.
    assert!(s.seen()[2].hand & mask_of("JH") != 0);
}

#[test]
fn a_kill_above_health_sends_the_royal_and_the_table_to_the_discard_pile() {
    let r = rules(&[]);
    let t = list("10C AC 2S 3S 4S 6S 7S 8S 9C");
    let s = Script::new(&[Do::Play("AC 10C")]);
    let mut log = Log::default();
    let o = play(&r, "JH", &t, &s, &mut log);
    assert!(log.events().contains(&Event::Defeated {
        enemy: c("JH"),
        exact: false
    }));
    assert!(o.win);
    assert_eq!(
        (o.royals, o.turns, o.tavern_left, o.grade),
        (1, 1, 1, Grade::Gold)
    );
}

#[test]
fn hearts_resolve_before_diamonds_in_one_play() {
    let r = rules(&[]);
    // The deal empties the tavern.
    let t = list("2C 10S AH 5D 9C 8C 7C 6C");
    let s = Script::new(&[Do::Play("2C"), Do::Discard("10S"), Do::Play("AH 5D")]);
    let mut log = Log::default();
    play(&r, "JC JS", &t, &s, &mut log);
    let ev = log.after(|e| {
        *e == Event::Played {
            seat: 0,
            cards: mask_of("AH 5D"),
        }
    });
    // The discarded 10S goes under the empty tavern, then diamonds draw it.
    assert_eq!(ev[1], Event::Healed { cards: 1 });
    assert_eq!(
        ev[2],
        Event::Drew {
            seat: 0,
            card: c("10S")
        }
    );
    assert!(matches!(ev[3], Event::Damaged { dealt: 6, .. }));
}

#[test]
fn diamonds_skip_full_hands_and_stop_on_an_empty_tavern() {
    let r = rules(&["players=3", "jesters=0"]);
    let t = tavern(
        &[
            "2S 8H 9H 10H 7H 6H",
            "3D 9C 10C 8C 7C 6C",
            "4S 5S 6S 7S 8S 9S",
        ],
        "2C 2H",
    );
    let s = Script::new(&[Do::Play("2S"), Do::Discard("8H"), Do::Play("3D")]);
    let mut log = Log::default();
    play(&r, "JC JH", &t, &s, &mut log);
    let ev = log.after(|e| {
        *e == Event::Played {
            seat: 1,
            cards: mask_of("3D"),
        }
    });
    // Seat 1 (5 cards) draws, seat 2 (full) is skipped, seat 0 draws; the tavern is then empty.
    assert_eq!(
        ev[1],
        Event::Drew {
            seat: 1,
            card: c("2C")
        }
    );
    assert_eq!(
        ev[2],
        Event::Drew {
            seat: 0,
            card: c("2H")
        }
    );
    assert!(matches!(ev[3], Event::Damaged { dealt: 3, .. }));
    // With every hand full the drawing stops too: three players, all full, a 4D deals nothing
    // past the one free slot of its player.
    let t = tavern(
        &[
            "4D 8H 9H 10H 7H 6H",
            "3C 9C 10C 8C 7C 6C",
            "4S 5S 6S 7S 8S 9S",
        ],
        "2C 2H 2D",
    );
    let s = Script::new(&[Do::Play("4D")]);
    let mut log = Log::default();
    play(&r, "JC JH", &t, &s, &mut log);
    let ev = log.after(|e| {
        *e == Event::Played {
            seat: 0,
            cards: mask_of("4D"),
        }
    });
    assert_eq!(
        ev[1],
        Event::Drew {
            seat: 0,
            card: c("2C")
        }
    );
    assert!(matches!(ev[2], Event::Damaged { dealt: 4, .. }));
}

#[test]
fn two_cards_of_one_suit_apply_its_power_once() {
    let r = rules(&[]);
    let t = list("AC 9C AS 5S 10H 9H 8H 7H 2D");
    let s = Script::new(&[Do::Play("AC 9C"), Do::Play("AS 5S")]);
    let mut log = Log::default();
    play(&r, "JH JD", &t, &s, &mut log);
    // A♣ 9♣: 10 doubled once, 20: exactly the Jack of hearts.
    assert!(log.events().contains(&Event::Damaged {
        dealt: 20,
        total: 20
    }));
    assert!(log.events().contains(&Event::Defeated {
        enemy: c("JH"),
        exact: true
    }));
    // A♠ 5♠: a shield of 6, not 12.
    let seen = s.seen();
    assert_eq!((seen[2].need, seen[2].damage), (4, 6));
}

#[test]
fn the_solo_jester_at_step_1_and_at_step_4() {
    let r = rules(&[]);
    let hand = "2C 3C 4C 5C 6C 7C 8C 9C";
    let t = [list(hand), list("2S 3S 4S 5S 6S 7S 8S 9S 10S 10H 10D")].concat();
    let s = Script::new(&[Do::Solo, Do::Play("2S"), Do::Solo, Do::Discard("10H")]);
    let mut log = Log::default();
    let o = play(&r, "JH JD", &t, &s, &mut log);
    let ev = log.events();
    assert!(ev.contains(&Event::SoloJester {
        seat: 0,
        discarded: mask_of(hand)
    }));
    let seen = s.seen();
    // Step 1 again with the 8 fresh cards.
    assert_eq!(seen[1].hand, mask_of("2S 3S 4S 5S 6S 7S 8S 9S"));
    // Step 4: the hand (7 spades) is discarded for the last 3 cards; a cover of 8 among them.
    assert_eq!(seen[2].need, 8);
    assert_eq!(seen[3].hand, mask_of("10S 10H 10D"));
    assert!(ev.contains(&Event::Discarded {
        seat: 0,
        cards: mask_of("10H")
    }));
    assert_eq!(o.solo_jesters, 2);
}

#[test]
fn a_discard_that_cannot_cover_loses() {
    let r = rules(&["solo_jesters=0", "max_hand=4"]);
    let t = list("AH 2H 3H 4H 5H");
    let s = Script::new(&[Do::Play("4H")]);
    let mut log = Log::default();
    let o = play(&r, "KC", &t, &s, &mut log);
    assert!(!o.win);
    assert_eq!(
        (o.loss, o.loss_royal, o.royals, o.tavern_left),
        (Loss::CannotCover, c("KC"), 0, 1)
    );
    assert_eq!(
        log.events().last(),
        Some(&Event::Lost {
            how: Loss::CannotCover
        })
    );
}

#[test]
fn a_shielded_attack_needs_no_discard_and_an_empty_hand_that_cannot_yield_loses() {
    let r = rules(&["solo_jesters=0", "max_hand=1"]);
    let t = list("10S");
    let s = Script::new(&[]);
    let mut log = Log::default();
    let o = play(&r, "JC", &t, &s, &mut log);
    // 10 of spades: attack 10 - 10 = 0, nothing to discard; the next turn has nothing to play.
    assert!(
        log.events()
            .contains(&Event::Discarded { seat: 0, cards: 0 })
    );
    assert_eq!((o.loss, o.turns), (Loss::CannotPlay, 2));
}

#[test]
fn yield_is_refused_when_every_other_player_yielded_last() {
    let r = rules(&["players=3", "jesters=0"]);
    let t = tavern(
        &[
            "10H 9H 8H 7H 6H 5H",
            "10D 9D 8D 7D 6D 5D",
            "10C 9C 8C 7C 6C 5C",
        ],
        "",
    );
    let s = Script::new(&[
        Do::Yield,
        Do::Discard("10H"),
        Do::Yield,
        Do::Discard("10D"),
        Do::Play("5C"),
        Do::Discard("10C"),
    ]);
    let mut log = Log::default();
    play(&r, "JS", &t, &s, &mut log);
    let yields: Vec<(u8, Option<bool>)> = s
        .seen()
        .iter()
        .filter(|x| x.can_yield.is_some())
        .map(|x| (x.seat, x.can_yield))
        .take(4)
        .collect();
    // No turn yet counts as no yield; seat 2 faces two yields; seat 0 then faces seat 2's play.
    assert_eq!(
        yields,
        vec![
            (0, Some(true)),
            (1, Some(true)),
            (2, Some(false)),
            (0, Some(true))
        ]
    );
}

#[test]
fn solo_yield_variant_allows_one_yield_never_two_in_a_row() {
    let r = rules(&["solo_yield=true"]);
    let t = list("10H 9H 8H 7H 6H 5H 4H 3H 2H AH 2D");
    let s = Script::new(&[Do::Yield, Do::Discard("10H")]);
    let mut log = Log::default();
    play(&r, "JS", &t, &s, &mut log);
    let seen = s.seen();
    assert_eq!(
        (seen[0].can_yield, seen[2].can_yield),
        (Some(true), Some(false))
    );
    let r = rules(&[]);
    let s = Script::new(&[]);
    play(&r, "JS", &t, &s, &mut Log::default());
    assert_eq!(s.seen()[0].can_yield, Some(false));
}

#[test]
fn a_jester_in_hand_counts_for_nothing_in_a_discard() {
    let r = rules(&["players=2", "max_hand=2"]);
    let t = tavern(&["Jo1 10H", "9D 8D"], "");
    let s = Script::new(&[Do::Play("10H")]);
    let mut log = Log::default();
    let o = play(&r, "JC", &t, &s, &mut log);
    // Seat 0 holds only the Jester against an attack of 10: it cannot cover.
    assert_eq!(o.loss, Loss::CannotCover);
}
