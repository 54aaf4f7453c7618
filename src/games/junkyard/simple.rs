//! `simple`: Junkyard Frankenstein's deterministic baseline player (docs/junkyard.md), its rules
//! implemented literally, every tie-break included. Each rule is one function here, named after
//! it.

use crate::cards::Dealer;
use crate::rng::GameRng;

use super::automaton::Automaton;
use super::cards::{KING, LESSER};
use super::combat::{self, Blocks, MAX_BOTS};
use super::engine::Turn;
use super::events::Observer;
use super::keys::{Keys, Table, first_of_greatest, index_of, ranked};
use super::lanes::LANES;
use super::policy::Policy;
use super::rules::Rules;
use super::view::View;

/// The `simple` policy (no parameters, no coins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simple;

/// Target T of rules 1 and 2: the opponent's strongest automaton, among equals one in its
/// defense area.
#[inline]
pub fn target(opp: Table) -> Option<usize> {
    // The strongest, the first of equals, unless it attacked: then the first of its equals in
    // the defense area, if any.
    let s = opp.keys.strongest()?;
    if opp.keys.attacking & (1 << s) == 0 {
        return Some(s);
    }
    let all = opp.keys.all();
    let top = opp.keys.power.equal(opp.keys.power.max_in(all)) & all;
    first_of_greatest(opp.bots, top, |b| {
        (b.strength() << 1) | u32::from(!b.attacking)
    })
}

/// Rule 1 (King): `Some((T, own))` if the King is deployed: the player has no automaton or T is
/// stronger than the player's weakest, which is then destroyed. T is of the opponent's greatest
/// strength, so it is looked for only once the King is known to go.
#[inline(always)]
pub fn king(view: &View) -> Option<(usize, Option<usize>)> {
    if view.hand()[0] == 0 {
        return None;
    }
    let opp = view.opp_table();
    let strongest = opp.keys.strongest()?;
    let mine = view.table();
    let own = match mine.keys.weakest() {
        None => None,
        Some(w) => {
            if opp.bots[strongest].strength() <= mine.bots[w].strength() {
                return None;
            }
            Some(w)
        }
    };
    Some((target(opp)?, own))
}

/// Rule 2 (Queen/Jack): `Some((T, own))` if deployed: the player has no automaton or T is
/// stronger than the player's strongest; the own automaton destroyed is the weakest of those of
/// greatest power.
#[inline(always)]
pub fn lesser(view: &View) -> Option<(usize, Option<usize>)> {
    if view.hand()[1] == 0 {
        return None;
    }
    let opp = view.opp_table();
    let strongest = opp.keys.strongest()?;
    let mine = view.table();
    let own = match mine.keys.strongest() {
        None => None,
        Some(s) => {
            if opp.bots[strongest].strength() <= mine.bots[s].strength() {
                return None;
            }
            let top = mine.bots[s].power;
            mine.weakest_in(mine.keys.power.equal(top) & mine.keys.all())
        }
    };
    Some((target(opp)?, own))
}

/// Rule 4 (Attack): the attackers, as a mask over the player's automatons.
#[inline(always)]
pub fn attack(view: &View) -> u32 {
    let (mine, opp) = (view.table().keys, view.opp_table().keys);
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
    Clash::new(view.table(), view.opp_table()).block_inline(attackers, view.hp())
}

/// The blocking rules for a defender with automatons `mine` at `hp` against `attackers` (a mask
/// over `theirs`): the same as [`block`], on any position (for policies that look ahead).
pub fn block_with(mine: &[Automaton], theirs: &[Automaton], attackers: u32, hp: i16) -> Blocks {
    let (mine_keys, their_keys) = (Keys::of(mine), Keys::of(theirs));
    let clash = Clash::new(
        Table::new(mine, &mine_keys),
        Table::new(theirs, &their_keys),
    );
    clash.block(attackers, hp)
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

/// One position for the blocking rules: a defender's automatons against an attacker's, each
/// with its columns. For many attacks from one position (as `greedy` scores them) the
/// defender's automatons are ranked once ([`Clash::ranked`]); for one, gangs pick their members
/// one by one.
#[derive(Clone, Copy, Debug)]
pub struct Clash<'a> {
    mine: Table<'a>,
    theirs: Table<'a>,
    mine_ranked: Option<Ranking>,
}

impl<'a> Clash<'a> {
    /// The defender's automatons `mine` against the attacker's `theirs`.
    #[inline]
    pub fn new(mine: Table<'a>, theirs: Table<'a>) -> Self {
        Self {
            mine,
            theirs,
            mine_ranked: None,
        }
    }

    /// The same, the defender's automatons ranked once for the many attacks to come.
    pub fn ranked(mine: Table<'a>, theirs: Table<'a>) -> Self {
        Self {
            mine_ranked: Some(Ranking::of(mine.bots)),
            ..Self::new(mine, theirs)
        }
    }

    /// The blocking rules (Gang, Safe, then Chump) against `attackers` (a mask over the
    /// attacker's automatons), the defender at `hp`.
    pub fn block(&self, attackers: u32, hp: i16) -> Blocks {
        self.block_inline(attackers, hp)
    }

