//! A balance search (`sim balance`): the answer with its interval, every candidate tried
//! (its metric with its interval against the target), the steps in the order played, and the
//! rule that stopped each candidate.

use crate::balance::target::Scale as MetricScale;
use crate::error::{Result, SimError};
use crate::report::tables::on_scale;
use crate::report::terminal::{percent, thousands};

use super::super::command::{CommandLine, count};
use super::super::facts::Facts;
use super::super::figure::intervals::{Row as Bar, intervals};
use super::super::figure::scale::Scale;
use super::super::page::{Block, Cell, DataTable, Figure, Headline, Note, Section};
use super::super::{Context, Folder, Kind};
use super::{Recorded, axis_title, distinct, speed_lines, verdict, words};
use crate::results::folder::Frame;
use crate::results::read_back::Interval;

/// The kind of `sim balance`'s folder: `balance.parquet` (beside the candidates' summary).
pub struct Balance;

/// The file it reads.
const FILE: &str = "balance.parquet";

impl Kind for Balance {
    fn name(&self) -> &'static str {
        "balance"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has(FILE)
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let search = Search::read(&folder.table(FILE)?, folder)?;
        let mut section = Section::new(
            self.name(),
            format!(
                "{}: balance of {} for {}",
                search.game,
                search.params.join(" and "),
                search.target
            ),
            search.facts(context)?,
        );
        section.timing = speed_lines(context);
        section.verdict = search.verdict();
        section.blocks.extend(search.answer());
        section.blocks.push(Block::Figure(search.candidates()?));
        section.blocks.push(Block::Table(search.steps()));
        section.blocks.push(Block::Note(Note {
            text: search.stopping_rule(),
        }));
        Ok(section)
    }
}

/// The varied rules of `balance.parquet`: its columns between `baseline` and `candidate`.
pub fn params_of(f: &Frame) -> Vec<String> {
    let names = f.names();
    let at = |n: &str| names.iter().position(|x| x == n);
    match (at("baseline"), at("candidate")) {
        (Some(a), Some(b)) if b > a => names[a + 1..b].to_vec(),
        _ => Vec::new(),
    }
}

/// One candidate played: a row of `balance.parquet`.
struct Candidate {
    row: usize,
    values: Vec<String>,
    candidate: u64,
    step: u64,
    games: u64,
    metric: Interval,
    decision: (f64, f64),
    verdict: String,
    answer: bool,
    neighbour: bool,
}

