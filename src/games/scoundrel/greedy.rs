//! `greedy`: a simple, fixed rule of thumb, cheap enough for millions of games per second.

use crate::rng::GameRng;

use super::card;
use super::engine::{Turn, View};
use super::greedy_room;
use super::hero::{Hero, mask};
use super::played::Played;
use super::policy::{Decision, Policy};
use super::rules::{ROOM, Rules};

/// The rule:
/// - the card left in a full room: the smaller of two potions (only one can heal), else the
///   biggest monster, else the smallest card;
/// - the order: weapons first (smallest first, so the best ends up equipped), then monsters
///   biggest first (so the weapon stays usable on each), each with the weapon when it may be
///   used, then the potion; the potion first instead if the monsters would kill before it;
/// - avoid the room (when allowed) if that play would kill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Greedy;

/// Sort key of the card `code` at room index `i`: weapons by value, then monsters biggest
/// first, then potions by value; `i` in the low two bits. The rank above them is the code with
/// its weapon bit flipped and a monster's value counted down (weapons below [`MONSTERS`],
/// monsters below [`POTIONS`], potions above), without a branch on the card's kind.
#[inline(always)]
fn key(code: u8, i: usize) -> u16 {
    let down = mask(card::is_monster(code)) & card::MAX_VALUE;
    u16::from(code ^ card::WEAPON ^ down) << 2 | i as u16
}

/// The lowest rank of a monster's key.
const MONSTERS: u16 = 0x20;
/// The lowest rank of a potion's key.
const POTIONS: u16 = 0x40;
/// The key of a short room's empty slot: after every card.
const EMPTY: u16 = u16::MAX;

/// Sorts four keys with a five-comparator network (no data-dependent branches).
#[inline(always)]
fn sort4(k: &mut [u16; ROOM]) {
    let mut cx = |a: usize, b: usize| {
        let (lo, hi) = (k[a].min(k[b]), k[a].max(k[b]));
        k[a] = lo;
        k[b] = hi;
    };
    cx(0, 1);
    cx(2, 3);
    cx(0, 2);
    cx(1, 3);
    cx(1, 2);
}

/// `order` with its entry at `at` moved to the end, the others closing up: four bytes shifted
/// as one word, without a loop.
#[inline(always)]
fn move_to_end(order: [u8; ROOM], at: usize) -> [u8; ROOM] {
    let word = u64::from(u32::from_le_bytes(order));
    let low = word & ((1u64 << (8 * at)) - 1);
    let high = (word >> (8 * (at + 1))) << (8 * at);
    let moved = (word >> (8 * at)) & 0xFF;
    (((low | high) as u32) | (moved as u32) << 24).to_le_bytes()
}

/// `order` with its entry at `at` moved to the front, the ones before it moving up: the bytes
/// shifted as one word, as in [`move_to_end`].
#[inline(always)]
fn move_to_front(order: [u8; ROOM], at: usize) -> [u8; ROOM] {
    let word = u64::from(u32::from_le_bytes(order));
    let low = word & ((1u64 << (8 * at)) - 1);
    let high = word & !((1u64 << (8 * (at + 1))) - 1);
    let moved = (word >> (8 * at)) & 0xFF;
    ((high | low << 8 | moved) as u32).to_le_bytes()
}

/// The hero of `view` facing the room's first `to_face` cards in `order`, the weapon used
/// whenever it may be; [`Played::alive`] tells whether HP stayed above 0 after every card, not
/// only after the last (a potion faced after a fatal monster heals nothing, the game is already
/// lost).
#[inline(always)]
fn play(rules: &Rules, view: &View, order: [u8; ROOM]) -> Played {
    let mut played = Played::start(view.hero);
    for &i in &order[..view.to_face] {
        played.face(rules, view.room[usize::from(i)], true);
    }
    played
}

