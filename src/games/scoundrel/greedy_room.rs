//! `greedy`'s play of a full room in closed form from its four cards: the card it leaves and what
//! facing the other three in its order does, without sorting them.
//!
//! Greedy faces weapons smallest first, then monsters biggest first, then potions smallest first
//! (see [`super::greedy::Greedy`]). That order matters only through a few extremes and sums of the
//! cards faced, read from the room's cards as sets of values less the card left:
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

/// A one in the low bit of each four-bit count of [`Sets::monsters`].
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// Greedy's play of the full room `room` (four card codes, no weapon or potion twice: a deck holds
/// one of each) by `hero` at the start of the turn: in its usual order if the hero survives that,
/// else with the first potion faced moved first if the hero survives that, else the cards it
/// faces (for [`lost`]).
///
/// The cards are sets of values ([`Sets`]: a bit per weapon and potion, a four-bit count per
/// monster value, the sums of the values), so the card left and the extremes of the cards faced
/// are a `trailing_zeros` or an `ilog2`, and what the weapon absorbs is counted from the monsters'
/// counts by value (see [`absorbed`]); nothing branches on the cards but whether the hero
/// survives. `DEFAULTS` if `rules` have one potion a turn and lenient wear (the defaults): those
/// two rules constants of the compiled code.
#[inline(always)]
pub(super) fn survived<const DEFAULTS: bool>(
    rules: &Rules,
    hero: Hero,
    room: [u8; ROOM],
) -> Result<Survived, Faced> {
    debug_assert!(!DEFAULTS || defaults(rules));
    let all = Sets::room(room);
    let kept = left_card(all, all.potions().count_ones() >= 2);
    let faced = all.minus(Sets::of(kept as u8));
    let (weapons_faced, potions_faced) = (faced.weapons(), faced.potions());

    // The weapons, smallest first: the largest is equipped, fresh.
    let equip = weapons_faced != 0;
    let held = select(equip, top(weapons_faced), hero.weapon.into());
    let limit = select(equip, FRESH.into(), u32::from(hero.limit));

    // The monsters, biggest first: the weapon on each it may be used on (with no weapon it
    // takes nothing off).
    let slain = faced.monster_total();
    let strict = !DEFAULTS && rules.weapon_wear == Wear::Strict;
    let armed = armed(faced.monsters, limit, strict);
    let damage = slain - absorbed(armed, held);
    // Past every value if no monster is faced.
    let smallest_monster = faced.monsters.trailing_zeros() / 4;
    // The smallest monster is slain with the weapon if any is (it is faced last, and under
    // either wear armed if any is).
    let slays = (held != 0) & (armed != 0);
    let limit = select(slays, smallest_monster - u32::from(strict), limit);

    // The potions, smallest first: the first `potions_per_turn` heal.
    let drunk = potions_faced.count_ones();
    let total = faced.potion_total();
    let (potion_min, potion_max) = (potions_faced.trailing_zeros(), top(potions_faced));
    let (heals, healing) = if DEFAULTS {
        // The smallest of two or more, else the one (or none: a total of 0).
        (drunk.min(1), select(drunk >= 2, potion_min, total))
    } else {
        let heals = drunk.min(rules.potions_per_turn.into());
        // The `heals` smallest of the (at most three) potions faced.
        let some = select(heals == 1, potion_min, total - potion_max);
        (
            heals,
            select(heals == drunk, total, select(heals == 0, 0, some)),
        )
    };

    let (hp, cap) = (i32::from(hero.hp), i32::from(rules.max_hp));
    let after = hp - damage as i32;
    let first_potion = after <= 0;
    // The usual order, or the first potion (if it heals) from the HP before the monsters.
    let first = select(first_potion & (heals > 0), potion_min, 0);
    let early = (first as i32).min(cap - hp);
    let after = after + early;
    if after <= 0 {
        return Err(Faced(faced));
    }
    let late = ((healing - first) as i32).min(cap - after);
    // Last a potion, else the smallest monster, else the largest weapon.
    let not_potion = select(
        faced.monsters != 0,
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
    Ok(Survived {
        played,
        kept: kept as u8,
    })
}

/// The three cards greedy faces in a full room (all but the one it leaves), as [`survived`]
/// hands them to [`lost`] when the room kills both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Faced(Sets);

/// True if `rules` have one potion a turn and lenient wear (the defaults), the rules
/// [`survived`] may take as constants.
pub(super) fn defaults(rules: &Rules) -> bool {
    rules.potions_per_turn == 1 && rules.weapon_wear == Wear::Lenient
}

/// The monsters of `monsters` (four-bit counts by value, at most three monsters) faced biggest
/// first that a weapon at `limit` (any byte: [`FRESH`] and every limit from
/// [`card::MAX_VALUE`] up reach every value) is used on, as counts by value: under lenient wear
/// every monster up to the limit (each slain lowers the limit to itself, and the next is no
/// bigger), under strict wear the first of each value up to it (a second of the same value is
/// above the lowered limit). The values up to the limit are a mask from a table by the limit's
/// byte (no shifts by the limit, no clamp of a fresh weapon's).
#[inline(always)]
fn armed(monsters: u64, limit: u32, strict: bool) -> u64 {
    // Under strict wear the first of each value: a count of one where there are any.
    let first_of_each = (monsters | monsters >> 1) & NIBBLE_ONES;
    let monsters = select(strict, first_of_each, monsters);
    monsters & TABLES.up_to[usize::from(limit as u8)]
}

/// What a weapon of value `held` (any byte; a weapon's value is at most [`card::MAX_VALUE`])
/// takes off the monsters `armed` it is used on (four-bit counts by value, at most three, from
/// [`armed`]): from each the smaller of its value and `held`.
///
/// With `below[k]` the monsters armed of value at most `k`, and `n` all of them, a monster of
/// value `v` is counted in `below[k]` for each `k` from `v` up, so `sum(k < held) below[k]` is the
/// sum of `held - v` over the armed monsters below `held`, and `held * n` less it is the sum of
/// `min(v, held)`. The counts `below[k]` are the four-bit groups of the armed counts times
/// `0x1111...` (at most three, no carry); their sum below `held` is counted by two popcounts,
/// the groups below `held` kept by a mask from a table.
#[inline(always)]
fn absorbed(armed: u64, held: u32) -> u32 {
    let below = armed.wrapping_mul(NIBBLE_ONES);
    let n = (below >> 60) as u32;
    let under = below & TABLES.up_to[usize::from(held as u8)] >> 4;
    let short = (under & NIBBLE_ONES).count_ones() + 2 * (under & (NIBBLE_ONES << 1)).count_ones();
    held * n - short
}

/// Greedy's play of a full room by `hero` when it kills both ways and may not be avoided, from
/// the cards it faces there (`faced`, from [`survived`]): its usual order faced until the hero
/// dies. The weapons come
/// first, smallest first, each equipped fresh: only the largest matters. Then the monsters,
/// biggest first, until one kills (HP only falls there, and the potions come after them).
/// Monsters of one value have one code, so which of them comes first does not matter. Each
/// monster is faced as [`Hero::face`] faces one with the weapon, on the few fields a monster
/// changes: no potion is faced, so the turn's potion count stays 0 and nothing is healed or
/// wasted, and the largest weapon held is the one held after the weapons.
#[inline(never)]
pub(super) fn lost(rules: &Rules, hero: Hero, faced: Faced) -> Lost {
    let Faced(faced) = faced;
    let weapons = faced.weapons();
    let (weapon, limit) = if weapons != 0 {
        (top(weapons) as u8, FRESH)
    } else {
        (hero.weapon, hero.limit)
    };
    let mut held = Hero {
        hp: hero.hp,
        weapon,
        limit,
        heals: 0,
    };
    let strict = rules.weapon_wear == Wear::Strict;
    let (mut damage, mut slain) = (0u16, 0u8);
    let mut cards = weapons.count_ones() as u8;
    let mut monsters = faced.monsters;
    let last = loop {
        debug_assert!(monsters != 0, "{faced:x?} {hero:?} survived");
        let value = (monsters.ilog2() / 4) as u8;
        monsters -= 1 << (4 * value);
        let hit = held.damage_from(value, true);
        if held.can_use_weapon(value) {
            held.limit = value - u8::from(strict);
        }
        held.hp -= i16::from(hit);
        damage += u16::from(hit);
        slain += value;
        cards += 1;
        if !held.alive() {
            break card::monster(value);
        }
    };
    let played = Played {
        hero: held,
        damage,
        healed: 0,
        wasted: 0,
        slain,
        largest: weapon,
        last,
        alive: false,
    };
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
/// one card), a four-bit count per value for the monsters (the monster suits repeat them), and
/// the sums of the monsters' and the potions' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sets {
    /// Monsters of value `v`: bits `4 v .. 4 v + 4`.
    monsters: u64,
    /// The weapon of value `v`: bit `v`; the potion: bit `16 + v`; the sum of the monsters'
    /// values: bits 32 to 39; of the potions': bits 40 to 47. Sets of distinct cards add.
    others: u64,
}

/// The closed form's tables, each indexed by a whole byte (no mask of it, each word at the byte
/// times 8), in one static so that they share one base address.
struct Tables {
    /// Each card byte's [`Sets::monsters`] (a byte not a card's code: none).
    monsters: [u64; 256],
    /// Each card byte's [`Sets::others`] (two tables, not one of 16-byte [`Sets`]: an x86
    /// address scales by at most 8, so that would take a shift per card).
    others: [u64; 256],
    /// By a byte `b`: the four-bit groups of the values `0..=b` (every group from
    /// [`card::MAX_VALUE`] up).
    up_to: [u64; 256],
}

static TABLES: Tables = {
    let (mut monsters, mut others, mut up_to) = ([0; 256], [0; 256], [0; 256]);
    let mut code = 0;
    while code < 256 {
        let top = if code < card::MAX_VALUE as usize {
            code
        } else {
            card::MAX_VALUE as usize
        };
        up_to[code] = u64::MAX >> (60 - 4 * top);
        let v = code as u64 & card::MAX_VALUE as u64;
        let kind = code as u8 & !card::MAX_VALUE;
        if kind == card::MONSTER {
            monsters[code] = 1 << (4 * v);
            others[code] = v << 32;
        } else if kind == card::WEAPON {
            others[code] = 1 << v;
        } else if kind == card::POTION {
            others[code] = 1 << (16 + v) | v << 40;
        }
        code += 1;
    }
    Tables {
        monsters,
        others,
        up_to,
    }
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
            (all.others as u32).count_ones()
                + (all.monsters.wrapping_mul(NIBBLE_ONES) >> 60) as u32,
            ROOM as u32,
            "a weapon or potion twice in {room:x?}"
        );
        all
    }

    /// The card `code` alone.
    #[inline(always)]
    fn of(code: u8) -> Sets {
        Sets {
            monsters: TABLES.monsters[usize::from(code)],
            others: TABLES.others[usize::from(code)],
        }
    }

    /// These cards and `other`'s (at most 15 monsters of a value, no weapon or potion in both,
    /// values summing below 256).
    #[inline(always)]
    fn plus(self, other: Sets) -> Sets {
        Sets {
            monsters: self.monsters + other.monsters,
            others: self.others + other.others,
        }
    }

    /// These cards less `other`'s (which must be among them).
    #[inline(always)]
    fn minus(self, other: Sets) -> Sets {
        Sets {
            monsters: self.monsters - other.monsters,
            others: self.others - other.others,
        }
    }

    /// The sum of the monsters' values.
    #[inline(always)]
    fn monster_total(self) -> u32 {
        (self.others >> 32) as u32 & 0xFF
    }

    /// The sum of the potions' values.
    #[inline(always)]
    fn potion_total(self) -> u32 {
        (self.others >> 40) as u32 & 0xFF
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

    /// The biggest monster's value (0 if none): the highest bit's four-bit group, found by
    /// `ilog2` (one `bsr`; `leading_zeros` needs a test for zero where there is no `lzcnt`).
    #[inline(always)]
    fn top_monster(self) -> u32 {
        (self.monsters | 1).ilog2() / 4
    }
}

