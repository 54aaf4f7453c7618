//! The designer's figure vocabulary: what is measured and whom it is about, and a target on
//! it. A figure is a summary column of one player's games (`win_rate[optimal]`,
//! `first_move_adv[ismcts-200]`, `mean_turns[pimc]`), the difference of two players' win
//! rates on the same deals (`gap[optimal,bank-at-17]`), or one of `sim evaluate`'s figures
//! that a candidate can pay for (`skill_headroom`, `gain_over_baseline`). A player is any
//! policy the game knows, its `baseline` (the rules read literally) or its `best` (the
//! strongest fair player a brief plays; see [`Roster`]). A target puts a figure in relation to
//! a value: `>=0.7`, `<=0.3`, `=0` (within the tolerance), or a range `=12..16`, each with an
//! optional own tolerance `+-E`.
//!
//! `sim balance`'s old spelling is the same thing said shortly: `win_rate=0.75` with
//! `--policy optimal` is `win_rate[optimal]=0.75`, `gap=0.2` with `--baseline bank-at-17` is
//! `gap[optimal,bank-at-17]=0.2`.

use std::fmt;

use crate::error::{Result, SimError};
use crate::games::registry::Roster;
use crate::games::seats::Table;

use super::sequential::Verdict;
use super::target::{Metric, Scale};
use crate::stats::estimate::Estimate;

/// `sim evaluate`'s figures that a brief cannot compute per candidate, and why.
const LADDER_ONLY: [(&str, &str); 10] = [
    (
        "luck_share",
        "the deal's share of the variance needs every rung of the ladder on every deal",
    ),
    (
        "variance_deal_share",
        "the deal's share of the variance needs every rung of the ladder on every deal",
    ),
    (
        "variance_player_share",
        "the player's share of the variance needs every rung of the ladder on every deal",
    ),
    (
        "decisiveness",
        "it is read from the search's estimates at every decision, which the runs of a brief do not keep",
    ),
    (
        "drama",
        "it is read from the search's estimates at every decision, which the runs of a brief do not keep",
    ),
    (
        "comebacks",
        "it is read from the search's estimates at every decision, which the runs of a brief do not keep",
    ),
    (
        "lead_changes",
        "it is read from the search's estimates at every decision, which the runs of a brief do not keep",
    ),
    (
        "skill_trace",
        "it needs the ladder's search rungs at doubling budgets",
    ),
    (
        "last_doubling_gain",
        "it needs the ladder's search rungs at doubling budgets",
    ),
    (
        "deals_no_rung_wins",
        "it needs every rung of the ladder on every deal",
    ),
];

/// Figures that only a duel has: the seats of a solo or team game win and lose together.
const DUEL_ONLY: [&str; 6] = [
    "first_move_adv",
    "first_move_advantage",
    "seat0_win_rate",
    "win_as_seat0",
    "win_as_seat1",
    "balance",
];

/// True if `spec` is one target as `sim balance` wrote it before briefs: a summary column or
/// `gap`, no brackets, no range, no tolerance of its own. Such a target keeps its old meaning
/// and messages (a column of `--policy`; a gap from `--baseline`).
pub fn spelt_shortly(spec: &str) -> bool {
    let name = spec
        .split(['=', '<', '>'])
        .next()
        .unwrap_or_default()
        .trim();
    !spec.contains('[')
        && !spec.contains("..")
        && !spec.contains("+-")
        && !["skill_headroom", "gain_over_baseline"].contains(&name)
        && !LADDER_ONLY.iter().any(|(n, _)| *n == name)
}

/// What a brief is measured against: the game's summary columns, its table and its roster.
pub struct Vocabulary<'a> {
    /// The game's name.
    pub game: &'a str,
    /// Its summary columns that a target may name (see [`super::target::columns`]).
    pub columns: &'a [String],
    /// How its seats relate.
    pub table: Table,
    /// The policy a figure without brackets is about (`--policy` or the game's default).
    pub policy: &'a str,
    /// `--baseline`, the second player of a bare `gap`.
    pub baseline: Option<&'a str>,
    /// The players its figures may name by role.
    pub roster: Roster,
}

