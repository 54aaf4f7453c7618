//! Integer tallies of Junkyard games, by seat and by the first policy's seat.

use crate::games::Tally;
use crate::games::invariants::{
    self, Check, add, add_each, add_signed, at_most, per_game_max, per_game_within,
};
use crate::stats::histogram::{Histogram, per_game};
use crate::stats::interval::{Difference, Proportion};

use super::outcome::Outcome;
use super::rules::{MAX_HP, Rules};

/// Counts and histograms over many Junkyard games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JunkyardTally {
    games: u64,
    /// Games the first policy won.
    wins: u64,
    draws: u64,
    /// Games won by seat.
    seat_wins: [u64; 2],
    /// Games the first policy played in seat s, and won there.
    first_games: [u64; 2],
    first_wins: [u64; 2],
    built: [u64; 2],
    destroyed: [u64; 2],
    damage: [u64; 2],
    teardowns: [u64; 2],
    /// Sums of final HP by seat (the histograms clamp at their ends).
    hp_sum: [i64; 2],
    turns: Histogram,
    final_hp: [Histogram; 2],
    /// True if one policy sits in both seats (self-play, no swapped games): it then wins as
    /// seat 1 whenever seat 1 wins.
    #[serde(default)]
    self_play: bool,
}

impl JunkyardTally {
    /// An empty tally with histograms sized for `rules`; `self_play` if one policy sits in
    /// both seats.
    pub fn new(rules: &Rules, self_play: bool) -> Self {
        let hp = |seat| Histogram::new(-60, i64::from(rules.hp(seat).min(MAX_HP)));
        // Final HP below -60 (a crushing last combat) is counted at -60.
        Self {
            games: 0,
            wins: 0,
            draws: 0,
            seat_wins: [0; 2],
            first_games: [0; 2],
            first_wins: [0; 2],
            built: [0; 2],
            destroyed: [0; 2],
            damage: [0; 2],
            teardowns: [0; 2],
            hp_sum: [0; 2],
            turns: Histogram::new(0, rules.turn_cap.into()),
            final_hp: [hp(0), hp(1)],
            self_play,
        }
    }

    /// Games won by each seat.
    pub fn seat_wins(&self) -> [u64; 2] {
        self.seat_wins
    }

    /// The distribution of game lengths in turns.
    pub fn turns(&self) -> &Histogram {
        &self.turns
    }

    fn mean(&self, sum: i64) -> f64 {
        per_game(sum as f64, self.games)
    }

    /// Seat 0's win rate minus seat 1's (the first-move advantage), with its 95% interval:
    /// per game +1, -1 or 0 (a draw), so the interval is that of a paired difference.
    pub fn first_move_advantage(&self) -> Difference {
        Difference::paired(self.games, self.seat_wins[0], self.seat_wins[1])
    }
}

impl Tally for JunkyardTally {
    type Outcome = Outcome;

    #[inline]
    fn record(&mut self, o: &Outcome) {
        self.games += 1;
        let first = usize::from(o.first_seat());
        self.first_games[first] += 1;
        match o.winner {
            None => self.draws += 1,
            Some(w) => {
                self.seat_wins[usize::from(w)] += 1;
                if usize::from(w) == first {
                    self.wins += 1;
                    self.first_wins[first] += 1;
                }
            }
        }
        for s in 0..2 {
            self.built[s] += u64::from(o.built[s]);
            self.destroyed[s] += u64::from(o.destroyed[s]);
            self.damage[s] += u64::from(o.damage[s]);
            self.teardowns[s] += u64::from(o.teardowns[s]);
            self.hp_sum[s] += i64::from(o.final_hp[s]);
            self.final_hp[s].add(o.final_hp[s].into());
        }
        self.turns.add(o.turns.into());
    }

