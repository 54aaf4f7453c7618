//! The balance report: the answer first, then how sure and how it searched, then every
//! candidate played; as text or as one JSON document.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::balance::answer::{Answer, Crossing};
use crate::balance::bisect::Method;
use crate::balance::monotone::Breach;
use crate::balance::region::span;
use crate::balance::sequential::Verdict;
use crate::balance::target::{Relation, Scale};
use crate::report::json;
use crate::report::tables::{grid, on_scale, table};
use crate::report::terminal::{per_second, rules_line, thousands, threads};
use crate::report::verdict;
use crate::results::balance::BalanceRow;
use crate::results::summary::Speed;
use crate::stats::estimate::Estimate;

use super::{Balance, Found, Way, describe};

impl Balance {
    fn scale(&self) -> Scale {
        self.target.metric.scale()
    }

    /// The row of candidate `c`, if it played.
    fn row(&self, c: usize) -> Option<&BalanceRow> {
        self.rows.iter().find(|r| r.candidate == c)
    }

    /// `start_hp = 17: win_rate 75.68% (95% CI 75.12% to 76.24%)`.
    fn figure(&self, c: usize) -> String {
        let label = describe(&self.combos[c]);
        match self.row(c) {
            Some(r) => format!(
                "{label}: {} {} (95% CI {})",
                self.target.metric.name(),
                on_scale(self.scale(), r.metric.value),
                self.interval(&r.metric)
            ),
            None => label,
        }
    }

    /// `73.10%, below`.
    fn brief(&self, c: usize) -> String {
        match self.row(c) {
            Some(r) => format!("{}, {}", on_scale(self.scale(), r.metric.value), r.verdict),
            None => "not played".to_string(),
        }
    }

    fn interval(&self, e: &Estimate) -> String {
        format!(
            "{} to {}",
            on_scale(self.scale(), e.low),
            on_scale(self.scale(), e.high)
        )
    }

    /// The tolerance as a distance: `+-2.00 pts`, or `+-1.5000` for a mean.
    fn tolerance_text(&self) -> String {
        match self.scale() {
            Scale::Mean => format!("+-{:.4}", self.tolerance),
            Scale::Rate | Scale::Difference => format!("+-{:.2} pts", 100.0 * self.tolerance),
        }
    }

    /// Half the tolerance, as a distance: `within 1.00 pts`.
    fn half_tolerance_text(&self) -> String {
        match self.scale() {
            Scale::Mean => format!("within {:.4}", self.tolerance / 2.0),
            Scale::Rate | Scale::Difference => {
                format!("within {:.2} pts", 50.0 * self.tolerance)
            }
        }
    }

    fn header(&self) -> String {
        let mut s = format!("{} balance | policy {}", self.info.game, self.info.policy);
        if !self.info.baseline.is_empty() {
            s.push_str(&format!(" against {}", self.info.baseline));
        }
        s.push_str(&format!(" | target {}", self.target));
        if self.tolerance > 0.0 {
            s.push_str(&format!(" {}", self.tolerance_text()));
        }
        let what = if self.varies.len() == 1 {
            "values"
        } else {
            "cells"
        };
        s.push_str(&format!(
            " | {} ({} {what}) | seed {}\n",
            self.specs.join(" x "),
            self.combos.len(),
            self.info.seed
        ));
        s.push_str(&rules_line(&self.changed));
        s
    }

