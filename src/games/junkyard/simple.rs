//! `simple`: the deterministic baseline, implemented literally, every tie-break
//! included. Each rule of the text is one function here, named after it.

use crate::cards::Dealer;
use crate::rng::GameRng;

use super::automaton::Automaton;
use super::cards::{KING, LESSER};
use super::combat::{self, Blocks, MAX_BOTS};
use super::engine::Turn;
use super::events::Observer;
use super::policy::Policy;
use super::rules::Rules;
use super::view::View;

/// The `simple` policy (no parameters, no coins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simple;

/// The index of the strongest of `bots` (the first of equals), if any.
#[inline]
pub fn strongest(bots: &[Automaton]) -> Option<usize> {
    best_by(bots, |b| b.strength())
}

/// The index of the weakest of `bots` (the first of equals), if any.
#[inline]
pub fn weakest(bots: &[Automaton]) -> Option<usize> {
    best_by(bots, |b| u32::MAX - b.strength())
}

/// `key` with the complement of index `i` below it: the greatest of these is the greatest key
/// at its first index, so a plain maximum (no branch on the data) finds the first of equals.
#[inline(always)]
fn ranked(key: u32, i: usize) -> u64 {
    (u64::from(key) << 8) | u64::from(!(i as u8))
}

/// The index [`ranked`] put in `rank`.
#[inline(always)]
fn index_of(rank: u64) -> usize {
    usize::from(!(rank as u8))
}

/// The first index of the greatest `key`.
#[inline(always)]
fn best_by(bots: &[Automaton], key: impl Fn(&Automaton) -> u32) -> Option<usize> {
    let best = bots
        .iter()
        .enumerate()
        .map(|(i, b)| ranked(key(b), i))
        .max();
    best.map(index_of)
}

/// The first index of the greatest `key` among the automatons of `mask`.
#[inline(always)]
fn best_in(bots: &[Automaton], mask: u32, key: impl Fn(&Automaton) -> u32) -> Option<usize> {
    let best = combat::bits(mask).map(|i| ranked(key(&bots[i]), i)).max();
    best.map(index_of)
}

/// Target T of rules 1 and 2: the opponent's strongest automaton, among equals one in its
/// defense area.
#[inline]
pub fn target(opp: &[Automaton]) -> Option<usize> {
    best_by(opp, |b| (b.strength() << 1) | u32::from(!b.attacking))
}

/// Rule 1 (King): `Some((T, own))` if the King is deployed: the player has no automaton or T is
/// stronger than the player's weakest, which is then destroyed.
pub fn king(view: &View) -> Option<(usize, Option<usize>)> {
    if view.hand()[0] == 0 {
        return None;
    }
    let t = target(view.opp_bots())?;
    let mine = view.bots();
    match weakest(mine) {
        None => Some((t, None)),
        Some(w) => (view.opp_bots()[t].strength() > mine[w].strength()).then_some((t, Some(w))),
    }
}

/// Rule 2 (Queen/Jack): `Some((T, own))` if deployed: the player has no automaton or T is
/// stronger than the player's strongest; the own automaton destroyed is the weakest of those of
/// greatest power.
pub fn lesser(view: &View) -> Option<(usize, Option<usize>)> {
    if view.hand()[1] == 0 {
        return None;
    }
    let t = target(view.opp_bots())?;
    let mine = view.bots();
    let Some(s) = strongest(mine) else {
        return Some((t, None));
    };
    if view.opp_bots()[t].strength() <= mine[s].strength() {
        return None;
    }
    let top = mine[s].power;
    let own = best_by(mine, |b| {
        if b.power == top {
            u32::MAX - b.strength()
        } else {
            0
        }
    });
    Some((t, own))
}

/// Rule 4 (Attack): the attackers, as a mask over the player's automatons.
pub fn attack(view: &View) -> u32 {
    let (mine, opp) = (view.keys(), view.opp_keys());
    // The opposing defense area: whether it has an automaton, and its greatest power.
    let defense = opp.defense();
    let top_power = opp.power.max_in(defense);
    let all = mine.all();
    if defense == 0 && mine.power.sum_in(all) as i32 >= i32::from(view.opp_hp()) {
        return all;
    }
    // Every automaton tougher than the top power attacks, and the four 1s (past the last
    // automaton every toughness is 0): all but the guard.
    let goes = mine.toughness.above(top_power) | mine.four_ones;
    match mine.guard() {
        Some(g) => goes & !(1 << g),
        None => goes,
    }
}