    fn try_merge(&mut self, other: &Self) -> Check {
        add("games", &mut self.games, other.games)?;
        add("wins", &mut self.wins, other.wins)?;
        add("draws", &mut self.draws, other.draws)?;
        add_each("seat_wins", &mut self.seat_wins, &other.seat_wins)?;
        add_each("first_games", &mut self.first_games, &other.first_games)?;
        add_each("first_wins", &mut self.first_wins, &other.first_wins)?;
        add_each("built", &mut self.built, &other.built)?;
        add_each("destroyed", &mut self.destroyed, &other.destroyed)?;
        add_each("damage", &mut self.damage, &other.damage)?;
        add_each("teardowns", &mut self.teardowns, &other.teardowns)?;
        for s in 0..2 {
            add_signed("hp_sum", &mut self.hp_sum[s], other.hp_sum[s])?;
            self.final_hp[s].try_merge("final_hp", &other.final_hp[s])?;
        }
        self.turns.try_merge("turns", &other.turns)
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn wins(&self) -> u64 {
        self.wins
    }

    fn draws(&self) -> u64 {
        self.draws
    }

    fn means(&self) -> Vec<(&'static str, f64)> {
        // In self-play the policy sits in both seats of every game: its games as seat s are
        // all the games, and it wins as seat s whenever seat s wins. A seat the first policy
        // never played gives no rate (NaN: written as null, shown n/a).
        let in_seat = |s: usize| {
            if self.self_play {
                Proportion::wilson(self.seat_wins[s], self.games)
            } else if self.first_games[s] == 0 {
                Proportion {
                    rate: f64::NAN,
                    low: f64::NAN,
                    high: f64::NAN,
                }
            } else {
                Proportion::wilson(self.first_wins[s], self.first_games[s])
            }
        };
        let (as0, as1) = (in_seat(0), in_seat(1));
        let seat0 = Proportion::wilson(self.seat_wins[0], self.games);
        let fma = self.first_move_advantage();
        vec![
            ("win_as_seat0", as0.rate),
            ("win_as_seat0_low", as0.low),
            ("win_as_seat0_high", as0.high),
            ("win_as_seat1", as1.rate),
            ("win_as_seat1_low", as1.low),
            ("win_as_seat1_high", as1.high),
            ("draw_rate", self.mean(self.draws as i64)),
            ("seat0_win_rate", seat0.rate),
            ("seat0_win_low", seat0.low),
            ("seat0_win_high", seat0.high),
            ("first_move_adv", fma.diff),
            ("first_move_adv_low", fma.low),
            ("first_move_adv_high", fma.high),
            ("mean_turns", self.turns.mean()),
            ("mean_hp_seat0", self.mean(self.hp_sum[0])),
            ("mean_hp_seat1", self.mean(self.hp_sum[1])),
            ("mean_built_seat0", self.mean(self.built[0] as i64)),
            ("mean_built_seat1", self.mean(self.built[1] as i64)),
            ("mean_lost_seat0", self.mean(self.destroyed[0] as i64)),
            ("mean_lost_seat1", self.mean(self.destroyed[1] as i64)),
            ("mean_damage_seat0", self.mean(self.damage[0] as i64)),
            ("mean_damage_seat1", self.mean(self.damage[1] as i64)),
            ("mean_tears_seat0", self.mean(self.teardowns[0] as i64)),
            ("mean_tears_seat1", self.mean(self.teardowns[1] as i64)),
        ]
    }

    fn distributions(&self) -> Vec<(&'static str, &Histogram)> {
        vec![
            ("turns", &self.turns),
            ("final_hp_seat0", &self.final_hp[0]),
            ("final_hp_seat1", &self.final_hp[1]),
        ]
    }

    fn check(&self) -> Check {
        invariants::counts(self.games, self.wins, self.draws)?;
        invariants::one_per_game(self.games, &self.distributions())?;
        let [s0, s1] = self.seat_wins;
        invariants::sum_is(
            ("the draws and each seat's wins", &[self.draws, s0, s1]),
            ("games", self.games),
        )?;
        invariants::sum_is(
            ("the first policy's games by seat", &self.first_games),
            ("games", self.games),
        )?;
        for s in 0..2 {
            at_most(
                (
                    &format!("the first policy's wins in seat {s}"),
                    self.first_wins[s],
                ),
                (&format!("its games in seat {s}"), self.first_games[s]),
            )?;
            at_most(
                (
                    &format!("the first policy's wins in seat {s}"),
                    self.first_wins[s],
                ),
                (&format!("seat {s}'s wins"), self.seat_wins[s]),
            )?;
        }
        invariants::sum_is(
            ("the first policy's wins by seat", &self.first_wins),
            ("wins", self.wins),
        )?;
        // Each game's counts are 16-bit: their sums lie within what the games can add up to.
        let word = u64::from(u16::MAX);
        for s in 0..2 {
            per_game_max("built", self.built[s], self.games, word)?;
            per_game_max("destroyed", self.destroyed[s], self.games, word)?;
            per_game_max("damage", self.damage[s], self.games, word)?;
            per_game_max("teardowns", self.teardowns[s], self.games, word)?;
            let hp = (i64::from(i16::MIN), i64::from(i16::MAX));
            per_game_within("hp_sum", i128::from(self.hp_sum[s]), self.games, hp)?;
        }
        Ok(())
    }
}
