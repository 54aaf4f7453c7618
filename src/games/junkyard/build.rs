//! Move generation for building: every automaton an assembly area can make (all four patterns,
//! every choice of numbers), and the strongest of them found directly.

use super::automaton::{Automaton, Pattern};
use super::cards::{Area, Counts, NUMBERS};
use super::keys::guard_key;
use count_masks::masks;

mod count_masks;

/// The most distinct automatons one assembly area can offer: 90 one-and-threes, 45 two-pairs,
/// 8 runs and four 1s.
pub const MAX_CHOICES: usize = 144;

/// The length of the run 1, 2, ... in the values of `singles` (bit `v` for value `v`).
#[inline(always)]
fn run_length(singles: u16) -> u8 {
    (!(singles >> 1)).trailing_zeros() as u8
}

/// Calls `each` on every automaton buildable from `counts`, once per distinct automaton (suits
/// play no part, so cards of one value are interchangeable).
pub fn for_each_buildable(counts: &Counts, mut each: impl FnMut(Automaton)) {
    let [singles, pairs, triples] = masks(Area::new(counts).words());
    for b in 1..=NUMBERS as u8 {
        if triples & (1 << b) == 0 {
            continue;
        }
        for a in 1..=NUMBERS as u8 {
            if a != b && singles & (1 << a) != 0 {
                each(Automaton::one_three(a, b));
            }
        }
    }
    for a in 1..=NUMBERS as u8 {
        if pairs & (1 << a) == 0 {
            continue;
        }
        for b in a + 1..=NUMBERS as u8 {
            if pairs & (1 << b) != 0 {
                each(Automaton::two_pairs(a, b));
            }
        }
    }
    for top in 3..=run_length(singles) {
        each(Automaton::run(top));
    }
    if counts[1] >= 4 {
        each(Automaton::FOUR_ONES);
    }
}

/// Every automaton buildable from `counts`, into `out`; returns how many.
pub fn buildable(counts: &Counts, out: &mut [Automaton; MAX_CHOICES]) -> usize {
    let mut n = 0;
    for_each_buildable(counts, |bot| {
        out[n] = bot;
        n += 1;
    });
    n
}

/// What a build of one automaton needs, worked out once for every automaton ([`PLANS`]): its
/// cards as an area's words, the automaton itself, and the keys its columns take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Plan {
    /// Its cards as the two words of an [`Area`] ([`Automaton::card_words`]).
    pub words: [u64; 2],
    /// The automaton (not attacking).
    pub bot: Automaton,
    /// Its [`Automaton::strength`].
    pub strength: u32,
    /// Its [`guard_key`].
    pub guard_key: u32,
}

/// The place of automaton `pattern` (`a`, `b`) in [`PLANS`], below 256: one-and-threes at
/// `11a + b` (12 to 119), two pairs 121 past them, four 1s at 242 and a run of top `a` at
/// `242 + a` (245 to 252).
#[inline(always)]
pub const fn plan_id(pattern: Pattern, a: u8, b: u8) -> usize {
    let (a, b) = (a as usize, b as usize);
    match pattern {
        Pattern::OneThree => 11 * a + b,
        Pattern::TwoPairs => 121 + 11 * a + b,
        Pattern::FourOnes => 242,
        Pattern::Run => 242 + a,
    }
}

/// The plan of every automaton at its [`plan_id`]; the places no automaton has hold four 1s'
/// (never read). 256 places, so a byte indexes it without a bounds check.
pub static PLANS: [Plan; 256] = {
    const fn plan(bot: Automaton) -> Plan {
        Plan {
            words: bot.card_words(),
            bot,
            strength: bot.strength(),
            guard_key: guard_key(&bot),
        }
    }
    let mut all = [plan(Automaton::FOUR_ONES); 256];
    let mut a = 1;
    while a <= NUMBERS as u8 {
        let mut b = 1;
        while b <= NUMBERS as u8 {
            if a != b {
                all[plan_id(Pattern::OneThree, a, b)] = plan(Automaton::one_three(a, b));
            }
            if a < b {
                all[plan_id(Pattern::TwoPairs, a, b)] = plan(Automaton::two_pairs(a, b));
            }
            b += 1;
        }
        if a >= 3 {
            all[plan_id(Pattern::Run, a, 0)] = plan(Automaton::run(a));
        }
        a += 1;
    }
    all
};

/// The plan of `bot` (any automaton of the rules' numbers; its `attacking` flag plays no part).
#[inline(always)]
pub fn plan(bot: &Automaton) -> &'static Plan {
    let plan = &PLANS[plan_id(bot.pattern, bot.a, bot.b) % PLANS.len()];
    debug_assert_eq!(
        plan.bot,
        Automaton {
            attacking: false,
            ..*bot
        }
    );
    plan
}

