//! Automatons: the four patterns, their power and toughness, and the order `simple` ranks them
//! in.

use serde::{Deserialize, Serialize};

use super::cards::{Area, Counts, NUMBERS, copies};

/// Copies of an automaton's number `a` per pattern (in the order of `Pattern`'s
/// discriminants); a run's cards are in [`RUN_CARDS`].
const OF_A: [u8; 4] = [4, 2, 1, 0];
/// Copies of its number `b` per pattern.
const OF_B: [u8; 4] = [0, 2, 3, 0];
/// The cards of the run 1 to `top`, for `top` from 0 (none) to 10.
const RUN_CARDS: [Counts; NUMBERS + 1] = {
    let mut all = [[0u8; NUMBERS + 1]; NUMBERS + 1];
    let mut top = 1;
    while top <= NUMBERS {
        let mut v = 1;
        while v <= top {
            all[top][v] = 1;
            v += 1;
        }
        top += 1;
    }
    all
};
/// [`RUN_CARDS`] as the two words of an [`Area`].
const RUN_WORDS: [[u64; 2]; NUMBERS + 1] = {
    let mut all = [[0u64; 2]; NUMBERS + 1];
    let mut top = 0;
    while top <= NUMBERS {
        let mut v = 1;
        while v <= top {
            all[top][v / 8] += 1 << (8 * (v % 8));
            v += 1;
        }
        top += 1;
    }
    all
};

/// `c` bytes of 1 from the lowest, for `c` from 0 to 7 (no pattern has more than four of one
/// number).
const ONES: [u64; 8] = {
    let mut all = [0u64; 8];
    let mut c = 1;
    while c < 8 {
        all[c] = (all[c - 1] << 8) | 1;
        c += 1;
    }
    all
};
/// The run 1 to `top` spelled out (byte `k` holds `k + 1`), for `top` from 0 (none) to 10.
const RUN_SPELLED: [u128; NUMBERS + 1] = {
    let mut all = [0u128; NUMBERS + 1];
    let mut top = 1;
    while top <= NUMBERS {
        all[top] = all[top - 1] | ((top as u128) << (8 * (top - 1)));
        top += 1;
    }
    all
};

/// The four patterns, in increasing rank of the order's last tie-break (a run ranks first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Four 1s: power 1, toughness 1, cannot be blocked.
    FourOnes = 0,
    /// Two of `a` and two of `b`, `a < b`: power 2a, toughness 2b.
    TwoPairs = 1,
    /// One `a` and three `b`, `a != b`: power a, toughness 3b.
    OneThree = 2,
    /// 1, 2, ..., `a` with `a >= 3`: power and toughness the sum.
    Run = 3,
}

/// A built automaton: its pattern and numbers (which fix its cards), and whether it attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Automaton {
    /// Power.
    pub power: u8,
    /// Toughness.
    pub toughness: u8,
    /// The pattern.
    pub pattern: Pattern,
    /// The pattern's first number: the single of one-and-three, the lower pair, a run's top.
    pub a: u8,
    /// The pattern's second number: the triple, the higher pair (0 otherwise).
    pub b: u8,
    /// True while in the attack area (it attacked on its owner's last turn).
    pub attacking: bool,
}

impl Automaton {
    /// The automaton of `pattern` with numbers `a`, `b` (see the fields).
    pub const fn new(pattern: Pattern, a: u8, b: u8) -> Self {
        let (power, toughness) = match pattern {
            Pattern::FourOnes => (1, 1),
            Pattern::TwoPairs => (2 * a, 2 * b),
            Pattern::OneThree => (a, 3 * b),
            Pattern::Run => (a * (a + 1) / 2, a * (a + 1) / 2),
        };
        Self {
            power,
            toughness,
            pattern,
            a,
            b,
            attacking: false,
        }
    }

    /// One `a` and three `b`.
    pub const fn one_three(a: u8, b: u8) -> Self {
        Self::new(Pattern::OneThree, a, b)
    }

    /// Two `a` and two `b`, `a < b`.
    pub const fn two_pairs(a: u8, b: u8) -> Self {
        Self::new(Pattern::TwoPairs, a, b)
    }

