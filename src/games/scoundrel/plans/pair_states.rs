//! The states after the first two cards of a full room, for every ordered pair of its cards
//! and every choice on each (the weapon used or not on a monster, a weapon kept or discarded):
//! the hero after `faced` of the first card then of the second, and which states the
//! enumeration of the room's ways ([`super::visit_living`]) goes on from: those reached and
//! alive, less those of the later order of two cards that the other order reaches by the same
//! choices (they give the same lines).
//!
//! Two versions, the same integers: on x86-64 in SSE2 lanes (part of every x86-64 processor;
//! [`Pairs::in_lanes`]: the states after the first card in one register, each unordered pair
//! of cards in one, [`Hero::face`]'s operations lane by lane); [`Pairs::plain`], card by card
//! with `faced`, compiled on every target: what other targets run, and what the tests hold the
//! lanes to.

use super::super::card;
use super::super::hero::Hero;
use super::super::rules::{ROOM, Rules};
use super::{arms, faced};

/// A hero as one integer, for comparing states without a branch per field.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn key(hero: &Hero) -> u64 {
    u64::from(hero.hp as u16)
        | u64::from(hero.weapon) << 16
        | u64::from(hero.limit) << 24
        | u64::from(hero.heals) << 32
}

/// A dead hero: the filler of the tables of states.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
const DEAD: Hero = Hero {
    hp: 0,
    weapon: 0,
    limit: 0,
    heals: 0,
};

/// The unordered pairs `(x, y)`, `x < y`, of a full room's cards, in the order of [`Pairs`]'
/// lanes.
const UNORDERED: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// The states [`Pairs`] holds: 8 for each unordered pair of cards.
const LANES: usize = 8 * UNORDERED.len();

/// The first of [`Pairs`]' lanes of each ordered pair of cards (`first * ROOM + second`; 0 for
/// a card paired with itself, never read): the pair `(x, y)`, `x < y`, of [`UNORDERED`] index
/// `u` at `8 * u`, `(y, x)` at `8 * u + 4`.
pub(super) const BASE: [u8; ROOM * ROOM] = {
    let mut base = [0u8; ROOM * ROOM];
    let mut u = 0;
    while u < UNORDERED.len() {
        let (x, y) = UNORDERED[u];
        base[x * ROOM + y] = 8 * u as u8;
        base[y * ROOM + x] = 8 * u as u8 + 4;
        u += 1;
    }
    base
};

/// The choices of a pair's state `i` (`a0 * 2 + a1`: `a0` the first card's choice, `a1` the
/// second's) as a turn's bits: bit 0 the first card's, bit 1 the second's.
pub(super) const CHOICES: [u8; 4] = [0, 2, 1, 3];

/// The states after two cards of a full room, for every ordered pair of its cards and every
/// choice on each, and which of them `living` enumerates: those reached (each choice within
/// the card's [`arms`], the first card survived) that live, less those of the later order (the
/// higher index first) that the other order reaches by the same choice on each card (they give
/// the same lines, which the other order gives earlier in every group).
///
/// The fields by lane: the ordered pair `at` (`first * ROOM + second`) has lanes `BASE[at] + i`
/// for its states `i = a0 * 2 + a1` (`a0` the first card's choice, `a1` the second's), so both
/// orders of a pair of cards are one SSE2 register of 16-bit lanes on x86-64. A state not kept
/// is unspecified.
pub(super) struct Pairs {
    hp: [i16; LANES],
    weapon: [i16; LANES],
    limit: [i16; LANES],
    heals: [i16; LANES],
    /// By ordered pair: bit `i` set if state `i` is kept.
    pub(super) kept: [u8; ROOM * ROOM],
}

