//! Combat's moves, shared by every policy: attack subsets, block assignments and their
//! legality, and damage splits (which blockers an attacker's power destroys).

use super::automaton::Automaton;

mod slot_match;

/// The most automatons a seat can have in play (every one is made of at least three of at most
/// 64 cards).
pub const MAX_BOTS: usize = 21;

/// A defender's blocks: `of[i]` is 1 + the index of the attacker the defender's automaton `i`
/// blocks, or 0 if it does not block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Blocks {
    /// Per defending automaton: 0, or 1 + the attacker's index.
    pub of: [u8; MAX_BOTS],
}

impl Blocks {
    /// No blocks.
    pub const NONE: Blocks = Blocks { of: [0; MAX_BOTS] };

    /// Defender `blocker` blocks attacker `attacker`.
    #[inline(always)]
    pub fn assign(&mut self, blocker: usize, attacker: usize) {
        self.of[blocker] = attacker as u8 + 1;
    }

    /// The attacker `blocker` blocks, if any.
    #[inline(always)]
    pub fn target(&self, blocker: usize) -> Option<usize> {
        self.of[blocker].checked_sub(1).map(usize::from)
    }

    /// The blockers of attacker `attacker`, as a mask over the defender's automatons.
    #[inline(always)]
    pub fn blockers_of(&self, attacker: usize) -> u32 {
        slot_match::equal(&self.of, (attacker as u8).wrapping_add(1))
    }
}

/// The bits of `mask` at the members of `within`, gathered in order: a mask over `within`'s
/// members as a list (member `n` is the `n`-th lowest bit of `within`).
#[inline]
pub fn gathered(mask: u32, within: u32) -> u32 {
    bits(within)
        .enumerate()
        .fold(0, |m, (n, k)| m | (((mask >> k) & 1) << n))
}

/// The mask of the first `n` automatons (every bit from 32 on).
#[inline(always)]
pub fn all(n: usize) -> u32 {
    ((1u64 << n.min(32)) - 1) as u32
}

/// The set bits of `mask`, lowest first.
#[inline(always)]
pub fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// `blocks` with every illegal assignment dropped: a blocker must be in the defense area (not
/// attacking) and its target an attacker that can be blocked.
#[inline]
pub fn legal_blocks(
    mut blocks: Blocks,
    attacker_bots: &[Automaton],
    attackers: u32,
    defender_bots: &[Automaton],
) -> Blocks {
    // No automaton past the defender's last: no block.
    let n = defender_bots.len().min(MAX_BOTS);
    blocks.of[n..].fill(0);
    for (i, slot) in blocks.of[..n].iter_mut().enumerate() {
        let Some(j) = slot.checked_sub(1).map(usize::from) else {
            continue;
        };
        let ok = !defender_bots[i].attacking
            && attackers & (1 << j) != 0
            && j < attacker_bots.len()
            && attacker_bots[j].blockable();
        if !ok {
            *slot = 0;
        }
    }
    blocks
}

/// True if `attacker` can split its power so that exactly the blockers of `destroyed` (a mask
/// over `blockers`) get at least their toughness: their toughness adds up to at most its power,
/// and what is left can be put on them (or, with none destroyed, spread below every toughness).
pub fn split_is_legal(attacker: &Automaton, blockers: &[Automaton], destroyed: u32) -> bool {
    split_is_legal_in(attacker, blockers, all(blockers.len()), destroyed)
}

/// [`split_is_legal`] for the blockers `blockers` picks out of `bots` (`destroyed` a mask over
/// `bots` too).
#[inline]
pub fn split_is_legal_in(
    attacker: &Automaton,
    bots: &[Automaton],
    blockers: u32,
    destroyed: u32,
) -> bool {
    if destroyed & !blockers != 0 {
        return false;
    }
    let power = u32::from(attacker.power);
    if destroyed != 0 {
        return sum_over(bots, destroyed, |b| u32::from(b.toughness)) <= power;
    }
    let room = sum_over(bots, blockers, |b| u32::from(b.toughness) - 1);
    power <= room
}

/// The split rule of `simple` (also the default): list the blockers by increasing toughness,
/// among equal toughness the stronger first; destroy the longest prefix whose toughness adds up
/// to at most the attacker's power. Returns the mask of destroyed blockers.
#[inline]
pub fn split_rule(attacker: &Automaton, blockers: &[Automaton]) -> u32 {
    split_rule_in(attacker, blockers, all(blockers.len()))
}