/// The highest value in `mask` (bit `v` for value `v`), 0 if none (bit 0 is never a value).
#[inline(always)]
const fn top_value(mask: u16) -> u8 {
    15 - (mask | 1).leading_zeros() as u8
}

/// A pattern's strength (power, toughness, pattern; see [`Automaton::strength`]) with the place
/// of its plan below it, as [`strongest`] compares them. Power and toughness are below 64 and
/// the place below 256, so the fields never overlap.
#[inline(always)]
const fn plan_key(power: u32, toughness: u32, pattern: Pattern, a: u8, b: u8) -> u32 {
    (power << 18) | (toughness << 10) | ((pattern as u32) << 8) | plan_id(pattern, a, b) as u32
}

/// The [`plan_key`] of the two greatest pairs for each mask of pairs (bit `v - 1` for value
/// `v`), 0 for fewer than two pairs: no search of the mask on a build's path.
static TWO_PAIRS_KEYS: [u32; 1 << NUMBERS] = {
    let mut all = [0u32; 1 << NUMBERS];
    let mut m = 0;
    while m < all.len() {
        let pairs = (m as u16) << 1;
        let high = top_value(pairs);
        let low = top_value(pairs & !(1 << high));
        if low != 0 {
            all[m] = plan_key(
                2 * low as u32,
                2 * high as u32,
                Pattern::TwoPairs,
                low,
                high,
            );
        }
        m += 1;
    }
    all
};

/// The [`plan_key`] of the run 1 to `top` for each `top` from 0 to 15, 0 below 3 (no run) and
/// past 10 (never asked).
static RUN_KEYS: [u32; 16] = {
    let mut all = [0u32; 16];
    let mut top = 3;
    while top <= NUMBERS {
        let sum = (top * (top + 1) / 2) as u32;
        all[top] = plan_key(sum, sum, Pattern::Run, top as u8, 0);
        top += 1;
    }
    all
};

