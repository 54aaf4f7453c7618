//! Rule tests on stacked heaps and set positions: each plays an exact situation through the
//! engine (with a scripted policy where the test fixes the choices) or asks `simple` one of its
//! rules.

use crate::cards::Stacked;
use crate::rng::GameRng;

use super::automaton::Automaton;
use super::cards::{Counts, Heap, KING, LESSER};
use super::combat::{self, Blocks};
use super::engine::{Engine, Side, Sources, Turn};
use super::events::{Event, Observer};
use super::keys::{Keys, Table};
use super::policy::Policy;
use super::rules::Rules;
use super::simple::{self, Simple};
use super::view::View;
use crate::cards::Dealer;

/// A policy whose every choice the test fixes.
#[derive(Clone, Copy, Debug, Default)]
struct Script {
    deploy: Option<(u8, usize, Option<usize>)>,
    build: bool,
    attack: u32,
    blocks: Blocks,
    /// The destroyed blockers of each split; `None` for the split rule.
    split: Option<u32>,
}

impl Policy for Script {
    fn main<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        if let Some((card, target, own)) = self.deploy {
            turn.deploy(card, target, own);
        }
        if self.build {
            turn.build_all_strongest();
        }
        self.attack
    }

    fn block(&self, _: &Rules, _: &View, _: u32, _: &mut GameRng) -> Blocks {
        self.blocks
    }

    fn split(&self, _: &Rules, _: &View, a: &Automaton, b: &[Automaton], _: &mut GameRng) -> u32 {
        self.split.unwrap_or_else(|| combat::split_rule(a, b))
    }
}

fn counts(values: &[u8]) -> Counts {
    let mut c = Counts::default();
    values.iter().for_each(|&v| c[usize::from(v)] += 1);
    c
}

/// A seat with `heap` (top first), `hp`, an assembly area, a hand and automatons.
fn side(heap: &[u8], hp: i16, assembly: &[u8], hand: [u8; 2], bots: &[Automaton]) -> Side {
    Side::new(Heap::stacked(heap), hp).with_table(counts(assembly), hand, bots)
}

fn bare(bots: &[Automaton]) -> Side {
    side(&[], 25, &[], [0, 0], bots)
}

/// Plays one turn of the seat to move with `policies`; returns the winner if it ended the game.
fn turn<P: Policy>(engine: &mut Engine, policies: [&P; 2]) -> (Option<u8>, Vec<Event>) {
    let mut events = Vec::new();
    let mut coins = [GameRng::unused(), GameRng::unused()];
    let mut src = Sources {
        returns: &mut [Stacked, Stacked],
        coins: &mut coins,
        obs: &mut events,
    };
    let won = engine.take_turn(&Rules::default(), policies, &mut src);
    (won, events)
}

fn heap_cards(engine: &Engine, seat: usize) -> Vec<u8> {
    engine.side(seat).heap().iter().collect()
}

fn view_of(engine: &Engine, seat: usize) -> View<'_> {
    engine.view(seat)
}

// ---- The engine's rules -------------------------------------------------------------------

#[test]
fn several_blockers_take_the_split_and_together_destroy_the_attacker() {
    // A 9/9 attacks; 4/6, 5/6 and 2/4 all block it. The split rule destroys the 2/4 only
    // (4 + 6 > 9); the blockers' 11 power destroys the 9/9; no damage reaches the player.
    let attacker = Automaton::one_three(9, 3);
    let blockers = [
        Automaton::two_pairs(2, 3),
        Automaton::one_three(5, 2),
        Automaton::two_pairs(1, 2),
    ];
    let mut e = Engine::from_sides([bare(&[attacker]), bare(&blockers)], 2);
    let mut blocks = Blocks::NONE;
    (0..3).for_each(|i| blocks.assign(i, 0));
    let p = Script {
        attack: 1,
        blocks,
        ..Script::default()
    };
    let (won, _) = turn(&mut e, [&p, &p]);
    assert_eq!(won, None);
    assert!(e.side(0).bots().is_empty());
    assert_eq!(e.side(1).bots().len(), 2);
    assert!(!e.side(1).bots().contains(&Automaton::two_pairs(1, 2)));
    assert_eq!((e.side(0).hp(), e.side(1).hp()), (25, 25));
    // Each destroyed automaton's cards went under its owner's heap.
    assert_eq!(heap_cards(&e, 0), vec![3, 3, 3, 9]);
    assert_eq!(heap_cards(&e, 1), vec![1, 1, 2, 2]);
    // The attacker's own choice of split is obeyed: destroy the 5/6 instead.
    let mut e = Engine::from_sides([bare(&[attacker]), bare(&blockers)], 2);
    let p = Script {
        split: Some(0b010),
        ..p
    };
    turn(&mut e, [&p, &p]);
    let left = e.side(1).bots();
    assert!(left.contains(&Automaton::two_pairs(1, 2)) && left.len() == 2);
    // An illegal split (6 + 6 > 9) falls back to the rule.
    let mut e = Engine::from_sides([bare(&[attacker]), bare(&blockers)], 2);
    let p = Script {
        split: Some(0b011),
        ..p
    };
    turn(&mut e, [&p, &p]);
    assert!(!e.side(1).bots().contains(&Automaton::two_pairs(1, 2)));
}

