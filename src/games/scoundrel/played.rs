//! A room's play simulated once: the hero after it and everything the engine records of it, so
//! a policy that simulates its own turn (`greedy`) hands the result over and the engine applies
//! it without facing the cards a second time ([`super::Engine`]'s fast path).

use super::card;
use super::engine::Turn;
use super::hero::Hero;
use super::policy::Decision;
use super::rules::{ROOM, Rules};

/// The running result of facing a room's cards one by one, as the engine would record them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The hero after the cards faced so far (the turn's potion count included).
    pub hero: Hero,
    /// HP lost to monsters.
    pub damage: u16,
    /// HP gained from potions.
    pub healed: u16,
    /// Potions that healed nothing (past the turn's cap).
    pub wasted: u8,
    /// The sum of the monsters faced.
    pub slain: u8,
    /// The largest weapon held after any card faced (0 if none).
    pub largest: u8,
    /// The last card faced (0 before any).
    pub last: u8,
    /// True while HP stayed above 0 after every card faced.
    pub alive: bool,
}

/// A full room faced and survived, handed to the engine ([`super::Engine::apply_survived`]):
/// what its three cards did, and the card not faced, kept for the next room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Survived {
    /// What the room did (alive).
    pub played: Played,
    /// The card left (its code).
    pub kept: u8,
}

/// A full room faced until the hero died, handed to the engine ([`super::Engine::apply_lost`]):
/// what the cards faced did, the fatal one last, and how many were faced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost {
    /// What the cards faced did (not alive).
    pub played: Played,
    /// Cards faced, the fatal one included.
    pub faced: u8,
}

impl Played {
    /// A room about to be faced by `hero`: the turn's potion count reset, nothing faced yet.
    #[inline(always)]
    pub fn start(hero: Hero) -> Self {
        let mut hero = hero;
        hero.new_turn();
        Self {
            hero,
            damage: 0,
            healed: 0,
            wasted: 0,
            slain: 0,
            largest: 0,
            last: 0,
            alive: true,
        }
    }

    /// Faces `code` (see [`Hero::face`]; weapons are equipped, never discarded) and adds what it
    /// did.
    #[inline(always)]
    pub fn face(&mut self, rules: &Rules, code: u8, with_weapon: bool) {
        let effect = self.hero.face(rules, code, with_weapon);
        self.damage += u16::from(effect.damage);
        self.healed += u16::from(effect.healed);
        self.wasted += u8::from(effect.wasted);
        self.slain += if card::is_monster(code) {
            card::value(code)
        } else {
            0
        };
        self.largest = self.largest.max(self.hero.weapon);
        self.last = code;
        self.alive &= self.hero.alive();
    }
}

