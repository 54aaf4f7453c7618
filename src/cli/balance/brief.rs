//! `sim balance` with a brief: several targets, each a figure of its own players, over every
//! value or combination of the varied rules. Checks the brief (each target's players are
//! policies the game knows, no two targets on one figure contradict each other), plays every
//! cell by [`crate::balance::brief`], reads the region, writes `balance.parquet` (one row per
//! cell and target) with the players' `summary.parquet` and `distributions.parquet`, and
//! prints the report: the verdict in one sentence first.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::balance::brief::{self, Played};
use crate::balance::figure::{Goal, Want, contradiction, distance, players};
use crate::balance::grid::{Setup, batch_size};
use crate::balance::region::{Region, Standing, region, span};
use crate::balance::sequential::Verdict;
use crate::error::{Result, SimError};
use crate::games::Game;
use crate::report::json;
use crate::report::tables::{grid, on_scale, table};
use crate::report::terminal::thousands;
use crate::report::verdict::{self, NearestCell};
use crate::results::balance::{BalanceRow, SearchInfo};
use crate::results::parquet::{fields_frame, write_frame};
use crate::results::result_set::ResultSet;
use crate::results::summary::{Field, Speed};
use crate::rules::RuleSet;
use crate::stats::estimate::Estimate;
use crate::stop;

use super::super::expand::Vary;
use super::super::outputs::Paths;
use super::super::run::{out_path, pool};
use super::show::share;
use super::{BalanceArgs, candidates, check_cap, describe, summaries};

/// A brief played and read, ready to be shown and written.
struct Brief {
    game: String,
    goals: Vec<Goal>,
    players: Vec<String>,
    varies: Vec<Vary>,
    /// The `--vary` flags as given.
    specs: Vec<String>,
    combos: Vec<Vec<(String, String)>>,
    /// Each cell's figure per target: `[cell][target]`, the estimate with its 95% interval.
    figures: Vec<Vec<Estimate>>,
    /// The interval each verdict was decided on.
    decided: Vec<Vec<Estimate>>,
    /// Each cell's games (deals) per target.
    games: Vec<Vec<u64>>,
    verdicts: Vec<Vec<Option<Verdict>>>,
    region: Region,
    /// Pairs of neighbouring values of one rule whose games gave the same results.
    same: Vec<Vec<bool>>,
    confidence: f64,
    test_error: f64,
    cap: u64,
    budget: Option<u64>,
    budget_spent: bool,
    complete: bool,
    seed: u64,
    first_game: u64,
    speed: Speed,
}

/// Checks a brief before any game: each target's players are policies the game knows under
/// the first cell's rules, and no two targets on one figure contradict each other.
fn check<G: Game>(
    args: &BalanceArgs,
    goals: &[Goal],
    first: &[(String, String)],
    cap: u64,
) -> Result<()> {
    for goal in goals {
        for player in &goal.figure.players {
            let cell: Vec<G> =
                candidates(args, &[player], std::slice::from_ref(&first.to_vec()))
                    .map_err(|e| SimError::input(format!("--target {}: {e}", goal.spec)))?;
            check_cap(&args.play, &goal.figure.metric, cap, batch_size(&cell))
                .map_err(|e| SimError::input(format!("--target {}: {e}", goal.spec)))?;
        }
    }
    if let Some((a, b)) = contradiction(goals) {
        let (al, ah) = a.zone();
        let (bl, bh) = b.zone();
        return Err(SimError::input(format!(
            "--target {} and --target {}: no value of {} meets both ({} against {}, tolerances included)",
            a.spec,
            b.spec,
            a.figure.label,
            zone_text(a, al, ah),
            zone_text(b, bl, bh)
        )));
    }
    Ok(())
}

/// A zone as words: `at least 0.68`, `at most 0.62`, `from 11.5 to 16.5`.
fn zone_text(goal: &Goal, low: f64, high: f64) -> String {
    let show = |v: f64| on_scale(goal.figure.metric.scale(), v);
    match (low.is_finite(), high.is_finite()) {
        (true, false) => format!("at least {}", show(low)),
        (false, true) => format!("at most {}", show(high)),
        _ => format!("from {} to {}", show(low), show(high)),
    }
}

