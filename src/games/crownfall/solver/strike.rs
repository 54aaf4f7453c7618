//! One strike under fresh odds: the best push/bank choice at every total, by backward induction.
//!
//! A strike's totals only grow, so its states (hard total, Ace seen) are solved from 21 down.
//! What a strike leads to is given as the value of each way it can end (bust, or bank with best
//! total s). A value is affine in `x`, the value of the strike's own start state: with zero
//! damage a short bank or a bust leaves the game where it was, and the strike starts over.

use super::super::policy::BankTable;

/// Player card values: Ace (1) to 10, each with odds 1/10 under fresh odds.
pub const FACES: usize = 10;
/// The highest total before a bust.
pub const TOP: u8 = 21;

/// A value `a + b * x`, where `x` is the value of the strike's start state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Affine {
    /// The part that does not return to the start state.
    pub a: f64,
    /// The probability of returning to the start state.
    pub b: f64,
}

impl Affine {
    /// A plain value.
    pub fn value(a: f64) -> Self {
        Self { a, b: 0.0 }
    }

    /// The start state itself (the strike starts over).
    pub const AGAIN: Self = Self { a: 0.0, b: 1.0 };

    /// The value for `x`.
    #[inline]
    pub fn at(self, x: f64) -> f64 {
        self.a + self.b * x
    }

    /// The `x` with `x = a + b x`: the value of repeating the strike until it leads elsewhere;
    /// 0 if it never does (the game would never end, which the engine counts as a loss).
    pub fn fixed_point(self) -> f64 {
        if self.b >= 1.0 - 1e-12 {
            0.0
        } else {
            self.a / (1.0 - self.b)
        }
    }

    #[inline]
    fn add_scaled(&mut self, other: Self, p: f64) {
        self.a += p * other.a;
        self.b += p * other.b;
    }
}

/// The best total of a strike: `hard`, plus 10 if an Ace is in and that stays at or under 21.
/// Returns (best, soft).
#[inline]
pub fn best(hard: u8, ace: bool) -> (u8, bool) {
    if ace && hard <= 11 {
        (hard + 10, true)
    } else {
        (hard, false)
    }
}

/// The hard best totals a strike can bank (2..=21).
pub const HARD_TOTALS: u32 = ((1 << 22) - 1) & !0b11;
/// The soft best totals a strike can bank (11..=21).
pub const SOFT_TOTALS: u32 = ((1 << 22) - 1) & !((1 << 11) - 1);

/// A strike's decisions: bit `s` of `hard` (`soft`) set means bank at a hard (soft) best total s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moves {
    /// Bank at these hard best totals (bits 2..=21).
    pub hard: u32,
    /// Bank at these soft best totals (bits 11..=21).
    pub soft: u32,
}

impl Moves {
    /// True to bank at best total `best`, soft or not.
    #[inline(always)]
    pub fn bank(&self, best: u8, soft: bool) -> bool {
        let mask = if soft { self.soft } else { self.hard };
        mask >> best & 1 != 0
    }

    /// The moves of a bank table.
    pub fn of_table(table: &BankTable) -> Self {
        let mut m = Self::default();
        for s in 2..=TOP {
            m.hard |= u32::from(table.bank(s, false)) << s;
        }
        for s in 11..=TOP {
            m.soft |= u32::from(table.bank(s, true)) << s;
        }
        m
    }

    /// A bank table that makes exactly these moves at every total a strike can reach, if one
    /// does (bank from a hard and a soft threshold on, plus at most one range of totals).
    pub fn table(&self) -> Option<BankTable> {
        let fit = |range: u32| -> Option<(u8, u8)> {
            let upward = |mask: u32, domain: u32| -> Option<u8> {
                let open = domain & !range;
                let banks = mask & open;
                let t = if banks == 0 {
                    22
                } else {
                    banks.trailing_zeros()
                };
                let above = if t >= 32 { 0 } else { u32::MAX << t };
                (banks == open & above && range & domain & !mask == 0).then_some(t as u8)
            };
            Some((
                upward(self.hard, HARD_TOTALS)?,
                upward(self.soft, SOFT_TOTALS)?,
            ))
        };
        if let Some((hard, soft)) = fit(0) {
            return Some(BankTable::at_least(hard, soft));
        }
        for low in 2..=TOP {
            for high in low + 1..=TOP + 1 {
                let range = ((1u32 << high) - 1) & !((1u32 << low) - 1);
                if let Some((hard, soft)) = fit(range) {
                    return Some(BankTable::at_least(hard, soft).with_range(low, high));
                }
            }
        }
        None
    }
}

/// How each way a strike can end is worth: index 0 a bust, index s a bank with best total s.
pub type Ends = [Affine; TOP as usize + 1];

/// A solved strike: its start value and its moves.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    /// The value at the strike's start, before the first flip.
    pub start: Affine,
    /// The moves made.
    pub moves: Moves,
}

/// Two values closer than this are a tie.
pub const TIE: f64 = 1e-12;

