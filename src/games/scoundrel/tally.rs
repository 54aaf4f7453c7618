//! Integer tallies of Scoundrel games.

use crate::games::Tally;
use crate::games::invariants::{self, Check, add, per_game_max, sum_is};
use crate::stats::histogram::{Histogram, per_game};

use super::engine::MAX_AVOIDS;
use super::outcome::Outcome;
use super::rules::Rules;

/// Counts and histograms over many Scoundrel games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScoundrelTally {
    games: u64,
    wins: u64,
    rooms_entered: u64,
    damage_taken: u64,
    healed: u64,
    potions_wasted: u64,
    largest_weapon: u64,
    score: Histogram,
    final_hp: Histogram,
    cards_faced: Histogram,
    rooms_avoided: Histogram,
}

impl ScoundrelTally {
    /// An empty tally with histograms sized for `rules`.
    pub fn new(rules: &Rules) -> Self {
        Self {
            games: 0,
            wins: 0,
            rooms_entered: 0,
            damage_taken: 0,
            healed: 0,
            potions_wasted: 0,
            largest_weapon: 0,
            score: Histogram::new(rules.min_score().into(), rules.max_score().into()),
            final_hp: Histogram::new(1 - i64::from(rules.monster_max), rules.max_hp.into()),
            cards_faced: Histogram::new(0, rules.cards() as i64),
            rooms_avoided: Histogram::new(0, MAX_AVOIDS.into()),
        }
    }

    fn mean(&self, sum: u64) -> f64 {
        per_game(sum as f64, self.games)
    }
}

impl Tally for ScoundrelTally {
    type Outcome = Outcome;

    #[inline]
    fn record(&mut self, o: &Outcome) {
        self.games += 1;
        self.wins += u64::from(o.win);
        self.rooms_entered += u64::from(o.rooms_entered);
        self.damage_taken += u64::from(o.damage_taken);
        self.healed += u64::from(o.healed);
        self.potions_wasted += u64::from(o.potions_wasted);
        self.largest_weapon += u64::from(o.largest_weapon);
        self.score.add(o.score.into());
        self.final_hp.add(o.final_hp.into());
        self.cards_faced.add(o.cards_faced.into());
        self.rooms_avoided.add(o.rooms_avoided.into());
    }

    fn try_merge(&mut self, other: &Self) -> Check {
        add("games", &mut self.games, other.games)?;
        add("wins", &mut self.wins, other.wins)?;
        add(
            "rooms_entered",
            &mut self.rooms_entered,
            other.rooms_entered,
        )?;
        add("damage_taken", &mut self.damage_taken, other.damage_taken)?;
        add("healed", &mut self.healed, other.healed)?;
        add(
            "potions_wasted",
            &mut self.potions_wasted,
            other.potions_wasted,
        )?;
        add(
            "largest_weapon",
            &mut self.largest_weapon,
            other.largest_weapon,
        )?;
        self.score.try_merge("score", &other.score)?;
        self.final_hp.try_merge("final_hp", &other.final_hp)?;
        self.cards_faced
            .try_merge("cards_faced", &other.cards_faced)?;
        self.rooms_avoided
            .try_merge("rooms_avoided", &other.rooms_avoided)
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn wins(&self) -> u64 {
        self.wins
    }

    fn means(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("mean_score", self.score.mean()),
            ("mean_final_hp", self.final_hp.mean()),
            ("mean_cards_faced", self.cards_faced.mean()),
            ("mean_rooms_avoided", self.rooms_avoided.mean()),
            ("mean_rooms_entered", self.mean(self.rooms_entered)),
            ("mean_damage_taken", self.mean(self.damage_taken)),
            ("mean_healed", self.mean(self.healed)),
            ("mean_potions_wasted", self.mean(self.potions_wasted)),
            ("mean_largest_weapon", self.mean(self.largest_weapon)),
        ]
    }

    fn distributions(&self) -> Vec<(&'static str, &Histogram)> {
        vec![
            ("final_hp", &self.final_hp),
            ("score", &self.score),
            ("cards_faced", &self.cards_faced),
            ("rooms_avoided", &self.rooms_avoided),
        ]
    }

    fn check(&self) -> Check {
        invariants::counts(self.games, self.wins, 0)?;
        invariants::one_per_game(self.games, &self.distributions())?;
        // A game is won exactly when it ends with HP left, and then it scores above 0.
        let alive = self.final_hp.count_where(|hp| hp > 0);
        sum_is(("games ended with HP left", &[alive]), ("wins", self.wins))?;
        let scored = self.score.count_where(|s| s > 0);
        sum_is(("games scored above 0", &[scored]), ("wins", self.wins))?;
        // Each game's counts are 8- or 16-bit: their sums lie within what the games can add up to.
        let (byte, word) = (u64::from(u8::MAX), u64::from(u16::MAX));
        per_game_max("rooms_entered", self.rooms_entered, self.games, byte)?;
        per_game_max("damage_taken", self.damage_taken, self.games, word)?;
        per_game_max("healed", self.healed, self.games, word)?;
        per_game_max("potions_wasted", self.potions_wasted, self.games, byte)?;
        per_game_max("largest_weapon", self.largest_weapon, self.games, byte)
    }
}