#[test]
fn four_ones_cannot_be_blocked_and_unblocked_power_hits_the_player() {
    let mut e = Engine::from_sides(
        [
            bare(&[Automaton::FOUR_ONES, Automaton::run(3)]),
            bare(&[Automaton::run(4), Automaton::two_pairs(1, 2)]),
        ],
        2,
    );
    // The script blocks the four 1s with the 10/10 (dropped: unblockable) and nothing else.
    let mut blocks = Blocks::NONE;
    blocks.assign(0, 0);
    let p = Script {
        attack: 0b11,
        blocks,
        ..Script::default()
    };
    let (_, events) = turn(&mut e, [&p, &p]);
    assert_eq!(e.side(1).hp(), 25 - 1 - 6);
    assert!(events.contains(&Event::Damage { seat: 0, amount: 7 }));
    assert_eq!(e.side(1).bots().len(), 2);
    // `simple` defending: the 10/10 takes the 6/6 (gang of one that loses nothing), the four
    // 1s get through.
    let mut e = Engine::from_sides(
        [
            bare(&[Automaton::FOUR_ONES, Automaton::run(3)]),
            bare(&[Automaton::run(4)]),
        ],
        2,
    );
    let att = Script {
        attack: 0b11,
        ..Script::default()
    };
    let policies: [&dyn PolicyRef; 2] = [&att, &Simple];
    mixed_turn(&mut e, policies);
    assert_eq!(e.side(1).hp(), 24);
    let left = e.side(0).bots();
    assert_eq!(
        (left.len(), left[0].pattern),
        (1, Automaton::FOUR_ONES.pattern)
    );
    assert!(left[0].attacking);
    assert_eq!(e.side(1).bots(), &[Automaton::run(4)]);
}

/// Two different policies in one test: each seat's calls go to its own.
trait PolicyRef {
    fn as_script(&self) -> Option<&Script>;
}
impl PolicyRef for Script {
    fn as_script(&self) -> Option<&Script> {
        Some(self)
    }
}
impl PolicyRef for Simple {
    fn as_script(&self) -> Option<&Script> {
        None
    }
}

/// Either policy, as one type the engine takes.
#[derive(Clone, Copy)]
enum Either {
    Script(Script),
    Simple,
}

impl Policy for Either {
    fn setup<D: Dealer, O: Observer>(&self, r: &Rules, t: &mut Turn<'_, '_, D, O>) {
        match self {
            Either::Script(s) => s.setup(r, t),
            Either::Simple => Simple.setup(r, t),
        }
    }
    fn main<D: Dealer, O: Observer>(&self, r: &Rules, t: &mut Turn<'_, '_, D, O>) -> u32 {
        match self {
            Either::Script(s) => s.main(r, t),
            Either::Simple => Simple.main(r, t),
        }
    }
    fn block(&self, r: &Rules, v: &View, a: u32, c: &mut GameRng) -> Blocks {
        match self {
            Either::Script(s) => s.block(r, v, a, c),
            Either::Simple => Simple.block(r, v, a, c),
        }
    }
    fn split(&self, r: &Rules, v: &View, a: &Automaton, b: &[Automaton], c: &mut GameRng) -> u32 {
        match self {
            Either::Script(s) => s.split(r, v, a, b, c),
            Either::Simple => Simple.split(r, v, a, b, c),
        }
    }
}

fn mixed_turn(e: &mut Engine, policies: [&dyn PolicyRef; 2]) -> (Option<u8>, Vec<Event>) {
    let p = policies.map(|p| p.as_script().map_or(Either::Simple, |s| Either::Script(*s)));
    turn(e, [&p[0], &p[1]])
}

