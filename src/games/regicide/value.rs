//! Regicide's features for a value estimate ([`Featured`]): what the seat to move sees of the
//! enemy, the castle, the tavern and its own hand, from its observation only.

use crate::games::value::Featured;

use super::card;
use super::state::{Observation, State};

/// A card's worth in hand: its rank, royals as their attack (Jack 10, Queen 15, King 20),
/// Jesters 0.
fn worth(c: u8) -> f32 {
    match card::rank(c) {
        card::JESTER => 0.0,
        card::JACK => 10.0,
        card::QUEEN => 15.0,
        card::KING => 20.0,
        r => f32::from(r),
    }
}

impl Featured for State<'_> {
    const FEATURES: &'static [&'static str] = &[
        "hand_cards",
        "hand_worth",
        "hand_jesters",
        "hand_clubs",
        "hand_spades",
        "hand_hearts",
        "hand_diamonds",
        "enemy_health_left",
        "enemy_attack_left",
        "enemy_rank",
        "immunity_cancelled",
        "castle_left",
        "tavern",
        "discard",
        "solo_jesters",
        "table_hands",
    ];

    fn features(obs: &Observation, out: &mut Vec<f32>) {
        let p = &obs.public;
        let enemy = (p[2] & 0xFF) as u8;
        let castle = ((p[2] >> 8) & 0xFF) as f32;
        let tavern = ((p[2] >> 16) & 0xFF) as f32;
        let health = (p[3] & 0xFFFF) as f32;
        let attack = ((p[3] >> 16) & 0xFFFF) as f32;
        let damage = ((p[3] >> 32) & 0xFFFF) as f32;
        let spades = (p[4] & 0xFFFF) as f32;
        let solo_jesters = ((p[4] >> 16) & 0xFFFF) as f32;
        let table_hands: f32 = (0..8).map(|i| ((p[5] >> (8 * i)) & 0xFF) as f32).sum();
        let cancelled = (p[6] >> 8) & 1;
        let hand = || card::cards(obs.hand);
        let suited = |suit: u8| {
            hand()
                .filter(|&c| !card::is_jester(c) && card::suit(c) == suit)
                .count() as f32
        };
        out.extend([
            obs.hand.count_ones() as f32 / 8.0,
            hand().map(worth).sum::<f32>() / 60.0,
            hand().filter(|&c| card::is_jester(c)).count() as f32 / 2.0,
            suited(card::CLUBS) / 4.0,
            suited(card::SPADES) / 4.0,
            suited(card::HEARTS) / 4.0,
            suited(card::DIAMONDS) / 4.0,
            (health - damage).max(0.0) / 40.0,
            (attack - spades).max(0.0) / 20.0,
            f32::from(card::rank(enemy).saturating_sub(card::JACK)) / 2.0,
            cancelled as f32,
            castle / 12.0,
            tavern / 54.0,
            card::cards(p[1]).count() as f32 / 54.0,
            solo_jesters / 2.0,
            table_hands / 32.0,
        ]);
    }
}