/// The split rule over the blockers `mask` picks out of `bots`, at equal toughness and
/// strength (the same cards) the lower index first. Returns the mask of those destroyed.
#[inline]
pub fn split_rule_in(attacker: &Automaton, bots: &[Automaton], mask: u32) -> u32 {
    // Each blocker's place in the order: increasing toughness, then decreasing strength, then
    // increasing index (in the low byte, which makes every key distinct).
    split_rule_by(
        attacker,
        mask,
        |k| bots[k].toughness,
        |k| {
            let b = &bots[k];
            (u64::from(b.toughness) << 40) | (u64::from(0xFF_FFFF - b.strength()) << 8) | k as u64
        },
    )
}

/// The split rule over the blockers `mask`, blocker `k` of toughness `toughness(k)` and of place
/// `key(k)` in the rule's order (distinct keys, the least first, `k` in the low byte). Returns
/// the mask of those destroyed.
#[inline(always)]
pub fn split_rule_by(
    attacker: &Automaton,
    mask: u32,
    toughness: impl Fn(usize) -> u8,
    key: impl Fn(usize) -> u64,
) -> u32 {
    if mask & mask.wrapping_sub(1) == 0 {
        // The common case: one blocker (or none), destroyed if the power reaches its
        // toughness.
        let Some(k) = bits(mask).next() else { return 0 };
        return u32::from(toughness(k) <= attacker.power) << k;
    }
    // The next blocker is the least key among those left, found again for each: gangs are
    // small (two or three blockers, most often) and the prefix short, so this costs less than
    // sorting a buffer that must first be zeroed.
    let power = u32::from(attacker.power);
    let second = mask & mask.wrapping_sub(1);
    if second & second.wrapping_sub(1) == 0 {
        // Two blockers (the most common gang): the one of the lesser key first; the second is
        // destroyed only with the first.
        let (j, k) = (
            mask.trailing_zeros() as usize,
            second.trailing_zeros() as usize,
        );
        let (first, then) = if key(k) < key(j) { (k, j) } else { (j, k) };
        let t = u32::from(toughness(first));
        let both = t + u32::from(toughness(then));
        return (u32::from(t <= power) << first) | (u32::from(both <= power) << then);
    }
    let mut left = power;
    let mut rest = mask;
    let mut destroyed = 0;
    while rest != 0 {
        let next = bits(rest).map(&key).fold(u64::MAX, u64::min);
        let k = (next & 0xFF) as usize;
        let t = u32::from(toughness(k));
        if t > left {
            break;
        }
        left -= t;
        destroyed |= 1 << k;
        rest &= !(1 << k);
    }
    destroyed
}

/// Calls `each` with every legal split of `attacker`'s power over `blockers`, as the mask of
/// blockers it destroys (at most 2^16 masks are tried; larger blocks are split by the rule).
pub fn for_each_split(attacker: &Automaton, blockers: &[Automaton], each: impl FnMut(u32)) {
    for_each_split_in(attacker, blockers, all(blockers.len()), each);
}

/// [`for_each_split`] for the blockers `blockers` picks out of `bots`, the masks over `bots`,
/// in increasing order (the order of [`for_each_split`]'s masks over the list of blockers).
pub fn for_each_split_in(
    attacker: &Automaton,
    bots: &[Automaton],
    blockers: u32,
    mut each: impl FnMut(u32),
) {
    if blockers.count_ones() > 16 {
        each(split_rule_in(attacker, bots, blockers));
        return;
    }
    // Every subset of the blockers, in increasing order.
    let mut mask = 0u32;
    loop {
        if split_is_legal_in(attacker, bots, blockers, mask) {
            each(mask);
        }
        if mask == blockers {
            break;
        }
        mask = mask.wrapping_sub(blockers) & blockers;
    }
}

