//! `greedy`'s play of a full room in closed form from its four cards: the card it leaves and what
//! facing the other three in its order does, without sorting them.
//!
//! Greedy faces weapons smallest first, then monsters biggest first, then potions smallest first
//! (see [`super::greedy::Greedy`]). That order matters only through a few extremes of the cards
//! faced, each found in one pass over the room with the card left masked out:
//! - the weapons: the largest, faced last, is equipped, fresh;
//! - the monsters: faced biggest first, each slain with the weapon lowers its limit to itself (less
//!   one under strict wear) and the next is no bigger; so under lenient wear the weapon is used on
//!   every monster up to the limit after the weapons, under strict wear on the first of each value
//!   up to it (a second of the same value is above the lowered limit), and the limit ends at the
//!   smallest monster slain with it;
//! - the potions: the first `potions_per_turn` faced, the smallest, heal; healing capped at
//!   `max_hp` card by card is their sum capped once;
//! - the last card faced: the largest potion, else the smallest monster, else the largest weapon.
//!
//! HP only falls during the monsters, so the hero survives the room if HP is above 0 after them;
//! with the first potion moved first, that potion heals from the HP before them.

use std::hint::select_unpredictable as select;

use super::card;
use super::hero::{FRESH, Hero};
use super::played::{Lost, Played, Survived};
use super::rules::{ROOM, Rules, Wear};

/// A one in each byte of a room's word.
const ONES: u32 = 0x0101_0101;
/// The high bit of each byte.
const HIGH: u32 = 0x8080_8080;
/// The low seven bits of each byte.
const LOW7: u32 = 0x7F7F_7F7F;

/// Greedy's play of the full room `room` (four card codes, no weapon or potion twice: a deck holds
/// one of each) by `hero` at the start of the turn: in its usual order if the hero survives that,
/// else with the first potion faced moved first if the hero survives that, else `None`.
///
/// The room is one word, a card a byte, and every step works on the four bytes at once or on
/// sets of values ([`Sets`]), so nothing branches on the cards but whether the hero survives.
#[inline(always)]
pub(super) fn survived(rules: &Rules, hero: Hero, room: [u8; ROOM]) -> Option<Survived> {
    let word = u32::from_le_bytes(room);
    let value = word & 0x0F0F_0F0F;
    // All ones in the bytes of each kind.
    let weapons = ((word >> 5) & ONES) * 0xFF;
    let potions = ((word >> 6) & ONES) * 0xFF;
    let monsters = !(weapons | potions);
    let all = Sets::room(room);
    let left_card = left_card(all, byte_sum(potions & ONES) >= 2);
    // Its first byte (the lowest index among equal cards): the high bit of the lowest byte equal
    // to it.
    let matches = zero_bytes(word ^ (left_card * ONES));
    let left = matches & matches.wrapping_neg();
    let faced = !((left >> 7) * 0xFF);
    let faced_sets = all.minus(Sets::of(left_card as u8));
    let (weapons_faced, potions_faced) = (faced_sets.weapons(), faced_sets.potions());

    // The weapons, smallest first: the largest is equipped, fresh.
    let equip = weapons_faced != 0;
    let held = select(equip, top(weapons_faced), hero.weapon.into());
    let limit = select(equip, FRESH.into(), u32::from(hero.limit));

    // The monsters, biggest first: the weapon on each it may be used on (with no weapon it
    // takes nothing off).
    let monsters = monsters & faced;
    let slain = byte_sum(value & monsters);
    let strict = rules.weapon_wear == Wear::Strict;
    let repeats = if strict { repeats(word, faced) } else { 0 };
    // The limit as a value (a fresh weapon's is above every card).
    let reach = limit.min(card::MAX_VALUE.into());
    let usable = at_least(reach * ONES, value);
    let armed = monsters & usable & !repeats;
    // What the weapon takes off each monster: the smaller of the two.
    let weapon = held * ONES;
    let below = at_least(weapon, value);
    let absorbs = (value & below) | (weapon & !below);
    let damage = slain - byte_sum(absorbs & armed);
    // Past every value if no monster is faced.
    let smallest_monster = faced_sets.monsters.trailing_zeros() / 4;
    let slays = (held != 0) & (smallest_monster <= reach);
    let limit = select(slays, smallest_monster - u32::from(strict), limit);

    // The potions, smallest first: the first `potions_per_turn` heal.
    let potions = potions & faced;
    let drunk = byte_sum(potions & ONES);
    let heals = drunk.min(rules.potions_per_turn.into());
    let total = byte_sum(value & potions);
    let (potion_min, potion_max) = (potions_faced.trailing_zeros(), top(potions_faced));
    // The `heals` smallest of the (at most three) potions faced.
    let some = select(heals == 1, potion_min, total - potion_max);
    let healing = select(heals == drunk, total, select(heals == 0, 0, some));

    let (hp, cap) = (i32::from(hero.hp), i32::from(rules.max_hp));
    let after = hp - damage as i32;
    let first_potion = after <= 0;
    // The usual order, or the first potion (if it heals) from the HP before the monsters.
    let first = select(first_potion & (heals > 0), potion_min, 0);
    let early = (first as i32).min(cap - hp);
    let after = after + early;
    if after <= 0 {
        return None;
    }
    let late = ((healing - first) as i32).min(cap - after);
    // Last a potion, else the smallest monster, else the largest weapon.
    let not_potion = select(
        faced_sets.monsters != 0,
        u32::from(card::MONSTER) | smallest_monster,
        u32::from(card::WEAPON) | held,
    );
    let last = select(
        drunk > u32::from(first_potion),
        u32::from(card::POTION) | potion_max,
        not_potion,
    );
    // Weapons come first, smallest first (after the potion first: the weapon held before).
    let largest = select(first_potion, held.max(hero.weapon.into()), held);
    let played = Played {
        hero: Hero {
            hp: (after + late) as i16,
            weapon: held as u8,
            limit: limit as u8,
            heals: heals as u8,
        },
        damage: damage as u16,
        healed: (early + late) as u16,
        wasted: (drunk - heals) as u8,
        slain: slain as u8,
        largest: largest as u8,
        last: last as u8,
        alive: true,
    };
    Some(Survived {
        played,
        left: (left.trailing_zeros() / 8) as u8,
    })
}