/// Plays the brief `goals` over `combos`, writes its files and prints its report.
pub fn execute<G: Game>(
    args: &BalanceArgs,
    cap: u64,
    varies: Vec<Vary>,
    combos: Vec<Vec<(String, String)>>,
    goals: Vec<Goal>,
) -> Result<ExitCode> {
    let play = &args.play;
    check::<G>(args, &goals, &combos[0], cap)?;
    let roster = players(&goals);
    let names: Vec<&str> = roster.iter().map(String::as_str).collect();
    let whom: Vec<Vec<usize>> = goals
        .iter()
        .map(|g| {
            g.figure
                .players
                .iter()
                .map(|p| {
                    roster
                        .iter()
                        .position(|r| r == p)
                        .expect("a player of the roster")
                })
                .collect()
        })
        .collect();
    let cells: Vec<G> = candidates(args, &names, &combos)?;
    let out = out_path(play, G::NAME, "balance")?;
    Paths::new()
        .played(play, &out)
        .policies("--target", names.iter().copied())
        .seats(&args.seats)
        .check()?;
    let set = ResultSet::create(&out)?;
    let threads = super::search_threads(play);
    let pool = pool(threads)?;
    let progress = |total, label: &str| {
        play.report
            .progress(total, &format!("{} balance {label}", G::NAME))
    };
    let setup = Setup {
        seed: play.seed,
        first_game: play.first_game,
        cap,
        pool: &pool,
        stop: stop::stop_flag(),
        progress: &progress,
    };
    let started = Instant::now();
    let played = brief::play(
        &cells,
        roster.len(),
        &goals,
        &whom,
        1.0 - args.confidence,
        args.budget,
        &setup,
    );
    let seconds = started.elapsed().as_secs_f64();
    let brief = read(
        G::NAME,
        args,
        &goals,
        &roster,
        varies,
        combos,
        &played,
        cap,
        seconds,
        threads,
    );
    let rules: Vec<String> = (0..brief.combos.len())
        .map(|c| cells[c * roster.len()].rules().to_json())
        .collect();
    let info = search_info(&brief, &goals[0], &args.vary);
    let grid_played = summaries(cells, played.tallies, &brief.combos, &info);
    let mut written = super::super::grid::write::<G>(set.dir(), &grid_played)?;
    written.push(write_rows(set.dir(), &brief, &args.vary, &rules)?);
    written.extend(super::super::report::beside::<G>(
        &play.report,
        set.dir(),
        brief.speed,
    )?);
    let written = set.commit(&written)?;
    play.report
        .print(|| text(&brief, &written), || json_doc(&brief, &written));
    Ok(if brief.complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(stop::exit_code())
    })
}

/// The brief's answer read off its games.
#[allow(clippy::too_many_arguments)]
fn read<T>(
    game: &str,
    args: &BalanceArgs,
    goals: &[Goal],
    roster: &[String],
    varies: Vec<Vary>,
    combos: Vec<Vec<(String, String)>>,
    played: &Played<T>,
    cap: u64,
    seconds: f64,
    threads: usize,
) -> Brief
where
    T: crate::games::Tally,
{
    let per_cell = |f: &dyn Fn(usize, usize) -> Estimate| -> Vec<Vec<Estimate>> {
        (0..combos.len())
            .map(|c| (0..goals.len()).map(|g| f(c, g)).collect())
            .collect()
    };
    let clamp = |g: usize, e: Estimate| goals[g].figure.metric.scale().clamp(e);
    let figures = per_cell(&|c, g| clamp(g, played.tests[g].estimate95(&played.evidence[c][g])));
    let decided = per_cell(&|c, g| clamp(g, played.tests[g].interval(&played.evidence[c][g])));
    let values: Vec<Vec<f64>> = played
        .evidence
        .iter()
        .map(|row| row.iter().map(|e| e.mean()).collect())
        .collect();
    let games = played
        .evidence
        .iter()
        .map(|row| row.iter().map(|e| e.games()).collect())
        .collect();
    // One rule: neighbouring values whose every target's batches were identical.
    let same = (0..goals.len())
        .map(|g| {
            (0..combos.len().saturating_sub(1))
                .map(|c| {
                    let (a, b) = (&played.evidence[c][g], &played.evidence[c + 1][g]);
                    varies.len() == 1 && a.batches() > 0 && a == b
                })
                .collect()
        })
        .collect();
    let game_total = played.tallies.iter().map(crate::games::Tally::games).sum();
    Brief {
        game: game.to_string(),
        goals: goals.to_vec(),
        players: roster.to_vec(),
        region: region(goals, &played.verdicts, &values),
        verdicts: played.verdicts.clone(),
        varies,
        specs: args.vary.clone(),
        combos,
        figures,
        decided,
        games,
        same,
        confidence: args.confidence,
        test_error: played.test_error,
        cap,
        budget: args.budget,
        budget_spent: played.budget_spent,
        complete: played.complete,
        seed: args.play.seed,
        first_game: args.play.first_game,
        speed: Speed {
            games: game_total,
            seconds,
            threads,
        },
    }
}