impl Vocabulary<'_> {
    /// The figures this game offers, as a designer writes them, for `--help` and errors.
    pub fn offered(&self) -> String {
        let mut names: Vec<String> = self.columns.iter().map(|c| format!("{c}[P]")).collect();
        names.push("gap[P,Q]".into());
        if self.table != Table::Duel {
            if self.roster.random.is_some() {
                names.push("skill_headroom".into());
            }
            names.push("gain_over_baseline".into());
        }
        format!(
            "figures of {}: {} (P, Q: a policy, baseline or best)",
            self.game,
            names.join(", ")
        )
    }

    /// `who` as a policy: a role resolved through the game's roster, else the name itself.
    fn player(&self, who: &str) -> String {
        let who = who.trim();
        match who {
            "baseline" => self.roster.baseline.to_string(),
            "best" => self.roster.best.to_string(),
            _ => who.to_string(),
        }
    }

    /// The figure written `text` (`win_rate[optimal]`, `gap`, `skill_headroom`); `bad` makes
    /// the error of a target.
    fn figure(&self, text: &str, bad: &dyn Fn(String) -> SimError) -> Result<Figure> {
        let (name, whom) = match text.split_once('[') {
            Some((name, rest)) => {
                let inside = rest.strip_suffix(']').ok_or_else(|| {
                    bad(format!(
                        "{text}: a figure's players go in brackets, e.g. win_rate[optimal]"
                    ))
                })?;
                let whom: Vec<&str> = inside.split(',').map(str::trim).collect();
                if whom.iter().any(|w| w.is_empty()) {
                    return Err(bad(format!(
                        "{text}: name a policy, baseline or best in the brackets"
                    )));
                }
                (name.trim(), Some(whom))
            }
            None => (text.trim(), None),
        };
        let roster = self.roster;
        if let Some((_, why)) = LADDER_ONLY.iter().find(|(n, _)| *n == name) {
            return Err(bad(format!(
                "{name} is a figure of sim evaluate's whole ladder, not offered in a brief: {why} (sim evaluate --vary measures it)"
            )));
        }
        if self.table != Table::Duel && DUEL_ONLY.contains(&name) {
            return Err(bad(format!(
                "{} has no {name}: it is a duel's figure, and the seats of a {} game win and lose together",
                self.game,
                if self.table == Table::Solo {
                    "solo"
                } else {
                    "team"
                }
            )));
        }
        let players = |n: usize, default: Vec<String>| -> Result<Vec<String>> {
            match &whom {
                Some(w) if w.len() == n => Ok(w.iter().map(|p| self.player(p)).collect()),
                Some(w) => Err(bad(format!(
                    "{name} is about {n} player{}, not {}",
                    if n == 1 { "" } else { "s" },
                    w.len()
                ))),
                None => Ok(default),
            }
        };
        let (metric, players) = match name {
            "gap" => {
                let default = match self.baseline {
                    Some(b) => vec![self.policy.to_string(), b.to_string()],
                    None if whom.is_none() => {
                        return Err(bad(
                            "gap is the win rate of one player minus another's on the same deals: write gap[P,Q], or give --baseline".into(),
                        ));
                    }
                    None => Vec::new(),
                };
                (Metric::Gap, players(2, default)?)
            }
            "skill_headroom" | "gain_over_baseline" => {
                if whom.is_some() {
                    return Err(bad(format!(
                        "{name} is about the game's ladder (best against {}), not a named player; write gap[P,Q] for two players",
                        if name == "skill_headroom" {
                            "random"
                        } else {
                            "baseline"
                        }
                    )));
                }
                if self.table == Table::Duel {
                    return Err(bad(format!(
                        "{name} of a duel is a score between two players, which a brief does not play; write first_move_adv[P] or win_rate[P]"
                    )));
                }
                let bottom = if name == "skill_headroom" {
                    roster.random.ok_or_else(|| {
                        bad(format!(
                            "{} has no random policy, the bottom of the ladder skill_headroom is measured from; write gap[best,{}] instead",
                            self.game, roster.baseline
                        ))
                    })?
                } else {
                    roster.baseline
                };
                (
                    Metric::Gap,
                    vec![roster.best.to_string(), bottom.to_string()],
                )
            }
            column if self.columns.iter().any(|c| c == column) => (
                Metric::Column(column.to_string()),
                players(1, vec![self.policy.to_string()])?,
            ),
            other => {
                return Err(bad(format!("unknown figure {other}; {}", self.offered())));
            }
        };
        let label = match name {
            "skill_headroom" | "gain_over_baseline" => name.to_string(),
            _ => format!("{name}[{}]", players.join(",")),
        };
        Ok(Figure {
            label,
            metric,
            players,
        })
    }

    /// Parses one figure alone, as `flag` gave it (`--figure win_rate[optimal]`): the same
    /// words as a target's figure, every error one line naming the flag and the figure.
    pub fn named(&self, flag: &str, text: &str) -> Result<Figure> {
        let bad = |why: String| SimError::input(format!("{flag} {text}: {why}"));
        self.figure(text, &bad)
    }

    /// Parses one `--target` of a brief. `tolerance` is `--tolerance`, used where the target
    /// gives none of its own (`+-E`); a rate or a difference of rates defaults to two points, a
    /// mean must be given one. Every error is one line naming the target.
    pub fn goal(&self, spec: &str, tolerance: Option<f64>) -> Result<Goal> {
        let bad = |why: String| SimError::input(format!("--target {spec}: {why}"));
        let (body, own) = match spec.split_once("+-") {
            Some((body, e)) => {
                let e: f64 = e
                    .trim()
                    .parse()
                    .ok()
                    .filter(|e: &f64| e.is_finite() && *e >= 0.0)
                    .ok_or_else(|| {
                        bad(format!(
                            "+-{}: a tolerance is a number of 0 or more",
                            e.trim()
                        ))
                    })?;
                (body, Some(e))
            }
            None => (spec, None),
        };
        let shape = "expected FIGURE>=VALUE, FIGURE<=VALUE, FIGURE=VALUE or FIGURE=LOW..HIGH, e.g. win_rate[optimal]>=0.7";
        let (name, op, value) = [(">=", ">="), ("<=", "<="), ("=", "=")]
            .into_iter()
            .find_map(|(op, _)| body.split_once(op).map(|(n, v)| (n.trim(), op, v.trim())))
            .ok_or_else(|| bad(shape.into()))?;
        if name.is_empty() || value.is_empty() {
            return Err(bad(shape.into()));
        }
        let figure = self.figure(name, &bad)?;
        let number = |v: &str| -> Result<f64> {
            v.trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| bad(format!("{} is not a number", v.trim())))
        };
        let want = match (op, value.split_once("..")) {
            ("=", Some((a, b))) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(bad(format!("{a}..{b} is an empty range")));
                }
                Want::Within(a, b)
            }
            (_, Some(_)) => return Err(bad("a range is written FIGURE=LOW..HIGH".into())),
            (">=", None) => Want::AtLeast(number(value)?),
            ("<=", None) => Want::AtMost(number(value)?),
            _ => Want::Equal(number(value)?),
        };
        let scale = figure.metric.scale();
        if let Some((low, high, what)) = scale_range(scale) {
            for v in want.values() {
                if !(low..=high).contains(&v) {
                    return Err(bad(format!(
                        "{} is {what}, between {low} and {high}; {v} is outside",
                        figure.label
                    )));
                }
            }
        }
        let tolerance = own
            .or(tolerance)
            .or_else(|| figure.metric.default_tolerance())
            .ok_or_else(|| {
                bad(format!(
                    "{} is a mean: give its tolerance, e.g. {name}{op}{value}+-0.5, or --tolerance",
                    figure.label
                ))
            })?;
        Ok(Goal {
            spec: spec.trim().to_string(),
            figure,
            want,
            tolerance,
        })
    }
}