    /// The run 1..=top.
    pub const fn run(top: u8) -> Self {
        Self::new(Pattern::Run, top, 0)
    }

    /// Four 1s.
    pub const FOUR_ONES: Self = Self::new(Pattern::FourOnes, 1, 0);

    /// True if it can be blocked (all but four 1s).
    #[inline(always)]
    pub fn blockable(&self) -> bool {
        self.pattern != Pattern::FourOnes
    }

    /// Its place in the order: greater is stronger (power, then toughness, then the pattern:
    /// run, one-and-three, two-pairs). Equal keys mean the same cards.
    #[inline(always)]
    pub const fn strength(&self) -> u32 {
        ((self.power as u32) << 16) | ((self.toughness as u32) << 8) | self.pattern as u32
    }

    /// The cards it is made of, added to `counts`.
    #[inline]
    pub fn add_cards(&self, counts: &mut Counts) {
        let (a, b, run) = self.parts();
        counts[a] += OF_A[self.pattern as usize];
        counts[b] += OF_B[self.pattern as usize];
        counts.iter_mut().zip(run).for_each(|(c, r)| *c += r);
    }

    /// Its cards as the two words of an [`Area`] (see [`Area::words`]).
    #[inline(always)]
    pub const fn card_words(&self) -> [u64; 2] {
        let top = self.run_top() as usize;
        let [a_lo, a_hi] = copies(self.a, OF_A[self.pattern as usize]);
        let [b_lo, b_hi] = copies(self.b, OF_B[self.pattern as usize]);
        [
            a_lo + b_lo + RUN_WORDS[top][0],
            a_hi + b_hi + RUN_WORDS[top][1],
        ]
    }

    /// Puts its cards into `area`, word by word.
    #[inline(always)]
    pub fn put_cards(&self, area: &mut Area) {
        let [lo, hi] = area.words();
        let [c_lo, c_hi] = self.card_words();
        area.set_words([lo + c_lo, hi + c_hi]);
    }

    /// Its cards by increasing value, one a byte from the lowest, and how many: the lesser
    /// number's copies, then the greater's (`OF_A` and `OF_B` of them), or a run's cards; no
    /// branch on the pattern.
    #[inline(always)]
    pub fn spelled(&self) -> (u128, usize) {
        let p = self.pattern as usize;
        let (ca, cb) = (OF_A[p], OF_B[p]);
        let (x, cx, y, cy) = if self.a <= self.b {
            (self.a, ca, self.b, cb)
        } else {
            (self.b, cb, self.a, ca)
        };
        let low = u64::from(x) * ONES[usize::from(cx) % ONES.len()];
        let high = u64::from(y) * ONES[usize::from(cy) % ONES.len()];
        let top = self.run_top();
        (
            u128::from(low | (high << (8 * u32::from(cx)))) | RUN_SPELLED[usize::from(top)],
            usize::from(ca + cb + top),
        )
    }

    /// Its cards without a branch on the pattern: `OF_A` copies of `a`, `OF_B` copies of `b`,
    /// and a run's cards 1 to `a` (none for the other patterns).
    #[inline(always)]
    fn parts(&self) -> (usize, usize, &'static Counts) {
        (
            usize::from(self.a),
            usize::from(self.b),
            &RUN_CARDS[usize::from(self.run_top())],
        )
    }

    /// A run's top, 0 for the other patterns.
    #[inline(always)]
    const fn run_top(&self) -> u8 {
        self.a * (self.pattern as u8 == Pattern::Run as u8) as u8
    }

    /// The cards it is made of, by increasing value, into `out`; returns how many.
    pub fn cards(&self, out: &mut [u8]) -> usize {
        let mut counts = Counts::default();
        self.add_cards(&mut counts);
        let mut n = 0;
        for (v, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                out[n] = v as u8;
                n += 1;
            }
        }
        n
    }

    /// The number of cards it is made of.
    pub fn card_count(&self) -> usize {
        match self.pattern {
            Pattern::Run => usize::from(self.a),
            _ => 4,
        }
    }

    /// True if `counts` holds its cards.
    pub fn buildable_from(&self, counts: &Counts) -> bool {
        let mut need = Counts::default();
        self.add_cards(&mut need);
        need.iter().zip(counts).all(|(n, c)| n <= c)
    }
}

