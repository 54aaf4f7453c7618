//! A solve (`sim solve crownfall --report`): the optimal policy's win probability, the
//! policies evaluated against it, and its chart drawn as blackjack strategy charts: for each
//! royal, bank or push at each total (rows) and HP (columns), coloured; cells where the tower
//! left changes the answer are shaded lighter and say in how many tower states each holds.

use serde_json::Value;

use crate::error::{Result, SimError};
use crate::report::tables::points;
use crate::report::terminal::{percent, thousands};

use super::super::command::CommandLine;
use super::super::facts::{Facts, changed_rules};
use super::super::page::{Block, Cell, DataTable, Headline, Note, Section};
use super::super::{Context, Folder, Kind};
use crate::results::folder::Frame;

/// The file `sim solve --report` writes beside the chart: its JSON report.
pub const RECORD: &str = "solve.json";
/// The chart's file name when `--report` chooses it.
pub const CHART: &str = "chart.parquet";

/// The kind of a solve's folder: `solve.json` (or a bare `chart.parquet`).
pub struct Solve;

impl Kind for Solve {
    fn name(&self) -> &'static str {
        "solve"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has(RECORD) || (folder.has(CHART) && !folder.has("summary.parquet"))
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let record = if folder.has(RECORD) {
            let record = folder.json(RECORD)?;
            check_record(&record).map_err(|why| {
                SimError::input(format!(
                    "{}: {why}; sim solve crownfall --report writes it whole, so solve again",
                    folder.path().join(RECORD).display()
                ))
            })?;
            Some(record)
        } else {
            None
        };
        let chart_name = record
            .as_ref()
            .and_then(|r| r.get("chart")?.as_str().map(str::to_string))
            .unwrap_or_else(|| CHART.to_string());
        let chart = folder.table(&chart_name)?;
        let game = record
            .as_ref()
            .and_then(|r| r.get("game")?.as_str().map(str::to_string))
            .unwrap_or_else(|| "crownfall".to_string());
        let facts = facts(&game, record.as_ref(), &chart_name, context)?;
        let mut section = Section::new(
            self.name(),
            format!("{game}: the optimal policy, solved"),
            facts,
        );
        if let Some(r) = &record {
            section.timing = r
                .get("seconds")
                .and_then(Value::as_f64)
                .map(|s| format!("Solved in {s:.3} s."))
                .into_iter()
                .collect();
            section.blocks.extend(headline(r));
            section.verdict = solve_verdict(r);
        }
        let states = States::read(&chart)?;
        for royal in ["jack", "queen", "king"] {
            for (kind, low) in [("hard", 2), ("soft", 11)] {
                section
                    .blocks
                    .push(Block::Table(states.royal_chart(royal, kind, low)?));
            }
        }
        section.blocks.push(Block::Table(states.joker_chart()));
        section.blocks.push(Block::Note(Note {
            text: "B: bank at this total; P: push (flip another card). D: double or nothing after an odd Joker flip; A: accept. Lighter cells change with the tower cards left: the letter is what most tower states do (hover for how many).".into(),
        }));
        Ok(section)
    }
}

/// What `sim solve --report` writes into its record, each field checked against what it can be:
/// why the record is not one, if it is not.
fn check_record(record: &Value) -> std::result::Result<(), String> {
    let text = |field: &str| {
        record
            .get(field)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(|_| ())
            .ok_or_else(|| format!("no {field} (a text)"))
    };
    let probability = |value: Option<&Value>, field: &str| {
        value
            .and_then(Value::as_f64)
            .filter(|p| (0.0..=1.0).contains(p))
            .map(|_| ())
            .ok_or_else(|| format!("no {field} (a probability from 0 to 1)"))
    };
    text("game")?;
    text("version")?;
    text("chart")?;
    probability(record.get("win_probability"), "win_probability")?;
    record
        .get("states")
        .and_then(Value::as_u64)
        .filter(|&n| n > 0)
        .ok_or("no states (a count of at least 1)")?;
    record
        .get("rules")
        .filter(|r| r.is_object())
        .ok_or("no rules (a table of the rules solved)")?;
    let evaluated = record
        .get("evaluated")
        .and_then(Value::as_array)
        .ok_or("no evaluated (a list, empty if no policy was evaluated)")?;
    for (i, e) in evaluated.iter().enumerate() {
        e.get("policy")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("no evaluated[{i}].policy (a text)"))?;
        probability(
            e.get("win_probability"),
            &format!("evaluated[{i}].win_probability"),
        )?;
    }
    Ok(())
}