/// The plan of the strongest automaton buildable from `area` (in the order of
/// [`Automaton::strength`]), found without listing them all: the strongest of each pattern,
/// worked out without a branch (the two pairs' and the run's from tables), and the greatest of
/// their [`plan_key`]s.
#[inline(always)]
pub fn strongest(area: &Area) -> Option<&'static Plan> {
    let words = area.words();
    let counts = area.counts();
    let [singles, pairs, triples] = masks(words);
    let run = run_length(singles);
    // Most calls find nothing (the last of a build's calls, and most turns' only one): one
    // test of the four patterns' needs first.
    let two_or_more = |m: u16| m & m.wrapping_sub(1) != 0;
    let any = (counts[1] >= 4)
        | two_or_more(pairs)
        | (run >= 3)
        | ((triples != 0) & two_or_more(singles));
    if !any {
        return None;
    }
    // One-and-three: the greatest single, with the greatest triple of another number; if the
    // only triple is of that number, the next single below it with that triple.
    let a = top_value(singles);
    let b = top_value(triples & !(1 << a));
    let below = top_value(singles & !(1 << a));
    let of_a = (triples >> a) & 1 != 0;
    let (single, triple) = if b != 0 {
        (a, b)
    } else {
        (below, a * u8::from(of_a))
    };
    // The four are of different patterns, so the places never decide between them.
    let strengths = [
        plan_key(1, 1, Pattern::FourOnes, 1, 0) * u32::from(counts[1] >= 4),
        TWO_PAIRS_KEYS[usize::from(pairs >> 1) % TWO_PAIRS_KEYS.len()],
        plan_key(
            u32::from(single),
            3 * u32::from(triple),
            Pattern::OneThree,
            single,
            triple,
        ) * u32::from(single != 0 && triple != 0),
        RUN_KEYS[usize::from(run) % RUN_KEYS.len()],
    ];
    let best = strengths.into_iter().max().unwrap_or(0);
    Some(&PLANS[(best & 0xFF) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(values: &[u8]) -> Counts {
        let mut c = Counts::default();
        values.iter().for_each(|&v| c[usize::from(v)] += 1);
        c
    }

    fn all(values: &[u8]) -> Vec<Automaton> {
        let mut out = [Automaton::FOUR_ONES; MAX_CHOICES];
        let n = buildable(&counts(values), &mut out);
        out[..n].to_vec()
    }

    #[test]
    fn every_pattern_is_found_and_near_misses_are_not_automatons() {
        assert_eq!(all(&[7, 2, 2, 2]), vec![Automaton::one_three(7, 2)]);
        assert_eq!(all(&[3, 3, 5, 5]), vec![Automaton::two_pairs(3, 5)]);
        assert_eq!(all(&[1, 2, 3]), vec![Automaton::run(3)]);
        assert_eq!(all(&[1, 1, 1, 1]), vec![Automaton::FOUR_ONES]);
        // Near misses: four of a kind (a = b), a run not from 1, a run of two, three 1s plus a
        // 2 and 3 that is not four 1s, pairs of one value, a triple with no single.
        for miss in [
            &[2, 2, 2, 2][..],
            &[2, 3, 4, 5],
            &[1, 2],
            &[1, 1, 1],
            &[4, 4, 6],
            &[5, 5, 5],
            &[1, 3, 4, 5],
        ] {
            assert!(all(miss).is_empty(), "{miss:?}: {:?}", all(miss));
        }
        // 1 1 1 2 3: one 2 and three 1s, one 3 and three 1s, the run 1-2-3.
        let got = all(&[1, 1, 1, 2, 3]);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got.contains(&Automaton::one_three(2, 1)));
        assert!(got.contains(&Automaton::one_three(3, 1)));
        assert!(got.contains(&Automaton::run(3)));
        // 1..=5 and a 1 each: runs of 3, 4, 5.
        let runs: Vec<u8> = all(&[1, 2, 3, 4, 5])
            .iter()
            .filter(|b| b.pattern == Pattern::Run)
            .map(|b| b.a)
            .collect();
        assert_eq!(runs, vec![3, 4, 5]);
    }

    #[test]
    fn every_automaton_has_its_own_plan_worked_out_from_it() {
        let all = crate::games::junkyard::automaton::every_automaton();
        let mut seen = std::collections::HashSet::new();
        for bot in all {
            let id = plan_id(bot.pattern, bot.a, bot.b);
            assert!(seen.insert(id), "{bot:?} shares place {id}");
            let p = plan(&Automaton {
                attacking: true,
                ..bot
            });
            assert_eq!(p.bot, bot);
            assert_eq!(p.words, bot.card_words(), "{bot:?}");
            assert_eq!(p.strength, bot.strength(), "{bot:?}");
            assert_eq!(p.guard_key, guard_key(&bot), "{bot:?}");
        }
        assert_eq!(seen.len(), 144);
    }

    #[test]
    fn the_two_pairs_and_run_tables_hold_the_strongest_of_their_pattern() {
        // The strongest of one pattern in the full list of an area, as the plan's key.
        let best_of = |c: &Counts, pattern: Pattern| {
            let mut best: Option<Automaton> = None;
            for_each_buildable(c, |b| {
                if b.pattern == pattern && best.is_none_or(|x| b.strength() > x.strength()) {
                    best = Some(b);
                }
            });
            best.map_or(0, |b| {
                plan_key(
                    u32::from(b.power),
                    u32::from(b.toughness),
                    pattern,
                    b.a,
                    b.b,
                )
            })
        };
        // Every mask of pairs: two of each of its values (no triple, no four 1s).
        for (m, &key) in TWO_PAIRS_KEYS.iter().enumerate() {
            let mut c = Counts::default();
            (1..=NUMBERS).for_each(|v| c[v] = 2 * u8::from(m & (1 << (v - 1)) != 0));
            assert_eq!(key, best_of(&c, Pattern::TwoPairs), "{m:b}");
        }
        // Every run length: one of each value up to it, and none past it.
        for (top, &key) in RUN_KEYS.iter().enumerate().take(NUMBERS + 1) {
            let mut c = Counts::default();
            (1..=top).for_each(|v| c[v] = 1);
            assert_eq!(key, best_of(&c, Pattern::Run), "{top}");
            assert_eq!(run_length(masks(Area::new(&c).words())[0]), top as u8);
        }
    }

    #[test]
    fn strongest_is_the_maximum_of_the_full_list_on_many_areas() {
        let mut x = 99u64;
        for _ in 0..20_000 {
            let mut c = Counts::default();
            for slot in c.iter_mut().skip(1) {
                x = crate::rng::splitmix64(x);
                *slot = (x % 5) as u8 * u8::from(!x.is_multiple_of(3));
            }
            let mut best: Option<Automaton> = None;
            for_each_buildable(&c, |b| {
                if best.is_none_or(|x| b.strength() > x.strength()) {
                    best = Some(b);
                }
            });
            let plan = strongest(&Area::new(&c));
            assert_eq!(plan.map(|p| p.bot), best, "{c:?}");
            if let Some(p) = plan {
                assert!(p.bot.buildable_from(&c));
                // The plan's words take as many cards as the automaton has.
                let taken: u64 = p
                    .words
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .map(u64::from)
                    .sum();
                assert_eq!(taken as usize, p.bot.card_count());
            }
        }
    }
}