#[test]
fn attackers_stay_in_the_attack_area_and_cannot_block_the_next_turn() {
    let mut e = Engine::from_sides([bare(&[Automaton::run(3)]), bare(&[Automaton::run(4)])], 0);
    let first = Script {
        attack: 1,
        ..Script::default()
    };
    let (_, _) = turn(&mut e, [&first, &first]);
    // The 10/10 did not block (the script blocks nothing): 6 damage.
    assert_eq!(e.side(1).hp(), 19);
    assert!(e.side(0).bots()[0].attacking);
    // Seat 1's turn: its 10/10 attacks; seat 0's 6/6 is still attacking and cannot block it.
    let mut blocks = Blocks::NONE;
    blocks.assign(0, 0);
    let second = Script {
        attack: 1,
        blocks,
        ..Script::default()
    };
    turn(&mut e, [&second, &second]);
    assert_eq!(e.side(0).hp(), 15);
    assert_eq!(e.side(0).bots().len(), 1);
    // `simple` would not even offer it: no blockers in its defense area.
    assert_eq!(simple::block(&e.view(0), 0b1), Blocks::NONE);
    // Seat 0's next turn readies it.
    let none = Script::default();
    turn(&mut e, [&none, &none]);
    assert!(!e.side(0).bots()[0].attacking);
}

#[test]
fn a_combat_that_leaves_the_defender_at_zero_or_below_ends_the_game_unclamped() {
    let mut e = Engine::from_sides(
        [bare(&[Automaton::run(3)]), side(&[], 5, &[], [0, 0], &[])],
        2,
    );
    let p = Script {
        attack: 1,
        ..Script::default()
    };
    let (won, events) = turn(&mut e, [&p, &p]);
    assert_eq!(won, Some(0));
    assert_eq!(e.side(1).hp(), -1);
    assert!(events.contains(&Event::Damage { seat: 0, amount: 6 }));
}

#[test]
fn the_turn_cap_is_played_in_full_and_is_a_draw() {
    let rules = Rules {
        turn_cap: 6,
        opening_draw: 2,
        ..Rules::default()
    };
    // Heaps that never make an automaton: 2s and 5s and 9s, one of each value at most twice.
    let heap = [2, 5, 9, 2, 5, 9, 6, 7, 8, 10, 3, 4, 6, 7];
    let mut e = Engine::from_heaps(&rules, [Heap::stacked(&heap), Heap::stacked(&heap)]);
    let mut coins = [GameRng::unused(), GameRng::unused()];
    let mut events = Vec::new();
    let mut src = Sources {
        returns: &mut [Stacked, Stacked],
        coins: &mut coins,
        obs: &mut events,
    };
    let o = e.play(&rules, [&Simple, &Simple], &mut src);
    assert_eq!((o.winner, o.turns), (None, 6));
    assert_eq!(o.final_hp, [25, 25]);
    assert_eq!(events.last(), Some(&Event::Ended { winner: None }));
    let turns = events
        .iter()
        .filter(|e| matches!(e, Event::TurnStarted { .. }))
        .count();
    assert_eq!(turns, 6);
    // 2 opening + 3 each of three turns = 11 cards drawn per seat.
    assert_eq!(e.side(0).heap().len(), heap.len() - 11);
}

#[test]
fn a_short_heap_draws_what_it_has_and_an_empty_one_nothing() {
    let mut e = Engine::from_sides([side(&[4, KING], 25, &[], [0, 0], &[]), bare(&[])], 2);
    let none = Script::default();
    turn(&mut e, [&none, &none]);
    assert_eq!(e.side(0).assembly(), &counts(&[4]));
    assert_eq!(e.side(0).hand(), [1, 0]);
    assert!(e.side(0).heap().is_empty());
    turn(&mut e, [&none, &none]);
    turn(&mut e, [&none, &none]);
    assert_eq!(e.side(0).assembly(), &counts(&[4]));
}

#[test]
fn the_first_turn_draws_first_turn_draw_and_every_other_turn_draw_per_turn() {
    let rules = Rules {
        first_turn_draw: 1,
        opening_draw: 0,
        ..Rules::default()
    };
    let heap = [5, 6, 7, 8, 9, 10];
    let mut e = Engine::from_heaps(&rules, [Heap::stacked(&heap), Heap::stacked(&heap)]);
    let mut coins = [GameRng::unused(), GameRng::unused()];
    let mut src = Sources {
        returns: &mut [Stacked, Stacked],
        coins: &mut coins,
        obs: &mut (),
    };
    let none = Script::default();
    e.take_turn(&rules, [&none, &none], &mut src);
    e.take_turn(&rules, [&none, &none], &mut src);
    assert_eq!(e.side(0).heap().len(), 5);
    assert_eq!(e.side(1).heap().len(), 3);
}