/// A few automatons of every pattern, for the tests' random tables: drawn from so few, a table
/// often holds equals (automatons of the same cards).
#[cfg(test)]
pub(super) const SAMPLES: [Automaton; 7] = [
    Automaton::run(3),
    Automaton::run(4),
    Automaton::one_three(5, 2),
    Automaton::one_three(2, 3),
    Automaton::two_pairs(1, 2),
    Automaton::two_pairs(3, 5),
    Automaton::FOUR_ONES,
];

/// Every automaton of the rules' numbers: each pattern with each choice of numbers.
#[cfg(test)]
pub(super) fn every_automaton() -> Vec<Automaton> {
    let mut all = vec![Automaton::FOUR_ONES];
    for a in 1..=NUMBERS as u8 {
        for b in 1..=NUMBERS as u8 {
            if a != b {
                all.push(Automaton::one_three(a, b));
            }
            if a < b {
                all.push(Automaton::two_pairs(a, b));
            }
        }
        if a >= 3 {
            all.push(Automaton::run(a));
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_give_the_rulings_power_and_toughness() {
        let cases = [
            (Automaton::one_three(7, 2), 7, 6),
            (Automaton::one_three(1, 10), 1, 30),
            (Automaton::two_pairs(3, 5), 6, 10),
            (Automaton::run(3), 6, 6),
            (Automaton::run(10), 55, 55),
            (Automaton::FOUR_ONES, 1, 1),
        ];
        for (bot, power, toughness) in cases {
            assert_eq!((bot.power, bot.toughness), (power, toughness), "{bot:?}");
        }
        let mut out = [0u8; 16];
        let n = Automaton::run(4).cards(&mut out);
        assert_eq!(&out[..n], &[1, 2, 3, 4]);
        let n = Automaton::one_three(9, 2).cards(&mut out);
        assert_eq!(&out[..n], &[2, 2, 2, 9]);
        assert_eq!(Automaton::run(5).card_count(), 5);
    }

    #[test]
    fn cards_added_taken_and_as_words_agree_with_the_patterns() {
        for bot in every_automaton() {
            // The cards by the rulings' definition of each pattern.
            let mut want = Counts::default();
            let (a, b) = (usize::from(bot.a), usize::from(bot.b));
            match bot.pattern {
                Pattern::FourOnes => want[1] = 4,
                Pattern::TwoPairs => (want[a], want[b]) = (2, 2),
                Pattern::OneThree => (want[a], want[b]) = (1, 3),
                Pattern::Run => (1..=a).for_each(|v| want[v] = 1),
            }
            let mut added = [1u8; NUMBERS + 1];
            bot.add_cards(&mut added);
            let got: Vec<u8> = added.iter().map(|c| c - 1).collect();
            assert_eq!(got, want, "{bot:?}");
            assert_eq!(bot.card_words(), Area::new(&want).words(), "{bot:?}");
            assert_eq!(usize::from(want.iter().sum::<u8>()), bot.card_count());
            let mut listed = [0u8; 16];
            let n = bot.cards(&mut listed);
            let (spelled, m) = bot.spelled();
            assert_eq!(m, n, "{bot:?}");
            assert_eq!(spelled.to_le_bytes()[..n], listed[..n], "{bot:?}");
            assert_eq!(spelled >> (8 * n), 0, "{bot:?}");
        }
    }

    #[test]
    fn the_order_is_power_then_toughness_then_run_one_three_two_pairs() {
        // 6/6 from a run beats 6/6 from one 6 and three 2s.
        assert!(Automaton::run(3).strength() > Automaton::one_three(6, 2).strength());
        // 4/6 from one 4 and three 2s beats 4/6 from two 2s and two 3s.
        assert!(Automaton::one_three(4, 2).strength() > Automaton::two_pairs(2, 3).strength());
        assert!(Automaton::one_three(2, 1).strength() > Automaton::FOUR_ONES.strength());
        assert!(Automaton::one_three(5, 1).strength() > Automaton::two_pairs(2, 9).strength());
        assert!(Automaton::two_pairs(2, 9).strength() > Automaton::two_pairs(2, 8).strength());
    }
}
