//! The designer's target: a column of the run's summary (or the gap between two policies' win
//! rates) equal to, at least or at most a value; parsed, checked against the game's columns, and
//! read from a tally.

use std::fmt;

use crate::error::{Result, SimError};
use crate::games::Tally;
use crate::stats::estimate::Estimate;

use super::sequential::GameRange;

/// How the metric must stand to the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `=`: as near the value as the rule allows.
    Equal,
    /// `>=`: at least the value.
    AtLeast,
    /// `<=`: at most the value.
    AtMost,
}

impl Relation {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Equal => "=",
            Self::AtLeast => ">=",
            Self::AtMost => "<=",
        }
    }
}

/// What is measured on each candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Metric {
    /// A column of the summary: `win_rate` or one of the game's means.
    Column(String),
    /// The win rate of `--policy` minus that of `--baseline`, on the same deals.
    Gap,
}

impl Metric {
    /// The metric's name: the column, or `gap`.
    pub fn name(&self) -> &str {
        match self {
            Self::Column(c) => c,
            Self::Gap => GAP,
        }
    }

    /// Policies each candidate plays: two for a gap (the policy, then the baseline), else one.
    pub fn policies(&self) -> usize {
        match self {
            Self::Column(_) => 1,
            Self::Gap => 2,
        }
    }

    /// The metric of the tallies of one candidate's cells (as many as [`Metric::policies`]) over
    /// the same games.
    pub fn read<T: Tally>(&self, tallies: &[&T]) -> f64 {
        match self {
            Self::Column(c) => column(tallies[0], c).unwrap_or(f64::NAN),
            Self::Gap => win_rate(tallies[0]) - win_rate(tallies[1]),
        }
    }

    /// What kind of number the metric is, from its name.
    pub fn scale(&self) -> Scale {
        Scale::of(self.name())
    }

    /// The values one game can give the metric, for a metric that is a mean of per-game
    /// values: 0 to 1 for a share of games (each game 0 or 1), -1 to 1 for a difference of two;
    /// `None` for other means and for a share of some games only (`win_as_seat0`).
    pub fn game_range(&self) -> Option<GameRange> {
        match self.scale() {
            Scale::Difference => Some(GameRange {
                low: -1.0,
                high: 1.0,
            }),
            Scale::Rate if !self.name().starts_with("win_as_") => Some(GameRange {
                low: 0.0,
                high: 1.0,
            }),
            _ => None,
        }
    }

    /// The tolerance used when none is given: two points for a rate or a difference of rates;
    /// none for a mean, whose scale the game decides.
    pub fn default_tolerance(&self) -> Option<f64> {
        (self.scale() != Scale::Mean).then_some(0.02)
    }
}

/// What kind of number a metric is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A share of games, in [0, 1].
    Rate,
    /// A difference of two rates, in [-1, 1].
    Difference,
    /// A mean over games: any number.
    Mean,
}

impl Scale {
    /// The kind of number the metric `name` (as `balance.parquet` names it) is.
    pub fn of(name: &str) -> Self {
        if name == GAP || name.ends_with("_adv") {
            Self::Difference
        } else if name.ends_with("_rate")
            || name.starts_with("win_as_")
            || name.starts_with("killed_by_")
        {
            Self::Rate
        } else {
            Self::Mean
        }
    }

    /// The values a metric of this scale can take, and their description.
    fn range(self) -> Option<(f64, f64, &'static str)> {
        match self {
            Self::Rate => Some((0.0, 1.0, "a rate")),
            Self::Difference => Some((-1.0, 1.0, "a difference of two rates")),
            Self::Mean => None,
        }
    }

    /// `e` within the values the metric can take (a confidence interval cut to them is still
    /// one).
    pub fn clamp(self, e: Estimate) -> Estimate {
        match self.range() {
            Some((low, high, _)) => e.clip(low, high),
            None => e,
        }
    }
}

/// The name of the gap metric in `--target`.
const GAP: &str = "gap";

/// The win rate of a tally (0 for no games).
fn win_rate<T: Tally>(tally: &T) -> f64 {
    if tally.games() == 0 {
        0.0
    } else {
        tally.wins() as f64 / tally.games() as f64
    }
}

/// The value of summary column `name` of `tally`, if it has one.
fn column<T: Tally>(tally: &T, name: &str) -> Option<f64> {
    if name == "win_rate" {
        return Some(win_rate(tally));
    }
    tally
        .means()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

/// The summary columns a target may name for a game whose tallies look like `tally`: `win_rate`
/// and the game's means, but not the ends of intervals (`_low`, `_high`) nor times (`_ms`,
/// which depend on the machine).
pub fn columns<T: Tally>(tally: &T) -> Vec<String> {
    std::iter::once("win_rate")
        .chain(tally.means().into_iter().map(|(n, _)| n))
        .filter(|n| !n.ends_with("_low") && !n.ends_with("_high") && !n.ends_with("_ms"))
        .map(String::from)
        .collect()
}

/// A designer's target: `win_rate=0.75`, `first_move_adv=0`, `mean_turns<=30`, `gap>=0.2`.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// What is measured.
    pub metric: Metric,
    /// How it must stand to the value.
    pub relation: Relation,
    /// The value.
    pub value: f64,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.metric.name(),
            self.relation.symbol(),
            self.value
        )
    }
}

