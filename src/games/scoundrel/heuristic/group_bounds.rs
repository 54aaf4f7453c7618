//! The bounds of a full room's four groups of ways (a group: the ways that leave one card and
//! face the other three): at least the value of any living way of the group, from what each
//! card of the room can do at best ([`Cards`]), so that [`Top`] skips a group that cannot beat
//! the best way found.
//!
//! Two versions, the same integers and so the same values: on x86-64 the four groups at once in
//! 16-bit SSE2 lanes, one group a lane (`ends_in_lanes`, then the evaluation's
//! [`bounds_after`](super::Weights::bounds_after)); [`Top::bound`], group by group, compiled on
//! every target: what other targets run, and what the tests hold the lanes to.

use super::super::card;
use super::super::hero::{self, FRESH, Hero};
use super::super::rules::ROOM;
use super::Top;

/// What [`Top::bound`] reads of each card of a full room, by its index: the value as a
/// weapon, a potion and a monster (0 if it is not one), what the monster does against the
/// held weapon, and the monster's value if the held weapon may be used on it (else 0).
pub(super) struct Cards {
    weapon: [u8; ROOM],
    potion: [i16; ROOM],
    monster: [u8; ROOM],
    held_does: [u8; ROOM],
    usable: [u8; ROOM],
}

impl Cards {
    /// The room `codes` entered as `held`, without a branch on the kinds.
    #[inline(always)]
    pub(super) fn of(codes: &[u8; ROOM], held: Hero) -> Self {
        let value = |k: usize| card::value(codes[k]);
        let monster = core::array::from_fn(|k| value(k) * u8::from(card::is_monster(codes[k])));
        // The held weapon counts only up to its limit.
        let usable: [u8; ROOM] = core::array::from_fn(|k: usize| {
            let m: u8 = monster[k];
            m & hero::mask((held.weapon > 0) & (m <= held.limit))
        });
        Self {
            weapon: core::array::from_fn(|k| value(k) * u8::from(card::is_weapon(codes[k]))),
            potion: core::array::from_fn(|k| {
                i16::from(value(k)) * i16::from(card::is_potion(codes[k]))
            }),
            monster,
            held_does: core::array::from_fn(|k| monster[k] - held.weapon.min(usable[k])),
            usable,
        }
    }
}

/// The three indices of a full room other than each.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
const OTHERS: [[usize; 3]; ROOM] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

