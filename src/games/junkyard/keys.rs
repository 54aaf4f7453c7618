//! A seat's automatons as columns of keys (power, toughness, the four 1s and the attackers as
//! masks, `simple`'s guard keys and guard), kept up to date by the engine as automatons are built, destroyed, attack and ready,
//! so the rules that search the automatons read the columns instead of each automaton.

use super::automaton::{Automaton, Pattern};
use super::combat::{self, MAX_BOTS};
use super::lanes::{Column, LANES};
use super::rank_lanes;

/// The columns of one seat's automatons, slot `i` for automaton `i`; every lane past the last
/// automaton is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    /// Each automaton's power.
    pub power: Column,
    /// Each automaton's toughness.
    pub toughness: Column,
    /// The four 1s (bit `i`: automaton `i`), which cannot be blocked and never guard.
    pub four_ones: u32,
    /// The automatons in the attack area.
    pub attacking: u32,
    /// Each automaton's [`Automaton::strength`] with the complement of its index below it
    /// ([`strength_rank`]): the greatest of a mask's is its strongest, the first of equals.
    strong: [u32; LANES],
    /// The same for the reverse order ([`weakness_rank`]): the greatest is the weakest.
    weak: [u32; LANES],
    /// The greatest of `strong`: the strongest automaton's rank, 0 for none.
    strongest: u32,
    /// The greatest of `weak`: the weakest automaton's rank, 0 for none.
    weakest: u32,
    /// Each automaton's [`guard_key`].
    guard_keys: [u32; MAX_BOTS],
    /// The guard of `simple`'s rule 4, the first automaton of the greatest guard key, as its
    /// [`guard_rank`] (guard keys are below 2^24); 0 for none.
    guard: u32,
    len: u8,
}

/// The order of `simple`'s guard (rule 4): greater toughness first, then the weaker (at equal
/// toughness: less power, then the pattern later in the order); 0 for four 1s, which never
/// guard (every other automaton's key is above 0).
#[inline(always)]
pub const fn guard_key(b: &Automaton) -> u32 {
    let key = ((b.toughness as u32) << 16)
        | ((0xFF - b.power as u32) << 8)
        | (Pattern::Run as u32 - b.pattern as u32);
    key * (b.pattern as u32 != Pattern::FourOnes as u32) as u32
}

impl Keys {
    /// The columns of `bots`.
    pub fn of(bots: &[Automaton]) -> Self {
        let mut keys = Self::default();
        bots.iter().for_each(|b| keys.push(b));
        keys
    }

    /// Adds `bot` as the last automaton.
    #[inline(always)]
    pub fn push(&mut self, bot: &Automaton) {
        self.attacking |= u32::from(bot.attacking) << self.len;
        self.push_keyed(bot, bot.strength(), guard_key(bot));
    }

    /// [`Keys::push`] for an automaton not attacking (a build), with its
    /// [`Automaton::strength`] and [`guard_key`] already worked out (a build takes them from
    /// its [`Plan`](super::build::Plan)).
    #[inline(always)]
    pub fn push_keyed(&mut self, bot: &Automaton, strength: u32, key: u32) {
        debug_assert_eq!((strength, key), (bot.strength(), guard_key(bot)));
        let i = usize::from(self.len);
        self.power.0[i] = bot.power;
        self.toughness.0[i] = bot.toughness;
        self.four_ones |= u32::from(bot.pattern == Pattern::FourOnes) << i;
        self.strong[i] = strength_rank(strength, i);
        self.weak[i] = weakness_rank(strength, i);
        // The first of equals stays the greatest: the new one comes last.
        self.strongest = self.strongest.max(self.strong[i]);
        self.weakest = self.weakest.max(self.weak[i]);
        self.guard_keys[i] = key;
        // The first of equals stays the guard: the new one comes last.
        self.guard = self.guard.max(guard_rank(key, i));
        self.len += 1;
    }

