//! The values `sim explore` tries for each rule: a rule of a small range takes all of it, a
//! wider one a spread of seven values around the base value (three steps either side, a step
//! an eighth of the value, at least 1, kept within the range), a flag both values, a word every
//! word the rules take. Values the base rule set does not allow (a start above the cap) are
//! left out. A rule without a range (a list, a word that may be a number) is not tried unless
//! `--vary` names its values.

use toml::Value;

use crate::rules::{self, Range, RuleSet};

/// The widest range tried whole.
pub const WHOLE: i64 = 7;

/// Steps either side of the base value for a wider range.
pub const STEPS: i64 = 3;

/// A rule and the values tried, as `--set` takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The rule's path.
    pub path: String,
    /// Its values, in order; the base value among them.
    pub values: Vec<String>,
}

/// What explore tries of one rule: its values, or why none.
pub type Tried = std::result::Result<Vec<String>, &'static str>;

/// Why a rule without a range is not tried.
pub const NO_RANGE: &str = "no range to try (give --vary PATH=VALUES)";

/// The values of every rule of `base`, in the rules' order: each rule's values (those the
/// rules allow with every other rule at `base`'s value), or why it has none.
pub fn plan<R: RuleSet>(base: &R) -> Vec<(String, Tried)> {
    let ranges = rules::ranges(base);
    rules::leaves(&base.to_table())
        .into_iter()
        .map(|(path, value)| {
            let tried = candidates::<R>(&path, &value, &ranges).map(|values| {
                values
                    .into_iter()
                    .filter(|v| allowed(base, &path, v))
                    .collect::<Vec<_>>()
            });
            let tried = match tried {
                Ok(v) if v.len() < 2 => Err("one value only under the other rules"),
                other => other,
            };
            (path, tried)
        })
        .collect()
}

/// The rules of `plan` with values to try.
pub fn trials(plan: &[(String, Tried)]) -> Vec<Trial> {
    plan.iter()
        .filter_map(|(path, tried)| {
            tried.as_ref().ok().map(|values| Trial {
                path: path.clone(),
                values: values.clone(),
            })
        })
        .collect()
}

/// True if `base` with rule `path` set to `value` is a valid rule set.
fn allowed<R: RuleSet>(base: &R, path: &str, value: &str) -> bool {
    let mut table = base.to_table();
    rules::apply_set(&mut table, &format!("{path}={value}")).is_ok()
        && rules::from_table::<R>(table).is_ok()
}

/// The values to try of rule `path`, now `value`, before the other rules are checked.
fn candidates<R: RuleSet>(path: &str, value: &Value, ranges: &[Range]) -> Tried {
    match value {
        Value::Boolean(_) => Ok(vec!["false".into(), "true".into()]),
        Value::String(_) => rules::choices::<R>(path).ok_or(NO_RANGE),
        Value::Integer(v) => {
            let range = ranges.iter().find(|r| r.field == path).ok_or(NO_RANGE)?;
            let (min, max) = (
                range.min.parse::<i64>().map_err(|_| NO_RANGE)?,
                range.max.parse::<i64>().map_err(|_| NO_RANGE)?,
            );
            Ok(spread(*v, min, max)
                .into_iter()
                .map(|v| v.to_string())
                .collect())
        }
        _ => Err(NO_RANGE),
    }
}

/// The integers tried around `base` in `min..=max`: all of them for a range of at most
/// [`WHOLE`], else [`STEPS`] steps either side of `base`, clamped to the range.
pub fn spread(base: i64, min: i64, max: i64) -> Vec<i64> {
    if max - min < WHOLE {
        return (min..=max).collect();
    }
    let step = ((base.abs() + 4) / 8).max(1);
    let mut values: Vec<i64> = (-STEPS..=STEPS)
        .map(|k| (base + k * step).clamp(min, max))
        .collect();
    values.dedup();
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_ranges_are_tried_whole_and_wide_ones_around_the_base() {
        assert_eq!(spread(2, 0, 3), [0, 1, 2, 3]);
        assert_eq!(spread(18, 1, 21), [12, 14, 16, 18, 20, 21]);
        assert_eq!(spread(5, 0, 99), [2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(spread(20, 1, 20), [11, 14, 17, 20]);
        assert_eq!(spread(0, -24, 974), [-3, -2, -1, 0, 1, 2, 3]);
        assert_eq!(spread(1000, 1, 1000), [625, 750, 875, 1000]);
    }
}
