//! Properties of Crownfall games over many seeds and rule settings.

use sim::cards::Stacked;
use sim::games::Game;
use sim::games::crownfall::engine::{DeckView, Engine, JokerView, StrikeView};
use sim::games::crownfall::policy::{BankAt, BankTable, Policy, safe_joker};
use sim::games::crownfall::{Crownfall, Rules, Streams};
use sim::rng::GameRng;
use sim::rules::load;

/// Bank-at-N asked card by card, checking at every decision that the 40 player cards are all in
/// the deck, the strike pile or the discard, four of each rank, and that HP is within bounds.
struct Auditor(u8);

fn audit(rules: &Rules, hp: u8, deck: &DeckView) {
    assert!(
        hp >= 1 && hp <= rules.max_hp,
        "HP {hp} out of 1..={}",
        rules.max_hp
    );
    let mut counts = [0u32; 11];
    for (v, (&left, &gone)) in deck.counts().iter().zip(&deck.discarded()).enumerate() {
        counts[v] += u32::from(left) + u32::from(gone);
    }
    for &card in deck.held() {
        counts[usize::from(card)] += 1;
    }
    assert_eq!(
        &counts[1..],
        &[4; 10],
        "cards not accounted for: {counts:?}"
    );
}

impl Policy for Auditor {
    fn strike_table(&self, _: &Rules, _: &StrikeView) -> Option<BankTable> {
        None
    }
    fn bank(&self, rules: &Rules, view: &StrikeView) -> bool {
        audit(rules, view.hp, &view.deck);
        assert!(view.hard <= 21 && view.best <= 21 && view.best >= view.hard);
        view.best >= self.0
    }
    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        audit(rules, view.hp, &view.deck);
        safe_joker(rules, view)
    }
}

fn variants() -> Vec<Rules> {
    [
        vec![],
        vec!["start_hp=5", "max_hp=30", "heal.jack=9", "heal.king=9"],
        vec!["guard_zone=0", "damage.king=9"],
        vec![
            "damage.jack=0",
            "damage.queen=0",
            "damage.king=0",
            "guard_damage.jack=0",
            "guard_damage.queen=0",
            "guard_damage.king=0",
            "max_strikes=50",
        ],
        vec!["tower.jacks=20", "tower.jokers=10", "joker_damage=1"],
    ]
    .into_iter()
    .map(|sets| {
        load(
            None,
            &sets.into_iter().map(String::from).collect::<Vec<_>>(),
        )
        .unwrap()
    })
    .collect()
}

#[test]
fn cards_are_conserved_hp_stays_in_range_and_every_game_ends() {
    for rules in variants() {
        for n in [2u8, 12, 17, 21] {
            for game in 0..3_000u64 {
                let mut tower = GameRng::new(9, game, Streams::TOWER);
                let mut deck = GameRng::new(9, game, Streams::PLAYER_DECK);
                let o = Engine::new(&rules).play(&rules, &Auditor(n), &mut tower, &mut deck);
                assert!(o.final_hp <= rules.max_hp);
                assert!(usize::from(o.cleared) <= rules.tower.len());
                assert!(o.strikes <= rules.max_strikes);
                assert_eq!(o.win, usize::from(o.cleared) == rules.tower.len(), "{o:?}");
                assert!(
                    o.win || o.final_hp == 0 || o.strikes == rules.max_strikes,
                    "{o:?}"
                );
                assert_eq!(o.killer().is_some(), !o.win && o.final_hp == 0, "{o:?}");
            }
        }
    }
}

/// Bank-at-N with its table hidden: the engine takes the card-by-card path.
struct CardByCard(u8);

impl Policy for CardByCard {
    fn strike_table(&self, _: &Rules, _: &StrikeView) -> Option<BankTable> {
        None
    }
    fn bank(&self, _: &Rules, view: &StrikeView) -> bool {
        view.best >= self.0
    }
    fn double_or_nothing(&self, rules: &Rules, view: &JokerView) -> bool {
        safe_joker(rules, view)
    }
}

#[test]
fn whole_strike_tables_play_exactly_like_card_by_card_decisions() {
    for rules in variants() {
        for n in 2..=21u8 {
            for game in 0..500u64 {
                let play = |p: &dyn Fn(
                    Engine,
                    &mut GameRng,
                    &mut GameRng,
                ) -> sim::games::crownfall::Outcome| {
                    let mut tower = GameRng::new(3, game, Streams::TOWER);
                    let mut deck = GameRng::new(3, game, Streams::PLAYER_DECK);
                    p(Engine::new(&rules), &mut tower, &mut deck)
                };
                let table = play(&|e, t, d| e.play(&rules, &BankAt(n), t, d));
                let stepped = play(&|e, t, d| e.play(&rules, &CardByCard(n), t, d));
                assert_eq!(table, stepped, "bank-at-{n}, game {game}");
            }
        }
    }
}

#[test]
fn a_game_depends_only_on_seed_and_index() {
    let game = Crownfall::with_policy(Rules::default(), "bank-at-17").unwrap();
    let a: Vec<_> = (0..200).map(|i| game.play(5, i)).collect();
    let b: Vec<_> = (0..200).rev().map(|i| game.play(5, i)).collect();
    assert!(a.iter().eq(b.iter().rev()));
    assert_ne!(game.play(5, 0), game.play(6, 0));
    // A stacked engine with no shuffling is deterministic too (smoke check of the test dealer).
    let rules = Rules::default();
    let deck: Vec<u8> = (0..40).map(|i| (i % 10) as u8 + 1).collect();
    let order = [sim::games::crownfall::Enemy::Jack; 14];
    let x = Engine::stacked(&rules, &order, &deck).play(
        &rules,
        &BankAt(17),
        &mut Stacked,
        &mut Stacked,
    );
    let y = Engine::stacked(&rules, &order, &deck).play(
        &rules,
        &BankAt(17),
        &mut Stacked,
        &mut Stacked,
    );
    assert_eq!(x, y);
}

#[test]
fn games_played_in_pairs_are_the_games_played_alone() {
    let infinite = load(None, &["deck=infinite".to_string()]).unwrap();
    for (rules, policy) in [
        (Rules::default(), "bank-at-17"),
        (Rules::default(), "bank-at-target"),
        (Rules::default(), "strategies/crownfall/gambler.toml"),
        (infinite, "bank-at-15"),
    ] {
        let game = Crownfall::with_policy(rules, policy).unwrap();
        for index in (0..2_000u64).step_by(2) {
            let alone = [game.play(8, index), game.play(8, index + 1)];
            assert_eq!(
                game.play_pair(8, index),
                alone,
                "{policy}, games {index} and on"
            );
        }
        // An odd range: pairs, then the last game alone, every game in order.
        let mut seen = Vec::new();
        game.play_range(8, 3..10, |index, outcome| seen.push((index, outcome)));
        let alone: Vec<_> = (3..10).map(|index| (index, game.play(8, index))).collect();
        assert_eq!(seen, alone, "{policy}");
        // The last indices there are.
        let last = u64::MAX - 4..u64::MAX;
        let mut seen = Vec::new();
        game.play_range(8, last.clone(), |index, outcome| {
            seen.push((index, outcome))
        });
        let alone: Vec<_> = last.map(|index| (index, game.play(8, index))).collect();
        assert_eq!(seen, alone, "{policy}");
    }
}