impl Pairs {
    /// The tables of the full room `codes` entered as `start` (its turn begun): on x86-64 in
    /// SSE2 lanes ([`Pairs::in_lanes`]), else [`Pairs::plain`].
    #[inline(always)]
    pub(super) fn of<const BARE: bool, const DISCARD: bool>(
        rules: &Rules,
        codes: &[u8; ROOM],
        start: Hero,
    ) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            Self::in_lanes::<BARE, DISCARD>(rules, codes, start)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self::plain::<BARE, DISCARD>(rules, codes, start)
        }
    }

    /// Nothing kept.
    #[inline(always)]
    fn empty() -> Self {
        Self {
            hp: [0; LANES],
            weapon: [0; LANES],
            limit: [0; LANES],
            heals: [0; LANES],
            kept: [0; ROOM * ROOM],
        }
    }

    /// The hero in `lane`.
    #[inline(always)]
    pub(super) fn hero(&self, lane: usize) -> Hero {
        Hero {
            hp: self.hp[lane],
            weapon: self.weapon[lane] as u8,
            limit: self.limit[lane] as u8,
            heals: self.heals[lane] as u8,
        }
    }

    /// [`Pairs::of`] card by card with [`faced`]: the plain version (other targets and the
    /// tests).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn plain<const BARE: bool, const DISCARD: bool>(
        rules: &Rules,
        codes: &[u8; ROOM],
        start: Hero,
    ) -> Self {
        let mut me = Self::empty();
        // After the first card: by its index and choice (dead past its choices).
        let mut one = [[DEAD; 2]; ROOM];
        let mut ones = [0u8; ROOM];
        for x in 0..ROOM {
            ones[x] = arms::<BARE, DISCARD>(&start, codes[x]);
            for a0 in 0..ones[x] {
                one[x][usize::from(a0)] = faced::<BARE, DISCARD>(rules, start, codes[x], a0, 0).0;
            }
        }
        for (x, y) in UNORDERED {
            // The states of the first order by the choices on `x` and `y`, dead past them.
            let mut by = [[key(&DEAD); 2]; 2];
            for (first, second) in [(x, y), (y, x)] {
                let at = first * ROOM + second;
                for a0 in 0..ones[first] {
                    let h1 = one[first][usize::from(a0)];
                    if !h1.alive() {
                        continue;
                    }
                    for a1 in 0..arms::<BARE, DISCARD>(&h1, codes[second]) {
                        let (h2, _) = faced::<BARE, DISCARD>(rules, h1, codes[second], a1, 0);
                        let again = if first == x {
                            by[usize::from(a0)][usize::from(a1)] = key(&h2);
                            false
                        } else {
                            by[usize::from(a1)][usize::from(a0)] == key(&h2)
                        };
                        let i = a0 * 2 + a1;
                        let lane = usize::from(BASE[at] + i);
                        me.hp[lane] = h2.hp;
                        me.weapon[lane] = i16::from(h2.weapon);
                        me.limit[lane] = i16::from(h2.limit);
                        me.heals[lane] = i16::from(h2.heals);
                        me.kept[at] |= u8::from(h2.alive() & !again) << i;
                    }
                }
            }
        }
        me
    }

    /// [`Pairs::plain`] in SSE2 lanes, the same integers: the states after the first card in one
    /// register (lanes `2k` and `2k + 1`: card `k` with choice 0 and 1), then each unordered
    /// pair of cards in one ([`Pairs::pair_in_lanes`]), [`Hero::face`]'s operations lane by
    /// lane ([`Faced::of`]).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn in_lanes<const BARE: bool, const DISCARD: bool>(
        rules: &Rules,
        codes: &[u8; ROOM],
        start: Hero,
    ) -> Self {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16, _mm_cmpgt_epi16, _mm_or_si128,
            _mm_set1_epi16, _mm_setr_epi16, _mm_setzero_si128,
        };
        // SAFETY: SSE2 is in the x86-64 baseline (register operations only).
        let (rules, one, cards) = unsafe {
            let by_card = |f: fn(u8) -> i16| {
                let [a, b, c, d] = codes.map(f);
                _mm_setr_epi16(a, a, b, b, c, c, d, d)
            };
            let cards = CardLanes {
                value: by_card(|c| i16::from(card::value(c))),
                monster: by_card(|c| -i16::from(card::is_monster(c))),
                weapon: by_card(|c| -i16::from(card::is_weapon(c))),
                potion: by_card(|c| -i16::from(card::is_potion(c))),
            };
            let zero = _mm_setzero_si128();
            let rules = LaneRules {
                max_hp: _mm_set1_epi16(i16::from(rules.max_hp)),
                potions_per_turn: _mm_set1_epi16(i16::from(rules.potions_per_turn)),
                strict: _mm_cmpeq_epi16(
                    _mm_set1_epi16(i16::from(
                        rules.weapon_wear == super::super::rules::Wear::Strict,
                    )),
                    _mm_set1_epi16(1),
                ),
                // Choice 1 in the odd lanes: the second of each pair of lanes.
                choice: _mm_setr_epi16(0, -1, 0, -1, 0, -1, 0, -1),
            };
            let start = HeroLanes {
                hp: _mm_set1_epi16(start.hp),
                weapon: _mm_set1_epi16(i16::from(start.weapon)),
                limit: _mm_set1_epi16(i16::from(start.limit)),
                heals: _mm_set1_epi16(i16::from(start.heals)),
            };
            let one = Faced::of::<BARE, DISCARD>(&rules, start, &cards);
            // Reached (choice 0, or a card offering two) and alive.
            let reached = _mm_or_si128(
                _mm_andnot_si128(rules.choice, _mm_cmpeq_epi16(zero, zero)),
                one.two,
            );
            let one = First {
                hero: one.hero,
                live: _mm_and_si128(reached, _mm_cmpgt_epi16(one.hero.hp, zero)),
            };
            (rules, one, cards)
        };
        let mut me = Self::empty();
        me.pair_in_lanes::<BARE, DISCARD, { dwords(0, 1) }, { dwords(1, 0) }>(
            &rules, &one, &cards, 0,
        );
        me.pair_in_lanes::<BARE, DISCARD, { dwords(0, 2) }, { dwords(2, 0) }>(
            &rules, &one, &cards, 1,
        );
        me.pair_in_lanes::<BARE, DISCARD, { dwords(0, 3) }, { dwords(3, 0) }>(
            &rules, &one, &cards, 2,
        );
        me.pair_in_lanes::<BARE, DISCARD, { dwords(1, 2) }, { dwords(2, 1) }>(
            &rules, &one, &cards, 3,
        );
        me.pair_in_lanes::<BARE, DISCARD, { dwords(1, 3) }, { dwords(3, 1) }>(
            &rules, &one, &cards, 4,
        );
        me.pair_in_lanes::<BARE, DISCARD, { dwords(2, 3) }, { dwords(3, 2) }>(
            &rules, &one, &cards, 5,
        );
        me
    }

    /// The eight states of the unordered pair `u` of [`UNORDERED`], `(x, y)`: `FIRST` picks the
    /// 32-bit lanes `[x, x, y, y]` of the states after the first card (then each state's two
    /// lanes spread over the second card's two choices), `SECOND` the lanes `[y, y, x, x]` of
    /// the cards.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn pair_in_lanes<const BARE: bool, const DISCARD: bool, const FIRST: i32, const SECOND: i32>(
        &mut self,
        rules: &LaneRules,
        one: &First,
        cards: &CardLanes,
        u: usize,
    ) {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16, _mm_cmpgt_epi16,
            _mm_movemask_epi8, _mm_or_si128, _mm_packs_epi16, _mm_setr_epi16, _mm_setzero_si128,
            _mm_shuffle_epi32, _mm_shufflehi_epi16, _mm_shufflelo_epi16, _mm_storeu_si128,
        };
        // SAFETY: SSE2 is in the x86-64 baseline (register operations only).
        let (bits, h2) = unsafe {
            // HeroLanes `[a0, a0, a1, a1]` of the first card's state, in each half.
            let spread = |f: __m128i| {
                _mm_shufflehi_epi16::<0x50>(_mm_shufflelo_epi16::<0x50>(
                    _mm_shuffle_epi32::<FIRST>(f),
                ))
            };
            let h1 = HeroLanes {
                hp: spread(one.hero.hp),
                weapon: spread(one.hero.weapon),
                limit: spread(one.hero.limit),
                heals: spread(one.hero.heals),
            };
            let second = |f: __m128i| _mm_shuffle_epi32::<SECOND>(f);
            let card = CardLanes {
                value: second(cards.value),
                monster: second(cards.monster),
                weapon: second(cards.weapon),
                potion: second(cards.potion),
            };
            let two = Faced::of::<BARE, DISCARD>(rules, h1, &card);
            let zero = _mm_setzero_si128();
            let ones = _mm_cmpeq_epi16(zero, zero);
            let reached = _mm_and_si128(
                spread(one.live),
                _mm_or_si128(_mm_andnot_si128(rules.choice, ones), two.two),
            );
            let h2 = two.hero;
            let alive = _mm_cmpgt_epi16(h2.hp, zero);
            // The later order's lane `4 + b * 2 + a` against the first order's `a * 2 + b` (the
            // same choice on each card): the low half copied up, its middle two lanes swapped.
            let first_order =
                |f: __m128i| _mm_shufflehi_epi16::<0xD8>(_mm_shuffle_epi32::<0x44>(f));
            let same = |f: __m128i| _mm_cmpeq_epi16(f, first_order(f));
            let again = _mm_and_si128(
                _mm_and_si128(
                    _mm_and_si128(same(h2.hp), same(h2.weapon)),
                    _mm_and_si128(same(h2.limit), same(h2.heals)),
                ),
                _mm_and_si128(
                    first_order(reached),
                    _mm_setr_epi16(0, 0, 0, 0, -1, -1, -1, -1),
                ),
            );
            let kept = _mm_andnot_si128(again, _mm_and_si128(reached, alive));
            (_mm_movemask_epi8(_mm_packs_epi16(kept, zero)) as u8, h2)
        };
        let (x, y) = UNORDERED[u];
        self.kept[x * ROOM + y] = bits & 0xF;
        self.kept[y * ROOM + x] = bits >> 4;
        let lanes = 8 * u..8 * u + 8;
        let store = |to: &mut [i16], f: __m128i| {
            assert_eq!(to.len(), 8);
            // SAFETY: SSE2 is in the x86-64 baseline; `to` is eight `i16`.
            unsafe { _mm_storeu_si128(to.as_mut_ptr().cast::<__m128i>(), f) }
        };
        store(&mut self.hp[lanes.clone()], h2.hp);
        store(&mut self.weapon[lanes.clone()], h2.weapon);
        store(&mut self.limit[lanes.clone()], h2.limit);
        store(&mut self.heals[lanes], h2.heals);
    }
}

