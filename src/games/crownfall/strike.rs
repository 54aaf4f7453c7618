//! A whole strike decided at once: the totals after each of the next cards, computed together,
//! and the first card at which the strike busts or the bank table says BANK.
//!
//! This replaces a branch per card (unpredictable by nature: the cards are random) with a few
//! vector instructions and one bit scan. The engine uses it whenever the policy's decision for
//! the strike is a [`BankTable`]; a strike that runs past the end of the deck carries its totals
//! over the reshuffle into the next window.

use super::policy::BankTable;

/// Cards examined at once: one 128-bit vector of card values.
pub const WINDOW: usize = 16;

/// How a table strike ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrikeEnd {
    /// Cards flipped (1 or more).
    pub cards: u8,
    /// The banked total, or 0 for a bust.
    pub banked: u8,
}

/// A strike still going after the last card of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carry {
    /// The hard total so far.
    pub hard: u8,
    /// True if an Ace has been flipped.
    pub ace: bool,
}

/// Plays the strike on from `carry` over `window`, the next cards of which only the first `valid`
/// (1..=16) are real. `Err` with the totals after those `valid` cards if it does not end within
/// them.
#[inline(always)]
pub fn resolve(
    window: &[u8; WINDOW],
    valid: usize,
    table: &BankTable,
    carry: Carry,
) -> Result<StrikeEnd, Carry> {
    stops(window, table, carry).end_within(valid)
}

/// Per card of a window: whether the strike stops there, the banked total (0 for a bust), the
/// hard total and whether an Ace has shown.
struct Lanes {
    stops: u32,
    banked: [u8; WINDOW],
    hard: [u8; WINDOW],
    ace: u32,
}

impl Lanes {
    /// Where the strike ends among the first `valid` cards, or the totals after them.
    #[inline(always)]
    fn end_within(&self, valid: usize) -> Result<StrikeEnd, Carry> {
        let stops = self.stops & ((1u32 << valid) - 1);
        if stops == 0 {
            return Err(Carry {
                hard: self.hard[valid - 1],
                ace: self.ace >> (valid - 1) & 1 != 0,
            });
        }
        let last = stops.trailing_zeros() as usize;
        Ok(StrikeEnd {
            cards: last as u8 + 1,
            banked: self.banked[last],
        })
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn stops(window: &[u8; WINDOW], table: &BankTable, carry: Carry) -> Lanes {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; each load and store covers exactly one
    // 16-byte array.
    unsafe {
        let cards = _mm_loadu_si128(window.as_ptr().cast());
        // The carried totals enter lane 0 and spread to every lane with the prefix sums.
        let mut hard = _mm_add_epi8(cards, _mm_cvtsi32_si128(i32::from(carry.hard)));
        hard = _mm_add_epi8(hard, _mm_slli_si128::<1>(hard));
        hard = _mm_add_epi8(hard, _mm_slli_si128::<2>(hard));
        hard = _mm_add_epi8(hard, _mm_slli_si128::<4>(hard));
        hard = _mm_add_epi8(hard, _mm_slli_si128::<8>(hard));
        let mut ace = _mm_or_si128(
            _mm_cmpeq_epi8(cards, _mm_set1_epi8(1)),
            _mm_cvtsi32_si128(0xFF * i32::from(carry.ace)),
        );
        ace = _mm_or_si128(ace, _mm_slli_si128::<1>(ace));
        ace = _mm_or_si128(ace, _mm_slli_si128::<2>(ace));
        ace = _mm_or_si128(ace, _mm_slli_si128::<4>(ace));
        ace = _mm_or_si128(ace, _mm_slli_si128::<8>(ace));
        // Unsigned a >= b as max(a, b) == a.
        let at_least = |a: __m128i, b: __m128i| _mm_cmpeq_epi8(_mm_max_epu8(a, b), a);
        let at_most_11 = _mm_cmpeq_epi8(_mm_min_epu8(hard, _mm_set1_epi8(11)), hard);
        let soft = _mm_and_si128(ace, at_most_11);
        let best = _mm_add_epi8(hard, _mm_and_si128(soft, _mm_set1_epi8(10)));
        let bust = at_least(hard, _mm_set1_epi8(22));
        let threshold = _mm_or_si128(
            _mm_and_si128(soft, _mm_set1_epi8(table.soft as i8)),
            _mm_andnot_si128(soft, _mm_set1_epi8(table.hard as i8)),
        );
        let in_range = _mm_andnot_si128(
            at_least(best, _mm_set1_epi8(table.high as i8)),
            at_least(best, _mm_set1_epi8(table.low as i8)),
        );
        let stop = _mm_or_si128(bust, _mm_or_si128(at_least(best, threshold), in_range));
        let mut lanes = Lanes {
            stops: _mm_movemask_epi8(stop) as u32,
            banked: [0; WINDOW],
            hard: [0; WINDOW],
            ace: _mm_movemask_epi8(ace) as u32,
        };
        _mm_storeu_si128(
            lanes.banked.as_mut_ptr().cast(),
            _mm_andnot_si128(bust, best),
        );
        _mm_storeu_si128(lanes.hard.as_mut_ptr().cast(), hard);
        lanes
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn stops(window: &[u8; WINDOW], table: &BankTable, carry: Carry) -> Lanes {
    portable_stops(window, table, carry)
}

/// The same as the vector version, one card at a time without branches.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn portable_stops(window: &[u8; WINDOW], table: &BankTable, carry: Carry) -> Lanes {
    let mut hard = carry.hard;
    let mut ace = carry.ace;
    let mut lanes = Lanes {
        stops: 0,
        banked: [0; WINDOW],
        hard: [0; WINDOW],
        ace: 0,
    };
    for (i, &card) in window.iter().enumerate() {
        hard = hard.wrapping_add(card);
        ace |= card == 1;
        let soft = ace & (hard <= 11);
        let best = hard.wrapping_add(10 * u8::from(soft));
        let bust = hard >= 22;
        lanes.stops |= u32::from(bust | table.bank(best, soft)) << i;
        lanes.banked[i] = best * u8::from(!bust);
        lanes.hard[i] = hard;
        lanes.ace |= u32::from(ace) << i;
    }
    lanes
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
                return Ok(StrikeEnd { cards, banked: 0 });
            }
            let best = if ace && hard + 10 <= 21 {
                hard + 10
            } else {
                hard
            };
            if table.bank(best, best != hard) {
                return Ok(StrikeEnd {
                    cards,
                    banked: best,
                });
            }
        }
        Err(Carry { hard, ace })
    }

    #[test]
    fn vector_and_portable_versions_match_the_card_by_card_rule() {
        let mut rng = GameRng::new(11, 0, 0);
        let mut deck: Vec<u8> = (0..40).map(|i| (i % 10) as u8 + 1).collect();
        for round in 0..40_000usize {
            rng.shuffle(&mut deck);
            let mut window = [0u8; WINDOW];
            window.copy_from_slice(&deck[..WINDOW]);
            let hard = (round % 21) as u8 + 2;
            let soft = ((round / 21) % 21) as u8 + 2;
            let mut table = BankTable::at_least(hard, soft);
            if round % 3 == 0 {
                table = table.with_range(hard.saturating_sub(3), hard);
            }
            let valid = [12, 16, 3, 1, 7][round % 5];
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
            ][round % 3];
            let want = reference(&window, valid, &table, carry);
            assert_eq!(
                resolve(&window, valid, &table, carry),
                want,
                "{window:?} {table:?} {carry:?}"
            );
            assert_eq!(
                portable_stops(&window, &table, carry).end_within(valid),
                want
            );
        }
    }
}