/// Greedy's play of the full room `room` by `hero` when it kills both ways ([`survived`] is
/// `None`) and may not be avoided: its usual order faced until the hero dies. The weapons come
/// first, smallest first, each equipped fresh: only the largest matters. Then the monsters,
/// biggest first, until one kills (HP only falls there, and the potions come after them).
/// Monsters of one value have one code, so which of them comes first does not matter.
#[inline(never)]
pub(super) fn lost(rules: &Rules, hero: Hero, room: [u8; ROOM]) -> Lost {
    let all = Sets::room(room);
    let left = left_card(all, all.potions().count_ones() >= 2);
    let faced = all.minus(Sets::of(left as u8));
    let mut played = Played::start(hero);
    let weapons = faced.weapons();
    if weapons != 0 {
        played.face(rules, card::weapon(top(weapons) as u8), true);
    }
    let mut cards = weapons.count_ones() as u8;
    let mut monsters = faced.monsters;
    while played.alive && monsters != 0 {
        let value = (u64::BITS - 1 - monsters.leading_zeros()) / 4;
        monsters -= 1 << (4 * value);
        played.face(rules, card::monster(value as u8), true);
        cards += 1;
    }
    debug_assert!(!played.alive, "{room:x?} {hero:?} survived");
    Lost {
        played,
        faced: cards,
    }
}

/// The card greedy leaves in the full room whose cards are `all` (`two_potions` if two or more
/// of them are potions): the smallest potion of two or more, else the biggest monster, else the
/// smallest weapon (a full room without monsters and with fewer than two potions has three
/// weapons).
#[inline(always)]
fn left_card(all: Sets, two_potions: bool) -> u32 {
    let biggest = u32::from(card::MONSTER) | all.top_monster();
    let smallest_weapon = u32::from(card::WEAPON) | all.weapons().trailing_zeros();
    let no_potion = select(all.monsters != 0, biggest, smallest_weapon);
    let smallest_potion = u32::from(card::POTION) | all.potions().trailing_zeros();
    select(two_potions, smallest_potion, no_potion)
}