/// The total of `f` over the automatons of `mask`.
#[inline(always)]
pub fn sum_over(bots: &[Automaton], mask: u32, f: impl Fn(&Automaton) -> u32) -> u32 {
    bits(mask).map(|i| f(&bots[i])).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::junkyard::automaton::SAMPLES;

    #[test]
    fn the_split_rule_takes_the_longest_prefix_by_toughness_stronger_first() {
        // 4/6, 5/6, 2/4, 6/10: by toughness 2/4, then of the two 6s the stronger 5/6, then 4/6.
        let blockers = [
            Automaton::two_pairs(2, 3),
            Automaton::one_three(5, 2),
            Automaton::two_pairs(1, 2),
            Automaton::two_pairs(3, 5),
        ];
        let ten = Automaton::one_three(10, 1);
        // 4 + 6 = 10 <= 10, + 6 > 10: 2/4 and 5/6.
        assert_eq!(split_rule(&ten, &blockers), 0b0110);
        let nine = Automaton::one_three(9, 3);
        assert_eq!(split_rule(&nine, &blockers), 0b0100);
        assert_eq!(split_rule(&Automaton::one_three(3, 1), &blockers), 0);
        assert!(split_is_legal(&nine, &blockers, 0b0001)); // 6 <= 9
        assert!(!split_is_legal(&nine, &blockers, 0b0101)); // 10 > 9
        assert!(!split_is_legal(&nine, &blockers, 0b10000)); // no such blocker
        // None destroyed: 9 spread below 5 + 5 + 3 + 9 = 22 of room.
        assert!(split_is_legal(&nine, &blockers, 0));
        // A 3/3 on one 2/4 must destroy nothing; a 4/4 power on it cannot spare it.
        assert!(split_is_legal(
            &Automaton::one_three(3, 1),
            &blockers[2..3],
            0
        ));
        assert!(!split_is_legal(
            &Automaton::two_pairs(2, 3),
            &blockers[2..3],
            0
        ));
        let count = |a: &Automaton| {
            let mut n = 0;
            for_each_split(a, &blockers, |m| {
                assert!(split_is_legal(a, &blockers, m));
                n += 1;
            });
            n
        };
        // {}, {0}, {1}, {2}; and with 10: also {3}, {0, 2}, {1, 2}.
        assert_eq!((count(&nine), count(&ten)), (4, 7));
    }

    #[test]
    fn illegal_blocks_are_dropped() {
        let att = [Automaton::run(3), Automaton::FOUR_ONES, Automaton::run(4)];
        let mut def = [Automaton::two_pairs(1, 2), Automaton::run(3)];
        def[1].attacking = true;
        let mut b = Blocks::NONE;
        b.assign(0, 1); // the four 1s: unblockable
        b.assign(1, 0); // an attacking automaton cannot block
        assert_eq!(legal_blocks(b, &att, 0b111, &def), Blocks::NONE);
        let mut b = Blocks::NONE;
        b.assign(0, 2); // not among the attackers
        assert_eq!(legal_blocks(b, &att, 0b011, &def), Blocks::NONE);
        assert_eq!(legal_blocks(b, &att, 0b111, &def), b);
    }

    /// Random automatons (ties of equal cards included) and a random mask over them.
    fn random_table(x: &mut u64) -> (Vec<Automaton>, u32) {
        let pick = SAMPLES;
        *x = crate::rng::splitmix64(*x);
        let n = (*x % 9) as usize + 1;
        let bots: Vec<Automaton> = (0..n)
            .map(|k| pick[((*x >> (4 * k)) % pick.len() as u64) as usize])
            .collect();
        *x = crate::rng::splitmix64(*x);
        (bots, (*x as u32) & all(n))
    }

    #[test]
    fn the_mask_versions_agree_with_the_list_versions() {
        let mut x = 17u64;
        for _ in 0..5_000 {
            let (bots, mask) = random_table(&mut x);
            let list: Vec<Automaton> = bits(mask).map(|i| bots[i]).collect();
            let index: Vec<usize> = bits(mask).collect();
            // A mask over the list, as a mask over `bots`.
            let spread = |m: u32| bits(m).fold(0u32, |s, k| s | 1 << index[k]);
            for attacker in [
                Automaton::run(3),
                Automaton::one_three(10, 1),
                Automaton::run(6),
            ] {
                assert_eq!(
                    split_rule_in(&attacker, &bots, mask),
                    spread(split_rule(&attacker, &list)),
                    "{bots:?} {mask:b}"
                );
                let (mut by_mask, mut by_list) = (Vec::new(), Vec::new());
                for_each_split_in(&attacker, &bots, mask, |m| by_mask.push(m));
                for_each_split(&attacker, &list, |m| by_list.push(spread(m)));
                assert_eq!(by_mask, by_list, "{bots:?} {mask:b}");
            }
            let mut blocks = Blocks::NONE;
            for (i, k) in bits(mask).enumerate() {
                blocks.assign(k, i % 3);
            }
            for j in 0..4 {
                let plain = (0..MAX_BOTS).fold(0u32, |m, i| {
                    m | (u32::from(blocks.target(i) == Some(j)) << i)
                });
                assert_eq!(blocks.blockers_of(j), plain, "{blocks:?} {j}");
            }
        }
    }
}
