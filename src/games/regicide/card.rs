//! Regicide's cards as small codes, and sets of them as bit masks.
//!
//! A card's code is `rank * 4 + suit`, ranks Jester (0), Ace (1) .. 10, Jack (11), Queen (12),
//! King (13), suits clubs (0) < spades (1) < hearts (2) < diamonds (3). So the codes ascend in
//! the card order of the rulings (Jester < A < 2 < .. < K, within a rank ♣ < ♠ < ♥ < ♦), the
//! Jesters take codes 0..=3 (one per copy), and every card is one bit of a `u64`: a hand, the
//! table or a play is a mask, listed in ascending card order by walking its bits from the low end.

use super::rules::Rules;

/// Clubs: damage doubled.
pub const CLUBS: u8 = 0;
/// Spades: the enemy's attack shielded.
pub const SPADES: u8 = 1;
/// Hearts: the discard pile healed into the tavern.
pub const HEARTS: u8 = 2;
/// Diamonds: cards drawn.
pub const DIAMONDS: u8 = 3;

/// The Jester's rank (value 0).
pub const JESTER: u8 = 0;
/// The Ace's rank (value 1, the animal companion).
pub const ACE: u8 = 1;
/// The Jack's rank.
pub const JACK: u8 = 11;
/// The Queen's rank.
pub const QUEEN: u8 = 12;
/// The King's rank.
pub const KING: u8 = 13;

/// Card codes are below this.
pub const CODES: usize = 56;
/// The mask of every Jester code.
pub const JESTERS: u64 = 0xF;

/// The code of `rank` of `suit` (a Jester's "suit" only tells copies apart).
#[inline]
pub const fn code(rank: u8, suit: u8) -> u8 {
    rank * 4 + suit
}

/// The rank of a card.
#[inline]
pub const fn rank(card: u8) -> u8 {
    card >> 2
}

/// The suit of a card (meaningless for a Jester).
#[inline]
pub const fn suit(card: u8) -> u8 {
    card & 3
}

/// The mask of one card.
#[inline]
pub const fn bit(card: u8) -> u64 {
    1 << card
}

/// True for a Jester.
#[inline]
pub const fn is_jester(card: u8) -> bool {
    rank(card) == JESTER
}

/// True for a Jack, Queen or King.
#[inline]
pub const fn is_royal(card: u8) -> bool {
    rank(card) >= JACK
}

/// The cards of `mask` in ascending card order.
#[inline]
pub fn cards(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            c
        })
    })
}

/// The mask of the cards of `rank`.
#[inline]
pub const fn rank_mask(rank: u8) -> u64 {
    0xF << (rank * 4)
}

/// How many bits of the nibble `nibble` (below 16) are set, from a table packed in one word
/// (the build targets x86-64 without a popcount instruction).
#[inline]
pub const fn nibble_count(nibble: u64) -> u8 {
    debug_assert!(nibble < 16);
    ((0x4332_3221_3221_2110u64 >> (nibble * 4)) & 0xF) as u8
}

/// The cards of each rank of `mask`: nibble `r` holds how many cards of rank `r` it has (0..=4).
#[inline]
pub const fn rank_counts(mask: u64) -> u64 {
    let pairs = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333)
}

/// The ranks of which `mask` holds two cards or more, each as its nibble's high bit (a nibble
/// of count c plus 6 reaches 8 from c = 2 on, and stays below 16).
#[inline]
pub const fn pair_ranks(mask: u64) -> u64 {
    (rank_counts(mask) + 0x6666_6666_6666_6666) & 0x8888_8888_8888_8888
}

/// A number that orders sets of one size lexicographically as ascending card lists, the first
/// smallest: the lowest card in one set and not the other decides, and the set holding it comes
/// first. Reversed, that card is the highest bit in which the two differ; complemented, the
/// set holding it is the smaller.
#[inline]
pub fn lex_key(cards: u64) -> u64 {
    !cards.reverse_bits()
}

/// The most a card is worth under the rules (a royal set to 25 by `--set`).
pub const MAX_VALUE: u8 = 25;

/// Each card's value under the rules: Jester 0, Ace 1, 2..10 face, captured royals by the rules
/// (10/15/20 by default, any of 0..=25 by `--set`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// Each code's value, then zeros up to 64 entries: a code masked to six bits indexes it
    /// without a bounds check.
    of: [u8; 64],
    /// `worth[x]`: the lowest code worth `x` or more, [`CODES`] if none ([`Values::worth`]).
    worth: [u8; MAX_VALUE as usize + 2],
    /// `combo_most[rank]`: the most cards of the rank one combo may hold ([`Values::combo_most`]).
    combo_most: [u8; 16],
    ordered: bool,
}