/// The values a figure of this scale can take, and their description.
fn scale_range(scale: Scale) -> Option<(f64, f64, &'static str)> {
    match scale {
        Scale::Rate => Some((0.0, 1.0, "a rate")),
        Scale::Difference => Some((-1.0, 1.0, "a difference of two rates")),
        Scale::Mean => None,
    }
}

/// A distance on a figure's scale as the reports give it: `2.00 pts` for a rate or a
/// difference of rates, `0.5000` for a mean.
pub fn distance(scale: Scale, d: f64) -> String {
    match scale {
        Scale::Mean => format!("{d:.4}"),
        Scale::Rate | Scale::Difference => format!("{:.2} pts", 100.0 * d),
    }
}

/// The kind of number the figure named `label` (as the reports name it: `win_rate[optimal]`,
/// `gap[optimal,bank-at-17]`, `skill_headroom`) is.
pub fn scale_of(label: &str) -> Scale {
    let name = label.split('[').next().unwrap_or_default();
    if ["skill_headroom", "gain_over_baseline"].contains(&name) {
        Scale::Difference
    } else {
        Scale::of(name)
    }
}

/// What is measured and whom it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// As the reports name it: `win_rate[optimal]`, `gap[optimal,bank-at-17]`,
    /// `skill_headroom`.
    pub label: String,
    /// How it is read from its players' tallies.
    pub metric: Metric,
    /// Its players' policies, in the order [`Metric::read`] takes their tallies.
    pub players: Vec<String>,
}