/// The immediate of `_mm_shuffle_epi32` that picks the 32-bit lanes `[a, a, b, b]`.
#[cfg(target_arch = "x86_64")]
const fn dwords(a: i32, b: i32) -> i32 {
    a | a << 2 | b << 4 | b << 6
}

/// A hero's fields in 16-bit SSE2 lanes, one hero a lane.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct HeroLanes {
    hp: std::arch::x86_64::__m128i,
    weapon: std::arch::x86_64::__m128i,
    limit: std::arch::x86_64::__m128i,
    heals: std::arch::x86_64::__m128i,
}

/// A card in 16-bit SSE2 lanes, one card a lane: its value and its kind as masks (all ones if
/// it is one).
#[cfg(target_arch = "x86_64")]
struct CardLanes {
    value: std::arch::x86_64::__m128i,
    monster: std::arch::x86_64::__m128i,
    weapon: std::arch::x86_64::__m128i,
    potion: std::arch::x86_64::__m128i,
}

/// What [`Hero::face`] reads of the rules, in 16-bit SSE2 lanes, and the choice of each lane
/// (all ones for choice 1) in the layout of [`Pairs::in_lanes`].
#[cfg(target_arch = "x86_64")]
struct LaneRules {
    max_hp: std::arch::x86_64::__m128i,
    potions_per_turn: std::arch::x86_64::__m128i,
    /// All ones under strict wear.
    strict: std::arch::x86_64::__m128i,
    choice: std::arch::x86_64::__m128i,
}