/// The blocking rules (Gang, Safe, then Chump) for the defender of `view` against `attackers`
/// (a mask over `view.opp_bots()`).
pub fn block(view: &View, attackers: u32) -> Blocks {
    block_with(view.bots(), view.opp_bots(), attackers, view.hp())
}

/// The blocking rules for a defender with automatons `mine` at `hp` against `attackers` (a mask
/// over `theirs`): the same as [`block`], on any position (for policies that look ahead).
pub fn block_with(mine: &[Automaton], theirs: &[Automaton], attackers: u32, hp: i16) -> Blocks {
    Clash::new(mine, theirs).block(attackers, hp)
}

/// Automatons' indices by strength, strongest first and the first of equals first: the order
/// the Gang rule takes blockers in.
#[derive(Clone, Copy, Debug)]
pub struct Ranking {
    order: [u8; MAX_BOTS],
    len: u8,
}

impl Ranking {
    /// The ranking of `bots`.
    #[inline]
    pub fn of(bots: &[Automaton]) -> Self {
        let mut keys = [0u64; MAX_BOTS];
        for (i, (k, b)) in keys.iter_mut().zip(bots).enumerate() {
            *k = ranked(b.strength(), i);
        }
        let n = bots.len();
        keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        let mut order = [0u8; MAX_BOTS];
        for (o, &k) in order.iter_mut().zip(&keys[..n]) {
            *o = index_of(k) as u8;
        }
        Self {
            order,
            len: n as u8,
        }
    }

    /// The indices of `mask`, strongest first.
    #[inline]
    pub fn within(&self, mask: u32) -> impl Iterator<Item = usize> + '_ {
        self.order[..usize::from(self.len)]
            .iter()
            .map(|&i| usize::from(i))
            .filter(move |&i| mask & (1 << i) != 0)
    }
}

/// One position for the blocking rules: a defender's automatons against an attacker's. For
/// many attacks from one position (as `greedy` scores them) the defender's automatons are
/// ranked once ([`Clash::ranked`]); for one, gangs pick their members one by one.
#[derive(Clone, Copy, Debug)]
pub struct Clash<'a> {
    mine: &'a [Automaton],
    theirs: &'a [Automaton],
    mine_ranked: Option<Ranking>,
    /// The defense area: the blockers.
    defense: u32,
}

impl<'a> Clash<'a> {
    /// The defender's automatons `mine` against the attacker's `theirs`.
    #[inline]
    pub fn new(mine: &'a [Automaton], theirs: &'a [Automaton]) -> Self {
        let mut defense = 0u32;
        for (i, b) in mine.iter().enumerate() {
            defense |= u32::from(!b.attacking) << i;
        }
        Self {
            mine,
            theirs,
            mine_ranked: None,
            defense,
        }
    }

    /// The same, the defender's automatons ranked once for the many attacks to come.
    pub fn ranked(mine: &'a [Automaton], theirs: &'a [Automaton]) -> Self {
        Self {
            mine_ranked: Some(Ranking::of(mine)),
            ..Self::new(mine, theirs)
        }
    }

    /// The strongest of the defender's automatons in `mask` (first of equals).
    #[inline]
    fn strongest_of_mine(&self, mask: u32) -> Option<usize> {
        match &self.mine_ranked {
            Some(ranked) => ranked.within(mask).next(),
            None => strongest_in(self.mine, mask, false),
        }
    }

