//! Scoundrel's features for a value estimate ([`Featured`]): the hero, the room and the
//! dungeon's cards as a multiset, from the player's observation only.

use crate::games::value::Featured;

use super::card;
use super::hero::FRESH;
use super::state::{Observation, State};

impl Featured for State<'_> {
    const FEATURES: &'static [&'static str] = &[
        "hp",
        "weapon",
        "weapon_limit",
        "room_monsters",
        "room_weapons",
        "room_potions",
        "dungeon_cards",
        "dungeon_monsters",
        "dungeon_weapons",
        "dungeon_potions",
        "dungeon_best_weapon",
        "avoided_last",
        "cards_faced",
    ];

    fn features(obs: &Observation, out: &mut Vec<f32>) {
        let hero = &obs.hero;
        let room = obs.room.as_slice();
        let total = |keep: fn(u8) -> bool| {
            room.iter()
                .filter(|&&c| keep(c))
                .map(|&c| f32::from(card::value(c)))
                .sum::<f32>()
        };
        let limit = if hero.weapon == 0 {
            0.0
        } else if hero.limit == FRESH {
            1.0
        } else {
            f32::from(hero.limit) / 14.0
        };
        let d = &obs.dungeon;
        out.extend([
            f32::from(hero.hp) / 20.0,
            f32::from(hero.weapon) / 10.0,
            limit,
            total(card::is_monster) / 30.0,
            total(card::is_weapon) / 10.0,
            total(card::is_potion) / 10.0,
            d.len() as f32 / 44.0,
            d.monster_total() as f32 / 208.0,
            d.weapon_total() as f32 / 54.0,
            d.potion_total() as f32 / 54.0,
            f32::from(d.best_weapon()) / 10.0,
            f32::from(u8::from(obs.avoided_last)),
            f32::from(obs.outcome.cards_faced) / 44.0,
        ]);
    }
}