/// The largest value in `set` (0 if empty; value 0 is never a card's, so `set | 1` is).
#[inline(always)]
fn top(set: u16) -> u32 {
    (u32::from(set) | 1).ilog2()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the weapon takes off `values` (a monster each) faced biggest first, one by one.
    fn absorbed_one_by_one(values: &[u32], held: u32, limit: u32, strict: bool) -> u32 {
        let mut values = values.to_vec();
        values.sort_unstable_by(|a, b| b.cmp(a));
        let (mut limit, mut total) = (limit, 0);
        for v in values {
            if held > 0 && v <= limit {
                total += v.min(held);
                limit = if strict { v - 1 } else { v };
            }
        }
        total
    }

    #[test]
    fn what_the_weapon_absorbs_by_counts_is_facing_the_monsters_one_by_one() {
        // Every multiset of up to three monster values, every weapon and limit, both wears.
        let mut sets = vec![vec![]];
        for a in 1..=15 {
            sets.push(vec![a]);
            for b in a..=15 {
                sets.push(vec![a, b]);
                sets.extend((b..=15).map(|c| vec![a, b, c]));
            }
        }
        assert_eq!(sets.len(), 1 + 15 + 120 + 680);
        for values in &sets {
            let monsters: u64 = values.iter().map(|&v| 1u64 << (4 * v)).sum();
            for held in 0..=15 {
                for limit in (0..=15).chain([u32::from(FRESH)]) {
                    for strict in [false, true] {
                        let want = absorbed_one_by_one(values, held, limit, strict);
                        let armed = armed(monsters, limit, strict);
                        let got = absorbed(armed, held);
                        assert_eq!(got, want, "{values:?} {held} {limit} {strict}");
                        // Some monster armed: the smallest is, within the limit as a value
                        // (16 past every value if there is none).
                        let smallest = values.iter().min().copied().unwrap_or(16);
                        let slays = held > 0 && smallest <= limit.min(card::MAX_VALUE.into());
                        assert_eq!(held > 0 && armed != 0, slays, "{values:?} {held} {limit}");
                    }
                }
            }
        }
    }
}
