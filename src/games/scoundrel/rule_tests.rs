//! Each rule of `shared/rulings/scoundrel.md` played through a stacked dungeon.

use std::cell::{Cell, RefCell};

use crate::cards::Stacked;
use crate::rng::GameRng;
use crate::rules::load;

use super::card::{monster as m, potion as p, weapon as w};
use super::engine::{Engine, Turn, View};
use super::outcome::Outcome;
use super::policy::Policy;
use super::rules::Rules;

fn rules(sets: &[&str]) -> Rules {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    load(None, &sets).unwrap()
}

/// What a policy was shown at one turn: the room, HP, weapon and the right to avoid.
type Seen = (Vec<u8>, i16, u8, bool);

/// Plays the given turns in order, recording each view's room, hero and avoid right.
struct Script {
    turns: Vec<Turn>,
    next: Cell<usize>,
    seen: RefCell<Vec<Seen>>,
}

impl Script {
    fn new(turns: &[Turn]) -> Self {
        Self {
            turns: turns.to_vec(),
            next: Cell::new(0),
            seen: RefCell::new(vec![]),
        }
    }
}

impl Policy for Script {
    fn choose(&self, _: &Rules, view: &View, _: &mut GameRng) -> Turn {
        self.seen.borrow_mut().push((
            view.room.to_vec(),
            view.hero.hp,
            view.hero.weapon,
            view.can_avoid,
        ));
        let i = self.next.get();
        self.next.set(i + 1);
        *self
            .turns
            .get(i)
            .expect("the script has a turn for every room")
    }
}

fn play(rules: &Rules, cards: &[u8], script: &Script) -> Outcome {
    Engine::stacked(rules, cards).play(rules, script, &mut Stacked, &mut GameRng::new(0, 0, 0))
}

/// Face the room's cards at `order` (indices), the weapon on the steps in `weapon`.
fn face(order: [u8; 4], weapon: u8) -> Turn {
    Turn::face(order, weapon)
}

const IN_ORDER: Turn = Turn::face([0, 1, 2, 3], 0);

#[test]
fn three_of_four_are_faced_and_the_fourth_starts_the_next_room() {
    let r = rules(&[]);
    // Room 1: M2 M3 M4 [P5 stays]. Room 2: P5 M6 M7 M8 -> face M6, M7 (dead), P5.
    let cards = [m(2), m(3), m(4), p(5), m(6), m(7), m(8)];
    let s = Script::new(&[IN_ORDER, face([1, 2, 0, 3], 0), IN_ORDER]);
    let o = play(&r, &cards, &s);
    let seen = s.seen.borrow();
    assert_eq!(seen[0].0, vec![m(2), m(3), m(4), p(5)]);
    assert_eq!(seen[1].0, vec![p(5), m(6), m(7), m(8)]);
    // 20 - 9 = 11; then M6, M7 -> -2: dead before the potion.
    assert!(!o.win);
    assert_eq!((o.final_hp, o.cards_faced), (-2, 5));
    // Loss score: HP at death minus every monster not faced (M8, still in the room).
    assert_eq!(o.score, -2 - 8);
}

#[test]
fn the_last_short_room_is_faced_whole_and_a_win_scores_hp() {
    let r = rules(&[]);
    let cards = [m(2), w(5), m(3), m(4), m(5), p(3)];
    // Room 1 (2, W5, 3, 4): equip W5, fight 4 and 3 with it, leave M2 (0 damage).
    // Room 2 (M2, M5, P3): short, face all: M5 bare (5), M2 with the weapon (0), P3 (+3).
    let s = Script::new(&[face([1, 3, 2, 0], 0b110), face([1, 0, 2, 3], 0b010)]);
    let o = play(&r, &cards, &s);
    assert!(!s.seen.borrow()[1].3, "a short room cannot be avoided");
    assert!(o.win);
    assert_eq!((o.final_hp, o.score, o.cards_faced), (18, 18, 6));
    assert_eq!((o.rooms_entered, o.largest_weapon), (2, 5));
}