#[test]
fn setup_builds_only_with_setup_build_and_draws_the_opening_twelve() {
    let heap = [1, 2, 3, 4, 2, 2, 2, 5, 9, 9, 8, KING, 7, 7];
    for build in [true, false] {
        let rules = Rules {
            setup_build: build,
            ..Rules::default()
        };
        let mut e = Engine::from_heaps(&rules, [Heap::stacked(&heap), Heap::stacked(&heap)]);
        let mut coins = [GameRng::unused(), GameRng::unused()];
        let mut src = Sources {
            returns: &mut [Stacked, Stacked],
            coins: &mut coins,
            obs: &mut (),
        };
        e.setup(&rules, [&Simple, &Simple], &mut src);
        assert_eq!(e.side(1).hand(), [1, 0]);
        assert_eq!(e.side(1).heap().len(), 2);
        let want: &[Automaton] = if build {
            // The run 1-5 (15/15), then one 9 and three 2s (9/6).
            &[Automaton::run(5), Automaton::one_three(9, 2)]
        } else {
            &[]
        };
        assert_eq!(e.side(0).bots(), want);
    }
}

#[test]
fn tear_downs_destroy_a_target_then_their_own_and_go_under_the_heap() {
    // Greater: any own automaton, here the 4/6; the King and the 4/6's cards go under the
    // deployer's heap, the target's under the opponent's.
    let mine = [
        Automaton::one_three(5, 1),
        Automaton::two_pairs(2, 3),
        Automaton::one_three(5, 2),
    ];
    let opp = [Automaton::run(4), Automaton::two_pairs(1, 2)];
    let me = side(&[], 25, &[], [1, 1], &mine);
    let mut e = Engine::from_sides([me, bare(&opp)], 2);
    let king = Script {
        deploy: Some((KING, 0, Some(1))),
        ..Script::default()
    };
    let (_, events) = turn(&mut e, [&king, &king]);
    assert_eq!(e.side(1).bots(), &[Automaton::two_pairs(1, 2)]);
    assert_eq!(e.side(0).bots().len(), 2);
    assert!(!e.side(0).bots().contains(&Automaton::two_pairs(2, 3)));
    assert_eq!(heap_cards(&e, 0), vec![KING, 2, 2, 3, 3]);
    assert_eq!(heap_cards(&e, 1), vec![1, 2, 3, 4]);
    assert_eq!(e.side(0).hand(), [0, 1]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Deployed { card: KING, .. }))
    );
    // Lesser: the most powerful; between the two of power 5 either may go.
    for own in [0, 2] {
        let me = side(&[], 25, &[], [0, 1], &mine);
        let mut e = Engine::from_sides([me, bare(&opp)], 2);
        let lesser = Script {
            deploy: Some((LESSER, 1, Some(own))),
            ..Script::default()
        };
        turn(&mut e, [&lesser, &lesser]);
        assert!(!e.side(0).bots().contains(&mine[own]));
        assert_eq!(e.side(0).bots().len(), 2);
        assert_eq!(e.side(1).bots(), &[Automaton::run(4)]);
        assert_eq!(e.outcome(None).teardowns, [1, 0]);
        assert_eq!(e.outcome(None).destroyed, [1, 1]);
    }
    // With no automaton of its own, only the target goes.
    let me = side(&[], 25, &[], [0, 1], &[]);
    let mut e = Engine::from_sides([me, bare(&opp)], 2);
    let lesser = Script {
        deploy: Some((LESSER, 0, None)),
        ..Script::default()
    };
    turn(&mut e, [&lesser, &lesser]);
    assert_eq!(heap_cards(&e, 0), vec![LESSER]);
}

#[test]
#[should_panic(expected = "most powerful")]
fn a_lesser_tear_down_may_not_spare_the_most_powerful() {
    let mine = [Automaton::one_three(5, 1), Automaton::two_pairs(2, 3)];
    let me = side(&[], 25, &[], [0, 1], &mine);
    let mut e = Engine::from_sides([me, bare(&[Automaton::run(3)])], 2);
    let lesser = Script {
        deploy: Some((LESSER, 0, Some(1))),
        ..Script::default()
    };
    turn(&mut e, [&lesser, &lesser]);
}

#[test]
#[should_panic(expected = "destroys one of the deployer's own")]
fn a_king_must_take_one_of_its_own() {
    let me = side(&[], 25, &[], [1, 0], &[Automaton::run(3)]);
    let mut e = Engine::from_sides([me, bare(&[Automaton::run(3)])], 2);
    let king = Script {
        deploy: Some((KING, 0, None)),
        ..Script::default()
    };
    turn(&mut e, [&king, &king]);
}

// ---- `simple`, one test per rule of the text -----------------------------------------------

