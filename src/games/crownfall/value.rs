//! Crownfall's features for a value estimate ([`Featured`]): HP, the deck, the strike under way
//! and the tower, from the player's observation only. (Crownfall's exact values come from its
//! solver: `sim evaluate` reads them; a learned estimate is for comparison and variants.)

use crate::games::value::Featured;

use super::state::{Observation, Phase, State};

impl Featured for State<'_> {
    const FEATURES: &'static [&'static str] = &[
        "hp",
        "deck_cards",
        "deck_mean",
        "strike_cards",
        "strike_total",
        "discard_cards",
        "jacks_hidden",
        "queens_hidden",
        "kings_hidden",
        "jokers_hidden",
        "at_joker",
        "strikes",
    ];

    fn features(obs: &Observation, out: &mut Vec<f32>) {
        let cards: u32 = obs.deck.iter().map(|&n| u32::from(n)).sum();
        let worth: u32 = obs
            .deck
            .iter()
            .enumerate()
            .map(|(v, &n)| v as u32 * u32::from(n))
            .sum();
        let held: u32 = obs.held.iter().map(|&c| u32::from(c)).sum();
        let discard: u32 = obs.discard.iter().map(|&n| u32::from(n)).sum();
        out.extend([
            f32::from(obs.hp) / 20.0,
            cards as f32 / 52.0,
            if cards == 0 {
                0.0
            } else {
                worth as f32 / cards as f32 / 10.0
            },
            obs.held.len() as f32 / 6.0,
            held as f32 / 21.0,
            discard as f32 / 52.0,
        ]);
        out.extend(obs.unrevealed.iter().map(|&n| f32::from(n) / 4.0));
        out.extend([
            f32::from(u8::from(matches!(obs.phase, Phase::Joker { .. }))),
            f32::from(obs.strikes) / 40.0,
        ]);
    }
}