impl Greedy {
    /// The rule's order of the room whose cards have `keys` ([`key`], [`EMPTY`] past a short
    /// room's last): sorted, and if `leave_one` (a full room) the card to leave moved last. With
    /// it, where the first potion faced is in the order (the number of cards faced if none).
    #[inline(always)]
    fn order(mut keys: [u16; ROOM], leave_one: bool) -> ([u8; ROOM], usize) {
        sort4(&mut keys);
        let order = keys.map(|k| (k & 3) as u8);
        let below = |rank: u16| {
            keys.iter()
                .map(|&k| usize::from(k >> 2 < rank))
                .sum::<usize>()
        };
        // Weapons and monsters: the cards before the potions.
        let (weapons, others) = (below(MONSTERS), below(POTIONS));
        if !leave_one {
            return (order, others);
        }
        let (monsters, potions) = (others - weapons, ROOM - others);
        // Sorted, the room is its weapons, then its monsters biggest first, then its potions
        // smallest first: leave the smaller of two potions, else the biggest monster.
        let at = if potions >= 2 {
            weapons + monsters
        } else if monsters > 0 {
            weapons
        } else {
            0
        };
        // The card left is a potion only when there are two.
        (move_to_end(order, at), others - usize::from(potions < 2))
    }

    /// The rule's order of the room of `view` (see [`Greedy::order`]).
    #[inline(always)]
    fn sorted(view: &View) -> ([u8; ROOM], usize) {
        let room = view.room;
        let keys = [0, 1, 2, 3].map(|i| room.get(i).map_or(EMPTY, |&c| key(c, i)));
        Self::order(keys, view.to_face < room.len())
    }

    /// The rule's turn in the room of `view`, found by sorting the room and facing its cards
    /// one by one (the general path: short rooms, observed games), with what it does when the
    /// hero survives it.
    #[inline(never)]
    fn sorted_turn(rules: &Rules, view: &View) -> (Turn, Option<Played>) {
        let (order, potion) = Self::sorted(view);
        let played = play(rules, view, order);
        if played.alive {
            return (Turn::face(order, 0b111), Some(played));
        }
        if potion < view.to_face {
            let first = move_to_front(order, potion);
            let played = play(rules, view, first);
            if played.alive {
                return (Turn::face(first, 0b111), Some(played));
            }
        }
        if view.can_avoid {
            (Turn::AVOID, None)
        } else {
            (Turn::face(order, 0b111), None)
        }
    }
}

impl Policy for Greedy {
    const READS_DUNGEON: bool = false;

    #[inline]
    fn choose(&self, rules: &Rules, view: &View, _: &mut GameRng) -> Turn {
        Self::sorted_turn(rules, view).0
    }

    /// A full room as [`Policy::decide_full`] plays it; a short one by the general path.
    #[inline(always)]
    fn decide(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Decision {
        let full = <[u8; ROOM]>::try_from(view.room).ok();
        let decided =
            full.and_then(|room| self.decide_full(rules, view.hero, room, view.can_avoid));
        decided.unwrap_or_else(|| Decision::Turn(self.choose(rules, view, coins)))
    }

    /// `Greedy::full` under any rules (the defaults are [`GreedyDefaults`]'s).
    #[inline(always)]
    fn decide_full(
        &self,
        rules: &Rules,
        hero: Hero,
        room: [u8; ROOM],
        can_avoid: bool,
    ) -> Option<Decision> {
        Some(Self::full::<false>(rules, hero, room, can_avoid))
    }
}

impl Greedy {
    /// The rule's decision in a full room: the closed form ([`greedy_room::survived`], with
    /// `DEFAULTS` if the rules are [`greedy_room::defaults`]); a room that kills both ways is avoided, else the
    /// game is lost in the usual order ([`greedy_room::lost`]).
    #[inline(always)]
    fn full<const DEFAULTS: bool>(
        rules: &Rules,
        hero: Hero,
        room: [u8; ROOM],
        can_avoid: bool,
    ) -> Decision {
        match greedy_room::survived::<DEFAULTS>(rules, hero, room) {
            Ok(survived) => Decision::Survived(survived),
            Err(_) if can_avoid => Decision::Turn(Turn::AVOID),
            Err(faced) => Decision::Lost(greedy_room::lost(rules, hero, faced)),
        }
    }
}

/// [`Greedy`] under rules with one potion a turn and lenient wear (the defaults,
/// `greedy_room::defaults`; chosen once a game by [`super::policy::PolicyKind`]): the same
/// decisions, those two rules constants of the compiled game loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GreedyDefaults;

impl GreedyDefaults {
    /// True if `rules` are those this policy plays (else [`Greedy`]).
    pub fn applies(rules: &Rules) -> bool {
        greedy_room::defaults(rules)
    }
}

impl Policy for GreedyDefaults {
    const READS_DUNGEON: bool = false;