#[test]
fn simple_rule_1_king_when_the_target_beats_its_weakest_which_it_gives_up() {
    let strong = Automaton::run(4); // 10/10
    let weak = Automaton::two_pairs(1, 2); // 2/4
    // No automaton of its own: deploy on the strongest.
    let e = Engine::from_sides([side(&[], 25, &[], [1, 0], &[]), bare(&[weak, strong])], 2);
    assert_eq!(simple::king(&view_of(&e, 0)), Some((1, None)));
    // T (10/10) stronger than its weakest (2/4): deploy, the 2/4 goes.
    let e = Engine::from_sides(
        [
            side(&[], 25, &[], [1, 0], &[Automaton::run(5), weak]),
            bare(&[strong]),
        ],
        2,
    );
    assert_eq!(simple::king(&view_of(&e, 0)), Some((0, Some(1))));
    // T not stronger than its weakest: keep the King.
    let e = Engine::from_sides([side(&[], 25, &[], [1, 0], &[strong]), bare(&[strong])], 2);
    assert_eq!(simple::king(&view_of(&e, 0)), None);
    // No opposing automaton, or no King: nothing.
    let e = Engine::from_sides([side(&[], 25, &[], [1, 0], &[]), bare(&[])], 2);
    assert_eq!(simple::king(&view_of(&e, 0)), None);
    let e = Engine::from_sides([side(&[], 25, &[], [0, 1], &[]), bare(&[strong])], 2);
    assert_eq!(simple::king(&view_of(&e, 0)), None);
}

#[test]
fn simple_targets_the_strongest_preferring_one_in_the_defense_area() {
    let mut attacking = Automaton::run(4);
    attacking.attacking = true;
    let opp = [attacking, Automaton::run(3), Automaton::run(4)];
    let target = |bots: &[Automaton]| simple::target(Table::new(bots, &Keys::of(bots)));
    assert_eq!(target(&opp), Some(2));
    assert_eq!(target(&opp[..2]), Some(0));
}

#[test]
fn simple_rule_2_lesser_when_the_target_beats_its_strongest_giving_up_the_weakest_of_top_power() {
    let opp = [Automaton::run(4)]; // 10/10
    // Its own: 5/3 and 5/6 (power 5 the greatest) and 4/6: the 5/3 goes.
    let mine = [
        Automaton::one_three(5, 2),
        Automaton::one_three(5, 1),
        Automaton::two_pairs(2, 3),
    ];
    let e = Engine::from_sides([side(&[], 25, &[], [0, 1], &mine), bare(&opp)], 2);
    assert_eq!(simple::lesser(&view_of(&e, 0)), Some((0, Some(1))));
    // Its strongest at least as strong as T: keep it.
    let e = Engine::from_sides(
        [side(&[], 25, &[], [0, 1], &[Automaton::run(4)]), bare(&opp)],
        2,
    );
    assert_eq!(simple::lesser(&view_of(&e, 0)), None);
    // Played through a turn: the King takes the only target, then the lesser has none left.
    let me = side(&[], 25, &[], [1, 1], &[]);
    let mut e = Engine::from_sides([me, bare(&opp)], 2);
    turn(&mut e, [&Simple, &Simple]);
    assert_eq!(e.side(0).hand(), [0, 1]);
    assert!(e.side(1).bots().is_empty());
}

#[test]
fn simple_rule_3_builds_the_strongest_while_any_can_be_built_after_its_tear_downs() {
    // 1 2 3 4 and 2 2 2 6 9: the run 1-4 (10/10) first, then one 9 and three 2s (9/6).
    let me = side(&[], 25, &[1, 2, 3, 4, 2, 2, 2, 6, 9], [0, 0], &[]);
    let mut e = Engine::from_sides([me, bare(&[])], 2);
    let (_, events) = turn(&mut e, [&Simple, &Simple]);
    let built: Vec<Automaton> = events
        .iter()
        .filter_map(|e| match e {
            Event::Built { bot, .. } => Some(*bot),
            _ => None,
        })
        .collect();
    assert_eq!(built, vec![Automaton::run(4), Automaton::one_three(9, 2)]);
    assert_eq!(e.side(0).assembly(), &counts(&[6]));
    // The King came first: with no automaton of its own yet it was deployed on the 2/4, though
    // the player then built.
    let me = side(&[], 25, &[1, 2, 3], [1, 0], &[]);
    let mut e = Engine::from_sides([me, bare(&[Automaton::two_pairs(1, 2)])], 2);
    turn(&mut e, [&Simple, &Simple]);
    assert_eq!(e.side(0).hand(), [0, 0]);
    assert!(e.side(1).bots().is_empty());
}

#[test]
fn simple_rule_4_all_attack_when_no_defender_and_their_power_reaches_the_hp() {
    let mine = [Automaton::run(4), Automaton::run(3), Automaton::FOUR_ONES];
    // 17 power against 17 HP and no defense-area automaton: all three.
    let mut opp_attacker = Automaton::run(5);
    opp_attacker.attacking = true;
    let e = Engine::from_sides(
        [bare(&mine), side(&[], 17, &[], [0, 0], &[opp_attacker])],
        2,
    );
    assert_eq!(simple::attack(&view_of(&e, 0)), 0b111);
    // 18 HP: the guard (greatest toughness: the 10/10) stays home.
    let e = Engine::from_sides(
        [bare(&mine), side(&[], 18, &[], [0, 0], &[opp_attacker])],
        2,
    );
    assert_eq!(simple::attack(&view_of(&e, 0)), 0b110);
}