#[test]
fn a_win_at_full_hp_on_a_potion_adds_its_value_unless_the_rule_is_off() {
    let cards = [w(2), m(2), p(4), p(9)];
    // Face W2, M2 with it (0 damage), P4 (HP already 20); leave P9; then P9 alone.
    let turns = [face([0, 1, 2, 3], 0b010), IN_ORDER];
    let o = play(&rules(&[]), &cards, &Script::new(&turns));
    assert!(o.win);
    assert_eq!((o.final_hp, o.score), (20, 29));
    let o = play(
        &rules(&["potion_bonus=false"]),
        &cards,
        &Script::new(&turns),
    );
    assert_eq!(o.score, 20);
    // Not at full HP: no bonus.
    let o = play(&rules(&["start_hp=5"]), &cards, &Script::new(&turns));
    assert_eq!((o.final_hp, o.score), (18, 18));
}

#[test]
fn avoid_sends_the_room_to_the_bottom_in_order_and_never_twice_in_a_row() {
    let r = rules(&[]);
    let cards = [m(10), m(11), m(12), m(13), w(9), p(2), m(2), m(3)];
    let s = Script::new(&[Turn::AVOID, face([0, 2, 3, 1], 0b0100), IN_ORDER, IN_ORDER]);
    let o = play(&r, &cards, &s);
    let seen = s.seen.borrow();
    assert!(seen[0].3, "a full first room may be avoided");
    assert_eq!(seen[1].0, vec![w(9), p(2), m(2), m(3)]);
    assert!(!seen[1].3, "no avoiding twice in a row");
    // Room 2: W9, M2 (bare, 2), M3 with W9 (0); P2 left. Room 3: P2 + the avoided cards in order.
    assert_eq!(seen[2].0, vec![p(2), m(10), m(11), m(12)]);
    assert!(seen[2].3, "a room after a faced room may be avoided");
    assert_eq!(o.rooms_avoided, 1);
}

#[test]
fn avoiding_twice_in_a_row_is_a_rule_parameter_and_shuffle_keeps_the_cards() {
    let cards = [m(10), m(11), m(12), m(13), m(2), m(3), m(4), m(5)];
    let r = rules(&["avoid_in_a_row=true"]);
    let s = Script::new(&[Turn::AVOID; 300]);
    let o = play(&r, &cards, &s);
    let seen = s.seen.borrow();
    assert!(seen[1].3, "allowed by the parameter");
    assert_eq!(seen[1].0, vec![m(2), m(3), m(4), m(5)]);
    assert_eq!(seen[2].0, vec![m(10), m(11), m(12), m(13)]);
    // Avoiding stops being offered after MAX_AVOIDS, so every game ends: the room is then faced
    // in order (M10, M11 -> dead).
    assert_eq!(o.rooms_avoided, super::engine::MAX_AVOIDS);
    assert!(!o.win);
    // Shuffled avoid: same cards at the bottom, in the generator's order.
    let r = rules(&["avoid_order=shuffle"]);
    let mut e = Engine::stacked(&r, &cards);
    assert!(e.enter_room(&r));
    e.apply(&r, &Turn::AVOID, &mut GameRng::new(1, 2, 3));
    let mut bottom: Vec<u8> = e.dungeon().iter().skip(4).collect();
    bottom.sort_unstable();
    assert_eq!(bottom, vec![m(10), m(11), m(12), m(13)]);
}

#[test]
fn the_weapon_is_optional_and_its_wear_is_lenient_or_strict() {
    // W5 then M8 with it (3 damage), then M8 again: allowed under <=, not under <.
    let cards = [w(5), m(8), m(8), m(3), m(2)];
    let turns = [face([0, 1, 2, 3], 0b110), IN_ORDER];
    let lenient = play(&rules(&[]), &cards, &Script::new(&turns));
    let strict = play(
        &rules(&["weapon_wear=strict"]),
        &cards,
        &Script::new(&turns),
    );
    // Lenient: 3 + 3, then room 2 (M3, M2) bare: 5 -> 20 - 11 = 9.
    assert_eq!(lenient.final_hp, 9);
    // Strict: 3 + 8 (barehanded: the weapon cannot be used) + 5 -> 4.
    assert_eq!(strict.final_hp, 4);
    // Barehanded by choice: the weapon bit off takes the full value.
    let bare = play(&rules(&[]), &cards, &Script::new(&[IN_ORDER, IN_ORDER]));
    assert_eq!(bare.final_hp, 20 - 8 - 8 - 3 - 2);
    // A fresh weapon may be used on any monster; after slaying a 3 only on monsters <= 3.
    let cards = [w(5), m(3), m(8), m(2), m(2)];
    let o = play(
        &rules(&[]),
        &cards,
        &Script::new(&[face([0, 1, 2, 3], 0b110), face([0, 1, 2, 3], 0b11)]),
    );
    // M3 with W5 (0), M8 with it: not allowed (8 > 3) -> 8; then M2, M2 with it (0).
    assert_eq!(o.final_hp, 12);
}