impl Brief {
    /// Target `g` numbered for the map: `#1 win_rate[optimal] >= 0.7 +-2.00 pts`.
    fn goal_text(&self, g: usize) -> String {
        format!("#{} {}", g + 1, self.goals[g])
    }

    fn show(&self, g: usize, v: f64) -> String {
        on_scale(self.goals[g].figure.metric.scale(), v)
    }

    /// `win_rate[optimal] 75.90% (95% CI 75.47% to 76.33%)`.
    fn figure(&self, c: usize, g: usize) -> String {
        let e = &self.figures[c][g];
        format!(
            "{} {} ({} to {})",
            self.goals[g].figure.label,
            self.show(g, e.value),
            self.show(g, e.low),
            self.show(g, e.high)
        )
    }

    /// Targets by number: `#1, #3`.
    fn numbers(&self, goals: &[usize]) -> String {
        goals
            .iter()
            .map(|g| format!("#{}", g + 1))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// How a cell misses, target by target: `gap[optimal,bank-at-17]>=0.25 by 1.20 pts`.
    fn misses(&self, misses: &[f64]) -> Vec<String> {
        misses
            .iter()
            .enumerate()
            .filter(|(_, m)| **m > 0.0)
            .map(|(g, m)| {
                format!(
                    "{} by {}",
                    self.goals[g].spec,
                    distance(self.goals[g].figure.metric.scale(), *m)
                )
            })
            .collect()
    }

    /// The verdict in one sentence.
    fn sentence(&self) -> String {
        let r = &self.region;
        let meets: Vec<String> = r.meets.iter().map(|&c| describe(&self.combos[c])).collect();
        let nearest = r.nearest.as_ref().map(|n| NearestCell {
            cell: describe(&self.combos[n.cell]),
            misses: self.misses(&n.misses),
            unsettled: match &r.standings[n.cell] {
                Standing::Open(g) => format!("open on {}", self.numbers(g)),
                Standing::Edge(g) => format!("at the edge of {}", self.numbers(g)),
                _ => "unsettled".to_string(),
            },
        });
        verdict::brief(self.combos.len(), &meets, nearest.as_ref())
    }

    fn header(&self) -> String {
        format!(
            "{} balance | brief of {} targets | players {} | {} ({} cells) | seed {}\n",
            self.game,
            self.goals.len(),
            self.players.join(", "),
            self.specs.join(" x "),
            self.combos.len(),
            self.seed
        )
    }

    /// The lines that explain a miss: targets no cell meets (with the span of their figure
    /// and where it is flat), and targets that pull against each other.
    fn why(&self) -> String {
        let mut s = String::new();
        for &g in &self.region.never {
            s.push_str(&format!(
                "  no cell meets {}: {}\n",
                self.goals[g].spec,
                self.spread(g)
            ));
        }
        for &(a, b) in &self.region.conflicts {
            s.push_str(&format!(
                "  {} and {} pull against each other: every cell misses one or the other\n",
                self.goals[a].spec, self.goals[b].spec
            ));
        }
        s
    }

    /// Where target `g`'s figure lies over the cells: its least and greatest estimate, and for
    /// one rule the runs of values where it is flat.
    fn spread(&self, g: usize) -> String {
        let values: Vec<Option<f64>> = (0..self.combos.len())
            .map(|c| (self.games[c][g] > 0).then_some(self.figures[c][g].value))
            .collect();
        let Some(sp) = span(&values, |a, b| b == a + 1 && self.same[g][a]) else {
            return "not played".to_string();
        };
        let mut s = format!(
            "{} spans {} ({}) to {} ({})",
            self.goals[g].figure.label,
            self.show(g, sp.least.1),
            describe(&self.combos[sp.least.0]),
            self.show(g, sp.greatest.1),
            describe(&self.combos[sp.greatest.0])
        );
        for (a, b) in sp.flat {
            s.push_str(&format!(
                "; flat from {} to {} (the same games give the same results)",
                describe(&self.combos[a]),
                describe(&self.combos[b])
            ));
        }
        s
    }

    /// A cell's mark in the map: `=` meets, `xN` misses target N, `~` at an edge, `?` open.
    fn mark(&self, c: usize) -> String {
        match &self.region.standings[c] {
            Standing::Meets => "=".to_string(),
            Standing::Fails(g, _) => format!("x{}", g + 1),
            Standing::Edge(_) => "~".to_string(),
            Standing::Open(_) => "?".to_string(),
        }
    }

    /// Cell `c`'s shortfall on target `g` by its estimate, in the target's units: the
    /// region's for the nearest cell, 0 where met or not played.
    fn miss(&self, c: usize, g: usize) -> f64 {
        match &self.region.nearest {
            Some(n) if n.cell == c => n.misses[g],
            _ if self.games[c][g] == 0 => 0.0,
            _ => self.goals[g].shortfall(self.figures[c][g].value),
        }
    }

    fn verdict_word(&self, c: usize, g: usize) -> &'static str {
        self.verdicts[c][g].map_or("not needed", Verdict::word)
    }
}