impl Target {
    /// Refuses a tolerance `e` under which every value the metric can take is on target (the
    /// band `value +- e` covers the whole range of a rate or a difference of rates): every
    /// candidate would meet it, whatever it plays.
    pub fn check_tolerance(&self, e: f64) -> Result<()> {
        if let Some((low, high, what)) = self.metric.scale().range()
            && self.value - e <= low
            && self.value + e >= high
        {
            return Err(SimError::input(format!(
                "--tolerance {e}: {} is {what}, between {low} and {high}, all within {e} of {}, so every candidate would be on target; give a smaller tolerance, e.g. 0.02",
                self.metric.name(),
                self.value
            )));
        }
        Ok(())
    }

    /// Parses `spec` for a game whose target columns are `columns`; `baseline` says whether a
    /// `--baseline` was given (a gap needs one, and nothing else takes one). Every error is one
    /// line naming the flag and listing the known columns.
    pub fn parse(spec: &str, columns: &[String], baseline: bool) -> Result<Self> {
        let known = format!(
            "known columns: {}, and gap (with --baseline)",
            columns.join(", ")
        );
        let bad = |why: String| SimError::input(format!("--target {spec}: {why}; {known}"));
        let (name, relation, value) = [(">=", Relation::AtLeast), ("<=", Relation::AtMost)]
            .into_iter()
            .chain([("=", Relation::Equal)])
            .find_map(|(op, relation)| {
                spec.split_once(op)
                    .map(|(name, value)| (name.trim(), relation, value.trim()))
            })
            .ok_or_else(|| {
                bad(
                    "expected COLUMN=VALUE, COLUMN>=VALUE or COLUMN<=VALUE, e.g. win_rate=0.5"
                        .into(),
                )
            })?;
        if name.is_empty() || value.is_empty() {
            return Err(bad(
                "expected COLUMN=VALUE, COLUMN>=VALUE or COLUMN<=VALUE, e.g. win_rate=0.5".into(),
            ));
        }
        let metric = if name == GAP {
            Metric::Gap
        } else if columns.iter().any(|c| c == name) {
            Metric::Column(name.to_string())
        } else {
            return Err(bad(format!("unknown column {name}")));
        };
        let value: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| bad(format!("{value} is not a number")))?;
        if let Some((low, high, what)) = metric.scale().range()
            && !(low..=high).contains(&value)
        {
            return Err(bad(format!(
                "{} is {what}, between {low} and {high}",
                metric.name()
            )));
        }
        match (&metric, baseline) {
            (Metric::Gap, false) => Err(SimError::input(format!(
                "--target {spec}: gap is the win rate of --policy minus that of --baseline on the same deals; give --baseline"
            ))),
            (Metric::Column(c), true) => Err(SimError::input(format!(
                "--baseline is for --target gap=VALUE (the win rate of --policy minus the baseline's); --target {spec} measures {c} of --policy alone"
            ))),
            _ => Ok(Self {
                metric,
                relation,
                value,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::junkyard::Junkyard;

    fn junkyard_columns() -> Vec<String> {
        let game = Junkyard::with_policy(Default::default(), "simple").unwrap();
        columns(&game.new_tally())
    }

    #[test]
    fn columns_leave_out_interval_ends() {
        let c = junkyard_columns();
        assert_eq!(c[0], "win_rate");
        assert!(c.contains(&"first_move_adv".to_string()));
        assert!(c.contains(&"seat0_win_rate".to_string()));
        assert!(c.contains(&"mean_turns".to_string()));
        assert!(
            !c.iter()
                .any(|n| n.ends_with("_low") || n.ends_with("_high"))
        );
    }

    #[test]
    fn targets_parse_with_every_relation() {
        let c = junkyard_columns();
        let t = Target::parse("first_move_adv=0", &c, false).unwrap();
        assert_eq!(t.metric, Metric::Column("first_move_adv".into()));
        assert_eq!((t.relation, t.value), (Relation::Equal, 0.0));
        let t = Target::parse(" mean_turns <= 30.5 ", &c, false).unwrap();
        assert_eq!((t.relation, t.value), (Relation::AtMost, 30.5));
        assert_eq!(t.metric.default_tolerance(), None);
        let t = Target::parse("win_rate>=0.45", &c, false).unwrap();
        assert_eq!(t.relation, Relation::AtLeast);
        assert_eq!(t.to_string(), "win_rate >= 0.45");
        let t = Target::parse("gap=-0.2", &c, true).unwrap();
        assert_eq!((t.metric, t.value), (Metric::Gap, -0.2));
    }

    #[test]
    fn bad_targets_say_why_and_list_the_columns() {
        let c = junkyard_columns();
        for (spec, baseline, why) in [
            ("win_rate", false, "expected COLUMN=VALUE"),
            ("=0.5", false, "expected COLUMN=VALUE"),
            ("win_rate=", false, "expected COLUMN=VALUE"),
            ("wins=0.5", false, "unknown column wins"),
            ("first_move_adv_low=0", false, "unknown column"),
            ("win_rate=high", false, "high is not a number"),
            ("win_rate=nan", false, "is not a number"),
            ("win_rate=1.5", false, "win_rate is a rate, between 0 and 1"),
            ("first_move_adv=-2", false, "a difference of two rates"),
            ("gap=0.2", false, "give --baseline"),
            ("win_rate=0.5", true, "--baseline is for --target gap"),
        ] {
            let err = Target::parse(spec, &c, baseline).unwrap_err().to_string();
            assert!(err.contains(why), "{spec}: {err}");
            assert!(!err.contains('\n'), "{spec}: {err}");
            if !baseline && !why.contains("--baseline") {
                assert!(err.contains("known columns: win_rate, "), "{spec}: {err}");
            }
        }
    }
}
