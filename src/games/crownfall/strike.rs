//! A whole strike decided at once: the totals after each of the next cards, computed together,
//! and the first card at which the strike busts or the bank table says BANK.
//!
//! This replaces a branch per card (unpredictable by nature: the cards are random) with a few
//! word operations and one bit scan. The eight next cards sit in one 64-bit word, a card per
//! byte ("SIMD within a register"): one multiplication gives every running total, and each
//! comparison of all eight totals with a number is a subtraction and a mask. The engine uses it
//! whenever the policy's decision for the strike is a [`BankTable`]; a strike that runs past the
//! eight cards or the end of the deck carries its totals over into the next window.
//!
//! The window is read straight from the deck's array, so past the deck's last card it holds the
//! array's zeros. A zero changes no total, so those slots stop the strike only where the last
//! card already did: the first stop is always a real card, and a window that does not stop
//! leaves in its last slot the totals after the deck's last card.

use super::policy::BankTable;

/// Cards examined at once: one byte each of a 64-bit word.
pub const WINDOW: usize = 8;

/// How a table strike ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrikeEnd {
    /// Cards flipped (1 or more).
    pub cards: u8,
    /// The banked total (1 to 21), or the hard total of a bust (22 to 31).
    pub total: u8,
}

/// A strike still going after the last card of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carry {
    /// The hard total so far.
    pub hard: u8,
    /// True if an Ace has been flipped.
    pub ace: bool,
}

/// 1 in every byte: times a number, that number in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The top bit of every byte: a lane's flag.
const FLAGS: u64 = 0x8080_8080_8080_8080;

/// The flag of every byte lane of `x` holding at least `n`. Every lane of `x` must be below 128;
/// an `n` of 128 or more flags none.
#[inline(always)]
fn at_least(x: u64, n: u8) -> u64 {
    // Each lane becomes 128 + value - n: at least 128 exactly when value >= n, and never below 1,
    // so no lane borrows from the next.
    ((x | FLAGS) - ONES * u64::from(n.min(127))) & FLAGS
}

/// Plays the strike on from `carry` over `window`: the next cards, then zeros past the deck's last
/// card (at least the first slot is a card). `Err` with the totals after the window's cards if it
/// does not end within them.
#[inline(always)]
pub fn resolve(window: &[u8; WINDOW], table: &BankTable, carry: Carry) -> Result<StrikeEnd, Carry> {
    let cards = u64::from_le_bytes(*window);
    // Running hard totals, lane k after card k: the product sums each byte with those below it.
    // At most 21 carried plus 8 cards of 10: no lane reaches 128.
    let hard = cards.wrapping_mul(ONES) + ONES * u64::from(carry.hard);
    // Flags from the first Ace on (the carried Ace counts as one before lane 0).
    let ace_here = at_least(cards, 1) ^ at_least(cards, 2) | u64::from(carry.ace) << 7;
    let aces = (ace_here | ace_here.wrapping_neg()) & FLAGS;
    let soft = aces & !at_least(hard, 12);
    let hard_lane = !soft & FLAGS;
    let bust = at_least(hard, 22);
    // A soft total is hard + 10: compare the hard total with each bound less 10.
    let over = |n: u8| at_least(hard, n) & hard_lane | at_least(hard, n.saturating_sub(10)) & soft;
    let bank = at_least(hard, table.hard) & hard_lane
        | at_least(hard, table.soft.saturating_sub(10)) & soft
        | over(table.low) & !over(table.high);
    let stops = bust | bank;
    if stops == 0 {
        return Err(Carry {
            hard: (hard >> 56) as u8,
            ace: aces >> 63 != 0,
        });
    }
    // The first stop's lane, as the shift that brings its byte to the bottom. A bust's lane is
    // not soft, so its total is the hard total.
    let shift = stops.trailing_zeros() - 7;
    Ok(StrikeEnd {
        cards: (shift / 8) as u8 + 1,
        total: (hard >> shift) as u8 + 10 * ((soft >> (shift + 7)) as u8 & 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    /// The plain rule, card by card: the reference both versions must match.
    fn reference(
        window: &[u8],
        valid: usize,
        table: &BankTable,
        carry: Carry,
    ) -> Result<StrikeEnd, Carry> {
        let (mut hard, mut ace) = (carry.hard, carry.ace);
        for (i, &card) in window.iter().take(valid).enumerate() {
            hard += card;
            ace |= card == 1;
            let cards = i as u8 + 1;
            if hard >= 22 {
                return Ok(StrikeEnd { cards, total: hard });
            }
            let best = if ace && hard + 10 <= 21 {
                hard + 10
            } else {
                hard
            };
            if table.bank(best, best != hard) {
                return Ok(StrikeEnd { cards, total: best });
            }
        }
        Err(Carry { hard, ace })
    }

    #[test]
    fn the_word_version_matches_the_card_by_card_rule() {
        let mut rng = GameRng::new(11, 0, 0);
        let mut deck: Vec<u8> = (0..40).map(|i| (i % 10) as u8 + 1).collect();
        for round in 0..40_000usize {
            rng.shuffle(&mut deck);
            let mut window = [0u8; WINDOW];
            window.copy_from_slice(&deck[..WINDOW]);
            let hard = (round % 21) as u8 + 2;
            let soft = ((round / 21) % 21) as u8 + 2;
            let mut table = BankTable::at_least(hard, soft);
            match round % 5 {
                0 => table = table.with_range(hard.saturating_sub(3), hard),
                1 => table = table.with_range(soft.saturating_sub(9), soft.saturating_sub(4)),
                2 => table = BankTable::at_least(u8::MAX, soft).with_range(12, u8::MAX),
                _ => {}
            }
            // The deck's last cards: zeros past them.
            let valid = [6, 8, 3, 1, 7][round % 5];
            window[valid..].fill(0);
            let carry = [
                Carry {
                    hard: 0,
                    ace: false,
                },
                Carry {
                    hard: 7,
                    ace: false,
                },
                Carry { hard: 4, ace: true },
                Carry {
                    hard: 21,
                    ace: false,
                },
            ][round % 4];
            assert_eq!(
                resolve(&window, &table, carry),
                reference(&window, valid, &table, carry),
                "{window:?} {valid} {table:?} {carry:?}"
            );
        }
    }
}