    /// The one-rule answer in one sentence, for the top of the report: where the target lies
    /// among the values played and the value answered (see [`verdict::bracket`]); `None` for a
    /// contour or no answer.
    pub fn headline(&self) -> Option<String> {
        let Found::One(answer) = &self.found else {
            return None;
        };
        let target = self.target_text();
        Some(match answer {
            Answer::Found {
                crossings,
                main,
                value,
            } => {
                let members: Vec<(String, String)> = crossings[*main]
                    .members()
                    .iter()
                    .map(|&c| (describe(&self.combos[c]), self.brief(c)))
                    .collect();
                verdict::bracket(&target, &members, &describe(&self.combos[*value]))
            }
            Answer::Outside { side, nearest } => match self.flat_at(*nearest) {
                Some(flat) => format!(
                    "{target} is outside the range: every value played is {} it; {flat}",
                    side.word()
                ),
                None => format!(
                    "{target} is outside the range: every value played is {} it; nearest {} ({})",
                    side.word(),
                    describe(&self.combos[*nearest]),
                    self.brief(*nearest)
                ),
            },
            Answer::Unknown => format!("{target}: no value settled before the search stopped"),
        })
    }

    /// The target with its tolerance: `win_rate = 0.6 +-2.00 pts`.
    fn target_text(&self) -> String {
        if self.tolerance > 0.0 {
            format!("{} {}", self.target, self.tolerance_text())
        } else {
            self.target.to_string()
        }
    }

    /// Why an open candidate whose 95% interval excludes the target is still open; empty
    /// otherwise.
    fn open_why(&self, c: usize) -> String {
        let Some(r) = self.row(c) else {
            return String::new();
        };
        let t = self.target.value;
        if r.metric.low > t || r.metric.high < t {
            format!(
                " (its 95% CI {} excludes the target, but a verdict is decided on the wider interval {} that holds at every look of the sequential test and for every candidate together)",
                self.interval(&r.metric),
                self.interval(&r.decision)
            )
        } else {
            String::new()
        }
    }

    /// The one-rule answer's lines.
    fn one_rule(&self, answer: &Answer) -> String {
        match answer {
            Answer::Found {
                crossings,
                main,
                value,
            } => {
                let how = match self.target.relation {
                    Relation::Equal => "nearest the target".to_string(),
                    r => format!(
                        "the value next to the crossing with {} {} {}",
                        self.target.metric.name(),
                        r.symbol(),
                        self.target.value
                    ),
                };
                let mut s = format!("  answer: {}, {how}\n", self.figure(*value));
                s.push_str(&format!(
                    "    the target lies between: {}\n",
                    self.crossing(&crossings[*main])
                ));
                let open: Vec<String> = crossings[*main]
                    .near
                    .iter()
                    .filter(|&&c| self.played.verdicts[c] == Some(Verdict::Open))
                    .map(|&c| format!("{}{}", describe(&self.combos[c]), self.open_why(c)))
                    .collect();
                if !open.is_empty() {
                    s.push_str(&format!(
                        "    open: {} cannot be told from the target in {} games (raise --games, or give --tolerance)\n",
                        open.join("; "),
                        thousands(self.cap)
                    ));
                }
                for (i, x) in crossings.iter().enumerate() {
                    if i != *main {
                        s.push_str(&format!(
                            "    the metric also crosses the target between: {}\n",
                            self.crossing(x)
                        ));
                    }
                }
                s
            }
            Answer::Outside { side, nearest } => match self.flat_at(*nearest) {
                Some(flat) => format!(
                    "  answer: the target is outside the range: every value played is {} it; {}\n",
                    side.word(),
                    flat
                ),
                None => format!(
                    "  answer: the target is outside the range: every value played is {} it; nearest is {}\n",
                    side.word(),
                    self.figure(*nearest)
                ),
            },
            Answer::Unknown => {
                "  answer: none: the search stopped before any value was settled\n".to_string()
            }
        }
    }

