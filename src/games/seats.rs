//! Seats: how many players a game has, how they relate, and which policy sits where.
//!
//! A game declares its [`Table`] and how many seats its rules give. The command line turns
//! `--policy`, `--vs` and `--seat K=POLICY` into a [`Seating`] (one policy spec per seat) that
//! the game is built with. One-seat games take the single policy and keep their shape and speed.

use crate::error::{Result, SimError};

/// How the seats of a game relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// One player (Crownfall, Scoundrel).
    Solo,
    /// Several players who win or lose together (Regicide).
    Team,
    /// Two players against each other (Junkyard Frankenstein).
    Duel,
}

/// Who sits where: the policy spec (a name or a strategy file path) of each seat, seat 0 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// One policy spec per seat.
    pub policies: Vec<String>,
    /// Duels only: game `2d` plays deal `d` as seated and game `2d + 1` plays the same deal with
    /// the two policies' seats swapped (see [`duel_deal`]), so a comparison of two policies is
    /// not tilted by who moves first. A plain run sets it when the two policies differ.
    pub swap: bool,
}

impl Seating {
    /// `policy` in every one of `seats` seats.
    pub fn uniform(policy: &str, seats: usize) -> Self {
        Self {
            policies: vec![policy.to_string(); seats],
            swap: false,
        }
    }

    /// One seat playing `policy`.
    pub fn solo(policy: &str) -> Self {
        Self::uniform(policy, 1)
    }

    /// The seating the command line asks for at a `table` of `seats` seats: `policy` in every
    /// seat, `vs` in seat 1 of a duel, then each `--seat K=POLICY`. A duel whose two policies
    /// differ swaps seats on every other game.
    pub fn assign(
        table: Table,
        seats: usize,
        policy: &str,
        vs: Option<&str>,
        overrides: &[String],
    ) -> Result<Self> {
        let mut seating = Self::uniform(policy, seats);
        if let Some(vs) = vs {
            if table != Table::Duel {
                return Err(SimError::input(format!(
                    "--vs {vs}: --vs sets the second player of a two-player duel; this game has {}",
                    Self::describe(table, seats)
                )));
            }
            seating.policies[1] = vs.to_string();
        }
        let mut set: Vec<(usize, &str)> = Vec::new();
        for spec in overrides {
            let (seat, policy) = spec
                .split_once('=')
                .and_then(|(k, p)| Some((k.trim().parse::<usize>().ok()?, p.trim())))
                .filter(|(_, p)| !p.is_empty())
                .ok_or_else(|| {
                    SimError::input(format!(
                        "--seat {spec}: expected SEAT=POLICY with seats from 0, e.g. --seat 1=simple"
                    ))
                })?;
            if seat >= seats {
                return Err(SimError::input(format!(
                    "--seat {spec}: this game has {}, numbered 0..={}",
                    Self::describe(table, seats),
                    seats - 1
                )));
            }
            if let Some((_, earlier)) = set.iter().find(|(s, _)| *s == seat) {
                return Err(SimError::input(format!(
                    "--seat {spec}: seat {seat} is already given (--seat {seat}={earlier}); give each seat once"
                )));
            }
            if seat == 1
                && let Some(vs) = vs
            {
                return Err(SimError::input(format!(
                    "--seat {spec} and --vs {vs} both set seat 1; give one of them"
                )));
            }
            set.push((seat, policy));
            seating.policies[seat] = policy.to_string();
        }
        seating.swap = table == Table::Duel && !seating.same_everywhere();
        Ok(seating)
    }

    fn describe(table: Table, seats: usize) -> String {
        match (table, seats) {
            (Table::Solo, _) | (_, 1) => "one seat".to_string(),
            (_, n) => format!("{n} seats"),
        }
    }

    /// True if every seat plays the same policy spec.
    pub fn same_everywhere(&self) -> bool {
        self.policies.windows(2).all(|w| w[0] == w[1])
    }