/// Cards as sets of their values: a bit per value for the weapons and the potions (each value is
/// one card), a four-bit count per value for the monsters (the monster suits repeat them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sets {
    /// Monsters of value `v`: bits `4 v .. 4 v + 4`.
    monsters: u64,
    /// The weapon of value `v`: bit `v`; the potion: bit `16 + v`.
    others: u32,
}

/// Each card code's [`Sets`], by the code's low seven bits.
static SETS: [Sets; 128] = {
    let mut sets = [Sets::NONE; 128];
    let mut code = 0;
    while code < 128 {
        let v = code as u32 & card::MAX_VALUE as u32;
        sets[code] = match code as u8 & !card::MAX_VALUE {
            card::MONSTER => Sets {
                monsters: 1 << (4 * v),
                others: 0,
            },
            card::WEAPON => Sets {
                monsters: 0,
                others: 1 << v,
            },
            card::POTION => Sets {
                monsters: 0,
                others: 1 << (16 + v),
            },
            _ => Sets::NONE,
        };
        code += 1;
    }
    sets
};

impl Sets {
    /// No card.
    const NONE: Sets = Sets {
        monsters: 0,
        others: 0,
    };

    /// The four cards of `room` (no weapon or potion twice: a deck holds one of each).
    #[inline(always)]
    fn room(room: [u8; ROOM]) -> Sets {
        let all = room.map(Sets::of).into_iter().fold(Sets::NONE, Sets::plus);
        debug_assert_eq!(
            all.others.count_ones()
                + (all.monsters.wrapping_mul(0x1111_1111_1111_1111) >> 60) as u32,
            ROOM as u32,
            "a weapon or potion twice in {room:x?}"
        );
        all
    }

    /// The card `code` alone.
    #[inline(always)]
    fn of(code: u8) -> Sets {
        SETS[usize::from(code & 0x7F)]
    }

    /// These cards and `other`'s (at most 15 monsters of a value).
    #[inline(always)]
    fn plus(self, other: Sets) -> Sets {
        Sets {
            monsters: self.monsters + other.monsters,
            others: self.others | other.others,
        }
    }

    /// These cards less `other`'s (which must be among them).
    #[inline(always)]
    fn minus(self, other: Sets) -> Sets {
        Sets {
            monsters: self.monsters - other.monsters,
            others: self.others & !other.others,
        }
    }

    /// The weapons' values, a bit each.
    #[inline(always)]
    fn weapons(self) -> u16 {
        self.others as u16
    }

    /// The potions' values, a bit each.
    #[inline(always)]
    fn potions(self) -> u16 {
        (self.others >> 16) as u16
    }

    /// The biggest monster's value (0 if none).
    #[inline(always)]
    fn top_monster(self) -> u32 {
        (u64::BITS - self.monsters.leading_zeros()).saturating_sub(1) / 4
    }
}

/// The largest value in `set` (0 if empty).
#[inline(always)]
fn top(set: u16) -> u32 {
    (u16::BITS - set.leading_zeros()).saturating_sub(1)
}

/// The sum of the bytes of `x` (below 256).
#[inline(always)]
fn byte_sum(x: u32) -> u32 {
    x.wrapping_mul(ONES) >> 24
}

/// All ones in each byte where `a` is at least `b` (bytes below 128).
#[inline(always)]
fn at_least(a: u32, b: u32) -> u32 {
    ((((a | HIGH) - b) & HIGH) >> 7) * 0xFF
}

/// The high bit set in each byte of `x` that is zero.
#[inline(always)]
fn zero_bytes(x: u32) -> u32 {
    !(((x & LOW7) + LOW7) | x) & HIGH
}

/// All ones in the bytes of the cards faced (`faced`) after a faced card of the same code
/// (under strict wear the weapon skips them: the first of them lowered its limit below their
/// value).
#[inline(always)]
fn repeats(word: u32, faced: u32) -> u32 {
    let after = |s: u32| zero_bytes(word ^ (word << (8 * s))) & (faced << (8 * s));
    ((after(1) | after(2) | after(3)) >> 7) * 0xFF
}
