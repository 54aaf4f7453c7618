//! Each rule of `shared/rulings/crownfall.md` played through a stacked deck.
//!
//! Every case runs twice: once through the engine's whole-strike table path and once card by
//! card, and both must give the same outcome.

use crate::cards::Stacked;
use crate::rules::{RuleSet, load};

use super::Enemy::{Jack, Joker, King, Queen};
use super::engine::{Engine, JokerView, StrikeView};
use super::outcome::{Enemy, Outcome};
use super::policy::{BankAt, BankTable, Policy};
use super::rules::Rules;

/// A policy that hides its table, so the engine asks it card by card.
struct CardByCard<P>(P);

impl<P: Policy> Policy for CardByCard<P> {
    fn strike_table(&self, _: &Rules, _: &StrikeView) -> Option<BankTable> {
        None
    }
    fn bank(&self, rules: &Rules, view: &StrikeView) -> bool {
        self.0.bank(rules, view)
    }
    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        self.0.double_or_nothing(rules, view)
    }
}

fn rules(sets: &[&str]) -> Rules {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let r: Rules = load(None, &sets).unwrap();
    r.validate().unwrap();
    r
}

fn stacked<P: Policy>(rules: &Rules, policy: &P, tower: &[Enemy], deck: &[u8]) -> Outcome {
    Engine::stacked(rules, tower, deck).play(rules, policy, &mut Stacked, &mut Stacked)
}

/// Plays a stacked game through the table path and card by card, which must agree, and returns
/// the outcome. The same deck padded with 10s to 40 cards is played both ways too, so that the
/// table path sees whole windows.
fn play_both<P: Policy>(rules: &Rules, policy: P, tower: &[Enemy], deck: &[u8]) -> Outcome {
    let stepped = stacked(rules, &CardByCard(&policy), tower, deck);
    assert_eq!(
        stacked(rules, &policy, tower, deck),
        stepped,
        "table path disagrees"
    );
    let mut padded = deck.to_vec();
    padded.resize(40.max(deck.len()), 10);
    assert_eq!(
        stacked(rules, &policy, tower, &padded),
        stacked(rules, &CardByCard(&policy), tower, &padded),
        "table path disagrees on the padded deck"
    );
    stepped
}

impl<P: Policy> Policy for &P {
    fn strike_table(&self, rules: &Rules, view: &StrikeView) -> Option<BankTable> {
        (*self).strike_table(rules, view)
    }
    fn bank(&self, rules: &Rules, view: &StrikeView) -> bool {
        (*self).bank(rules, view)
    }
    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        (*self).double_or_nothing(rules, view)
    }
}

#[test]
fn a_bust_takes_base_damage_and_the_enemy_stays() {
    // 10 + 5 + 9 = 24 busts against bank-at-18; then 10 + 2 + 6 = 18 defeats the Jack.
    let r = rules(&[]);
    let o = play_both(&r, BankAt(18), &[Jack], &[10, 5, 9, 10, 2, 6]);
    assert!(o.win);
    assert_eq!((o.final_hp, o.strikes, o.cards_drawn), (18, 2, 6));
    assert_eq!(o.damage, [2, 0, 0, 0]);
}

#[test]
fn ace_counts_one_when_eleven_would_bust() {
    // 10 + 5 = 15, Ace makes 16 (hard), then 2 = 18 banks against the King.
    let r = rules(&[]);
    let o = play_both(&r, BankAt(18), &[King], &[10, 5, 1, 2]);
    assert!(o.win);
    assert_eq!((o.final_hp, o.cards_drawn, o.perfect_21s), (20, 4, 0));
}

#[test]
fn guard_zone_edges() {
    // One strike against a Jack (target 12, base 2, guard 1, zone 2), banking at exactly `total`.
    for (total, cards, hurt) in [
        (9, [5, 4], 2),
        (10, [5, 5], 1),
        (11, [5, 6], 1),
        (12, [5, 7], 0),
    ] {
        let r = rules(&["max_strikes=1"]);
        let o = play_both(&r, BankAt(total), &[Jack], &cards);
        assert_eq!(o.damage[0], hurt, "total {total}");
        assert_eq!(o.cleared, u8::from(total >= 12), "total {total}");
    }
    // A soft 11 (a lone Ace) is inside the zone too.
    let o = play_both(&rules(&["max_strikes=1"]), BankAt(11), &[Jack], &[1]);
    assert_eq!(o.damage[0], 1);
    // Zone 0: 11 takes full damage; zone 3: 9 is guarded.
    let o = play_both(
        &rules(&["max_strikes=1", "guard_zone=0"]),
        BankAt(11),
        &[Jack],
        &[5, 6],
    );
    assert_eq!(o.damage[0], 2);
    let o = play_both(
        &rules(&["max_strikes=1", "guard_zone=3"]),
        BankAt(9),
        &[Jack],
        &[5, 4],
    );
    assert_eq!(o.damage[0], 1);
    // Guard damage is the rule's: a King guarded at 16 takes guard_damage.king.
    let o = play_both(
        &rules(&["max_strikes=1", "guard_damage.king=4"]),
        BankAt(16),
        &[King],
        &[10, 6],
    );
    assert_eq!(o.damage[2], 4);
}

#[test]
fn exact_target_defeats_without_healing() {
    let r = rules(&["start_hp=15"]);
    let o = play_both(&r, BankAt(18), &[King], &[10, 8]);
    assert!(o.win);
    assert_eq!((o.final_hp, o.perfect_21s), (15, 0));
}