/// How a figure must stand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Want {
    /// `=v`: within the tolerance of `v`.
    Equal(f64),
    /// `>=v`.
    AtLeast(f64),
    /// `<=v`.
    AtMost(f64),
    /// `=a..b`: from `a` to `b`.
    Within(f64, f64),
}

impl Want {
    /// The values written.
    fn values(self) -> Vec<f64> {
        match self {
            Self::Equal(v) | Self::AtLeast(v) | Self::AtMost(v) => vec![v],
            Self::Within(a, b) => vec![a, b],
        }
    }

    /// The values that meet it with tolerance `e`, from `low` to `high` (either infinite).
    pub fn zone(self, e: f64) -> (f64, f64) {
        match self {
            Self::Equal(v) => (v - e, v + e),
            Self::AtLeast(v) => (v - e, f64::INFINITY),
            Self::AtMost(v) => (f64::NEG_INFINITY, v + e),
            Self::Within(a, b) => (a - e, b + e),
        }
    }
}

impl fmt::Display for Want {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Equal(v) => write!(f, "= {v}"),
            Self::AtLeast(v) => write!(f, ">= {v}"),
            Self::AtMost(v) => write!(f, "<= {v}"),
            Self::Within(a, b) => write!(f, "= {a}..{b}"),
        }
    }
}

/// One target of a brief: a figure, how it must stand, and the tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// As given on the command line.
    pub spec: String,
    /// What is measured.
    pub figure: Figure,
    /// How it must stand.
    pub want: Want,
    /// How far outside the values written a figure may be and still meet it.
    pub tolerance: f64,
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.figure.label, self.want)?;
        if self.tolerance > 0.0 {
            write!(
                f,
                " +-{}",
                distance(self.figure.metric.scale(), self.tolerance)
            )?;
        }
        Ok(())
    }
}

impl Goal {
    /// The values that meet it.
    pub fn zone(&self) -> (f64, f64) {
        self.want.zone(self.tolerance)
    }

