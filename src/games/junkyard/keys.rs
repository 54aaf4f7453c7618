//! A seat's automatons as columns of keys (power, toughness, the four 1s and the attackers as
//! masks, `simple`'s guard keys and guard), kept up to date by the engine as automatons are built, destroyed, attack and ready,
//! so the rules that search the automatons read the columns instead of each automaton.

use super::automaton::{Automaton, Pattern};
use super::combat::{self, MAX_BOTS};
use super::lanes::{Column, LANES};

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
pub fn guard_key(b: &Automaton) -> u32 {
    let key = (u32::from(b.toughness) << 16)
        | ((0xFF - u32::from(b.power)) << 8)
        | (Pattern::Run as u32 - b.pattern as u32);
    key * u32::from(b.pattern != Pattern::FourOnes)
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
        let i = usize::from(self.len);
        self.power.0[i] = bot.power;
        self.toughness.0[i] = bot.toughness;
        self.four_ones |= u32::from(bot.pattern == Pattern::FourOnes) << i;
        self.attacking |= u32::from(bot.attacking) << i;
        self.strong[i] = strength_rank(bot.strength(), i);
        self.weak[i] = weakness_rank(bot.strength(), i);
        let key = guard_key(bot);
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
        // The last automaton's bit moves to `i`, unless the last is the one removed.
        let kept = u32::from(i != last);
        let moved = |m: u32| (m & !(1 << i) & !(1 << last)) | ((((m >> last) & 1) & kept) << i);
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

    /// Every automaton, as a mask.
    #[inline(always)]
    pub fn all(&self) -> u32 {
        combat::all(usize::from(self.len))
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

    /// The strongest automaton of `mask`, first of equals. Masks are small here (attackers,
    /// free blockers): a loop over their ranks costs less than a search of 32 lanes.
    #[inline(always)]
    pub fn strongest_in(&self, mask: u32) -> Option<usize> {
        greatest_rank(&self.keys.strong, mask)
    }

    /// The weakest automaton of `mask`, first of equals.
    #[inline(always)]
    pub fn weakest_in(&self, mask: u32) -> Option<usize> {
        greatest_rank(&self.keys.weak, mask)
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

/// A rank of [`strength_rank`] or [`weakness_rank`] moved to index `i`.
#[inline(always)]
fn rank_at(rank: u32, i: usize) -> u32 {
    (rank & !0xFF) | u32::from(!(i as u8))
}

/// The index of the greatest of `ranks` over `mask`; at once if the mask has one automaton.
#[inline(always)]
fn greatest_rank(ranks: &[u32; LANES], mask: u32) -> Option<usize> {
    if mask & mask.wrapping_sub(1) == 0 {
        return (mask != 0).then(|| mask.trailing_zeros() as usize);
    }
    let best = combat::bits(mask)
        .map(|i| ranks[i % LANES])
        .fold(0, u32::max);
    Some(usize::from(!(best as u8)))
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