#[test]
fn simple_rule_4_the_guard_stays_and_the_rest_attack_past_every_defender_or_as_four_ones() {
    // Toughness 10 twice: 10/10 run and 6/10 two-pairs; the weakest of them, 6/10, guards.
    let mine = [
        Automaton::run(4),
        Automaton::two_pairs(3, 5),
        Automaton::one_three(7, 2), // 7/6
        Automaton::FOUR_ONES,
        Automaton::two_pairs(1, 4), // 2/8
    ];
    assert_eq!(Keys::of(&mine).guard(), Some(1));
    // Defender powers 6 and 7: toughness must exceed 7: the 10/10 and the 2/8 go, the 7/6
    // stays; the four 1s go.
    let opp = [Automaton::run(3), Automaton::one_three(7, 1)];
    let e = Engine::from_sides([bare(&mine), bare(&opp)], 2);
    assert_eq!(simple::attack(&view_of(&e, 0)), 0b11001);
    // The guard is never four 1s: with only four 1s there is none and they attack.
    let e = Engine::from_sides([bare(&[Automaton::FOUR_ONES]), bare(&opp)], 2);
    assert_eq!(Keys::of(&[Automaton::FOUR_ONES]).guard(), None);
    assert_eq!(simple::attack(&view_of(&e, 0)), 0b1);
}

/// `simple`'s blocks of `attackers` (all of seat 0's automatons) by seat 1 at `hp`.
fn simple_blocks(attackers: &[Automaton], blockers: &[Automaton], hp: i16) -> Blocks {
    let mut att: Vec<Automaton> = attackers.to_vec();
    att.iter_mut().for_each(|a| a.attacking = true);
    let e = Engine::from_sides([bare(&att), side(&[], hp, &[], [0, 0], blockers)], 2);
    simple::block(&e.view(1), combat::all(attackers.len()))
}

#[test]
fn simple_gang_blocks_when_what_it_loses_has_less_power_than_the_attacker() {
    // A 6/6 against 5/6 and 4/6 and 2/4: G strongest first: 5/6 (5 < 6), 4/6 (9 >= 6). The split
    // of 6 destroys one 6 (by increasing toughness, stronger first: the 5/6): 5 < 6, so G blocks.
    let blockers = [
        Automaton::two_pairs(1, 2),
        Automaton::one_three(5, 2),
        Automaton::two_pairs(2, 3),
    ];
    let b = simple_blocks(&[Automaton::run(3)], &blockers, 25);
    assert_eq!(b.blockers_of(0), 0b110);
    // A 9/3 (one 9, three 1s) against 10/10: G = {10/10}; the split destroys nothing, G blocks.
    let b = simple_blocks(&[Automaton::one_three(9, 1)], &[Automaton::run(4)], 25);
    assert_eq!(b.blockers_of(0), 0b1);
    // A 5/6 against two 4/6: G = both (8 >= 6); 5 destroys nothing (6 > 5): 0 < 5, blocks.
    // A 10/3 against 2/4 and 2/4 (4 < 3? no: 4 >= 3 with one): G = {2/4}; 10 destroys it,
    // losing 2 < 10: blocks.
    let b = simple_blocks(
        &[Automaton::one_three(10, 1)],
        &[Automaton::two_pairs(1, 2), Automaton::two_pairs(1, 2)],
        25,
    );
    assert_eq!(b.blockers_of(0).count_ones(), 2);
}

#[test]
fn simple_gang_refused_then_safe_then_unblocked() {
    // A 7/6 (one 7, three 2s) against 6/6 alone: G = {6/6}, the split destroys it (6 <= 7), its
    // power 6 < 7: G blocks (a trade the rule accepts).
    let b = simple_blocks(&[Automaton::one_three(7, 2)], &[Automaton::run(3)], 25);
    assert_eq!(b.blockers_of(0), 1);
    // A 6/6 against 6/6: loses 6, not less than 6: refused. Safe: toughness > 6? none.
    let b = simple_blocks(&[Automaton::run(3)], &[Automaton::run(3)], 25);
    assert_eq!(b, Blocks::NONE);
    // A 6/6 against 6/6 and 2/8: G = {6/6} (6 >= 6) refused; safe: the 2/8 (8 > 6) blocks.
    let b = simple_blocks(
        &[Automaton::run(3)],
        &[Automaton::run(3), Automaton::two_pairs(1, 4)],
        25,
    );
    assert_eq!(b.blockers_of(0), 0b10);
    // Not enough power for a gang: the weakest of the safe ones (2/8 before 4/10).
    let b = simple_blocks(
        &[Automaton::run(5)], // 15/15
        &[Automaton::two_pairs(2, 5), Automaton::two_pairs(1, 4)],
        25,
    );
    assert_eq!(b, Blocks::NONE); // 8 and 10 toughness do not exceed 15.
    let b = simple_blocks(
        &[Automaton::one_three(3, 5)], // 3/15
        &[Automaton::two_pairs(2, 5), Automaton::two_pairs(1, 4)],
        25,
    );
    // Gang: 4 + 2 = 6 < 15, no. Safe: toughness > 3: both; the weakest, 2/8.
    assert_eq!(b.blockers_of(0), 0b10);
}