    #[inline]
    fn choose(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Turn {
        Greedy.choose(rules, view, coins)
    }

    /// [`Greedy`]'s (a short room: the engine asks [`Policy::decide_full`] first).
    #[inline]
    fn decide(&self, rules: &Rules, view: &View, coins: &mut GameRng) -> Decision {
        Greedy.decide(rules, view, coins)
    }

    /// `Greedy::full` with the defaults.
    #[inline(always)]
    fn decide_full(
        &self,
        rules: &Rules,
        hero: Hero,
        room: [u8; ROOM],
        can_avoid: bool,
    ) -> Option<Decision> {
        Some(Greedy::full::<true>(rules, hero, room, can_avoid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Stacked;
    use crate::games::observe::Recorder;
    use crate::games::scoundrel::card::Counts;
    use crate::games::scoundrel::card::{monster as m, potion as p};
    use crate::games::scoundrel::engine::Engine;
    use crate::games::scoundrel::hero::{FRESH, Hero};
    use crate::games::scoundrel::played::tests::rule_sets;
    use crate::games::scoundrel::played::{Lost, Survived};
    use crate::rules::load;

    /// Greedy's turn in the first room of `cards` under `sets`.
    fn first_turn(sets: &[&str], cards: &[u8]) -> Turn {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let rules: Rules = load(None, &sets).unwrap();
        let mut engine = Engine::stacked(&rules, cards);
        assert!(engine.enter_room(&rules));
        Greedy.choose(&rules, &engine.view(&rules), &mut GameRng::unused())
    }

    /// The room of `view` faced in `order` card by card until the hero dies, as the engine
    /// faces it.
    fn face_until_dead(rules: &Rules, view: &View, order: [u8; ROOM]) -> Lost {
        let (mut played, mut faced) = (Played::start(view.hero), 0);
        for &i in &order[..view.to_face] {
            played.face(rules, view.room[usize::from(i)], true);
            faced += 1;
            if !played.alive {
                break;
            }
        }
        Lost { played, faced }
    }

    #[test]
    fn moving_an_entry_as_a_word_is_rotating_the_array() {
        let order = [3, 1, 0, 2];
        for at in 0..ROOM {
            let (mut end, mut front) = (order, order);
            end[at..].rotate_left(1);
            front[..=at].rotate_right(1);
            assert_eq!(move_to_end(order, at), end, "{at}");
            assert_eq!(move_to_front(order, at), front, "{at}");
        }
    }

    #[test]
    fn the_closed_form_of_a_full_room_is_sorting_it_and_facing_it_card_by_card() {
        // Every room of four cards (a multiset of the codes the decks use, a weapon or potion
        // at most once: a deck holds one of each) in two arrangements, a range of heroes, under
        // rule sets that change a card's effect.
        let codes: Vec<u8> = (2..=14)
            .map(card::monster)
            .chain((2..=10).flat_map(|v| [card::weapon(v), card::potion(v)]))
            .collect();
        let heroes = [1, 4, 9, 15, 20].into_iter().flat_map(|hp| {
            [(0, FRESH), (2, FRESH), (5, 3), (7, 7), (10, 13)].map(|(weapon, limit)| Hero {
                hp,
                weapon,
                limit,
                heals: 1,
            })
        });
        let heroes: Vec<Hero> = heroes.collect();
        let (mut rooms, mut survived, mut potion_first, mut lost) = (0, 0, 0, 0);
        let mut defaults = 0;
        for rules in rule_sets() {
            let n = codes.len();
            for a in 0..n {
                for b in a..n {
                    for c in b..n {
                        for d in c..n {
                            let twice = [(a, b), (b, c), (c, d)];
                            if twice
                                .iter()
                                .any(|&(x, y)| x == y && !card::is_monster(codes[x]))
                            {
                                continue;
                            }
                            // The lowest index last, so ties by index are exercised, and the
                            // cards rotated, so each kind is met at every index.
                            let mut rotated = [codes[a], codes[b], codes[c], codes[d]];
                            rotated.rotate_left((a + b + c + d) % ROOM);
                            for room in [[codes[d], codes[c], codes[b], codes[a]], rotated] {
                                for &hero in &heroes {
                                    let view = View {
                                        room: &room,
                                        hero,
                                        can_avoid: true,
                                        to_face: ROOM - 1,
                                        dungeon: &Counts::default(),
                                        last_room: false,
                                    };
                                    let (turn, played) = Greedy::sorted_turn(&rules, &view);
                                    let slow = played.map(|played| Survived {
                                        played,
                                        kept: room[usize::from(turn.order[ROOM - 1])],
                                    });
                                    let fast = greedy_room::survived::<false>(&rules, hero, room);
                                    assert_eq!(fast.ok(), slow, "{rules:?} {room:x?} {hero:?}");
                                    if greedy_room::defaults(&rules) {
                                        let one = greedy_room::survived::<true>(&rules, hero, room);
                                        assert_eq!(one, fast, "{rules:?} {room:x?} {hero:?}");
                                        defaults += 1;
                                    }
                                    if slow.is_none() {
                                        // Not avoided: lost in the usual order.
                                        let order = Greedy::sorted(&view).0;
                                        let want = face_until_dead(&rules, &view, order);
                                        let faced = fast.expect_err("kills both ways");
                                        let got = greedy_room::lost(&rules, hero, faced);
                                        assert_eq!(got, want, "{rules:?} {room:x?} {hero:?}");
                                        lost += 1;
                                    }
                                    rooms += 1;
                                    survived += usize::from(slow.is_some());
                                    let first = room[usize::from(turn.order[0])];
                                    potion_first += usize::from(
                                        slow.is_some() && card::is_potion(first) && !turn.avoid,
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        // Rooms of k monsters (13 codes, repeats allowed) and 4 - k other cards (18 codes).
        let choose = |n: usize, k: usize| (0..k).fold(1, |c, i| c * (n - i) / (i + 1));
        let kinds: usize = (0..=4)
            .map(|k| choose(13 + k - 1, k) * choose(18, 4 - k))
            .sum();
        assert_eq!((kinds, rooms), (37_601, 8 * kinds * 25 * 2));
        // Five of the eight rule sets heal one potion a turn under lenient wear.
        assert_eq!(defaults, 5 * kinds * 25 * 2);
        assert!(
            survived > rooms / 2 && potion_first > rooms / 50 && lost > rooms / 20,
            "{survived} {potion_first} {lost}"
        );
    }

    /// The card faced last and whether the last room was avoided.
    fn e_last(engine: &Engine) -> (u8, bool) {
        (engine.last_faced(), engine.avoided_last())
    }

    #[test]
    fn greedy_unobserved_plays_the_games_of_the_plain_engine() {
        // Whole games: the unobserved loop (rooms handed over, the draws after a room survived
        // or avoided taken as such; `GreedyDefaults` where it applies) against greedy's turns
        // faced card by card by the observed engine, under every rule set and `end = monsters`.
        let mut sets = rule_sets();
        sets.push(load(None, &["end=monsters".to_string()]).unwrap());
        let mut defaults = 0;
        for rules in sets {
            let (mut avoided, mut cards) = (0, 0);
            for game in 0..3000u64 {
                let mut engine = Engine::new(&rules);
                engine.shuffle(&mut GameRng::new(7, game, 0));
                let mut fast = engine.clone();
                let (mut avoid, mut coins) = (GameRng::new(7, game, 1), GameRng::unused());
                let out = if GreedyDefaults::applies(&rules) {
                    fast.play(&rules, &GreedyDefaults, &mut avoid, &mut coins)
                } else {
                    fast.play(&rules, &Greedy, &mut avoid, &mut coins)
                };
                let want = engine.play_observed(
                    &rules,
                    &Greedy,
                    &mut GameRng::new(7, game, 1),
                    &mut GameRng::unused(),
                    &mut Recorder::default(),
                );
                // Unobserved, the engine does not keep the dungeon's counts for greedy.
                let state = |e: &Engine| (*e.hero(), e.room().to_vec(), *e.dungeon());
                let (got, full) = ((out, e_last(&fast)), (want, e_last(&engine)));
                assert_eq!(got, full, "{rules:?} game {game}");
                assert_eq!(state(&fast), state(&engine), "{rules:?} game {game}");
                avoided += usize::from(out.rooms_avoided > 0);
                cards += usize::from(out.cards_faced);
            }
            // Most games avoid a room, and go on for many rooms (without potions, fewer).
            assert!(
                avoided > 1000 && cards > 3000 * 12,
                "{rules:?}: {avoided} {cards}"
            );
            defaults += usize::from(GreedyDefaults::applies(&rules));
        }
        assert_eq!(defaults, 6);
    }

    #[test]
    fn a_room_that_kills_before_its_potion_is_avoided_at_full_hp() {
        // K, Q, a small potion and the Ace: greedy leaves the Ace and faces K (20 -> 7) then
        // Q (7 -> -5): dead before the potion, which healing after the fact would not undo.
        // Drinking first heals nothing at full HP. So the room is avoided.
        let cards = [m(13), m(12), p(3), m(14), m(2), m(3), m(4), m(5)];
        assert_eq!(first_turn(&[], &cards), Turn::AVOID);
        // Played through the engine: the avoid happens and the game goes on past the room.
        let rules = Rules::default();
        let out = Engine::stacked(&rules, &cards).play(
            &rules,
            &Greedy,
            &mut Stacked,
            &mut GameRng::unused(),
        );
        assert!(out.rooms_avoided >= 1 && out.cards_faced > 2, "{out:?}");
    }

    #[test]
    fn the_potion_is_faced_first_when_that_survives_the_room() {
        // At 10 HP: 8 then 5 kills (10 -> 2 -> -3), the 6 of hearts first does not (16 -> 8 -> 3).
        let cards = [m(8), m(5), p(6), m(14), m(2)];
        let turn = first_turn(&["start_hp=10"], &cards);
        assert!(!turn.avoid);
        assert_eq!(&turn.order[..3], &[2, 0, 1], "{turn:?}");
        // At 20 HP the usual order, potion last, survives and is kept.
        let turn = first_turn(&[], &cards);
        assert_eq!(&turn.order[..3], &[0, 1, 2], "{turn:?}");
    }

    #[test]
    fn a_room_that_kills_every_way_is_faced_when_it_may_not_be_avoided() {
        // Two rooms that kill in a row: the second may not be avoided, so it is faced.
        // Room 2 (J, 10, 9, 8): greedy leaves the Jack and dies on the 8, the third card.
        let cards = [m(13), m(12), p(3), m(14), m(11), m(10), m(9), m(8)];
        let rules = Rules::default();
        let out = Engine::stacked(&rules, &cards).play(
            &rules,
            &Greedy,
            &mut Stacked,
            &mut GameRng::unused(),
        );
        assert_eq!((out.rooms_avoided, out.cards_faced, out.win), (1, 3, false));
    }
}