    /// Removes automaton `i`, the last one taking its place (as the engine's automatons do).
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        let last = usize::from(self.len) - 1;
        for c in [&mut self.power, &mut self.toughness] {
            c.0[i] = c.0[last];
            c.0[last] = 0;
        }
        // The last automaton's bit moves to `i`, then the last's is cleared (if the last is the
        // one removed, its bit is put back and then cleared).
        let kept = u32::from(i != last);
        let (at, from) = (1u32 << i, 1u32 << last);
        let moved = |m: u32| ((m & !at) | (at * u32::from(m & from != 0))) & !from;
        self.four_ones = moved(self.four_ones);
        self.attacking = moved(self.attacking);
        // The ranks keep their strength and take their new index.
        self.strong[i] = rank_at(self.strong[last], i);
        self.weak[i] = rank_at(self.weak[last], i);
        self.strong[last] = 0;
        self.weak[last] = 0;
        let moved_key = self.guard_keys[last];
        self.guard_keys[i] = moved_key;
        self.guard_keys[last] = 0;
        self.len -= 1;
        let len = usize::from(self.len);
        self.strongest = greatest_after_removal(self.strongest, &self.strong, len, i);
        self.weakest = greatest_after_removal(self.weakest, &self.weak, len, i);
        if self.guard().is_some_and(|g| g == i) {
            // The guard is gone: the greatest key left.
            self.guard = (0..usize::from(self.len))
                .map(|k| guard_rank(self.guard_keys[k], k))
                .max()
                .unwrap_or(0);
        } else {
            // The automaton moved to `i` (if any) is the guard if it was, or if it is an equal
            // of the guard's now before it: either way its rank at `i` is the greatest.
            self.guard = self.guard.max(guard_rank(moved_key, i) * kept);
        }
    }

    /// The guard of `simple`'s rule 4: the automaton of greatest toughness, among those the
    /// weakest (less power, then the pattern later in the order), the first of equals; never
    /// four 1s.
    #[inline(always)]
    pub fn guard(&self) -> Option<usize> {
        (self.guard != 0).then(|| usize::from(!(self.guard as u8)))
    }

    /// The strongest automaton (in the order of [`Automaton::strength`], the first of equals).
    #[inline(always)]
    pub fn strongest(&self) -> Option<usize> {
        index_of_rank(self.strongest)
    }

    /// The weakest automaton (the first of equals).
    #[inline(always)]
    pub fn weakest(&self) -> Option<usize> {
        index_of_rank(self.weakest)
    }

    /// Every automaton, as a mask.
    #[inline(always)]
    pub fn all(&self) -> u32 {
        // At most `MAX_BOTS` (below 32) automatons: the shift needs no guard.
        (1u32 << (self.len % 32)) - 1
    }

    /// The automatons in the defense area (not attacking).
    #[inline(always)]
    pub fn defense(&self) -> u32 {
        self.all() & !self.attacking
    }
}

/// A seat's automatons with their columns of keys.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// The automatons.
    pub bots: &'a [Automaton],
    /// Their columns.
    pub keys: &'a Keys,
}

impl<'a> Table<'a> {
    /// `bots` with their columns `keys` (which must be [`Keys::of`] them).
    #[inline(always)]
    pub fn new(bots: &'a [Automaton], keys: &'a Keys) -> Self {
        debug_assert_eq!(*keys, Keys::of(bots));
        Self { bots, keys }
    }

    /// The strongest automaton of `mask`, first of equals (a vector search of the ranks: no
    /// branch on the mask's size).
    #[inline(always)]
    pub fn strongest_in(&self, mask: u32) -> Option<usize> {
        greatest_rank(&self.keys.strong, mask)
    }

    /// The automatons of `mask` taken strongest first (first of equals first) until their
    /// power reaches `need`, as a mask, and their power; all of `mask` if its power falls
    /// short. The two strongest come out of one vector search of the ranks (most gangs have
    /// one or two members); a third and more are searched one by one.
    #[inline(always)]
    pub fn strongest_reaching(&self, mask: u32, need: u32) -> (u32, u32) {
        let (strong, power) = (&self.keys.strong, &self.keys.power.0);
        let (first, second) = rank_lanes::greatest_two(strong, mask);
        let mut taken = 0u32;
        let mut total = 0u32;
        for rank in [first, second] {
            if total >= need || rank == 0 {
                return (taken, total);
            }
            let i = usize::from(!(rank as u8));
            taken |= 1 << i;
            total += u32::from(power[i % LANES]);
        }
        let mut left = mask & !taken;
        while total < need
            && let Some(i) = greatest_rank(strong, left)
        {
            left &= !(1 << i);
            taken |= 1 << i;
            total += u32::from(power[i % LANES]);
        }
        (taken, total)
    }