/// The states after the first card in lanes, and which are reached and alive (all ones).
#[cfg(target_arch = "x86_64")]
struct First {
    hero: HeroLanes,
    live: std::arch::x86_64::__m128i,
}

/// [`faced`] lane by lane: the hero after the card with the lane's choice, and where the card
/// offers two choices ([`arms`] 2: all ones).
#[cfg(target_arch = "x86_64")]
struct Faced {
    hero: HeroLanes,
    two: std::arch::x86_64::__m128i,
}

#[cfg(target_arch = "x86_64")]
impl Faced {
    /// `hero` facing `card` in each lane with the lane's choice of `rules`: [`Hero::face`]'s
    /// operations on 16-bit lanes (every value fits: HP, values up to 15, the limit up to
    /// [`FRESH`](super::super::hero::FRESH)), a weapon discarded (choice 1 under `DISCARD`) leaving
    /// the hero as it was.
    #[inline(always)]
    fn of<const BARE: bool, const DISCARD: bool>(
        rules: &LaneRules,
        hero: HeroLanes,
        card: &CardLanes,
    ) -> Self {
        use std::arch::x86_64::{
            __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16,
            _mm_cmpgt_epi16, _mm_min_epi16, _mm_or_si128, _mm_set1_epi16, _mm_setzero_si128,
            _mm_sub_epi16,
        };
        // SAFETY: SSE2 is in the x86-64 baseline (register operations only).
        unsafe {
            let select = |mask: __m128i, a: __m128i, b: __m128i| {
                _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b))
            };
            let zero = _mm_setzero_si128();
            let v = card.value;
            // The weapon may be used on the monster: held, and the monster within its limit.
            let usable = _mm_andnot_si128(
                _mm_cmpgt_epi16(v, hero.limit),
                _mm_and_si128(card.monster, _mm_cmpgt_epi16(hero.weapon, zero)),
            );
            let fight = if BARE { usable } else { zero };
            let discard = if DISCARD { card.weapon } else { zero };
            // With the weapon on choice 1, or always when the rules give no barehanded choice.
            let with_weapon = if BARE {
                rules.choice
            } else {
                _mm_cmpeq_epi16(zero, zero)
            };
            let armed = _mm_and_si128(usable, with_weapon);
            let damage = _mm_and_si128(
                _mm_sub_epi16(v, _mm_and_si128(_mm_min_epi16(hero.weapon, v), armed)),
                card.monster,
            );
            let heals = _mm_and_si128(
                card.potion,
                _mm_cmpgt_epi16(rules.potions_per_turn, hero.heals),
            );
            let healed = _mm_and_si128(
                _mm_min_epi16(v, _mm_sub_epi16(rules.max_hp, hero.hp)),
                heals,
            );
            let slew = _mm_add_epi16(v, rules.strict);
            let limit = select(
                card.weapon,
                _mm_set1_epi16(i16::from(super::super::hero::FRESH)),
                select(armed, slew, hero.limit),
            );
            let faced = HeroLanes {
                hp: _mm_sub_epi16(_mm_add_epi16(hero.hp, healed), damage),
                weapon: select(card.weapon, v, hero.weapon),
                limit,
                // `heals` is all ones (minus one) where a potion heals.
                heals: _mm_sub_epi16(hero.heals, heals),
            };
            let hero = if DISCARD {
                // A weapon discarded leaves the hero as it was.
                let kept = _mm_and_si128(discard, rules.choice);
                HeroLanes {
                    hp: select(kept, hero.hp, faced.hp),
                    weapon: select(kept, hero.weapon, faced.weapon),
                    limit: select(kept, hero.limit, faced.limit),
                    heals: select(kept, hero.heals, faced.heals),
                }
            } else {
                faced
            };
            Self {
                hero,
                two: _mm_or_si128(fight, discard),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{VARIANTS, case, rules_under};
    use super::*;
    use crate::games::scoundrel::hero::FRESH;

    /// [`Pairs::of`] and [`Pairs::plain`] of a room, compiled with the rules' choices.
    fn pair_tables<const B: bool, const D: bool>(
        rules: &Rules,
        codes: &[u8; ROOM],
        start: Hero,
    ) -> (Pairs, Pairs) {
        (
            Pairs::of::<B, D>(rules, codes, start),
            Pairs::plain::<B, D>(rules, codes, start),
        )
    }

    #[test]
    fn the_pair_tables_in_lanes_are_the_plain_ones() {
        let (mut states, mut partial) = (0, 0);
        for sets in VARIANTS {
            let rules = rules_under(sets);
            for game in 0..3000u64 {
                // The hero as it enters the room or with a potion drunk this turn.
                let (cards, start) = case(&rules, 9, game, [0, 2, 6, 10], [FRESH, 3, 8, 13]);
                let codes: [u8; ROOM] = cards[..ROOM].try_into().unwrap();
                let (fast, plain) = by_choices!(rules, pair_tables(&rules, &codes, start));
                assert_eq!(fast.kept, plain.kept, "{codes:?} {start:?} {sets:?}");
                for (at, &base) in BASE.iter().enumerate() {
                    for i in 0..4 {
                        if plain.kept[at] >> i & 1 == 1 {
                            let lane = usize::from(base) + i;
                            assert_eq!(fast.hero(lane), plain.hero(lane), "{codes:?} {start:?}");
                            states += 1;
                        }
                    }
                    partial += usize::from(plain.kept[at] != 0 && plain.kept[at] != 0xF);
                }
            }
        }
        // Many states compared, and many pairs keeping some of their four.
        assert!(states > 150_000 && partial > 100_000, "{states} {partial}");
    }
}