#[test]
fn a_perfect_21_heals_up_to_the_cap() {
    // Soft 21 (Ace + 10) against a King at 19 HP: heal 3, capped at 20.
    let o = play_both(&rules(&["start_hp=19"]), BankAt(21), &[King], &[1, 10]);
    assert_eq!((o.final_hp, o.perfect_21s), (20, 1));
    // Hard 21 against a Queen at 10 HP: heal 2.
    let o = play_both(&rules(&["start_hp=10"]), BankAt(21), &[Queen], &[10, 5, 6]);
    assert_eq!((o.final_hp, o.perfect_21s), (12, 1));
    // The heal is a rule: heal.jack = 5 from 10 HP.
    let o = play_both(
        &rules(&["start_hp=10", "heal.jack=5"]),
        BankAt(21),
        &[Jack],
        &[7, 7, 7],
    );
    assert_eq!(o.final_hp, 15);
    // A 21 that is not banked at 21 (bank-at-12 stops at 12) heals nothing.
    let o = play_both(&rules(&["start_hp=10"]), BankAt(12), &[Jack], &[6, 6, 9]);
    assert_eq!((o.final_hp, o.perfect_21s, o.cards_drawn), (10, 0, 2));
}

#[test]
fn joker_even_odd_and_double_or_nothing() {
    // Even first flip: disarmed, cleared, no damage.
    let o = play_both(&rules(&[]), BankAt(17), &[Joker], &[4]);
    assert!(o.win);
    assert_eq!((o.final_hp, o.cleared, o.cards_drawn), (20, 1, 1));
    // Odd at 20 HP: bank-at-N accepts 4 damage.
    let o = play_both(&rules(&[]), BankAt(17), &[Joker], &[3]);
    assert_eq!((o.final_hp, o.damage[3], o.cards_drawn), (16, 4, 1));
    // Odd at 4 HP (accepting would kill): double or nothing; even second flip dodges.
    let o = play_both(&rules(&["start_hp=4"]), BankAt(17), &[Joker], &[3, 6]);
    assert!(o.win);
    assert_eq!((o.final_hp, o.cards_drawn), (4, 2));
    // ... odd second flip: the crushing blow kills.
    let o = play_both(&rules(&["start_hp=4"]), BankAt(17), &[Joker, Jack], &[3, 7]);
    assert!(!o.win);
    assert_eq!((o.final_hp, o.cleared, o.killer()), (0, 0, Some(Joker)));
    assert_eq!(o.damage[3], 8);
    // Joker damage values are rules.
    let o = play_both(&rules(&["joker_damage=6"]), BankAt(17), &[Joker], &[9]);
    assert_eq!(o.final_hp, 14);
}

#[test]
fn flipped_joker_cards_go_to_the_discard_and_come_back() {
    // Joker flips 3 (accepted); the Jack strike draws 10 and then the deck is empty: the
    // discard (the Joker's 3) is reshuffled in: 13 defeats the Jack.
    let o = play_both(&rules(&[]), BankAt(12), &[Joker, Jack], &[3, 10]);
    assert!(o.win);
    assert_eq!((o.reshuffles, o.cards_drawn, o.final_hp), (1, 3, 16));
}

#[test]
fn reshuffle_mid_strike_keeps_the_strike_pile_out_of_the_new_deck() {
    // Jack 1: 10 + 2 = 12. Jack 2: 9, deck empty, the discard [10, 2] becomes the deck (the 9
    // stays on the strike pile): 9 + 10 = 19. Jack 3: 2, deck empty again, discard [9, 10]:
    // 2 + 9 + 10 = 21, a perfect 21 from 17 HP.
    let o = play_both(
        &rules(&["start_hp=17"]),
        BankAt(12),
        &[Jack, Jack, Jack],
        &[10, 2, 9],
    );
    assert!(o.win);
    assert_eq!((o.reshuffles, o.cards_drawn, o.perfect_21s), (2, 7, 1));
    assert_eq!(o.final_hp, 19);
    let o = play_both(&rules(&["start_hp=17"]), BankAt(21), &[Jack], &[10, 2, 9]);
    // 10 + 2 + 9 = 21 without a reshuffle.
    assert_eq!((o.reshuffles, o.final_hp, o.perfect_21s), (0, 19, 1));
}

#[test]
fn death_on_the_last_tower_card_is_a_loss() {
    // Jack defeated, then the King busts us at 3 HP: 1 cleared, killed by the King, HP 0.
    let o = play_both(
        &rules(&["start_hp=3"]),
        BankAt(12),
        &[Jack, King],
        &[10, 2, 10, 5, 9],
    );
    assert!(!o.win);
    assert_eq!((o.cleared, o.final_hp, o.killer()), (1, 0, Some(King)));
    // Damage to exactly 0 HP kills too.
    let o = play_both(&rules(&["start_hp=5"]), BankAt(18), &[King], &[10, 5, 9]);
    assert_eq!((o.win, o.final_hp, o.killer()), (false, 0, Some(King)));
}

#[test]
fn a_game_that_cannot_end_stops_at_max_strikes_as_a_loss() {
    // No damage, and bank-at-2 always banks short of the Jack: a stalemate.
    let r = rules(&["damage.jack=0", "guard_damage.jack=0", "max_strikes=7"]);
    let o = play_both(&r, BankAt(2), &[Jack], &[5, 5, 5, 5, 5, 5, 5, 5]);
    assert!(!o.win);
    assert_eq!((o.strikes, o.final_hp, o.killer()), (7, 20, None));
}