    /// The verdict of `interval`: on target inside the zone, below or above wholly outside
    /// it, at the edge once it is narrower than half the tolerance across an end of the zone
    /// (the figure is then within half the tolerance of that end), else open.
    pub fn verdict(&self, interval: &Estimate) -> Verdict {
        let (low, high) = self.zone();
        let e = self.tolerance;
        if interval.low >= low && interval.high <= high {
            Verdict::OnTarget
        } else if interval.high < low {
            Verdict::Below
        } else if interval.low > high {
            Verdict::Above
        } else if e > 0.0 && interval.high - interval.low <= e / 2.0 {
            Verdict::Edge
        } else {
            Verdict::Open
        }
    }

    /// How far `value` is from meeting it (0 inside the zone), in the figure's units.
    pub fn shortfall(&self, value: f64) -> f64 {
        let (low, high) = self.zone();
        (low - value).max(value - high).max(0.0)
    }
}

/// Two targets on one figure that no value meets together, if any.
pub fn contradiction(goals: &[Goal]) -> Option<(&Goal, &Goal)> {
    goals.iter().enumerate().find_map(|(i, a)| {
        goals[i + 1..].iter().find_map(|b| {
            let ((al, ah), (bl, bh)) = (a.zone(), b.zone());
            (a.figure.label == b.figure.label && (al > bh || bl > ah)).then_some((a, b))
        })
    })
}