impl Candidate {
    /// `start_hp = 17`, `start_hp = 17, guard_zone = 2`.
    fn label(&self, params: &[String]) -> String {
        params
            .iter()
            .zip(&self.values)
            .map(|(p, v)| format!("{p} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A search's file, read back.
struct Search {
    game: String,
    policy: String,
    baseline: String,
    params: Vec<String>,
    metric: String,
    relation: String,
    target: String,
    target_value: f64,
    tolerance: f64,
    search: String,
    vary: Vec<String>,
    cap: u64,
    budget: u64,
    confidence: f64,
    candidate_error: f64,
    seed: u64,
    first_game: u64,
    complete: bool,
    rules: String,
    version: String,
    /// In candidate order.
    candidates: Vec<Candidate>,
}

impl Search {
    fn read(f: &Frame, folder: &Folder) -> Result<Self> {
        let params = params_of(f);
        let values = params
            .iter()
            .map(|p| f.texts(p))
            .collect::<Result<Vec<_>>>()?;
        let (candidate, step, games) = (f.u64s("candidate")?, f.u64s("step")?, f.u64s("games")?);
        let (value, low, high) = (f.f64s("value")?, f.f64s("ci_low")?, f.f64s("ci_high")?);
        let (d_low, d_high) = (f.f64s("decision_low")?, f.f64s("decision_high")?);
        let (verdict, answer, neighbour) = (
            f.strings("verdict")?,
            f.bools("answer")?,
            f.bools("neighbour")?,
        );
        let mut candidates: Vec<Candidate> = (0..f.height())
            .map(|i| Candidate {
                row: i,
                values: values.iter().map(|v| v[i].clone()).collect(),
                candidate: candidate[i],
                step: step[i],
                games: games[i],
                metric: Interval {
                    value: value[i],
                    low: low[i],
                    high: high[i],
                },
                decision: (d_low[i], d_high[i]),
                verdict: verdict[i].clone(),
                answer: answer[i],
                neighbour: neighbour[i],
            })
            .collect();
        candidates.sort_by_key(|c| c.candidate);
        let first_text = |c: &str| -> Result<String> {
            f.strings(c)?.into_iter().next().ok_or_else(|| {
                SimError::input(format!(
                    "{}: no candidate was played",
                    folder.path().join(FILE).display()
                ))
            })
        };
        let first_f64 = |c: &str| f.f64s(c).map(|v| v.first().copied().unwrap_or(0.0));
        let first_u64 = |c: &str| f.u64s(c).map(|v| v.first().copied().unwrap_or(0));
        let vary_json = first_text("vary")?;
        let vary: Vec<String> = serde_json::from_str(&vary_json).map_err(|e| {
            SimError::input(format!(
                "{}: column vary is not a JSON list of --vary flags: {e}",
                folder.path().join(FILE).display()
            ))
        })?;
        Ok(Self {
            game: first_text("game")?,
            policy: first_text("policy")?,
            baseline: first_text("baseline")?,
            params,
            metric: first_text("metric")?,
            relation: first_text("relation")?,
            target: first_text("target")?,
            target_value: first_f64("target_value")?,
            tolerance: first_f64("tolerance")?,
            search: first_text("search")?,
            vary,
            cap: first_u64("cap")?,
            budget: first_u64("budget")?,
            confidence: first_f64("confidence")?,
            candidate_error: first_f64("candidate_error")?,
            seed: first_u64("seed")?,
            first_game: first_u64("first_game")?,
            complete: f.bools("complete")?.iter().all(|&c| c),
            rules: first_text("rules")?,
            version: distinct(f.strings("version")?.into_iter()).join(", "),
            candidates,
        })
    }

    fn scale(&self) -> MetricScale {
        MetricScale::of(&self.metric)
    }

    fn show(&self, x: f64) -> String {
        on_scale(self.scale(), x)
    }

    /// The tolerance as a distance from the target: in points for a rate or a difference of
    /// rates (`2.0 pts`), else on the metric's own scale.
    fn tolerance_text(&self) -> String {
        match self.scale() {
            MetricScale::Rate | MetricScale::Difference => {
                format!("{:.1} pts", 100.0 * self.tolerance)
            }
            MetricScale::Mean => format!("{:.4}", self.tolerance),
        }
    }

    /// The target in words: `win_rate = 75.00%`, `first_move_adv >= +0.00 pts`.
    fn target_words(&self) -> String {
        let relation = if self.relation == "=" {
            "=".to_string()
        } else {
            self.relation.clone()
        };
        format!(
            "{} {relation} {}",
            self.metric,
            self.show(self.target_value)
        )
    }

    /// The candidates of the answer's crossing (the answer and its neighbours), in the rule's
    /// order.
    fn bracket(&self) -> Vec<&Candidate> {
        self.candidates
            .iter()
            .filter(|c| c.answer || c.neighbour)
            .collect()
    }

    /// Candidate `c`'s metric with its 95% interval: `73.10% (72.50% to 73.70%)`.
    fn metric_text(&self, c: &Candidate) -> String {
        format!(
            "{} {} ({} to {})",
            self.metric,
            self.show(c.metric.value),
            self.show(c.metric.low),
            self.show(c.metric.high)
        )
    }

    /// The page's verdict: where the target lies (one rule), or the combinations on target.
    fn verdict(&self) -> Vec<String> {
        if self.params.len() > 1 {
            return match self.answer().first() {
                Some(Block::Note(n)) => vec![n.text.clone()],
                _ => Vec::new(),
            };
        }
        let bracket: Vec<(String, String, &str)> = self
            .bracket()
            .iter()
            .map(|c| {
                (
                    c.label(&self.params),
                    self.metric_text(c),
                    c.verdict.as_str(),
                )
            })
            .collect();
        let named: Vec<(&str, String, &str)> = bracket
            .iter()
            .map(|(l, m, v)| (l.as_str(), m.clone(), *v))
            .collect();
        vec![verdict::balance(&self.target_words(), &named)]
    }

    /// Why a candidate's verdict can differ from what its 95% interval alone says: the search
    /// decides on a wider interval. `None` when the two agree.
    fn verdict_note(&self, c: &Candidate) -> Option<String> {
        let plain = if c.metric.low > self.target_value + self.tolerance {
            "above"
        } else if c.metric.high < self.target_value - self.tolerance {
            "below"
        } else {
            return None;
        };
        (c.verdict != plain).then(|| {
            format!(
                "{}: its 95% interval lies {plain} the target, but the interval the search decides on (wider, valid at every look) still reaches it",
                c.verdict
            )
        })
    }

    /// How many candidates the search had (the confidence is shared among them).
    fn combinations(&self) -> u64 {
        ((1.0 - self.confidence) / self.candidate_error).round() as u64
    }

    fn facts(&self, context: &Context) -> Result<Facts> {
        let mut command = CommandLine::new(&["balance", &self.game]);
        command.seating(&self.policy);
        if !self.baseline.is_empty() {
            command.arg("--baseline", self.baseline.clone());
        }
        command.arg(
            "--target",
            format!("{}{}{}", self.metric, self.relation, self.target_value),
        );
        for v in &self.vary {
            command.arg("--vary", v.clone());
        }
        if self.tolerance > 0.0 {
            command.arg("--tolerance", self.tolerance.to_string());
        }
        command.arg("--confidence", self.confidence.to_string());
        command.games(self.cap);
        if self.budget > 0 {
            command.arg("--budget", count(self.budget));
        }
        let recorded = Recorded {
            game: &self.game,
            rules: &self.rules,
            varied: &self.params,
            seed: self.seed,
            first_game: self.first_game,
        };
        let mut facts = recorded.facts(context, command, &[])?;
        facts.policies = std::iter::once(&self.policy)
            .chain(Some(&self.baseline).filter(|b| !b.is_empty()))
            .cloned()
            .collect();
        let total: u64 = self.candidates.iter().map(|c| c.games).sum();
        let per = if self.baseline.is_empty() {
            "games"
        } else {
            "deals, each played by both policies"
        };
        let games = format!(
            "{} {per} over {} of {} candidates (at most {} a candidate{})",
            thousands(total),
            self.candidates.len(),
            self.combinations(),
            thousands(self.cap),
            if self.budget > 0 {
                format!(", {} in all", thousands(self.budget))
            } else {
                String::new()
            }
        );
        recorded.finish(
            &mut facts,
            games,
            self.version.clone(),
            self.complete,
            "the search was stopped early; the verdicts are those reached before it stopped",
        );
        Ok(facts)
    }

    /// The answer: the value found (one rule), the combinations on target (several), or that
    /// there is none.
    fn answer(&self) -> Vec<Block> {
        let answers: Vec<&Candidate> = self.candidates.iter().filter(|c| c.answer).collect();
        let several = self.params.len() > 1;
        if answers.is_empty() {
            let text = if several {
                format!(
                    "No combination is on target (within {} of {}); the table gives the side of the target each was settled on, or open.",
                    self.tolerance_text(),
                    self.target
                )
            } else {
                format!(
                    "No answer: no value could be told to meet {} in the games allowed; the table gives every verdict.",
                    self.target
                )
            };
            return vec![Block::Note(Note { text })];
        }
        if several {
            let list: Vec<String> = answers.iter().map(|c| c.label(&self.params)).collect();
            return vec![Block::Note(Note {
                text: format!(
                    "On target ({} within {}): {} of {} combinations: {}.",
                    self.target,
                    self.tolerance_text(),
                    answers.len(),
                    self.combinations(),
                    list.join("; ")
                ),
            })];
        }
        let bracket = self.bracket();
        answers
            .iter()
            .map(|c| {
                let outside = c.verdict != "on target"
                    && self
                        .candidates
                        .iter()
                        .all(|o| o.verdict == c.verdict || o.verdict == "open");
                let label = match (bracket.first(), bracket.last()) {
                    _ if outside => format!(
                        "answer (the target lies outside the range; the nearest end): {}",
                        c.label(&self.params)
                    ),
                    (Some(a), Some(b)) if a.candidate != b.candidate => format!(
                        "the target lies between {} and {}; the answer, {}, gives {}",
                        a.label(&self.params),
                        b.label(&self.params),
                        c.label(&self.params),
                        self.metric
                    ),
                    _ => format!(
                        "answer: {} gives {}",
                        c.label(&self.params),
                        self.metric
                    ),
                };
                Block::Headline(Headline {
                    label,
                    value: self.cell("value", c.metric.value),
                    interval: format!(
                        "(95% CI {} to {}; {} the target {}, decided on the search's interval {} to {})",
                        self.show(c.metric.low),
                        self.show(c.metric.high),
                        match c.verdict.as_str() {
                            "open" => "not settled against",
                            "on target" => "on",
                            other => other,
                        },
                        self.show(self.target_value),
                        self.show_end(c.decision.0),
                        self.show_end(c.decision.1)
                    ),
                })
            })
            .collect()
    }

    /// An interval's end `x`: an infinite end (nothing to go on) reads `none`.
    fn show_end(&self, x: f64) -> String {
        if x.is_finite() {
            self.show(x)
        } else {
            "none".to_string()
        }
    }

    /// The cell of `x`, of column `col`.
    fn cell(&self, col: &str, x: f64) -> Cell {
        Cell::number(col, x, self.show_end(x))
    }

    /// Every candidate played, in the rule's order: its metric with its 95% interval (colour)
    /// and the interval the search decided on (grey), against the target.
    fn candidates(&self) -> Result<Figure> {
        let bars: Vec<Bar> = self
            .candidates
            .iter()
            .map(|c| Bar {
                label: format!(
                    "{}{}",
                    c.label(&self.params),
                    if c.answer { " (answer)" } else { "" }
                ),
                value: c.metric.value,
                low: c.metric.low,
                high: c.metric.high,
                // An end is infinite when the test had nothing to go on yet.
                wide: (c.decision.0.is_finite() && c.decision.1.is_finite()).then_some(c.decision),
            })
            .collect();
        let scale = match self.scale() {
            MetricScale::Rate => Scale::Percent,
            MetricScale::Difference => Scale::Points,
            MetricScale::Mean => Scale::Number,
        };
        let caption = format!(
            "{} of each candidate played, with its 95% interval (colour) and the interval the search decided on (grey); the dashed line is the target, {}.",
            self.metric, self.target
        );
        let x_desc = match scale {
            Scale::Number => axis_title(&self.metric),
            _ => words(&self.metric),
        };
        let svg = intervals(&bars, &x_desc, scale, Some(self.target_value), &caption)?;
        let mut data = DataTable::new(
            "candidates-data",
            "The candidates drawn, in the rule's order",
            &[
                "candidate",
                "value",
                "95% CI low",
                "95% CI high",
                "decided low",
                "decided high",
            ],
        )
        .from_file(FILE);
        for c in &self.candidates {
            data.push(
                c.row.to_string(),
                vec![
                    Cell::text(c.label(&self.params)),
                    self.cell("value", c.metric.value),
                    self.cell("ci_low", c.metric.low),
                    self.cell("ci_high", c.metric.high),
                    self.cell("decision_low", c.decision.0),
                    self.cell("decision_high", c.decision.1),
                ],
            );
        }
        Ok(Figure::new("candidates", caption, svg).with_data(data))
    }

    /// The candidates in the order the search played them.
    fn steps(&self) -> DataTable {
        let mut headers: Vec<&str> = vec!["step"];
        headers.extend(self.params.iter().map(String::as_str));
        headers.extend([
            "games",
            &self.metric,
            "95% CI low",
            "95% CI high",
            "decided low",
            "decided high",
            "verdict",
            "",
        ]);
        let mut t = DataTable::new(
            "steps",
            format!(
                "How the search went ({}): each candidate in the order it was first played, with the games it took to its verdict",
                self.search
            ),
            &headers,
        )
        .from_file(FILE);
        let mut order: Vec<&Candidate> = self.candidates.iter().collect();
        order.sort_by_key(|c| (c.step == 0, c.step, c.candidate));
        for c in order {
            let mut cells = vec![Cell::number("step", c.step, c.step.to_string())];
            cells.extend(
                self.params
                    .iter()
                    .zip(&c.values)
                    .map(|(p, v)| Cell::number(p, v, v.clone())),
            );
            cells.extend([
                Cell::number("games", c.games, thousands(c.games)),
                self.cell("value", c.metric.value),
                self.cell("ci_low", c.metric.low),
                self.cell("ci_high", c.metric.high),
                self.cell("decision_low", c.decision.0),
                self.cell("decision_high", c.decision.1),
                Cell::number(
                    "verdict",
                    &c.verdict,
                    self.verdict_note(c).unwrap_or_else(|| c.verdict.clone()),
                )
                .with_class("text"),
                Cell::text(if c.answer {
                    "answer"
                } else if c.neighbour {
                    "neighbour"
                } else {
                    ""
                }),
            ]);
            t.push(c.row.to_string(), cells);
        }
        t
    }

    /// How each candidate, and the search, stopped.
    fn stopping_rule(&self) -> String {
        let within = if self.tolerance > 0.0 {
            format!(
                "the target {} {} (within {} of it counts as on target)",
                self.relation,
                self.show(self.target_value),
                self.tolerance_text()
            )
        } else {
            format!(
                "the target {} {}",
                self.relation,
                self.show(self.target_value)
            )
        };
        let how = match self.search.as_str() {
            "bisection" => {
                "Bisection: both ends first, then the middle of the bracket, until the values settled on either side are neighbours."
            }
            "scan" => {
                "A scan: the values did not move one way along the rule, so every value was played (by successive elimination) and every crossing reported."
            }
            _ => {
                "Successive elimination: every combination still open played the next batch of the same games, and left as soon as its verdict was reached."
            }
        };
        format!(
            "{how} Every candidate played batches of the same games and stopped as soon as the interval it was decided on (a confidence sequence, valid at every look) lay wholly above or below {within}, or at {} games (open){}. Every verdict holds together with probability at least {}: each candidate's test errs at most {} ({} shared by {} candidates).",
            thousands(self.cap),
            if self.budget > 0 {
                format!(
                    "; the whole search stops at {} games",
                    thousands(self.budget)
                )
            } else {
                String::new()
            },
            percent(self.confidence),
            percent(self.candidate_error),
            percent(1.0 - self.confidence),
            self.combinations()
        )
    }
}