/// The facts of a solve: no seed and no games, an exact solution.
fn facts(game: &str, record: Option<&Value>, chart: &str, context: &Context) -> Result<Facts> {
    let defaults = (context.game(game)?.default_rules)();
    let rules = record
        .and_then(|r| r.get("rules"))
        .map(|r| changed_rules(&r.to_string(), &defaults, &[]))
        .unwrap_or_default();
    let evaluated: Vec<String> = record
        .and_then(|r| r.get("evaluated")?.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|e| e.get("policy")?.as_str().map(str::to_string))
        .collect();
    let mut command = CommandLine::new(&["solve", game]);
    command.rules(&rules);
    for p in &evaluated {
        command.arg("--evaluate", p.clone());
    }
    command.arg("--chart", chart);
    let mut facts = Facts::new(game, &command);
    facts.rules = rules;
    facts.policies = std::iter::once("optimal".to_string())
        .chain(evaluated)
        .collect();
    facts.seed = "none: an exact solution by dynamic programming under fresh odds".into();
    let states = record.and_then(|r| r.get("states")?.as_u64());
    facts.games = states.map_or("none (exact)".into(), |n| {
        format!("none (exact): {} states solved", thousands(n))
    });
    facts.version = record
        .and_then(|r| r.get("version")?.as_str().map(str::to_string))
        .unwrap_or_else(|| "not recorded".into());
    if record.is_none() {
        facts.warnings.push(format!(
            "{chart} alone does not record the rules, the win probability or the version: they are in {RECORD}, which sim solve --report writes."
        ));
    }
    Ok(facts)
}

/// The page's verdict: the optimal win probability and what each evaluated policy loses.
fn solve_verdict(record: &Value) -> Vec<String> {
    let Some(win) = record.get("win_probability").and_then(Value::as_f64) else {
        return Vec::new();
    };
    let evaluated: Vec<(&str, f64)> = record
        .get("evaluated")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|e| Some((e.get("policy")?.as_str()?, e.get("diff")?.as_f64()?)))
                .collect()
        })
        .unwrap_or_default();
    vec![super::verdict::solve(win, &evaluated)]
}

/// The optimal win probability, and the evaluated policies against it.
fn headline(record: &Value) -> Vec<Block> {
    let mut blocks = Vec::new();
    let Some(win) = record.get("win_probability").and_then(Value::as_f64) else {
        return blocks;
    };
    blocks.push(Block::Headline(Headline {
        label: "optimal wins".into(),
        value: Cell::number("win_probability", win, percent(win)),
        interval: "(exact, under fresh odds: deck = \"infinite\")".into(),
    }));
    let evaluated = record
        .get("evaluated")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if evaluated.is_empty() {
        return blocks;
    }
    let mut t = DataTable::new(
        "evaluated",
        "Policies evaluated exactly against the optimal one",
        &["policy", "win probability", "against optimal"],
    );
    for (k, e) in evaluated.iter().enumerate() {
        let name = e.get("policy").and_then(Value::as_str).unwrap_or_default();
        let p = e
            .get("win_probability")
            .and_then(Value::as_f64)
            .unwrap_or_default();
        let d = e.get("diff").and_then(Value::as_f64).unwrap_or_default();
        t.push(
            k.to_string(),
            vec![
                Cell::text(name),
                Cell::number("win_probability", p, percent(p)),
                Cell::number("diff", d, points(d)),
            ],
        );
    }
    blocks.push(Block::Table(t));
    blocks
}

/// The chart's states: per row, the enemy, HP, the totals to bank at and the Joker choice.
struct States {
    enemy: Vec<String>,
    hp: Vec<u64>,
    hard: Vec<String>,
    soft: Vec<String>,
    double: Vec<bool>,
    max_hp: u64,
}

impl States {
    fn read(chart: &Frame) -> Result<Self> {
        let hp: Vec<u64> = chart.u64s("hp")?;
        Ok(Self {
            max_hp: hp.iter().copied().max().unwrap_or(0),
            enemy: chart.strings("enemy")?,
            hard: chart.strings("bank_hard")?,
            soft: chart.strings("bank_soft")?,
            double: chart.bools("double_or_nothing")?,
            hp,
        })
    }