/// True to bank worth `stay` rather than push worth `push` at best total `best`: the better
/// one, and on a tie, bank at totals from `tie` up.
#[inline]
pub fn prefers_bank(stay: f64, push: f64, best: u8, tie: u8) -> bool {
    stay > push + TIE || (stay >= push - TIE && best >= tie)
}

/// Solves a strike with ends worth `ends`, either choosing the best move at every total for
/// start-state value `x` (`fixed` = None; a tie banks at totals from `tie` up and pushes below,
/// as a player who banks on reaching the target would) or following `fixed`.
pub fn solve(ends: &Ends, x: f64, tie: u8, fixed: Option<&Moves>) -> Solved {
    let p = 1.0 / FACES as f64;
    // q[h][ace]: the value after a flip leaves the hard total at h.
    let mut q = [[Affine::default(); 2]; TOP as usize + 1];
    let mut moves = Moves::default();
    for h in (1..=TOP).rev() {
        for ace in [false, true] {
            if ace && h > 11 {
                // An Ace can no longer count 11: the same state as without one.
                q[usize::from(h)][1] = q[usize::from(h)][0];
                continue;
            }
            let (best, soft) = best(h, ace);
            let mut push = Affine::default();
            for v in 1..=FACES as u8 {
                let next = h + v;
                let child = if next > TOP {
                    ends[0]
                } else {
                    q[usize::from(next)][usize::from(ace || v == 1)]
                };
                push.add_scaled(child, p);
            }
            let stay = ends[usize::from(best)];
            let bank = match fixed {
                Some(m) => m.bank(best, soft),
                None => prefers_bank(stay.at(x), push.at(x), best, tie),
            };
            q[usize::from(h)][usize::from(ace)] = if bank { stay } else { push };
            if bank && fixed.is_none() {
                if soft {
                    moves.soft |= 1 << best;
                } else {
                    moves.hard |= 1 << best;
                }
            }
        }
    }
    let mut start = Affine::default();
    for v in 1..=FACES as u8 {
        start.add_scaled(q[usize::from(v)][usize::from(v == 1)], p);
    }
    Solved {
        start,
        moves: fixed.copied().unwrap_or(Moves {
            hard: moves.hard & HARD_TOTALS,
            soft: moves.soft & SOFT_TOTALS,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact odds of every way a bank-at-`n` strike ends, by enumerating card sequences.
    fn enumerate(n: u8, hard: u8, ace: bool, p: f64, out: &mut [f64; 22]) {
        for v in 1..=10u8 {
            let h = hard + v;
            let a = ace || v == 1;
            if h > 21 {
                out[0] += p / 10.0;
                continue;
            }
            let (b, _) = best(h, a);
            if b >= n {
                out[usize::from(b)] += p / 10.0;
            } else {
                enumerate(n, h, a, p / 10.0, out);
            }
        }
    }

    #[test]
    fn a_fixed_table_strike_ends_with_the_enumerated_odds() {
        for n in [12u8, 17, 21] {
            let mut odds = [0.0; 22];
            enumerate(n, 0, false, 1.0, &mut odds);
            for end in 0..22 {
                let mut ends = [Affine::default(); 22];
                ends[end] = Affine::value(1.0);
                let m = Moves::of_table(&BankTable::at_least(n, n));
                let got = solve(&ends, 0.0, 22, Some(&m)).start.a;
                assert!(
                    (got - odds[end]).abs() < 1e-10,
                    "bank-at-{n} end {end}: {got} vs {}",
                    odds[end]
                );
            }
        }
    }

    #[test]
    fn the_best_moves_reach_the_best_total_when_only_it_pays() {
        // Only a bank at 21 is worth anything: never bank below it, and the value is the odds of
        // ever reaching 21 by pushing on, computed by a forward recursion.
        let mut ends = [Affine::default(); 22];
        ends[21] = Affine::value(1.0);
        let s = solve(&ends, 0.0, 21, None);
        assert_eq!(s.moves.hard & ((1 << 21) - 1), 0);
        assert_eq!(s.moves.soft & ((1 << 21) - 1), 0);
        let mut odds = [0.0; 22];
        enumerate(21, 0, false, 1.0, &mut odds);
        // Pushing on to 21 from every total is bank-at-21 except that soft 21 is banked too.
        assert!((s.start.a - odds[21]).abs() < 1e-12);
    }

    #[test]
    fn tables_fit_the_moves_they_make() {
        let tables = [
            BankTable::at_least(17, 18),
            BankTable::at_least(12, 22),
            BankTable::at_least(22, 22),
            BankTable::at_least(17, 19).with_range(13, 15),
        ];
        for t in tables {
            let m = Moves::of_table(&t);
            let fitted = m.table().expect("a table's moves fit a table");
            assert_eq!(Moves::of_table(&fitted), m, "{t:?}");
        }
        // Bank at 13 and at 15 but not 14, nor from 16 on until 20: no single range fits.
        let odd = Moves {
            hard: (1 << 13) | (1 << 15) | (1 << 20) | (1 << 21),
            soft: SOFT_TOTALS,
        };
        assert_eq!(odd.table(), None);
    }
}