#[test]
fn simple_chump_blocks_while_the_unblocked_power_would_kill() {
    // 10/10 and 6/6 and four 1s against 2/4, 2/4 at HP 12: gang against the 10/10: 4 < 10; safe:
    // none; 6/6: gang 4 < 6; safe none. Unblocked power 17 >= 12: the weakest 2/4 chumps the
    // 10/10; 7 < 12: stop.
    let attackers = [Automaton::run(4), Automaton::run(3), Automaton::FOUR_ONES];
    let blockers = [Automaton::two_pairs(1, 2), Automaton::two_pairs(1, 2)];
    let b = simple_blocks(&attackers, &blockers, 12);
    assert_eq!(b.blockers_of(0).count_ones(), 1);
    assert_eq!(b.blockers_of(1), 0);
    // At HP 7 the second chumps the 6/6; the four 1s still cannot be blocked.
    let b = simple_blocks(&attackers, &blockers, 7);
    assert_eq!(
        (
            b.blockers_of(0).count_ones(),
            b.blockers_of(1).count_ones(),
            b.blockers_of(2)
        ),
        (1, 1, 0)
    );
    // At HP 18 no chump.
    assert_eq!(simple_blocks(&attackers, &blockers, 18), Blocks::NONE);
}

#[test]
fn simple_takes_the_attackers_strongest_first() {
    // A 10/10 and a 6/6 against one 2/12 (one 2, three 4s): gang on the 10/10? 2 < 10. Safe:
    // 12 > 10: blocks the 10/10, the stronger, not the 6/6.
    let b = simple_blocks(
        &[Automaton::run(3), Automaton::run(4)],
        &[Automaton::one_three(2, 4)],
        25,
    );
    assert_eq!(b.target(0), Some(1));
}

// ---- Properties over many games ------------------------------------------------------------

/// Checks, after every event, that each seat's cards are all accounted for and HP moved only
/// by combat damage.
struct Checker<'a> {
    rules: &'a Rules,
    hp: [i16; 2],
    events: usize,
}

impl Observer for Checker<'_> {
    fn event(&mut self, e: Event) {
        self.events += 1;
        if let Event::Damage { seat, amount } = e {
            self.hp[1 - usize::from(seat)] -= amount as i16;
        }
        let _ = self.rules;
    }
}

#[test]
fn cards_are_always_accounted_for_the_columns_kept_hp_falls_only_by_combat_and_every_game_ends() {
    use super::policy::PolicyKind;
    let rules = Rules::default();
    let (cards, n) = rules.heap();
    let mut want = [0u16; 13];
    cards[..n].iter().for_each(|&c| want[usize::from(c)] += 1);
    let kinds = [PolicyKind::Random, PolicyKind::Simple];
    for game in 0..3000u64 {
        let seated = [&kinds[(game % 2) as usize], &kinds[(game / 2 % 2) as usize]];
        let mut e = Engine::deal(
            &rules,
            [&mut GameRng::new(7, game, 0), &mut GameRng::new(7, game, 1)],
        );
        let mut returns = [GameRng::new(7, game, 2), GameRng::new(7, game, 3)];
        let mut coins = [GameRng::new(7, game, 4), GameRng::new(7, game, 5)];
        let mut checker = Checker {
            rules: &rules,
            hp: [25, 25],
            events: 0,
        };
        let mut src = Sources {
            returns: &mut returns,
            coins: &mut coins,
            obs: &mut checker,
        };
        e.setup(&rules, seated, &mut src);
        let outcome = loop {
            for s in 0..2 {
                assert_eq!(e.side(s).census(), want, "game {game} seat {s}");
                // The columns the engine keeps up to date are those of the automatons.
                let side = e.side(s);
                assert_eq!(*side.keys(), Keys::of(side.bots()), "game {game} seat {s}");
            }
            if let Some(w) = e.take_turn(&rules, seated, &mut src) {
                break e.outcome(Some(w));
            }
            assert!(e.turns() <= rules.turn_cap);
            if e.turns() == rules.turn_cap {
                break e.outcome(None);
            }
        };
        for s in 0..2 {
            assert_eq!(e.side(s).census(), want, "game {game} seat {s} at the end");
        }
        assert_eq!(outcome.final_hp, checker.hp, "game {game}");
        match outcome.winner {
            Some(w) => assert!(outcome.final_hp[1 - usize::from(w)] <= 0),
            None => assert_eq!(outcome.turns, rules.turn_cap),
        }
        assert!(outcome.final_hp.iter().filter(|&&h| h <= 0).count() <= 1);
    }
}