impl Values {
    /// The values under `rules`.
    pub fn new(rules: &Rules) -> Self {
        let mut v = [0u8; 64];
        for (c, slot) in v[..CODES].iter_mut().enumerate() {
            let r = rank(c as u8);
            *slot = match r {
                JESTER => 0,
                JACK => rules.jack.value,
                QUEEN => rules.queen.value,
                KING => rules.king.value,
                _ => r,
            };
        }
        let cards = &v[4..CODES];
        let mut worth = [0; MAX_VALUE as usize + 2];
        for (x, lowest) in worth.iter_mut().enumerate() {
            *lowest = (0..CODES as u8)
                .find(|&c| usize::from(v[usize::from(c)]) >= x)
                .unwrap_or(CODES as u8);
        }
        // The sizes from 2 to 4 whose total fits (a rank's cards are worth one value each).
        let combo_most = std::array::from_fn(|r| {
            let each = u16::from(v[4 * r]);
            let fits = (2..=4)
                .filter(|&n| each * n <= u16::from(rules.max_combo))
                .count() as u8;
            (1 + fits).min(rules.combo_cards)
        });
        Self {
            ordered: cards[0] > 0
                && cards.windows(2).all(|w| w[0] <= w[1])
                && cards.iter().all(|&x| x <= MAX_VALUE),
            of: v,
            worth,
            combo_most,
        }
    }

    /// True if every card but a Jester is worth at least 1, none more than [`MAX_VALUE`], and
    /// values never fall as codes rise (the default royals' 10/15/20 keep this; `--set
    /// jack.value=0` or a Queen worth less than a Jack do not).
    #[inline]
    pub fn ordered(&self) -> bool {
        self.ordered
    }

    /// The lowest code worth `x` or more ([`CODES`] if none): when the values are
    /// [`Values::ordered`], the cards from it up are those worth `x` or more (none for `x`
    /// above [`MAX_VALUE`]).
    #[inline]
    pub fn worth(&self, x: u16) -> u8 {
        self.worth[usize::from(x.min(u16::from(MAX_VALUE) + 1))]
    }

    /// The most cards of `rank` one combo may hold under the rules this was made from: the
    /// most whose total stays within `max_combo`, at most `combo_cards` (1 if no two fit).
    /// Worked out once here rather than at every play generation.
    #[inline]
    pub fn combo_most(&self, rank: u8) -> usize {
        usize::from(self.combo_most[usize::from(rank & 15)])
    }

    /// The value of one card.
    #[inline]
    pub fn of(&self, card: u8) -> u16 {
        debug_assert!(usize::from(card) < CODES);
        u16::from(self.of[usize::from(card & 63)])
    }

    /// The total value of a set of cards.
    #[inline]
    pub fn sum(&self, mask: u64) -> u16 {
        cards(mask).map(|c| self.of(c)).sum()
    }
}

/// The suits held by a set of cards, as a 4-bit mask (bit `suit`); Jesters hold none.
#[inline]
pub fn suits(mask: u64) -> u8 {
    let m = mask & !JESTERS;
    let mut s = 0u8;
    for suit in 0..4 {
        // Every fourth bit from `suit` on.
        if m & (0x1111_1111_1111_1111u64 << suit) != 0 {
            s |= 1 << suit;
        }
    }
    s
}

const NAMES: [&str; CODES] = [
    "Jo1", "Jo2", "Jo3", "Jo4", "AC", "AS", "AH", "AD", "2C", "2S", "2H", "2D", "3C", "3S", "3H",
    "3D", "4C", "4S", "4H", "4D", "5C", "5S", "5H", "5D", "6C", "6S", "6H", "6D", "7C", "7S", "7H",
    "7D", "8C", "8S", "8H", "8D", "9C", "9S", "9H", "9D", "10C", "10S", "10H", "10D", "JC", "JS",
    "JH", "JD", "QC", "QS", "QH", "QD", "KC", "KS", "KH", "KD",
];

/// A card's short name: rank then suit letter (`10H`, `KS`), Jesters `Jo1`..`Jo4`.
pub fn name(card: u8) -> &'static str {
    NAMES[usize::from(card)]
}

/// A card from its short name (tests and stacked decks).
pub fn parse(name: &str) -> Option<u8> {
    NAMES.iter().position(|n| *n == name).map(|c| c as u8)
}

