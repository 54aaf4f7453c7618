//! Integer tallies of Crownfall games.

use crate::games::Tally;
use crate::games::invariants::{self, Check, add, add_each, at_most, per_game_max};
use crate::stats::histogram::{Histogram, per_game};

use super::outcome::{Enemy, Outcome};
use super::rules::{MAX_TOWER, Rules};

/// Counts and histograms over many Crownfall games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CrownfallTally {
    games: u64,
    wins: u64,
    cards_drawn: u64,
    reshuffles: u64,
    damage: [u64; 4],
    /// Games by [`Outcome::killer_code`]: the last blow's enemy code plus one, 0 for none.
    killed_by: [u64; 5],
    final_hp: Histogram,
    cleared: Histogram,
    strikes: Histogram,
    perfect_21s: Histogram,
}

impl CrownfallTally {
    /// An empty tally with histograms sized for `rules`.
    pub fn new(rules: &Rules) -> Self {
        Self {
            games: 0,
            wins: 0,
            cards_drawn: 0,
            reshuffles: 0,
            damage: [0; 4],
            killed_by: [0; 5],
            final_hp: Histogram::new(0, rules.max_hp.into()),
            cleared: Histogram::new(0, rules.tower.len() as i64),
            strikes: Histogram::new(0, rules.max_strikes.into()),
            perfect_21s: Histogram::new(0, MAX_TOWER as i64),
        }
    }

    fn mean(&self, sum: u64) -> f64 {
        per_game(sum as f64, self.games)
    }
}

impl Tally for CrownfallTally {
    type Outcome = Outcome;

    #[inline]
    fn record(&mut self, o: &Outcome) {
        self.games += 1;
        self.wins += u64::from(o.win);
        self.cards_drawn += u64::from(o.cards_drawn);
        self.reshuffles += u64::from(o.reshuffles);
        for (sum, d) in self.damage.iter_mut().zip(o.damage) {
            *sum += u64::from(d);
        }
        // Counted without a branch: whether a game was lost is as random as the game.
        self.killed_by[usize::from(o.killer_code).min(4)] += 1;
        self.final_hp.add(o.final_hp.into());
        self.cleared.add(o.cleared.into());
        self.strikes.add(o.strikes.into());
        self.perfect_21s.add(o.perfect_21s.into());
    }

    fn try_merge(&mut self, other: &Self) -> Check {
        add("games", &mut self.games, other.games)?;
        add("wins", &mut self.wins, other.wins)?;
        add("cards_drawn", &mut self.cards_drawn, other.cards_drawn)?;
        add("reshuffles", &mut self.reshuffles, other.reshuffles)?;
        add_each("damage", &mut self.damage, &other.damage)?;
        add_each("killed_by", &mut self.killed_by, &other.killed_by)?;
        self.final_hp.try_merge("final_hp", &other.final_hp)?;
        self.cleared.try_merge("cleared", &other.cleared)?;
        self.strikes.try_merge("strikes", &other.strikes)?;
        self.perfect_21s
            .try_merge("perfect_21s", &other.perfect_21s)
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn wins(&self) -> u64 {
        self.wins
    }

    fn means(&self) -> Vec<(&'static str, f64)> {
        let mut means = vec![
            ("mean_final_hp", self.final_hp.mean()),
            ("mean_cleared", self.cleared.mean()),
            ("mean_strikes", self.strikes.mean()),
            ("mean_perfect_21s", self.perfect_21s.mean()),
            ("mean_cards_drawn", self.mean(self.cards_drawn)),
            ("mean_reshuffles", self.mean(self.reshuffles)),
        ];
        const DAMAGE: [&str; 4] = [
            "mean_damage_jack",
            "mean_damage_queen",
            "mean_damage_king",
            "mean_damage_joker",
        ];
        const KILLED: [&str; 4] = [
            "killed_by_jack",
            "killed_by_queen",
            "killed_by_king",
            "killed_by_joker",
        ];
        for kind in Enemy::ALL {
            means.push((DAMAGE[kind as usize], self.mean(self.damage[kind as usize])));
        }
        for kind in Enemy::ALL {
            means.push((
                KILLED[kind as usize],
                self.mean(self.killed_by[kind as usize + 1]),
            ));
        }
        means
    }

    fn distributions(&self) -> Vec<(&'static str, &Histogram)> {
        vec![
            ("final_hp", &self.final_hp),
            ("cleared", &self.cleared),
            ("strikes", &self.strikes),
            ("perfect_21s", &self.perfect_21s),
        ]
    }

    fn check(&self) -> Check {
        invariants::counts(self.games, self.wins, 0)?;
        invariants::one_per_game(self.games, &self.distributions())?;
        invariants::sum_is(
            ("the games by killer", &self.killed_by),
            ("games", self.games),
        )?;
        // A win clears the whole tower with HP left, and no blow ended it.
        let cleared_all = self.cleared.count_where(|v| v == self.cleared.max());
        at_most(
            ("wins", self.wins),
            ("games that cleared the tower", cleared_all),
        )?;
        let dead = self.final_hp.count_where(|hp| hp <= 0);
        at_most(
            ("wins", self.wins),
            ("games ended with HP left", self.games - dead),
        )?;
        at_most(
            ("wins", self.wins),
            ("games without a last blow", self.killed_by[0]),
        )?;
        // A last blow leaves no HP.
        at_most(
            (
                "games lost to a blow",
                invariants::sum(&self.killed_by[1..]),
            ),
            ("games ended at 0 HP", dead),
        )?;
        // Each game's counts are 16-bit: their sums lie within what the games can add up to.
        let most = u64::from(u16::MAX);
        per_game_max("cards_drawn", self.cards_drawn, self.games, most)?;
        per_game_max("reshuffles", self.reshuffles, self.games, most)?;
        for d in self.damage {
            per_game_max("damage", d, self.games, most)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Tally;

    #[test]
    fn a_tally_merge_that_would_overflow_is_refused_naming_the_count() {
        let mut one = CrownfallTally::new(&Rules::default());
        one.record(&Outcome {
            cards_drawn: 5,
            ..Outcome::default()
        });
        let mut huge = serde_json::to_value(&one).unwrap();
        huge["cards_drawn"] = u64::MAX.into();
        let mut huge: CrownfallTally = serde_json::from_value(huge).unwrap();
        // Its per-game bound refuses it before any merge (a merge that fails is abandoned, so
        // the tally it leaves is not read).
        let e = huge.check().unwrap_err();
        assert!(e.contains("cards_drawn"), "{e}");
        let e = huge.try_merge(&one).unwrap_err();
        assert!(e.contains("cards_drawn overflow"), "{e}");
    }
}