// ---- Fair information and the random policy -------------------------------------------------

/// The decisions (builds, deployments, attacks, blocks' effects) of one turn, as events.
fn decisions(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|e| !matches!(e, Event::Drew { .. }))
        .copied()
        .collect()
}

#[test]
fn no_policy_decides_differently_when_only_hidden_cards_differ() {
    use super::policy::PolicyKind;
    let rules = Rules::default();
    let kinds = [
        PolicyKind::parse("simple", &rules).unwrap().0,
        PolicyKind::parse("greedy", &rules).unwrap().0,
        PolicyKind::parse("lookahead-3", &rules).unwrap().0,
    ];
    let mut checked = 0;
    for game in 0..60u64 {
        let kind = &kinds[(game % 3) as usize];
        let mut e = Engine::deal(
            &rules,
            [
                &mut GameRng::new(11, game, 0),
                &mut GameRng::new(11, game, 1),
            ],
        );
        let mut coins = [GameRng::new(11, game, 2), GameRng::new(11, game, 3)];
        let mut src = Sources {
            returns: &mut [Stacked, Stacked],
            coins: &mut coins,
            obs: &mut (),
        };
        e.setup(&rules, [kind, kind], &mut src);
        for _ in 0..(game % 7) {
            if e.take_turn(&rules, [kind, kind], &mut src).is_some() {
                break;
            }
        }
        if e.turns() >= rules.turn_cap {
            continue;
        }
        e.begin_turn(&rules, &mut ());
        // The same position with every heap in another order and the opponent's tear-downs
        // moved between its hand and its heap where possible.
        let mut other = e;
        let mover = 1 - e.to_move();
        for s in 0..2 {
            let side = &mut other.sides_mut()[s];
            let mut cards: Vec<u8> = side.heap.iter().collect();
            cards.reverse();
            // The opponent's King in hand and a lesser tear-down on its heap trade places.
            if s != mover && side.hand[0] > 0 && cards.first() == Some(&LESSER) {
                side.hand = [side.hand[0] - 1, side.hand[1] + 1];
                cards[0] = KING;
            }
            side.heap = Heap::stacked(&cards);
        }
        let run = |engine: &mut Engine| {
            let mut events = Vec::new();
            let mut coins = [GameRng::new(5, game, 0), GameRng::new(5, game, 1)];
            let mut src = Sources {
                returns: &mut [Stacked, Stacked],
                coins: &mut coins,
                obs: &mut events,
            };
            engine.rest_of_turn(&rules, [kind, kind], &mut src);
            decisions(&events)
        };
        let (mut a, mut b) = (e, other);
        assert_eq!(run(&mut a), run(&mut b), "game {game}: {kind:?}");
        checked += 1;
    }
    assert!(checked > 40);
}

#[test]
fn random_is_uniform_over_the_choices_of_step_3() {
    use super::random::Random;
    // Assembly 1 1 1 2 3: three automatons can be built (one 2 and three 1s, one 3 and three
    // 1s, the run 1-2-3), or the player stops: the first choice is one of 4, each 1/4.
    let mut counts_of = std::collections::HashMap::new();
    let trials = 8000u64;
    for t in 0..trials {
        let me = side(&[], 25, &[1, 1, 1, 2, 3], [0, 0], &[]);
        let mut e = Engine::from_sides([me, bare(&[])], 2);
        let mut events = Vec::new();
        let mut coins = [GameRng::new(21, t, 0), GameRng::unused()];
        let mut src = Sources {
            returns: &mut [Stacked, Stacked],
            coins: &mut coins,
            obs: &mut events,
        };
        e.take_turn(&Rules::default(), [&Random, &Random], &mut src);
        let first = events.iter().find_map(|e| match e {
            Event::Built { bot, .. } => Some(*bot),
            _ => None,
        });
        *counts_of.entry(first).or_insert(0u64) += 1;
    }
    assert_eq!(counts_of.len(), 4, "{counts_of:?}");
    // Chi-square with 3 degrees of freedom: 0.999 quantile 16.27.
    let expected = trials as f64 / 4.0;
    let chi2: f64 = counts_of
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 16.27, "{counts_of:?}");
}
