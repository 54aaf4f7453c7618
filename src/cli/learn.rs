//! `sim learn <game>`: a value estimate learned from seeded games of one of the game's ladder
//! rungs, written as a model file with its provenance; `--check MODEL` measures a model's
//! calibration on held-out deals instead (see docs/learn.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::error::{Result, SimError};
use crate::evaluate::collect::Subject;
use crate::evaluate::ladder::{Evaluable, Play};
use crate::games::Game;
use crate::games::value::Featured;
use crate::learn::{Calibration, Model, train};
use crate::rules::RuleSet;
use crate::search::value_model::{FORMAT, KIND, Provenance};
use crate::stop::{cause, exit_code};

use super::args::DEFAULT_SEED;
use super::count::parse_count;
use super::run::{pool_threads, rules_of, with_threads};

/// Games played without `--games`.
pub const DEFAULT_GAMES: u64 = 2000;

/// `sim learn`: train a value estimate, or check one.
#[derive(Args, Clone, Debug)]
pub struct LearnArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// Games to play (training or checking)
    #[arg(long, short, value_parser = parse_count, default_value_t = DEFAULT_GAMES)]
    pub games: u64,
    /// The games' seed (training: 1; checking: the model's seed + 1, deals it never saw)
    #[arg(long, short)]
    pub seed: Option<u64>,
    /// The ladder rung (`sim evaluate`'s names) whose games are learned from or checked on:
    /// training defaults to the strongest plain policy, checking to the model's
    #[arg(long)]
    pub policy: Option<String>,
    /// Where to write the model (training)
    #[arg(
        long,
        short,
        value_name = "FILE.json",
        required_unless_present = "check"
    )]
    pub out: Option<PathBuf>,
    /// Measure this model's calibration on held-out deals instead of training
    #[arg(long, value_name = "MODEL.json", conflicts_with = "out")]
    pub check: Option<PathBuf>,
    /// A rules file (TOML)
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// A rule's value, e.g. --set players=2 (repeatable)
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Players (games of several: regicide)
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// Worker threads (the result is the same on any number)
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// Print the calibration as JSON
    #[arg(long, requires = "check")]
    pub json: bool,
}

/// The rung of `subject` named `name`, or its strongest fair plain policy without a name.
fn rung<S: crate::games::state::GameState>(
    subject: &Subject<S>,
    name: Option<&str>,
) -> Result<usize> {
    let fair: Vec<usize> = (0..subject.rungs.len())
        .filter(|&i| subject.rungs[i].fair)
        .collect();
    match name {
        Some(name) => fair
            .iter()
            .copied()
            .find(|&i| subject.rungs[i].name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = fair.iter().map(|&i| &*subject.rungs[i].name).collect();
                SimError::input(format!(
                    "--policy {name}: not a fair rung of the ladder; one of {}",
                    names.join(", ")
                ))
            }),
        None => fair
            .iter()
            .copied()
            .rfind(|&i| matches!(subject.rungs[i].play, Play::Plain(_)))
            .ok_or_else(|| SimError::input("the ladder has no plain policy to learn from")),
    }
}

/// The rules' JSON as a value.
fn rules_json<G: Game>(game: &G) -> serde_json::Value {
    serde_json::from_str(&game.rules().to_json()).expect("the rules' JSON reads back")
}