/// The full room `room` faced by `hero` as the engine plays `turn` (not avoided, under rules
/// that never discard a weapon): the room survived, its unfaced card kept, or lost at the
/// fatal card. What [`super::Engine::apply`] does with `turn`, for a policy that hands its
/// choice over as a [`Decision`] (`heuristic`: the engine then does not face the room again).
#[inline(always)]
pub fn decision(rules: &Rules, hero: Hero, room: [u8; ROOM], turn: &Turn) -> Decision {
    debug_assert!(!turn.avoid && !rules.weapon_discard);
    let mut played = Played::start(hero);
    for step in 0..ROOM - 1 {
        let code = room[usize::from(turn.order[step])];
        played.face(
            rules,
            code,
            turn.weapon >> step & 1 == 1 || !rules.barehanded,
        );
        if !played.alive {
            let faced = step as u8 + 1;
            return Decision::Lost(Lost { played, faced });
        }
    }
    // The indices of a room of 4 sum to 6: the one not faced is kept.
    let faced: u8 = turn.order[..ROOM - 1].iter().sum();
    let kept = room[usize::from(6 - faced) % ROOM];
    Decision::Survived(Survived { played, kept })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cards::Stacked;
    use crate::games::scoundrel::card::Counts;
    use crate::games::scoundrel::engine::Engine;
    use crate::games::scoundrel::greedy::Greedy;
    use crate::games::scoundrel::hero::{Effect, FRESH};
    use crate::games::scoundrel::policy::{Decision, Policy};
    use crate::games::scoundrel::rules::{ROOM, Wear};
    use crate::rng::GameRng;
    use crate::rules::load;

    /// Rule sets whose flags change a card's effect or the engine's bookkeeping.
    pub(crate) fn rule_sets() -> Vec<Rules> {
        [
            vec![],
            vec!["weapon_wear=strict"],
            vec!["potions_per_turn=2"],
            vec!["potions_per_turn=0", "start_hp=12"],
            vec!["barehanded=false"],
            vec!["weapon_discard=true"],
            vec!["end=lenient", "avoid_order=shuffle"],
            vec!["max_hp=30", "start_hp=9", "avoid_in_a_row=true"],
        ]
        .iter()
        .map(|sets| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            load(None, &sets).unwrap()
        })
        .collect()
    }

    /// The card's effect as it was written before the masks: a branch per effect.
    fn face_by_branches(hero: &mut Hero, rules: &Rules, code: u8, with_weapon: bool) -> Effect {
        let v = card::value(code);
        let heals = card::is_potion(code) && hero.heals < rules.potions_per_turn;
        let armed = card::is_monster(code) && with_weapon && hero.can_use_weapon(v);
        let damage = if !card::is_monster(code) {
            0
        } else if armed {
            v.saturating_sub(hero.weapon)
        } else {
            v
        };
        let healed = if heals {
            (hero.hp + i16::from(v)).min(i16::from(rules.max_hp)) - hero.hp
        } else {
            0
        };
        hero.hp += healed - i16::from(damage);
        hero.heals += u8::from(heals);
        if card::is_weapon(code) {
            hero.weapon = v;
            hero.limit = FRESH;
        } else if armed {
            hero.limit = match rules.weapon_wear {
                Wear::Lenient => v,
                Wear::Strict => v.wrapping_sub(1),
            };
        }
        Effect {
            damage,
            healed: healed as u8,
            wasted: card::is_potion(code) && !heals,
        }
    }

    #[test]
    fn facing_by_masks_is_facing_by_branches_for_every_card_and_state() {
        for rules in rule_sets() {
            let codes = (1..=15).flat_map(|v| [card::monster(v), card::weapon(v), card::potion(v)]);
            for code in codes {
                for hp in -14..=i16::from(rules.max_hp) {
                    for (weapon, limit) in [(0, FRESH), (2, FRESH), (5, 3), (7, 7), (10, 13)] {
                        for heals in 0..3 {
                            for armed in [false, true] {
                                let start = Hero {
                                    hp,
                                    weapon,
                                    limit,
                                    heals,
                                };
                                let (mut fast, mut slow) = (start, start);
                                let got = fast.face(&rules, code, armed);
                                let want = face_by_branches(&mut slow, &rules, code, armed);
                                assert_eq!((got, fast), (want, slow), "{start:?} {code:#x}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn greedys_handed_over_rooms_are_the_engines_replays() {
        for rules in rule_sets() {
            let mut lost_total = 0;
            for game in 0..3000u64 {
                let mut engine = Engine::new(&rules);
                engine.shuffle(&mut GameRng::new(11, game, 0));
                let mut coins = GameRng::unused();
                let mut avoid = GameRng::new(11, game, 1);
                let (mut handed, mut lost_rooms) = (0, 0);
                loop {
                    // The room drawn in one word is the room drawn card by card.
                    let mut cards = engine.room().to_vec();
                    let missing = ROOM - cards.len();
                    cards.extend(engine.dungeon().iter().take(missing));
                    if !engine.enter_room(&rules) {
                        break;
                    }
                    assert_eq!(engine.room(), &cards[..], "game {game}");
                    let view = engine.view(&rules);
                    let left: Vec<u8> = engine.dungeon().iter().collect();
                    assert_eq!(*view.dungeon, Counts::of(&left), "game {game}");
                    let turn = Greedy.choose(&rules, &view, &mut coins);
                    match Greedy.decide(&rules, &view, &mut coins) {
                        Decision::Survived(survived) => {
                            assert!(survived.played.alive && !turn.avoid);
                            let mut replayed = engine.clone();
                            replayed.apply(&rules, &turn, &mut Stacked);
                            engine.apply_survived(&survived);
                            assert_eq!(engine, replayed, "{rules:?} game {game}");
                            handed += 1;
                        }
                        Decision::Lost(lost) => {
                            assert!(!lost.played.alive && !turn.avoid && !view.can_avoid);
                            let mut replayed = engine.clone();
                            replayed.apply(&rules, &turn, &mut Stacked);
                            engine.apply_lost(&rules, &lost);
                            assert_eq!(engine, replayed, "{rules:?} game {game}");
                            lost_rooms += 1;
                        }
                        Decision::Turn(decided) => {
                            assert_eq!(decided, turn, "game {game}");
                            engine.apply(&rules, &turn, &mut avoid);
                        }
                    }
                }
                assert!(
                    handed > 0 || engine.outcome().cards_faced < 4,
                    "game {game}"
                );
                lost_total += lost_rooms;
            }
            // Most games end in a full room that kills and may not be avoided.
            assert!(lost_total > 1000, "{rules:?}: {lost_total}");
        }
    }
}