impl Top<'_> {
    /// At least the value of any living way leaving the card `left`, facing the other
    /// three, `rest`: the larger of two bounds, for the ways that end with the weapon as fresh
    /// as it can be and for those that wear it. No way ends with more HP than the maximum, or
    /// than the HP entering the room with the potions faced that may heal this turn (the
    /// largest alone when one may) less what each monster faced does at best: barehanded,
    /// against the weapon held if it may be used on it, or against the largest weapon faced.
    /// The weapon ends as the one held when no weapon is faced, else as one faced, no larger
    /// than the largest (or as the one held if the rules let a weapon be discarded: the larger
    /// of the two then bounds both). It ends as fresh as it entered the room (held) or fresh
    /// (faced) only if no monster was fought with it since, so only if the monsters do no
    /// better than barehanded (none faced), against the held weapon (one faced: the held
    /// weapon may be used before it), or at best (two faced: the first may be used before the
    /// second); else it ends worn to at most the largest monster it may be used on.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn bound(&self, codes: &[u8; ROOM], cards: &Cards, left: usize) -> f32 {
        let rest = OTHERS[left];
        let (mut spare, mut weapons, mut potions, mut largest) = (0u8, 0u8, 0i16, 0i16);
        for k in rest {
            spare = spare.max(cards.weapon[k]);
            weapons += u8::from(cards.weapon[k] > 0);
            potions += cards.potion[k];
            largest = largest.max(cards.potion[k]);
        }
        let held = self.hero;
        // What the monsters do barehanded, against the held weapon, at best; the largest
        // the held weapon, and any weapon, may be used on.
        let (mut bare, mut by_held, mut best) = (0i16, 0i16, 0i16);
        let (mut top_held, mut top) = (0u8, 0u8);
        for k in rest {
            let (monster, held_does) = (cards.monster[k], cards.held_does[k]);
            bare += i16::from(monster);
            by_held += i16::from(held_does);
            best += i16::from(held_does.min(monster.saturating_sub(spare)));
            top_held = top_held.max(cards.usable[k]);
            top = top.max(monster);
        }
        // Without a branch: one potion may heal this turn, or none, or more.
        let heals = self.heals;
        let healed = if heals > 1 { potions } else { largest } * i16::from(heals > 0);
        // HP never exceeds the maximum, and a potion heals at most its value.
        let hp = |damage: i16| (held.hp + healed - damage).min(self.max_hp);
        let faced = spare > 0;
        let weapon = if faced {
            if self.discard {
                held.weapon.max(spare)
            } else {
                spare
            }
        } else {
            held.weapon
        };
        let unworn = [bare, by_held, best][usize::from(weapons.min(2))];
        let (fresh, worn) = if faced {
            (FRESH, top)
        } else {
            (held.limit, held.limit.min(top_held))
        };
        let ends = [(hp(unworn), fresh), (hp(best), worn)];
        self.weights
            .bound_after(self.ready, codes[left], weapon, ends)
    }

    /// [`Top::bound`] of the four groups at once, the same integers and so the same values: on
    /// x86-64 in SSE2 lanes, one group a lane ([`Top::ends_in_lanes`], then
    /// [`Weights::bounds_after`]).
    #[inline(always)]
    pub(super) fn bounds(&self, codes: &[u8; ROOM], cards: &Cards) -> [f32; ROOM] {
        #[cfg(target_arch = "x86_64")]
        {
            let (weapons, ends) = self.ends_in_lanes(cards);
            self.weights.bounds_after(self.ready, *codes, weapons, ends)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            core::array::from_fn(|left| self.bound(codes, cards, left))
        }
    }

    /// The weapon and the two ends (HP and limit) of [`Top::bound`] for the four groups in
    /// 16-bit SSE2 lanes, the group leaving card `k` in lane `k`: a group's sums as the sums of
    /// the other three lanes (the lanes rotated by one, two and three), its maxima likewise,
    /// each choice of the plain bound a select by mask. The same integers (every value fits in
    /// 16 bits: HP, values up to 15 and sums of three).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn ends_in_lanes(&self, cards: &Cards) -> ([u8; ROOM], [[(i16, u8); 2]; ROOM]) {
        use std::arch::x86_64::{
            __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16,
            _mm_cmpgt_epi16, _mm_max_epi16, _mm_min_epi16, _mm_or_si128, _mm_set1_epi16,
            _mm_setr_epi16, _mm_setzero_si128, _mm_shufflelo_epi16, _mm_storeu_si128,
            _mm_sub_epi16,
        };
        let held = self.hero;
        let (mut weapon, mut hp, mut limit) = ([0i16; 8], [[0i16; 8]; 2], [[0i16; 8]; 2]);
        // SAFETY: SSE2 is in the x86-64 baseline; each unaligned store writes the eight `i16`
        // of one of the arrays above.
        unsafe {
            let lanes = |a: [i16; ROOM]| _mm_setr_epi16(a[0], a[1], a[2], a[3], 0, 0, 0, 0);
            let wide = |a: [u8; ROOM]| lanes(a.map(i16::from));
            let splat = |x: i16| _mm_set1_epi16(x);
            // Lane `k` of the three rotations: the entries of the three other cards.
            let rotations = |x: __m128i| {
                (
                    _mm_shufflelo_epi16::<0x39>(x),
                    _mm_shufflelo_epi16::<0x4E>(x),
                    _mm_shufflelo_epi16::<0x93>(x),
                )
            };
            let others_sum = |x: __m128i| {
                let (a, b, c) = rotations(x);
                _mm_add_epi16(_mm_add_epi16(a, b), c)
            };
            let others_max = |x: __m128i| {
                let (a, b, c) = rotations(x);
                _mm_max_epi16(_mm_max_epi16(a, b), c)
            };
            // `if mask { a } else { b }`, lane by lane.
            let select = |mask: __m128i, a: __m128i, b: __m128i| {
                _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b))
            };
            let zero = _mm_setzero_si128();
            let (weapons, potions) = (wide(cards.weapon), lanes(cards.potion));
            let (monsters, held_does) = (wide(cards.monster), wide(cards.held_does));
            let spare = others_max(weapons);
            // Minus the weapons faced: the masks are all ones.
            let faced_weapons = others_sum(_mm_cmpgt_epi16(weapons, zero));
            let bare = others_sum(monsters);
            let by_held = others_sum(held_does);
            let best = {
                let (m1, m2, m3) = rotations(monsters);
                let (h1, h2, h3) = rotations(held_does);
                // `held_does.min(monster.saturating_sub(spare))`.
                let at_best = |m: __m128i, h: __m128i| {
                    _mm_min_epi16(h, _mm_max_epi16(_mm_sub_epi16(m, spare), zero))
                };
                _mm_add_epi16(
                    _mm_add_epi16(at_best(m1, h1), at_best(m2, h2)),
                    at_best(m3, h3),
                )
            };
            let healed = match self.heals {
                0 => zero,
                1 => others_max(potions),
                _ => others_sum(potions),
            };
            let start = _mm_add_epi16(splat(held.hp), healed);
            let hp_after =
                |damage: __m128i| _mm_min_epi16(_mm_sub_epi16(start, damage), splat(self.max_hp));
            let faced = _mm_cmpgt_epi16(spare, zero);
            let held_weapon = splat(i16::from(held.weapon));
            let kept = if self.discard {
                _mm_max_epi16(held_weapon, spare)
            } else {
                spare
            };
            let unworn = select(
                _mm_cmpeq_epi16(faced_weapons, zero),
                bare,
                select(_mm_cmpeq_epi16(faced_weapons, splat(-1)), by_held, best),
            );
            let held_limit = splat(i16::from(held.limit));
            let fresh = select(faced, splat(i16::from(FRESH)), held_limit);
            let worn = select(
                faced,
                others_max(monsters),
                _mm_min_epi16(held_limit, others_max(wide(cards.usable))),
            );
            let store = |to: &mut [i16; 8], x: __m128i| {
                _mm_storeu_si128(to.as_mut_ptr().cast::<__m128i>(), x)
            };
            store(&mut weapon, select(faced, kept, held_weapon));
            store(&mut hp[0], hp_after(unworn));
            store(&mut hp[1], hp_after(best));
            store(&mut limit[0], fresh);
            store(&mut limit[1], worn);
        }
        (
            core::array::from_fn(|k| weapon[k] as u8),
            core::array::from_fn(|k| {
                [(hp[0][k], limit[0][k] as u8), (hp[1][k], limit[1][k] as u8)]
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::features::Summary;
    use super::super::tests::{rooms, weightings};
    use super::*;

    /// The four groups' bounds at once are each group's own, to the bit.
    #[test]
    fn the_bounds_at_once_are_each_groups() {
        let mut groups = 0;
        rooms(1000, |rules, view| {
            let ready = Summary::of(view.dungeon);
            let codes = [view.room[0], view.room[1], view.room[2], view.room[3]];
            for w in weightings() {
                let top = Top::new(rules, &w, &ready, view.hero);
                let cards = Cards::of(&codes, view.hero);
                let fast = top.bounds(&codes, &cards).map(f32::to_bits);
                let plain: [u32; ROOM] =
                    core::array::from_fn(|left| top.bound(&codes, &cards, left).to_bits());
                assert_eq!(fast, plain, "{view:?} {w:?}");
                groups += ROOM;
            }
        });
        assert!(groups > 50_000, "{groups}");
    }
}