/// The mask of the cards named in `names`, separated by spaces (tests and stacked decks).
pub fn mask_of(names: &str) -> u64 {
    names
        .split_whitespace()
        .map(|n| bit(parse(n).unwrap_or_else(|| panic!("no card {n}"))))
        .fold(0, |a, b| a | b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_the_card_order_and_names_round_trip() {
        assert!(code(ACE, DIAMONDS) < code(2, CLUBS));
        assert!(code(5, CLUBS) < code(5, SPADES) && code(5, HEARTS) < code(5, DIAMONDS));
        assert!(code(10, DIAMONDS) < code(JACK, CLUBS));
        for c in 0..CODES as u8 {
            assert_eq!(parse(name(c)), Some(c));
        }
        assert_eq!(name(code(KING, HEARTS)), "KH");
    }

    #[test]
    fn rank_counts_match_counting_each_rank() {
        for nibble in 0..16u64 {
            assert_eq!(u32::from(nibble_count(nibble)), nibble.count_ones());
        }
        let mut rng = crate::rng::GameRng::new(7, 8, 9);
        for _ in 0..2000 {
            let mask = rng.next_u64() & rng.next_u64() & ((1 << CODES) - 1);
            let (counts, pairs) = (rank_counts(mask), pair_ranks(mask));
            for r in 0..14u8 {
                let n = (mask & rank_mask(r)).count_ones();
                assert_eq!((counts >> (4 * r)) & 0xF, u64::from(n), "{mask:x} rank {r}");
                assert_eq!(pairs & rank_mask(r) != 0, n >= 2, "{mask:x} rank {r}");
            }
        }
    }

    /// The default rules with `sets` (`path=value`) applied.
    fn load(sets: &[&str]) -> Rules {
        crate::rules::load(
            None,
            &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
        .unwrap()
    }

    #[test]
    fn values_are_ordered_unless_the_royals_say_otherwise() {
        assert!(Values::new(&load(&[])).ordered());
        assert!(
            Values::new(&load(&["jack.value=10", "queen.value=10", "king.value=25"])).ordered()
        );
        assert!(!Values::new(&load(&["jack.value=0"])).ordered());
        assert!(!Values::new(&load(&["jack.value=9"])).ordered());
        assert!(!Values::new(&load(&["queen.value=9"])).ordered());
    }

    /// The cards from [`Values::worth`]'s code up are those worth that much or more, under
    /// ordered values (every attack up to 60).
    #[test]
    fn the_cards_from_the_lowest_worth_up_are_worth_that_much() {
        for sets in [
            &[][..],
            &["king.value=25"],
            &["jack.value=12", "queen.value=12"],
        ] {
            let v = Values::new(&load(sets));
            assert!(v.ordered());
            for x in 1..=60u16 {
                let want = (0..CODES as u8)
                    .filter(|&c| v.of(c) >= x)
                    .fold(0, |m, c| m | bit(c));
                let all = (1u64 << CODES) - 1;
                assert_eq!(all >> v.worth(x) << v.worth(x) & all, want, "{sets:?} {x}");
            }
        }
    }

    #[test]
    fn values_suits_and_lex_order() {
        let v = Values::new(&Rules::default());
        assert_eq!(
            v.sum(mask_of("Jo1 AC 7H 10D JS QC KD")),
            1 + 7 + 10 + 10 + 15 + 20
        );
        assert_eq!(suits(mask_of("Jo1 3C 3H")), 1 << CLUBS | 1 << HEARTS);
        // {2C 5S} before {2C 6C}: 5S < 6C; {2C 6C} before {3C 4C}: 2C < 3C.
        let before = |a: &str, b: &str| lex_key(mask_of(a)) < lex_key(mask_of(b));
        assert!(before("2C 5S", "2C 6C"));
        assert!(!before("2C 6C", "2C 5S"));
        assert!(before("2C 6C", "3C 4C"));
        assert!(!before("3C", "3C"));
        // Against the card lists compared as lists, on sets of one size.
        let mut rng = crate::rng::GameRng::new(9, 9, 9);
        for _ in 0..2000 {
            let n = 1 + rng.below(5) as usize;
            let mut pick = || {
                let mut deck: Vec<u8> = (0..CODES as u8).collect();
                rng.shuffle(&mut deck);
                deck[..n].iter().fold(0, |m, &c| m | bit(c))
            };
            let (a, b) = (pick(), pick());
            let lists = (cards(a).collect::<Vec<_>>(), cards(b).collect::<Vec<_>>());
            assert_eq!(lex_key(a) < lex_key(b), lists.0 < lists.1, "{a:x} {b:x}");
        }
        let listed: Vec<u8> = cards(mask_of("KD 2S AC")).collect();
        assert_eq!(
            listed,
            vec![code(ACE, CLUBS), code(2, SPADES), code(KING, DIAMONDS)]
        );
    }
}