    /// The span of the metric over the values played, if it is flat where `nearest` is (other
    /// values played gave it the same result on the same games): then no value there is nearer
    /// the target than another, and the report says where it is flat instead of naming one.
    fn flat_at(&self, nearest: usize) -> Option<String> {
        let values: Vec<Option<f64>> = (0..self.combos.len())
            .map(|c| self.row(c).map(|r| r.metric.value))
            .collect();
        let sp = span(&values, |a, b| values[a] == values[b])?;
        let (a, b) = sp
            .flat
            .into_iter()
            .find(|&(a, b)| (a..=b).contains(&nearest))?;
        let show = |c: usize| {
            format!(
                "{} ({})",
                describe(&self.combos[c]),
                on_scale(self.scale(), values[c].unwrap_or(f64::NAN))
            )
        };
        Some(format!(
            "{} spans {} to {} over the values played, and is flat from {} to {} (the same games give the same results): no value there is nearer the target than another",
            self.target.metric.name(),
            show(sp.least.0),
            show(sp.greatest.0),
            describe(&self.combos[a]),
            describe(&self.combos[b])
        ))
    }

    fn crossing(&self, x: &Crossing) -> String {
        x.members()
            .iter()
            .map(|&c| format!("{} ({})", describe(&self.combos[c]), self.brief(c)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The contour's lines: the cells on target, or where it passes, and the grid of verdicts.
    fn contour(&self, meets: &[usize], between: &[(usize, usize)]) -> String {
        let mut s = if meets.is_empty() {
            format!(
                "  answer: no combination meets {} within {}\n",
                self.target,
                self.tolerance_text()
            )
        } else {
            format!(
                "  answer: {} of {} combinations meet {} within {}:\n",
                meets.len(),
                self.combos.len(),
                self.target,
                self.tolerance_text()
            )
        };
        for &c in meets {
            s.push_str(&format!("    {}\n", self.figure(c)));
        }
        let edge: Vec<usize> = (0..self.combos.len())
            .filter(|&c| self.played.verdicts[c] == Some(Verdict::Edge))
            .collect();
        if !edge.is_empty() {
            s.push_str(&format!(
                "  at the edge of the tolerance ({} of {} or {}, either side):\n",
                self.half_tolerance_text(),
                on_scale(self.scale(), self.target.value - self.tolerance),
                on_scale(self.scale(), self.target.value + self.tolerance)
            ));
            for c in edge {
                s.push_str(&format!("    {}\n", self.figure(c)));
            }
        }
        if !between.is_empty() {
            let steps: Vec<String> = between
                .iter()
                .map(|&(a, b)| {
                    format!(
                        "{} | {}",
                        describe(&self.combos[a]),
                        describe(&self.combos[b])
                    )
                })
                .collect();
            s.push_str(&format!(
                "  the contour also passes between neighbours: {}\n",
                steps.join("; ")
            ));
        }
        let open = self
            .played
            .verdicts
            .iter()
            .filter(|v| **v == Some(Verdict::Open))
            .count();
        if open > 0 {
            s.push_str(&format!(
                "  {open} combinations left open at the game cap or the budget\n"
            ));
        }
        if let [rows, columns] = &self.varies[..] {
            s.push_str(&format!(
                "  {} by {} and {} (= on target, < below, > above, ~ at the edge, ? open):\n",
                self.target.metric.name(),
                rows.path,
                columns.path
            ));
            let entries: Vec<(String, String, String)> = self
                .rows
                .iter()
                .map(|r| {
                    let mark = match r.verdict {
                        "on target" => "=",
                        "below" => "<",
                        "above" => ">",
                        "edge" => "~",
                        _ => "?",
                    };
                    (
                        r.params[0].1.clone(),
                        r.params[1].1.clone(),
                        format!("{} {mark}", on_scale(self.scale(), r.metric.value)),
                    )
                })
                .collect();
            s.push_str(&grid(
                &format!("{} \\ {}", rows.path, columns.path),
                &entries,
            ));
        }
        s
    }

    /// The confidence and search lines.
    fn how(&self) -> String {
        let n = self.combos.len();
        let mut s = format!(
            "  confidence: every verdict holds together with probability at least {}: each candidate's sequential test errs at most {} ({} shared by {n}), at every look\n",
            share(self.info.confidence),
            share(self.info.candidate_error),
            share(1.0 - self.info.confidence),
        );
        let what = match self.way {
            Way::One(Method::Bisection) => "bisection".to_string(),
            Way::One(Method::Scan(_)) => "every value (the metric is not monotone)".to_string(),
            Way::Elimination => "successive elimination over every combination".to_string(),
        };
        s.push_str(&format!(
            "  search: {what}; {} of {n} candidates played, {} games (at most {} each{})\n",
            self.rows.len(),
            thousands(self.speed.games),
            thousands(self.cap),
            self.budget
                .map_or(String::new(), |b| format!(", {} in all", thousands(b)))
        ));
        if let Way::One(Method::Scan(breach)) = self.way {
            s.push_str(&format!(
                "  not monotone: {}; bisection would be unsafe, so every value was played\n",
                self.breach(breach)
            ));
        }
        if self.played.budget_spent {
            s.push_str("  the budget ran out with candidates still open\n");
        }
        if !self.played.complete {
            s.push_str(&format!(
                "  stopped early ({}): the search is unfinished, marked complete = false\n",
                crate::stop::cause()
            ));
        }
        s
    }

    fn breach(&self, breach: Breach) -> String {
        match breach {
            Breach::Sides([a, b, c]) => format!(
                "{} ({}), then {} ({}), then {} ({}): the metric crosses the target more than once",
                describe(&self.combos[a]),
                self.brief(a),
                describe(&self.combos[b]),
                self.brief(b),
                describe(&self.combos[c]),
                self.brief(c)
            ),
            Breach::Difference { first, second } => format!(
                "on the same games {} ({}) and {} ({}) differ against the direction of the range's ends",
                describe(&self.combos[first]),
                self.brief(first),
                describe(&self.combos[second]),
                self.brief(second)
            ),
        }
    }

    /// Every candidate played, in the rules' order.
    fn candidates(&self) -> String {
        let mut headers: Vec<String> = self.varies.iter().map(|v| v.path.clone()).collect();
        let left = headers.len();
        headers.extend(
            [
                "step",
                "games",
                self.target.metric.name(),
                "95% CI",
                "decided on",
                "verdict",
                "",
            ]
            .map(String::from),
        );
        let lines: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let mut cells: Vec<String> = r.params.iter().map(|(_, v)| v.clone()).collect();
                cells.extend([
                    r.step.to_string(),
                    thousands(r.games),
                    on_scale(self.scale(), r.metric.value),
                    self.interval(&r.metric),
                    self.interval(&r.decision),
                    r.verdict.to_string(),
                    if r.answer {
                        "answer".to_string()
                    } else if r.neighbour {
                        "neighbour".to_string()
                    } else {
                        String::new()
                    },
                ]);
                cells
            })
            .collect();
        table(&headers, &lines, left)
    }
}

/// A probability in percent with as many decimals as it needs, up to three: `95%`, `0.385%`.
pub(super) fn share(p: f64) -> String {
    let text = format!("{:.3}", 100.0 * p);
    format!("{}%", text.trim_end_matches('0').trim_end_matches('.'))
}

/// The text report.
pub fn text(b: &Balance, written: &[PathBuf]) -> String {
    let mut s = b.header();
    if let Some(line) = b.headline() {
        s.push_str(&format!("  verdict: {line}\n"));
    }
    s.push_str(&match &b.found {
        Found::One(answer) => b.one_rule(answer),
        Found::Contour(c) => b.contour(&c.meets, &c.between),
    });
    s.push_str(&b.how());
    s.push_str(&b.candidates());
    s.push_str(&speed_and_files(&b.speed, written));
    s
}

/// A search's last lines: its speed, then every file written.
pub(crate) fn speed_and_files(speed: &Speed, written: &[PathBuf]) -> String {
    let mut s = format!(
        "  speed: {} games in {:.2} s, {} games/s on {} ({} per thread)\n",
        thousands(speed.games),
        speed.seconds,
        per_second(speed.rate()),
        threads(speed.threads),
        per_second(speed.per_thread())
    );
    for path in written {
        s.push_str(&format!("  wrote {}\n", path.display()));
    }
    s
}

/// The JSON report: the answer, the search, and every candidate's row of `balance.parquet`.
pub fn json(b: &Balance, written: &[PathBuf]) -> Value {
    let fields: Vec<_> = b.rows.iter().map(|r| r.fields(&b.info)).collect();
    let objects = json::objects(&fields);
    let row = |c: usize| -> Value {
        b.rows
            .iter()
            .position(|r| r.candidate == c)
            .map_or(Value::Null, |i| Value::Object(objects[i].clone()))
    };
    let answer = match &b.found {
        Found::One(Answer::Found {
            crossings,
            main,
            value,
        }) => json!({
            "kind": "found",
            "value": row(*value),
            "neighbours": crossings[*main]
                .members()
                .into_iter()
                .filter(|c| c != value)
                .map(row)
                .collect::<Vec<_>>(),
            "crossings": crossings.iter().map(Crossing::members).collect::<Vec<_>>(),
        }),
        Found::One(Answer::Outside { side, nearest }) => json!({
            "kind": "outside",
            "side": side.word(),
            "value": row(*nearest),
            "flat": b.flat_at(*nearest),
        }),
        Found::One(Answer::Unknown) => json!({ "kind": "unknown" }),
        Found::Contour(c) => json!({
            "kind": "contour",
            "meets": c.meets.iter().map(|&m| row(m)).collect::<Vec<_>>(),
            "between": c.between,
        }),
    };
    let breach = match b.way {
        Way::One(Method::Scan(breach)) => Value::String(b.breach(breach)),
        _ => Value::Null,
    };
    let vary: Vec<Value> = b
        .varies
        .iter()
        .map(|v| {
            let values: Vec<&str> = v.values.iter().map(|(t, _)| t.as_str()).collect();
            json!({ "path": v.path, "values": values })
        })
        .collect();
    let mut doc = Map::new();
    doc.insert("game".into(), json!(b.info.game));
    doc.insert("policy".into(), json!(b.info.policy));
    doc.insert(
        "baseline".into(),
        if b.info.baseline.is_empty() {
            Value::Null
        } else {
            json!(b.info.baseline)
        },
    );
    doc.insert(
        "target".into(),
        json!({
            "metric": b.target.metric.name(),
            "relation": b.target.relation.symbol(),
            "value": b.target.value,
            "tolerance": b.tolerance,
            "tolerance_shown": if b.tolerance > 0.0 { json!(b.tolerance_text()) } else { Value::Null },
        }),
    );
    doc.insert("verdict".into(), json!(b.headline()));
    let rules: Map<String, Value> = b
        .changed
        .iter()
        .map(|(p, v)| (p.clone(), json!(v)))
        .collect();
    doc.insert("rules_changed".into(), Value::Object(rules));
    doc.insert("vary".into(), Value::Array(vary));
    doc.insert("answer".into(), answer);
    doc.insert("search".into(), json!(b.way.name()));
    doc.insert("not_monotone".into(), breach);
    doc.insert("confidence".into(), json!(b.info.confidence));
    doc.insert("candidate_error".into(), json!(b.info.candidate_error));
    doc.insert(
        "candidates".into(),
        Value::Array(objects.into_iter().map(Value::Object).collect()),
    );
    doc.insert("cap".into(), json!(b.cap));
    doc.insert("budget".into(), json!(b.budget));
    doc.insert("budget_spent".into(), json!(b.played.budget_spent));
    doc.insert("complete".into(), json!(b.played.complete));
    doc.insert("seed".into(), json!(b.info.seed));
    doc.insert("first_game".into(), json!(b.info.first_game));
    doc.insert("speed".into(), json::speed(&b.speed));
    doc.insert("files".into(), json::files(written));
    Value::Object(doc)
}