/// The text report.
fn text(b: &Brief, written: &[std::path::PathBuf]) -> String {
    let mut s = b.header();
    s.push_str(&format!("  {}\n", b.sentence()));
    s.push_str(&b.why());
    s.push_str("  targets:\n");
    for g in 0..b.goals.len() {
        s.push_str(&format!("    {}\n", b.goal_text(g)));
    }
    for &c in &b.region.meets {
        let figures: Vec<String> = (0..b.goals.len()).map(|g| b.figure(c, g)).collect();
        s.push_str(&format!(
            "  meets: {}: {}\n",
            describe(&b.combos[c]),
            figures.join("; ")
        ));
    }
    let n = b.combos.len() * b.goals.len();
    s.push_str(&format!(
        "  confidence: every verdict, over {} cells x {} targets, holds together with probability at least {}: each test errs at most {} ({} shared by {n}), at every look\n",
        b.combos.len(),
        b.goals.len(),
        share(b.confidence),
        share(b.test_error),
        share(1.0 - b.confidence),
    ));
    s.push_str(&format!(
        "  search: successive elimination over every cell, the players on the same deals; a cell stops at its first missed target; {} games (at most {} a player per cell{})\n",
        thousands(b.speed.games),
        thousands(b.cap),
        b.budget.map_or(String::new(), |x| format!(", {} in all", thousands(x)))
    ));
    if b.budget_spent {
        s.push_str("  the budget ran out with cells still open\n");
    }
    if !b.complete {
        s.push_str("  stopped early (Ctrl-C): the brief is unfinished, marked complete = false\n");
    }
    if let [rows, columns] = &b.varies[..] {
        s.push_str(&format!(
            "  map by {} and {} (= meets every target, xN misses target N, ~ at an edge, ? open):\n",
            rows.path, columns.path
        ));
        let entries: Vec<(String, String, String)> = (0..b.combos.len())
            .map(|c| {
                (
                    b.combos[c][0].1.clone(),
                    b.combos[c][1].1.clone(),
                    b.mark(c),
                )
            })
            .collect();
        s.push_str(&grid(
            &format!("{} \\ {}", rows.path, columns.path),
            &entries,
        ));
    }
    let mut headers: Vec<String> = b.varies.iter().map(|v| v.path.clone()).collect();
    let left = headers.len();
    headers.push("cell".into());
    for g in 0..b.goals.len() {
        headers.push(format!("#{} games", g + 1));
        headers.push(format!("#{} {}", g + 1, b.goals[g].figure.label));
        headers.push(format!("#{} verdict", g + 1));
    }
    let lines: Vec<Vec<String>> = (0..b.combos.len())
        .map(|c| {
            let mut cells: Vec<String> = b.combos[c].iter().map(|(_, v)| v.clone()).collect();
            cells.push(match &b.region.standings[c] {
                Standing::Fails(g, _) => format!("misses #{}", g + 1),
                other => other.word().to_string(),
            });
            for g in 0..b.goals.len() {
                cells.push(thousands(b.games[c][g]));
                cells.push(b.show(g, b.figures[c][g].value));
                cells.push(b.verdict_word(c, g).to_string());
            }
            cells
        })
        .collect();
    s.push_str(&table(&headers, &lines, left));
    s.push_str(&super::show::speed_and_files(&b.speed, written));
    s
}