    /// [`Clash::block`] compiled into its caller: the `simple` policy's blocks, once a combat,
    /// without a call.
    #[inline(always)]
    fn block_inline(&self, attackers: u32, hp: i16) -> Blocks {
        let (mine, theirs) = (self.mine, self.theirs);
        let mut blocks = Blocks::NONE;
        // Unassigned blockers: the defense area, and their total power (kept as they are
        // assigned, for the Gang rule's test).
        let mut free = mine.keys.defense();
        let mut free_power = mine.keys.power.sum_in(free);
        // The attackers that can be blocked, strongest first (a few: picked one by one).
        let blockable = attackers & !theirs.keys.four_ones;
        let mut left = blockable;
        let mut blocked = 0u32;
        // Without a free blocker no rule assigns one: the rest of the search is skipped.
        while free != 0
            && let Some(j) = theirs.strongest_in(left)
        {
            left &= !(1 << j);
            let a = &theirs.bots[j];
            if let Some((gang, power)) = self.gang_of(free, free_power, a) {
                for i in combat::bits(gang) {
                    blocks.assign(i, j);
                }
                free &= !gang;
                free_power -= power;
                blocked |= 1 << j;
            } else if let Some(i) = safe(mine, free, a) {
                blocks.assign(i, j);
                free &= !(1 << i);
                free_power -= u32::from(mine.keys.power.0[i % LANES]);
                blocked |= 1 << j;
            }
        }
        // Chump.
        loop {
            let unblocked = attackers & !blocked;
            if free == 0 || (theirs.keys.power.sum_in(unblocked) as i32) < i32::from(hp) {
                break;
            }
            let Some(j) = theirs.strongest_in(unblocked & blockable) else {
                break;
            };
            let i = mine.weakest_in(free).expect("a free blocker");
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
        let free_power = self.mine.power_in(free);
        self.gang_of(free, free_power, a).map(|(gang, _)| gang)
    }

    /// [`Clash::gang`] with the free blockers' total power `free_power` given; returns G's mask
    /// and power if it blocks.
    #[inline(always)]
    fn gang_of(&self, free: u32, free_power: u32, a: &Automaton) -> Option<(u32, u32)> {
        let mine = self.mine;
        let need = u32::from(a.toughness);
        if free_power < need {
            return None;
        }
        let (gang, power) = match &self.mine_ranked {
            Some(ranked) => {
                let (mut gang, mut power) = (0u32, 0);
                for i in ranked.within(free) {
                    if power >= need {
                        break;
                    }
                    gang |= 1 << i;
                    power += u32::from(mine.keys.power.0[i % LANES]);
                }
                (gang, power)
            }
            None => mine.strongest_reaching(free, need),
        };
        // The split rule orders G's members by toughness and strength, then by index: among
        // equals, the order G was formed in.
        let destroyed = mine.split_rule_in(a, gang);
        (mine.keys.power.sum_in(destroyed) < u32::from(a.power)).then_some((gang, power))
    }
}

/// The Safe rule: the weakest free blocker whose toughness exceeds `a`'s power.
#[inline]
pub fn safe(mine: Table, free: u32, a: &Automaton) -> Option<usize> {
    mine.weakest_in(mine.keys.toughness.above(a.power) & free)
}

impl Policy for Simple {
    #[inline(always)]
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

    /// The split rule on the opponent's automatons directly: legal by construction.
    #[inline(always)]
    fn split_in(
        &self,
        _: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: u32,
        _: &mut GameRng,
    ) -> u32 {
        view.opp_table().split_rule_in(attacker, blockers)
    }

    /// The blocking rules assign free defenders to blockable attackers only.
    #[inline(always)]
    fn blocks_legally(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junkyard::automaton::SAMPLES;

    /// Up to `MAX_BOTS` random automatons (equals often among them), some in the attack area.
    fn random_bots(x: &mut u64) -> Vec<Automaton> {
        *x = crate::rng::splitmix64(*x);
        let n = (*x % MAX_BOTS as u64) as usize;
        (0..n)
            .map(|_| {
                *x = crate::rng::splitmix64(*x);
                Automaton {
                    attacking: *x >> 60 == 0,
                    ..SAMPLES[(*x % SAMPLES.len() as u64) as usize]
                }
            })
            .collect()
    }

    #[test]
    fn the_blocks_of_one_attack_are_those_of_the_defender_ranked_once() {
        let mut x = 11u64;
        for _ in 0..20_000 {
            let (mine, theirs) = (random_bots(&mut x), random_bots(&mut x));
            let (mine_keys, their_keys) = (Keys::of(&mine), Keys::of(&theirs));
            let (mine, theirs) = (
                Table::new(&mine, &mine_keys),
                Table::new(&theirs, &their_keys),
            );
            x = crate::rng::splitmix64(x);
            let attackers = (x as u32) & their_keys.all();
            let hp = (x >> 40) as i16 % 30 + 1;
            let (one, ranked) = (Clash::new(mine, theirs), Clash::ranked(mine, theirs));
            assert_eq!(
                one.block(attackers, hp),
                ranked.block(attackers, hp),
                "{mine:?} {theirs:?} {attackers:b} {hp}"
            );
            for a in theirs.bots {
                let free = mine_keys.defense();
                assert_eq!(one.gang(free, a), ranked.gang(free, a), "{mine:?} {a:?}");
            }
        }
    }
}