    /// The display name, from the names the game gives its policies (`names[k]` for seat `k`):
    /// `heuristic` for the same policy everywhere, `greedy vs simple` for a duel, and
    /// `heuristic; seat 2 simple` for a team with seats that differ from seat 0.
    pub fn label(&self, table: Table, names: &[String]) -> String {
        let first = names.first().cloned().unwrap_or_default();
        if names.windows(2).all(|w| w[0] == w[1]) {
            return first;
        }
        if table == Table::Duel {
            return names.join(" vs ");
        }
        let mut label = first.clone();
        for (seat, name) in names.iter().enumerate().skip(1) {
            if *name != first {
                label.push_str(&format!("; seat {seat} {name}"));
            }
        }
        label
    }
}

/// The deal that game `index` of a duel plays and whether its seats are swapped: with `swap`,
/// games `2d` and `2d + 1` both play deal `d`, the second with the policies' seats swapped;
/// without, game `i` plays deal `i` as seated.
#[inline]
pub fn duel_deal(index: u64, swap: bool) -> (u64, bool) {
    if swap {
        (index >> 1, index & 1 == 1)
    } else {
        (index, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &Seating) -> Vec<String> {
        s.policies.clone()
    }

    #[test]
    fn policy_fills_every_seat_and_seat_overrides_one() {
        let s = Seating::assign(Table::Team, 4, "heuristic", None, &["2=simple".into()]).unwrap();
        assert_eq!(
            s.policies,
            ["heuristic", "heuristic", "simple", "heuristic"]
        );
        assert!(!s.swap);
        assert_eq!(s.label(Table::Team, &names(&s)), "heuristic; seat 2 simple");
        let s = Seating::assign(Table::Team, 3, "simple", None, &[]).unwrap();
        assert_eq!(s.label(Table::Team, &names(&s)), "simple");
    }

    #[test]
    fn a_duel_of_two_policies_swaps_seats_and_one_against_itself_does_not() {
        let s = Seating::assign(Table::Duel, 2, "greedy", Some("simple"), &[]).unwrap();
        assert_eq!(s.policies, ["greedy", "simple"]);
        assert!(s.swap);
        assert_eq!(s.label(Table::Duel, &names(&s)), "greedy vs simple");
        let s = Seating::assign(Table::Duel, 2, "greedy", Some("greedy"), &[]).unwrap();
        assert!(!s.swap);
        let s = Seating::assign(Table::Duel, 2, "greedy", None, &["1=random".into()]).unwrap();
        assert!(s.swap);
    }

    #[test]
    fn vs_off_a_duel_seats_out_of_range_and_seats_set_twice_are_refused_by_name() {
        let err = Seating::assign(Table::Solo, 1, "greedy", Some("simple"), &[])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--vs simple") && err.contains("one seat"),
            "{err}"
        );
        let err = Seating::assign(Table::Team, 4, "simple", None, &["4=random".into()])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--seat 4=random") && err.contains("0..=3"),
            "{err}"
        );
        let err = Seating::assign(
            Table::Duel,
            2,
            "greedy",
            Some("simple"),
            &["1=random".into()],
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("--seat 1=random and --vs simple both set seat 1"),
            "{err}"
        );
        let twice = ["2=simple".to_string(), "2=random".to_string()];
        let err = Seating::assign(Table::Team, 4, "heuristic", None, &twice)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--seat 2=random: seat 2 is already given (--seat 2=simple)"),
            "{err}"
        );
        for bad in ["x=simple", "1", "1=", "-1=simple"] {
            let err = Seating::assign(Table::Team, 2, "simple", None, &[bad.into()]).unwrap_err();
            assert!(err.to_string().contains("SEAT=POLICY"), "{bad}: {err}");
        }
    }

    #[test]
    fn swapped_duel_games_pair_up_on_one_deal() {
        assert_eq!(duel_deal(6, true), (3, false));
        assert_eq!(duel_deal(7, true), (3, true));
        assert_eq!(duel_deal(7, false), (7, false));
    }
}