/// One cell as JSON: every rule by its full path, its standing, the target it misses, and per
/// target (keyed as written) its estimate, interval, games and verdict.
fn cell_json(b: &Brief, c: usize) -> Value {
    let mut o = Map::new();
    let params: Vec<(String, Field)> = b.combos[c]
        .iter()
        .map(|(p, v)| (p.clone(), Field::Param(v.clone())))
        .collect();
    if let Some(p) = json::objects(&[params]).into_iter().next() {
        o.extend(p);
    }
    o.insert("standing".into(), json!(b.region.standings[c].word()));
    o.insert(
        "fails".into(),
        match &b.region.standings[c] {
            Standing::Fails(g, _) => json!(b.goals[*g].spec),
            _ => Value::Null,
        },
    );
    let mut targets = Map::new();
    for g in 0..b.goals.len() {
        let e = &b.figures[c][g];
        let d = &b.decided[c][g];
        targets.insert(
            b.goals[g].spec.clone(),
            json!({
                "value": e.value,
                "ci_low": e.low,
                "ci_high": e.high,
                "decision_low": finite(d.low),
                "decision_high": finite(d.high),
                "games": b.games[c][g],
                "verdict": b.verdict_word(c, g),
            }),
        );
    }
    o.insert("targets".into(), Value::Object(targets));
    Value::Object(o)
}

/// A number, or null for an infinite interval end (nothing to go on yet).
fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The JSON report.
fn json_doc(b: &Brief, written: &[std::path::PathBuf]) -> Value {
    let goals: Vec<Value> = b
        .goals
        .iter()
        .map(|g| {
            let (low, high) = g.zone();
            let (relation, value) = want_fields(g.want);
            json!({
                "target": g.spec,
                "figure": g.figure.label,
                "players": g.figure.players,
                "relation": relation,
                "value": value,
                "tolerance": g.tolerance,
                "meets_from": finite(low),
                "meets_to": finite(high),
            })
        })
        .collect();
    let vary: Vec<Value> = b
        .varies
        .iter()
        .map(|v| {
            let values: Vec<&str> = v.values.iter().map(|(t, _)| t.as_str()).collect();
            json!({ "path": v.path, "values": values })
        })
        .collect();
    let nearest = b.region.nearest.as_ref().map_or(Value::Null, |n| {
        let mut cell = cell_json(b, n.cell);
        let misses: Map<String, Value> = b
            .goals
            .iter()
            .zip(&n.misses)
            .map(|(g, m)| (g.spec.clone(), json!(m)))
            .collect();
        cell["misses"] = Value::Object(misses);
        cell
    });
    let spec = |g: usize| json!(b.goals[g].spec);
    json!({
        "game": b.game,
        "kind": "brief",
        "players": b.players,
        "targets": goals,
        "vary": vary,
        "verdict": b.sentence(),
        "meets": b.region.meets.iter().map(|&c| cell_json(b, c)).collect::<Vec<_>>(),
        "nearest": nearest,
        "never": b.region.never.iter().map(|&g| spec(g)).collect::<Vec<_>>(),
        "conflicts": b.region.conflicts.iter().map(|&(x, y)| json!([spec(x), spec(y)])).collect::<Vec<_>>(),
        "cells": (0..b.combos.len()).map(|c| cell_json(b, c)).collect::<Vec<_>>(),
        "confidence": b.confidence,
        "test_error": b.test_error,
        "cap": b.cap,
        "budget": b.budget,
        "budget_spent": b.budget_spent,
        "complete": b.complete,
        "seed": b.seed,
        "first_game": b.first_game,
        "speed": json::speed(&b.speed),
        "files": json::files(written),
    })
}