/// Runs `sim learn` for game `G`.
pub fn execute<G: Evaluable>(args: &LearnArgs, default_policy: &str) -> Result<ExitCode> {
    let rules = rules_of::<G>(args.rules.as_deref(), args.players, &args.set, &[])?;
    let game = G::with_policy(rules, default_policy)?;
    let extra = game.extra()?;
    let subject = game.subject(&extra, G::BUDGETS)?;
    let names = <G::State<'_> as Featured>::FEATURES;
    let model = args
        .check
        .as_deref()
        .map(|path| Model::load(path, G::NAME, names))
        .transpose()?;
    let seed = match (&model, args.seed) {
        (_, Some(s)) => s,
        (Some(m), None) => m.provenance.seed.wrapping_add(1),
        (None, None) => DEFAULT_SEED,
    };
    if let Some(m) = &model
        && seed == m.provenance.seed
    {
        return Err(SimError::input(format!(
            "--seed {seed}: the model was trained on this seed's deals; check it on another (its default is {})",
            seed.wrapping_add(1)
        )));
    }
    let policy = args
        .policy
        .as_deref()
        .or(model.as_ref().map(|m| &*m.provenance.policy));
    let r = rung(&subject, policy)?;
    let started = Instant::now();
    let threads = pool_threads(args.threads, args.games);
    let examples = with_threads(threads, || {
        train::examples(&subject, r, seed, 0..args.games)
    })?;
    let Some(examples) = examples else {
        eprintln!(
            "stopped by {} before the games were played: nothing written",
            cause()
        );
        return Ok(ExitCode::from(exit_code()));
    };
    let rung_name = subject.rungs[r].name.clone();
    match model {
        Some(m) => check(args, &game, &m, &examples, &rung_name, seed),
        None => {
            let out = args
                .out
                .as_deref()
                .expect("clap requires --out without --check");
            let fit = train::fit(&examples)?;
            let model = Model {
                format: FORMAT,
                kind: KIND.into(),
                provenance: Provenance {
                    game: G::NAME.into(),
                    rules: rules_json(&game),
                    policy: rung_name.clone(),
                    seed,
                    games: args.games,
                    positions: examples.len() as u64,
                    version: env!("CARGO_PKG_VERSION").into(),
                    command: command(args, &rung_name, seed, out),
                },
                features: names.iter().map(|s| s.to_string()).collect(),
                mean: fit.mean,
                scale: fit.scale,
                weights: fit.weights,
                intercept: fit.intercept,
                source: String::new(),
            };
            crate::files::write_text(out, &model.to_text())?;
            outln!(
                "{}: {} games of {rung_name} (seed {seed}), {} positions, {:.1} s; wrote {}",
                G::NAME,
                args.games,
                examples.len(),
                started.elapsed().as_secs_f64(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The command that trains the same model again.
fn command(args: &LearnArgs, rung: &str, seed: u64, out: &Path) -> String {
    let mut c = format!("sim learn {}", args.game);
    if let Some(r) = &args.rules {
        c += &format!(" --rules {}", r.display());
    }
    if let Some(n) = args.players {
        c += &format!(" --players {n}");
    }
    for s in &args.set {
        c += &format!(" --set {s}");
    }
    c + &format!(
        " --policy {rung} --games {} --seed {seed} --out {}",
        args.games,
        out.display()
    )
}

/// `--check`: the model's calibration on `examples`, printed.
fn check<G: Game>(
    args: &LearnArgs,
    game: &G,
    model: &Model,
    examples: &train::Examples,
    rung: &str,
    seed: u64,
) -> Result<ExitCode> {
    let estimates: Vec<f32> = (0..examples.len())
        .map(|i| model.predict(examples.row(i)))
        .collect();
    let calibration = Calibration::measure(&estimates, &examples.wins);
    // The player's own estimates (a search's: its rollouts) where it made one, and the model's
    // on the same positions.
    let (mut mine, mut theirs, mut won) = (Vec::new(), Vec::new(), Vec::new());
    for (i, own) in examples.own.iter().enumerate() {
        if let Some(e) = own {
            mine.push(*e);
            theirs.push(estimates[i]);
            won.push(examples.wins[i]);
        }
    }
    let own = (!mine.is_empty()).then(|| {
        (
            Calibration::measure(&mine, &won),
            Calibration::measure(&theirs, &won),
        )
    });
    let same_rules = rules_json(game) == model.provenance.rules;
    if args.json {
        let json = serde_json::json!({
            "game": G::NAME,
            "model": args.check,
            "policy": rung,
            "seed": seed,
            "games": args.games,
            "rules_as_trained": same_rules,
            "calibration": calibration,
            "worst_error": calibration.worst_error(),
            "own_estimates": own.as_ref().map(|o| &o.0),
            "own_worst_error": own.as_ref().map(|o| o.0.worst_error()),
            "model_where_own": own.as_ref().map(|o| &o.1),
        });
        outln!("{}", serde_json::to_string_pretty(&json).expect("JSON"));
    } else {
        outln!(
            "{}: {} checked on {} games of {rung} (seed {seed}; trained on seed {}), rules {}\n{}",
            G::NAME,
            args.check
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string()),
            args.games,
            model.provenance.seed,
            if same_rules {
                "as trained"
            } else {
                "NOT as trained: this measures how far the estimate carries to them"
            },
            calibration.text()
        );
        if let Some((own, model)) = &own {
            outln!(
                "\n{rung}'s own estimates where it made one (its simulations' mean result of the move it chose):\n{}\nthe model on those positions:\n{}",
                own.text(),
                model.text()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