    /// The blocking rules (Gang, Safe, then Chump) against `attackers` (a mask over the
    /// attacker's automatons), the defender at `hp`.
    pub fn block(&self, attackers: u32, hp: i16) -> Blocks {
        let (mine, theirs) = (self.mine, self.theirs);
        let mut blocks = Blocks::NONE;
        // Unassigned blockers.
        let mut free = self.defense;
        // The attackers that can be blocked, strongest first (a few: picked one by one).
        let mut left = 0u32;
        for j in combat::bits(attackers) {
            left |= u32::from(theirs[j].blockable()) << j;
        }
        let mut blocked = 0u32;
        while let Some(j) = strongest_in(theirs, left, false) {
            left &= !(1 << j);
            let a = &theirs[j];
            if let Some(gang) = self.gang(free, a) {
                for i in combat::bits(gang) {
                    blocks.assign(i, j);
                }
                free &= !gang;
                blocked |= 1 << j;
            } else if let Some(i) = safe(mine, free, a) {
                blocks.assign(i, j);
                free &= !(1 << i);
                blocked |= 1 << j;
            }
        }
        // Chump.
        loop {
            let unblocked = attackers & !blocked;
            let power: i32 = combat::bits(unblocked)
                .map(|j| i32::from(theirs[j].power))
                .sum();
            if power < i32::from(hp) || free == 0 {
                break;
            }
            let Some(j) = strongest_in(theirs, unblocked, true) else {
                break;
            };
            let i = weakest_in(mine, free).expect("a free blocker");
            blocks.assign(i, j);
            free &= !(1 << i);
            blocked |= 1 << j;
        }
        blocks
    }

    /// The Gang rule: if the free blockers' power reaches `a`'s toughness, G is formed
    /// strongest first until its power does; G blocks if the members `a` would destroy (by the
    /// split rule) have less power in total than `a`. Returns G's mask if it blocks.
    #[inline]
    pub fn gang(&self, free: u32, a: &Automaton) -> Option<u32> {
        let mine = self.mine;
        let total = combat::sum_over(mine, free, |b| u32::from(b.power));
        let need = u32::from(a.toughness);
        if total < need {
            return None;
        }
        let mut gang = 0u32;
        let mut power = 0;
        let mut left = free;
        while power < need {
            let i = self
                .strongest_of_mine(left)
                .expect("the free blockers reach the toughness");
            left &= !(1 << i);
            gang |= 1 << i;
            power += u32::from(mine[i].power);
        }
        // The split rule orders G's members by toughness and strength, then by index: among
        // equals, the order G was formed in.
        let destroyed = combat::split_rule_in(a, mine, gang);
        let lost = combat::sum_over(mine, destroyed, |b| u32::from(b.power));
        (lost < u32::from(a.power)).then_some(gang)
    }
}

/// The strongest automaton of `mask` (blockable ones only if `blockable`), first of equals.
#[inline]
fn strongest_in(bots: &[Automaton], mask: u32, blockable: bool) -> Option<usize> {
    let mut mask = mask;
    if blockable {
        for j in combat::bits(mask) {
            mask &= !(u32::from(!bots[j].blockable()) << j);
        }
    }
    best_in(bots, mask, |b| b.strength())
}

/// The weakest automaton of `mask`, first of equals.
#[inline]
fn weakest_in(bots: &[Automaton], mask: u32) -> Option<usize> {
    best_in(bots, mask, |b| u32::MAX - b.strength())
}

/// The Safe rule: the weakest free blocker whose toughness exceeds `a`'s power.
pub fn safe(mine: &[Automaton], free: u32, a: &Automaton) -> Option<usize> {
    let mut sturdy = 0u32;
    for i in combat::bits(free) {
        sturdy |= u32::from(mine[i].toughness > a.power) << i;
    }
    weakest_in(mine, sturdy)
}

impl Policy for Simple {
    #[inline]
    fn main<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        // Most turns the hand is empty: the rules of the tear-downs are not even looked at.
        if turn.view().hand() != [0, 0] {
            if let Some((t, own)) = king(&turn.view()) {
                turn.deploy(KING, t, own);
            }
            if let Some((t, own)) = lesser(&turn.view()) {
                turn.deploy(LESSER, t, own);
            }
        }
        turn.build_all_strongest();
        attack(&turn.view())
    }

    #[inline]
    fn block(&self, _: &Rules, view: &View, attackers: u32, _: &mut GameRng) -> Blocks {
        block(view, attackers)
    }

    #[inline]
    fn split(
        &self,
        _: &Rules,
        _: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        _: &mut GameRng,
    ) -> u32 {
        combat::split_rule(attacker, blockers)
    }
}