#[test]
fn a_new_weapon_replaces_the_old_and_is_fresh() {
    let cards = [w(9), m(4), w(3), m(12), m(2)];
    // W9, M4 with it (0), W3 (replaces: limit gone), leave M12; room 2: M12 with W3 (9), M2.
    let o = play(
        &rules(&[]),
        &cards,
        &Script::new(&[face([0, 1, 2, 3], 0b010), face([0, 1, 2, 3], 0b01)]),
    );
    assert_eq!(o.final_hp, 20 - 9 - 2);
    assert_eq!(o.largest_weapon, 9);
}

#[test]
fn only_the_first_potion_of_a_turn_heals_unless_the_cap_is_raised() {
    let cards = [m(9), p(4), p(5), m(2)];
    let turns = [IN_ORDER, IN_ORDER];
    let o = play(&rules(&[]), &cards, &Script::new(&turns));
    // 20 - 9 + 4, P5 wasted; then M2 -> 13.
    assert_eq!((o.final_hp, o.potions_wasted, o.healed), (13, 1, 4));
    let o = play(
        &rules(&["potions_per_turn=2"]),
        &cards,
        &Script::new(&turns),
    );
    // + 5 more, capped at 20: 20 - 2 = 18.
    assert_eq!((o.final_hp, o.potions_wasted, o.healed), (18, 0, 9));
    // Healing never passes max HP.
    let o = play(
        &rules(&["start_hp=18"]),
        &[p(9), m(2), m(3), m(4)],
        &Script::new(&turns),
    );
    assert_eq!((o.healed, o.final_hp), (2, 20 - 2 - 3 - 4));
}

#[test]
fn death_ends_the_game_at_once_and_scores_hp_minus_the_monsters_not_faced() {
    let cards = [m(14), m(13), p(10), m(2), m(12), w(4), m(11)];
    let o = play(&rules(&["start_hp=20"]), &cards, &Script::new(&[IN_ORDER]));
    // M14 -> 6, M13 -> -7: dead; unfaced monsters: M2 (room), M12, M11 (dungeon).
    assert!(!o.win);
    assert_eq!((o.final_hp, o.cards_faced), (-7, 2));
    assert_eq!(o.score, -7 - (2 + 12 + 11));
}

#[test]
fn lenient_end_wins_as_soon_as_a_full_room_cannot_be_formed() {
    let cards = [m(2), m(3), m(4), m(14), m(13)];
    let all = play(&rules(&[]), &cards, &Script::new(&[IN_ORDER, IN_ORDER]));
    // All cards: 20 - 9, then M14 + M13 -> dead.
    assert!(!all.win);
    let lenient = play(&rules(&["end=lenient"]), &cards, &Script::new(&[IN_ORDER]));
    assert!(lenient.win);
    assert_eq!((lenient.score, lenient.cards_faced), (11, 3));
}

#[test]
fn a_full_room_with_an_empty_dungeon_leaves_one_card_for_a_last_room() {
    let cards = [m(2), m(3), m(4), p(5)];
    let s = Script::new(&[IN_ORDER, IN_ORDER]);
    let o = play(&rules(&[]), &cards, &s);
    let seen = s.seen.borrow();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].0, vec![p(5)]);
    assert!(o.win);
    // 20 - 9 + 5 = 16, last card a potion but HP not full: no bonus.
    assert_eq!((o.final_hp, o.score), (16, 16));
}

/// Orders a deck back to front: shows which cards a reshuffle was given.
struct Reverse;

impl crate::cards::Dealer for Reverse {
    fn shuffle(&mut self, cards: &mut [u8]) {
        cards.reverse();
    }
}