/// A target's relation and value(s) for the files: `>=` and 0.7, or `=` and [12, 16].
fn want_fields(want: Want) -> (&'static str, Value) {
    match want {
        Want::Equal(v) => ("=", json!(v)),
        Want::AtLeast(v) => (">=", json!(v)),
        Want::AtMost(v) => ("<=", json!(v)),
        Want::Within(a, c) => ("=", json!([a, c])),
    }
}

/// The search's description for target `goal`'s rows of `balance.parquet`.
fn search_info(b: &Brief, goal: &Goal, vary: &[String]) -> SearchInfo {
    let (relation, _) = want_fields(goal.want);
    let target_value = match goal.want {
        Want::Equal(v) | Want::AtLeast(v) | Want::AtMost(v) | Want::Within(v, _) => v,
    };
    SearchInfo {
        game: b.game.clone(),
        policy: goal.figure.players[0].clone(),
        baseline: goal.figure.players.get(1).cloned().unwrap_or_default(),
        target: goal.to_string(),
        metric: goal.figure.label.clone(),
        relation: relation.to_string(),
        target_value,
        tolerance: goal.tolerance,
        search: "brief".to_string(),
        vary: vary.to_vec(),
        cap: b.cap,
        budget: b.budget,
        confidence: b.confidence,
        candidate_error: b.test_error,
        seed: b.seed,
        first_game: b.first_game,
        complete: b.complete,
    }
}

/// Writes `balance.parquet`: one row per cell and target, the columns of a one-target search
/// (its `metric` the target's figure) and the cell's `standing`, the target it `fails`, and
/// the `target_high` of a range, the target's `spec` as written, whether the cell is the `nearest`, and its `miss` on the
/// target.
fn write_rows(
    dir: &Path,
    b: &Brief,
    vary: &[String],
    rules: &[String],
) -> Result<std::path::PathBuf> {
    let mut fields = Vec::new();
    let nearest = b.region.nearest.as_ref().map(|n| n.cell);
    for (c, cell_rules) in rules.iter().enumerate() {
        for (g, goal) in b.goals.iter().enumerate() {
            let info = search_info(b, goal, vary);
            let row = BalanceRow {
                params: b.combos[c].clone(),
                candidate: c,
                step: 1,
                games: b.games[c][g],
                metric: b.figures[c][g],
                decision: b.decided[c][g],
                verdict: b.verdict_word(c, g),
                answer: b.region.standings[c] == Standing::Meets,
                neighbour: false,
                rules: cell_rules.clone(),
            };
            let mut f = row.fields(&info);
            let high = match goal.want {
                Want::Within(_, h) => h,
                _ => info.target_value,
            };
            f.extend([
                ("target_high".to_string(), Field::F64(high)),
                (
                    "standing".to_string(),
                    Field::Text(b.region.standings[c].word().to_string()),
                ),
                (
                    "fails".to_string(),
                    Field::Text(match &b.region.standings[c] {
                        Standing::Fails(g, _) => b.goals[*g].spec.clone(),
                        _ => String::new(),
                    }),
                ),
                ("spec".to_string(), Field::Text(goal.spec.clone())),
                ("nearest".to_string(), Field::Bool(nearest == Some(c))),
                ("miss".to_string(), Field::F64(b.miss(c, g))),
            ]);
            fields.push(f);
        }
    }
    let path = dir.join("balance.parquet");
    fields_frame(&fields).and_then(|mut df| write_frame(&path, &mut df))
}