    /// The weakest automaton of `mask`, first of equals.
    #[inline(always)]
    pub fn weakest_in(&self, mask: u32) -> Option<usize> {
        greatest_rank(&self.keys.weak, mask)
    }

    /// The split rule of `simple` ([`combat::split_rule_in`]) for `attacker` over the blockers
    /// `mask` picks out of these automatons, from the columns: a blocker's place in the order
    /// is its toughness, then its strength rank reversed (the stronger first, among equals the
    /// lower index). Returns the mask of those destroyed.
    #[inline]
    pub fn split_rule_in(&self, attacker: &Automaton, mask: u32) -> u32 {
        let (toughness, strong) = (&self.keys.toughness.0, &self.keys.strong);
        combat::split_rule_by(
            attacker,
            mask,
            |k| toughness[k % LANES],
            // The low byte of the reversed rank is the index.
            |k| (u64::from(toughness[k % LANES]) << 32) | u64::from(!strong[k % LANES]),
        )
    }

    /// The total power of the automatons of `mask`.
    #[inline(always)]
    pub fn power_in(&self, mask: u32) -> u32 {
        let power = &self.keys.power.0;
        combat::bits(mask)
            .map(|i| u32::from(power[i % LANES]))
            .sum()
    }
}

/// Strength `strength` of automaton `i` with the complement of the index below it (strengths
/// are below 2^22: power below 64).
#[inline(always)]
fn strength_rank(strength: u32, i: usize) -> u32 {
    (strength << 8) | u32::from(!(i as u8))
}

/// The reverse order's rank: less strength is greater, the first of equals still first.
#[inline(always)]
fn weakness_rank(strength: u32, i: usize) -> u32 {
    strength_rank(0x3F_FFFF - strength, i)
}

/// The automaton of a rank of [`strength_rank`] or [`weakness_rank`], `None` for 0.
#[inline(always)]
fn index_of_rank(rank: u32) -> Option<usize> {
    (rank != 0).then(|| usize::from(!(rank as u8)))
}

/// The greatest of `ranks[..len]` after automaton `i` was removed, the last one moved into its
/// place (its rank at `i` now in `ranks[i]`, 0 there if the last was removed), from `best`,
/// the greatest before: searched again only if the removed automaton had it; otherwise the
/// moved one's rank at `i` is the greatest if it was the greatest at its old index, or if it
/// is an equal of the greatest now before it.
#[inline(always)]
fn greatest_after_removal(best: u32, ranks: &[u32; LANES], len: usize, i: usize) -> u32 {
    if index_of_rank(best) == Some(i) {
        greatest_rank_of(ranks, combat::all(len))
    } else {
        best.max(ranks[i])
    }
}

/// The greatest of `ranks` over `mask`, 0 for an empty mask.
#[inline(always)]
fn greatest_rank_of(ranks: &[u32; LANES], mask: u32) -> u32 {
    combat::bits(mask)
        .map(|i| ranks[i % LANES])
        .fold(0, u32::max)
}

/// A rank of [`strength_rank`] or [`weakness_rank`] moved to index `i`.
#[inline(always)]
fn rank_at(rank: u32, i: usize) -> u32 {
    (rank & !0xFF) | u32::from(!(i as u8))
}

/// The index of the greatest of `ranks` over `mask`, by a fixed vector search
/// ([`rank_lanes::greatest`]); an empty mask is told from the mask itself, not from the
/// search's result (a branch settled before the search, not after it).
#[inline(always)]
fn greatest_rank(ranks: &[u32; LANES], mask: u32) -> Option<usize> {
    (mask != 0).then(|| usize::from(!(rank_lanes::greatest(ranks, mask) as u8)))
}

/// Guard key `key` of automaton `i` with the complement of the index below it (as
/// [`ranked`] does, in 32 bits), 0 for a key of 0 (four 1s).
#[inline(always)]
fn guard_rank(key: u32, i: usize) -> u32 {
    ((key << 8) | u32::from(!(i as u8))) * u32::from(key != 0)
}