#[test]
fn reshuffle_after_an_avoid_shuffles_the_whole_dungeon_not_only_the_room() {
    let cards = [m(10), m(11), m(12), m(13), w(9), p(2), m(2), m(3)];
    let next_room = |order: &str| {
        let r = rules(&[&format!("avoid_order={order}")]);
        let s = Script::new(&[Turn::AVOID, IN_ORDER, IN_ORDER, IN_ORDER]);
        Engine::stacked(&r, &cards).play(&r, &s, &mut Reverse, &mut GameRng::new(0, 0, 0));
        let seen = s.seen.borrow();
        seen[1].0.clone()
    };
    // Keep: the room goes to the bottom as it was; the next room is the rest of the dungeon.
    assert_eq!(next_room("keep"), vec![w(9), p(2), m(2), m(3)]);
    // Shuffle: only the room is reordered, below the rest.
    assert_eq!(next_room("shuffle"), vec![w(9), p(2), m(2), m(3)]);
    // Reshuffle: the room joins the dungeon and all eight cards are ordered (here reversed).
    assert_eq!(next_room("reshuffle"), vec![m(13), m(12), m(11), m(10)]);
}

#[test]
fn without_the_barehanded_choice_the_weapon_is_used_whenever_it_may_be() {
    let cards = [w(5), m(8), m(3), m(2), m(4)];
    // Every weapon bit off: barehanded by choice under the default.
    let turns = [IN_ORDER, IN_ORDER];
    let free = play(&rules(&[]), &cards, &Script::new(&turns));
    assert_eq!(free.final_hp, 20 - 8 - 3 - 2 - 4);
    // Forced: M8 with W5 (3), M3 with it (0, the limit now 3); room 2 (M2, M4) in order: M2
    // with it (0, the limit now 2), M4 may not be fought with it: barehanded, 4.
    let forced = play(&rules(&["barehanded=false"]), &cards, &Script::new(&turns));
    assert_eq!(forced.final_hp, 20 - 3 - 4);
}

#[test]
fn the_monsters_end_wins_once_every_monster_is_slain() {
    let cards = [m(2), m(3), m(4), p(5), w(6), p(7), w(8)];
    let turns = [IN_ORDER, IN_ORDER, IN_ORDER];
    // All cards: room 2 (P5, W6, P7, W8) heals 5 and wastes P7; room 3 is W8 alone.
    let all = play(&rules(&[]), &cards, &Script::new(&turns));
    assert!(all.win);
    assert_eq!((all.score, all.cards_faced, all.rooms_entered), (16, 7, 3));
    // Monsters: won after the first room, the potions and weapons left unfaced.
    let slain = play(&rules(&["end=monsters"]), &cards, &Script::new(&turns));
    assert!(slain.win);
    assert_eq!(
        (slain.score, slain.cards_faced, slain.rooms_entered),
        (11, 3, 1)
    );
    // A monster left in the room is not slain: the game goes on.
    let cards = [m(2), m(3), m(4), m(5), p(6)];
    let s = Script::new(&turns);
    let left = play(&rules(&["end=monsters"]), &cards, &s);
    assert_eq!(s.seen.borrow().len(), 2);
    assert!(left.win);
    assert_eq!((left.score, left.cards_faced), (20 - 14 + 6, 5));
}

#[test]
fn a_weapon_may_be_discarded_instead_of_equipped_when_the_rules_allow() {
    let cards = [w(9), m(4), w(3), m(2), m(4)];
    // Room 1: W9, M4 with it (0), W3 with the discard bit; M2 left. Room 2: M4 then M2, both
    // with the weapon.
    let discard_w3 = Turn {
        discard: 0b100,
        ..face([0, 1, 2, 3], 0b010)
    };
    let turns = [discard_w3, face([1, 0, 2, 3], 0b11)];
    // Allowed: W9 stays (limit 4): M2 and M4 cost nothing.
    let o = play(
        &rules(&["weapon_discard=true"]),
        &cards,
        &Script::new(&turns),
    );
    assert_eq!((o.final_hp, o.largest_weapon), (20, 9));
    // Not allowed (the default): the bit is ignored, W3 is equipped: M4 with W3 (1), M2 (0).
    let o = play(&rules(&[]), &cards, &Script::new(&turns));
    assert_eq!(o.final_hp, 19);
    // The searches see the choice: a way to face the room that keeps W9 exists only when allowed.
    let hero = super::hero::Hero {
        hp: 20,
        weapon: 9,
        limit: 4,
        heals: 0,
    };
    let keeps = |sets: &[&str]| {
        let r = rules(sets);
        super::plans::Options::new(&r, &[w(3), m(2), m(3), p(2)], 3, hero)
            .as_slice()
            .iter()
            .any(|o| o.left != w(3) && o.hero.weapon == 9)
    };
    assert!(keeps(&["weapon_discard=true"]));
    assert!(!keeps(&[]));
}