/// The players a brief plays, each once, in the order its targets name them.
pub fn players(goals: &[Goal]) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for p in goals.iter().flat_map(|g| &g.figure.players) {
        if !all.contains(p) {
            all.push(p.clone());
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solo game's columns (no game in particular).
    fn solo() -> Vec<String> {
        [
            "win_rate",
            "mean_final_hp",
            "mean_strikes",
            "killed_by_king",
        ]
        .map(String::from)
        .to_vec()
    }

    /// A vocabulary of a solo game without a random policy, or of a duel with one.
    fn vocabulary(columns: &[String], table: Table) -> Vocabulary<'_> {
        let duel = table == Table::Duel;
        Vocabulary {
            game: if duel { "duel" } else { "solo" },
            columns,
            table,
            policy: "optimal",
            baseline: None,
            roster: Roster {
                baseline: if duel { "simple" } else { "plain" },
                best: if duel { "search" } else { "optimal" },
                random: duel.then_some("random"),
                plain: "optimal",
            },
        }
    }

    #[test]
    fn figures_name_their_players_by_policy_or_role() {
        let c = solo();
        let v = vocabulary(&c, Table::Solo);
        let g = v.goal("win_rate[optimal]>=0.7", None).unwrap();
        assert_eq!(g.figure.label, "win_rate[optimal]");
        assert_eq!(g.want, Want::AtLeast(0.7));
        assert_eq!(g.tolerance, 0.02);
        assert_eq!(g.zone(), (0.7 - 0.02, f64::INFINITY));
        let g = v.goal("gap[best, baseline] >= 0.25 +- 0.01", None).unwrap();
        assert_eq!(g.figure.players, ["optimal", "plain"]);
        assert_eq!(g.figure.metric, Metric::Gap);
        assert_eq!(g.tolerance, 0.01);
        let g = v.goal("win_rate<=0.3", Some(0.0)).unwrap();
        assert_eq!(
            (g.figure.label.as_str(), g.tolerance),
            ("win_rate[optimal]", 0.0)
        );
        let g = v.goal("mean_strikes=12..16+-0.5", None).unwrap();
        assert_eq!(g.want, Want::Within(12.0, 16.0));
        assert_eq!(g.zone(), (11.5, 16.5));
        let g = v.goal("gain_over_baseline>=0.1", None).unwrap();
        assert_eq!(g.figure.players, ["optimal", "plain"]);
        let jc: Vec<String> = ["win_rate", "first_move_adv", "mean_turns"]
            .map(String::from)
            .to_vec();
        let j = vocabulary(&jc, Table::Duel);
        let g = j.goal("first_move_adv[best]=0", None).unwrap();
        assert_eq!(g.figure.label, "first_move_adv[search]");
        assert_eq!(
            players(&[g.clone(), j.goal("win_rate[simple]>=0.4", None).unwrap(), g]),
            ["search", "simple"]
        );
    }

    #[test]
    fn bad_targets_name_the_target_and_say_why() {
        let c = solo();
        let v = vocabulary(&c, Table::Solo);
        for (spec, why) in [
            ("win_rate[optimal]", "expected FIGURE>=VALUE"),
            ("win_rate[optimal]>=1.2", "is a rate, between 0 and 1"),
            ("gap[a,b]>=-1.5", "a difference of two rates"),
            (
                "first_move_adv[best]=0",
                "solo has no first_move_adv: it is a duel's figure",
            ),
            (
                "luck_share<=0.3",
                "luck_share is a figure of sim evaluate's whole ladder",
            ),
            ("skill_headroom>=0.2", "solo has no random policy"),
            (
                "wins[optimal]=0.5",
                "unknown figure wins; figures of solo: win_rate[P]",
            ),
            ("gap>=0.2", "write gap[P,Q], or give --baseline"),
            ("gap[optimal]>=0.2", "gap is about 2 players, not 1"),
            ("win_rate[optimal=0.5", "players go in brackets"),
            ("mean_strikes>=12", "is a mean: give its tolerance"),
            ("mean_strikes=16..12+-1", "empty range"),
            ("win_rate>=0.5..0.6", "a range is written"),
            ("win_rate>=0.5+-x", "a tolerance is a number"),
        ] {
            let err = v.goal(spec, None).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("--target {spec}: ")),
                "{spec}: {err}"
            );
            assert!(err.contains(why), "{spec}: {err}");
            assert!(!err.contains('\n'), "{spec}: {err}");
        }
    }

    #[test]
    fn a_label_reads_on_its_figure_s_scale() {
        let c = solo();
        let v = vocabulary(&c, Table::Solo);
        for spec in [
            "win_rate[optimal]>=0.7",
            "gap[best,baseline]>=0.2",
            "gain_over_baseline>=0.1",
            "mean_strikes=12..16+-0.5",
        ] {
            let g = v.goal(spec, None).unwrap();
            assert_eq!(scale_of(&g.figure.label), g.figure.metric.scale(), "{spec}");
        }
    }

    #[test]
    fn verdicts_read_the_interval_against_the_zone() {
        let c = solo();
        let v = vocabulary(&c, Table::Solo);
        let g = v.goal("win_rate>=0.7", None).unwrap();
        let at = |low: f64, high: f64| Estimate {
            value: (low + high) / 2.0,
            low,
            high,
        };
        assert_eq!(g.verdict(&at(0.69, 0.75)), Verdict::OnTarget);
        assert_eq!(g.verdict(&at(0.5, 0.67)), Verdict::Below);
        assert_eq!(g.verdict(&at(0.675, 0.684)), Verdict::Edge);
        assert_eq!(g.verdict(&at(0.6, 0.75)), Verdict::Open);
        let r = v.goal("win_rate=0.4..0.6", None).unwrap();
        assert_eq!(r.verdict(&at(0.7, 0.8)), Verdict::Above);
        assert_eq!(r.shortfall(0.7), 0.7 - 0.62);
        assert_eq!(r.shortfall(0.5), 0.0);
    }

    #[test]
    fn contradictory_targets_on_one_figure_are_found() {
        let c = solo();
        let v = vocabulary(&c, Table::Solo);
        let goal = |s: &str| v.goal(s, None).unwrap();
        let (a, b) = (goal("win_rate>=0.7"), goal("win_rate[optimal]<=0.6"));
        let both = [a.clone(), b.clone()];
        let (x, y) = contradiction(&both).unwrap();
        assert_eq!(
            (x.spec.as_str(), y.spec.as_str()),
            ("win_rate>=0.7", "win_rate[optimal]<=0.6")
        );
        // Within the tolerances they overlap: at least 0.68 and at most 0.69.
        assert!(contradiction(&[a.clone(), goal("win_rate<=0.67")]).is_none());
        assert!(contradiction(&[a, goal("win_rate[bank-at-17]<=0.6")]).is_none());
    }
}