    /// The rows of `enemy` at `hp`.
    fn rows(&self, enemy: &str, hp: u64) -> impl Iterator<Item = usize> + '_ {
        let enemy = enemy.to_string();
        (0..self.enemy.len()).filter(move |&i| self.enemy[i] == enemy && self.hp[i] == hp)
    }

    /// The chart of `royal`'s `kind` totals (hard from 2, soft from 11) to 21: a row per total,
    /// a column per HP.
    fn royal_chart(&self, royal: &str, kind: &str, low: u8) -> Result<DataTable> {
        let hps: Vec<u64> = (1..=self.max_hp).collect();
        let mut headers = vec!["total".to_string()];
        headers.extend(hps.iter().map(|h| h.to_string()));
        let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
        let mut t = DataTable::new(
            format!("chart-{royal}-{kind}"),
            format!("{royal}: bank or push at each {kind} total (rows) by HP (columns)"),
            &header_refs,
        );
        t.class = "strategy".into();
        let column = if kind == "hard" {
            &self.hard
        } else {
            &self.soft
        };
        let mut banks = vec![vec![(0usize, 0usize); hps.len()]; 22];
        for (h, &hp) in hps.iter().enumerate() {
            for i in self.rows(royal, hp) {
                let set = totals(&column[i], low).ok_or_else(|| {
                    SimError::input(format!(
                        "the chart's {kind} totals {:?} are not ones sim solve writes",
                        column[i]
                    ))
                })?;
                for (total, slot) in banks.iter_mut().enumerate().skip(usize::from(low)) {
                    slot[h].1 += 1;
                    if set.contains(&(total as u8)) {
                        slot[h].0 += 1;
                    }
                }
            }
        }
        // Totals that push everywhere below the first that ever banks say nothing: one is kept.
        let first = (usize::from(low)..=21)
            .find(|&t| banks[t].iter().any(|&(bank, _)| bank > 0))
            .unwrap_or(21);
        let start = first.saturating_sub(1).max(usize::from(low));
        for (total, row) in banks.iter().enumerate().skip(start) {
            let mut cells = vec![Cell::text(total.to_string()).with_class("total")];
            for (h, &(bank, of)) in row.iter().enumerate() {
                cells.push(choice(bank, of, "bank", "push").with_title(format!(
                    "{royal}, {kind} {total} at {} HP: bank in {bank} of {of} tower states",
                    hps[h]
                )));
            }
            t.push(format!("{royal}-{kind}-{total}"), cells);
        }
        Ok(t)
    }

    /// The Joker: double or nothing after an odd flip, by HP.
    fn joker_chart(&self) -> DataTable {
        let hps: Vec<u64> = (1..=self.max_hp).collect();
        let mut headers = vec!["HP".to_string()];
        headers.extend(hps.iter().map(|h| h.to_string()));
        let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
        let mut t = DataTable::new(
            "chart-joker",
            "joker: double or nothing after an odd flip, by HP",
            &header_refs,
        );
        t.class = "strategy".into();
        let mut cells = vec![Cell::text("joker").with_class("total")];
        for &hp in &hps {
            let rows: Vec<usize> = self.rows("joker", hp).collect();
            let yes = rows.iter().filter(|&&i| self.double[i]).count();
            cells.push(
                choice(yes, rows.len(), "double", "accept").with_title(format!(
                    "joker at {hp} HP: double or nothing in {yes} of {} tower states",
                    rows.len()
                )),
            );
        }
        t.push("joker", cells);
        t
    }
}

/// The cell of a choice taken in `yes` of `of` states: its letter and class, lighter
/// (`-mostly`) where the states disagree.
fn choice(yes: usize, of: usize, taken: &str, not: &str) -> Cell {
    let (name, all) = if 2 * yes >= of.max(1) {
        (taken, yes == of)
    } else {
        (not, yes == 0)
    };
    let letter = name[..1].to_uppercase();
    let class = if all {
        name.to_string()
    } else {
        format!("{name}-mostly")
    };
    Cell::text(letter).with_class(&class)
}

/// The totals of a chart's text ("17+", "12-13, 17+", "21", "never") from `low` to 21; `None`
/// if the text is not of that form.
pub fn totals(text: &str, low: u8) -> Option<Vec<u8>> {
    if text == "never" {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for run in text.split(", ") {
        let (a, b) = if let Some(a) = run.strip_suffix('+') {
            (a.parse().ok()?, 21)
        } else if let Some((a, b)) = run.split_once('-') {
            (a.parse().ok()?, b.parse().ok()?)
        } else {
            let v: u8 = run.parse().ok()?;
            (v, v)
        };
        if a < low || b > 21 || a > b {
            return None;
        }
        out.extend(a..=b);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crownfall::solver::chart;

    #[test]
    fn chart_texts_read_back_as_the_masks_they_came_from() {
        for mask in [
            0u32,
            1 << 21,
            0b11 << 12 | 0b11111 << 17,
            0x3f_fffc,
            1 << 2 | 1 << 9,
        ] {
            let text = chart::totals(mask, 2);
            let back: u32 = totals(&text, 2).unwrap().iter().map(|t| 1 << t).sum();
            assert_eq!(back, mask, "{text}");
        }
        assert_eq!(totals("bad", 2), None);
        assert_eq!(totals("9+", 11), None);
    }

    #[test]
    fn a_choice_is_lighter_where_the_states_disagree() {
        let c = choice(3, 3, "bank", "push");
        assert_eq!((c.text.as_str(), c.class.as_deref()), ("B", Some("bank")));
        let c = choice(2, 3, "bank", "push");
        assert_eq!(c.class.as_deref(), Some("bank-mostly"));
        let c = choice(1, 3, "bank", "push");
        assert_eq!(
            (c.text.as_str(), c.class.as_deref()),
            ("P", Some("push-mostly"))
        );
        let c = choice(0, 3, "double", "accept");
        assert_eq!((c.text.as_str(), c.class.as_deref()), ("A", Some("accept")));
    }
}
