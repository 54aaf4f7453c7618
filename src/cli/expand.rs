//! Lists and ranges on the command line: `--policy bank-at-12..21`, `--vary start_hp=12,16,20`.

use toml::Value;

use crate::error::{Result, SimError};
use crate::rules::parse_value;

/// The whole numbers `a..b` or `a..b:step` spell (both ends included), or `None` if `text` is
/// not a range. An empty range or a zero step is an error.
fn range(text: &str) -> Option<std::result::Result<Vec<i64>, String>> {
    let (span, step) = match text.rsplit_once(':') {
        Some((span, step)) => (span, step.trim().parse::<i64>().ok()?),
        None => (text, 1),
    };
    let (a, b) = span.split_once("..")?;
    let (a, b) = (a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?);
    if step <= 0 {
        return Some(Err(format!("the step of {text} must be positive")));
    }
    if b < a {
        return Some(Err(format!("{text} is an empty range: write low..high")));
    }
    Some(Ok((a..=b).step_by(step as usize).collect()))
}

/// The policies the `--policy` flags name, in order: a name ending in a range of numbers
/// (`bank-at-12..21`) stands for one policy per number. A policy named twice is refused.
pub fn policies(specs: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for spec in specs {
        let digits = spec.find("..").map(|dots| {
            spec[..dots]
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .len()
        });
        let expanded = match digits.and_then(|start| Some((start, range(&spec[start..])?))) {
            Some((_, Err(e))) => return Err(SimError::input(format!("--policy {spec}: {e}"))),
            Some((start, Ok(numbers))) => numbers
                .iter()
                .map(|n| format!("{}{n}", &spec[..start]))
                .collect(),
            None => vec![spec.clone()],
        };
        for name in expanded {
            if out.contains(&name) {
                return Err(SimError::input(format!(
                    "--policy {spec}: {name} is already among the policies; name each once"
                )));
            }
            out.push(name);
        }
    }
    Ok(out)
}

/// One `--vary PATH=VALUES` flag: the rule path and its values, each with its text.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// The dotted rule path, e.g. `guard_damage.king`.
    pub path: String,
    /// The values as written and as TOML values.
    pub values: Vec<(String, Value)>,
}

impl Vary {
    /// Parses `path=1..5`, `path=0..20:5` or `path=a,b,c`; errors name the flag.
    pub fn parse(spec: &str) -> Result<Self> {
        let bad = |why: &str| SimError::input(format!("--vary {spec}: {why}"));
        let (path, values) = spec.split_once('=').ok_or_else(|| {
            bad("expected PATH=VALUES, e.g. guard_zone=0..3 or start_hp=12,16,20")
        })?;
        let path = path.trim();
        if path.is_empty() {
            return Err(bad("the rule path is missing"));
        }
        let texts: Vec<String> = match range(values.trim()) {
            Some(Ok(numbers)) => numbers.iter().map(i64::to_string).collect(),
            Some(Err(e)) => return Err(bad(&e)),
            None => values.split(',').map(|v| v.trim().to_string()).collect(),
        };
        if texts.iter().any(String::is_empty) {
            return Err(bad(
                "a value is empty: list values as a,b,c or a range as low..high",
            ));
        }
        Ok(Self {
            path: path.to_string(),
            values: texts
                .into_iter()
                .map(|t| {
                    let v = parse_value(&t);
                    (t, v)
                })
                .collect(),
        })
    }
}

/// Every combination of one value per `--vary` flag, the first flag varying slowest; one empty
/// combination without flags.
pub fn combinations(varies: &[Vary]) -> Vec<Vec<(String, String)>> {
    varies.iter().fold(vec![Vec::new()], |combos, vary| {
        combos
            .iter()
            .flat_map(|combo| {
                vary.values.iter().map(move |(text, _)| {
                    let mut next = combo.clone();
                    next.push((vary.path.clone(), text.clone()));
                    next
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn policy_ranges_expand_and_names_pass_through() {
        let got = policies(&strings(&["bank-at-15..17", "bank-at-target"])).unwrap();
        assert_eq!(
            got,
            strings(&["bank-at-15", "bank-at-16", "bank-at-17", "bank-at-target"])
        );
        let err = policies(&strings(&["bank-at-15..17", "bank-at-16"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--policy bank-at-16: bank-at-16 is already among the policies"),
            "{err}"
        );
        assert_eq!(
            policies(&strings(&["strategies/crownfall/cautious.toml"])).unwrap(),
            strings(&["strategies/crownfall/cautious.toml"])
        );
        assert_eq!(
            policies(&strings(&["x-2..10:4"])).unwrap(),
            strings(&["x-2", "x-6", "x-10"])
        );
        let err = policies(&strings(&["bank-at-21..12"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("bank-at-21..12") && err.contains("empty"),
            "{err}"
        );
    }

    #[test]
    fn vary_reads_lists_ranges_and_steps() {
        let v = Vary::parse("guard_damage.king=1..3").unwrap();
        assert_eq!(v.path, "guard_damage.king");
        let texts: Vec<&str> = v.values.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["1", "2", "3"]);
        assert_eq!(v.values[0].1, Value::Integer(1));
        let v = Vary::parse("start_hp=10..20:5").unwrap();
        assert_eq!(v.values.len(), 3);
        let v = Vary::parse("deck=finite, infinite").unwrap();
        assert_eq!(v.values[1].1, Value::String("infinite".into()));
        for bad in [
            "guard_zone",
            "=1,2",
            "guard_zone=3..1",
            "guard_zone=1,,2",
            "x=1..4:0",
        ] {
            let err = Vary::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("--vary {bad}")), "{err}");
        }
    }

    #[test]
    fn combinations_cover_the_product_first_flag_slowest() {
        let a = Vary::parse("a=1,2").unwrap();
        let b = Vary::parse("b=x,y,z").unwrap();
        let combos = combinations(&[a, b]);
        assert_eq!(combos.len(), 6);
        assert_eq!(
            combos[1],
            vec![("a".into(), "1".into()), ("b".into(), "y".into())]
        );
        assert_eq!(combos[3][0], ("a".into(), "2".into()));
        assert_eq!(combinations(&[]), vec![Vec::<(String, String)>::new()]);
    }
}