/// `key` with the complement of index `i` below it: the greatest of these is the greatest key
/// at its first index, so a plain maximum (no branch on the data) finds the first of equals.
#[inline(always)]
pub fn ranked(key: u32, i: usize) -> u64 {
    (u64::from(key) << 8) | u64::from(!(i as u8))
}

/// The index [`ranked`] put in `rank`.
#[inline(always)]
pub fn index_of(rank: u64) -> usize {
    usize::from(!(rank as u8))
}

/// The first index of the greatest `key` among the automatons of `mask`; at once if the mask
/// has one automaton (the common case after a search of the columns).
#[inline(always)]
pub fn first_of_greatest(
    bots: &[Automaton],
    mask: u32,
    key: impl Fn(&Automaton) -> u32,
) -> Option<usize> {
    if mask & mask.wrapping_sub(1) == 0 {
        return (mask != 0).then(|| mask.trailing_zeros() as usize);
    }
    let best = combat::bits(mask).map(|i| ranked(key(&bots[i]), i)).max();
    best.map(index_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junkyard::automaton::SAMPLES;

    /// One to `most` random automatons, equals often among them.
    fn random_bots(x: &mut u64, most: usize) -> Vec<Automaton> {
        *x = crate::rng::splitmix64(*x);
        let n = (*x % most as u64) as usize + 1;
        let pick = SAMPLES;
        (0..n)
            .map(|_| {
                *x = crate::rng::splitmix64(*x);
                pick[(*x % pick.len() as u64) as usize]
            })
            .collect()
    }

    /// The first automaton of the greatest `key`, by a plain search.
    fn first_max(bots: &[Automaton], key: impl Fn(&Automaton) -> i64) -> Option<usize> {
        let best = bots.iter().map(&key).max()?;
        bots.iter().position(|b| key(b) == best)
    }

    #[test]
    fn kept_strongest_and_weakest_match_a_plain_search_after_every_removal() {
        let mut x = 41u64;
        for _ in 0..3_000 {
            let mut bots = random_bots(&mut x, MAX_BOTS);
            let mut keys = Keys::of(&bots);
            loop {
                let strength = |b: &Automaton| i64::from(b.strength());
                assert_eq!(keys.strongest(), first_max(&bots, strength), "{bots:?}");
                assert_eq!(
                    keys.weakest(),
                    first_max(&bots, |b| -strength(b)),
                    "{bots:?}"
                );
                assert_eq!(keys, Keys::of(&bots), "{bots:?}");
                if bots.is_empty() {
                    break;
                }
                x = crate::rng::splitmix64(x);
                let i = (x % bots.len() as u64) as usize;
                bots.swap_remove(i);
                keys.swap_remove(i);
            }
        }
    }

    #[test]
    fn the_strongest_reaching_a_need_match_a_search_one_by_one() {
        let mut x = 23u64;
        for _ in 0..5_000 {
            let bots = random_bots(&mut x, MAX_BOTS);
            let keys = Keys::of(&bots);
            let table = Table::new(&bots, &keys);
            x = crate::rng::splitmix64(x);
            let mask = (x as u32) & combat::all(bots.len());
            for need in 0..=60 {
                // Strongest first, one search each, until the power reaches the need.
                let (mut taken, mut total, mut left) = (0u32, 0u32, mask);
                while total < need
                    && let Some(i) = table.strongest_in(left)
                {
                    left &= !(1 << i);
                    taken |= 1 << i;
                    total += u32::from(bots[i].power);
                }
                assert_eq!(
                    table.strongest_reaching(mask, need),
                    (taken, total),
                    "{bots:?} {mask:b} {need}"
                );
            }
        }
    }

    #[test]
    fn the_split_rule_from_the_columns_is_the_split_rule() {
        let mut x = 5u64;
        for _ in 0..5_000 {
            let bots = random_bots(&mut x, 9);
            let keys = Keys::of(&bots);
            let table = Table::new(&bots, &keys);
            x = crate::rng::splitmix64(x);
            let mask = (x as u32) & combat::all(bots.len());
            for power in 0..=12 {
                let attacker = Automaton {
                    power,
                    ..Automaton::FOUR_ONES
                };
                assert_eq!(
                    table.split_rule_in(&attacker, mask),
                    combat::split_rule_in(&attacker, &bots, mask),
                    "{bots:?} {mask:b} {power}"
                );
            }
        }
    }
}
