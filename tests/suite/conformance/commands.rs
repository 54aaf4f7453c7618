//! The checks that run `sim` commands: threads, shards, bad input, random rule sets, every
//! policy, evaluate and balance.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use polars::prelude::DataFrame;
use sim::games::registry::{Registered, Registry};
use sim::games::seats::Table;
use sim::rules::RuleSet;

use super::{Check, in_process, succeeds};
use crate::common::{file_differences, files_in, read_parquet};
use crate::random_inputs::{Rand, check_case, mutate_table};

/// The search players at budgets small enough for a test.
const SEARCHERS: [&str; 2] = ["pimc-2", "ismcts-4"];

/// The arguments `args` then `--out DIR`.
fn to(args: &[OsString], dir: &Path) -> Vec<OsString> {
    let mut all = args.to_vec();
    all.extend(argv!["--out", dir]);
    all
}

/// Runs `args` into `a` and `b`, each with its own extra flags, and fails on any file that
/// differs (or is missing from one).
fn same_files<R: Registry>(
    args: &[OsString],
    (a, extra_a): (&Path, &[&str]),
    (b, extra_b): (&Path, &[&str]),
) -> Result<(), String> {
    for (dir, extra) in [(a, extra_a), (b, extra_b)] {
        let mut all = to(args, dir);
        all.extend(extra.iter().map(OsString::from));
        succeeds::<R>(&all)?;
    }
    let differences = file_differences(a, b);
    if files_in(a).is_empty() {
        return Err(format!("sim {args:?} wrote no file"));
    }
    match differences.is_empty() {
        true => Ok(()),
        false => Err(differences.join("; ")),
    }
}

/// A game's own policy gives the same files on 1 and 3 threads; both search players the same
/// games (their per-game rows, without the players' timings, which differ from run to run).
pub struct Threads;

impl Check for Threads {
    const WHAT: &'static str = "threads";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let policies = [(G::DEFAULT_POLICY, "3001")]
            .into_iter()
            .chain(SEARCHERS.map(|p| (p, "5")));
        for (policy, games) in policies {
            let args = argv![
                G::NAME,
                "--policy",
                policy,
                "--games",
                games,
                "--per-game",
                "-q"
            ];
            let [one, three] = ["1", "3"].map(|t| dir.join(format!("{policy}-{t}")));
            let files = same_files::<R>(
                &args,
                (&one, &["--threads", "1"]),
                (&three, &["--threads", "3"]),
            );
            let rows = |d: &Path| untimed(read_parquet(&d.join("games.parquet")));
            match files {
                Ok(()) => {}
                Err(_) if policy != G::DEFAULT_POLICY && rows(&one) == rows(&three) => {}
                Err(e) => return Err(format!("{policy}: {e}")),
            }
        }
        Ok(())
    }
}

/// Per-game rows without the columns that time the players.
fn untimed(mut rows: DataFrame) -> DataFrame {
    for name in sim::trace::TIMING_FIELDS {
        let _ = rows.drop_in_place(name);
    }
    rows
}

/// Shards per command: the ranges uneven, none a whole chunk.
const SHARDS: u64 = 64;

/// A run (with per-game rows), a comparison of the fixture's policies (of a duel, a tournament)
/// and a sweep of its rule, each split into shards (merged in reverse order) give the files of
/// the one-process run, byte for byte.
pub struct Shards;

impl Check for Shards {
    const WHAT: &'static str = "shards";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        for (command, args) in commands::<G>() {
            let root = dir.join(command);
            let single = root.join("single");
            succeeds::<R>(&to(&args, &single))?;
            let mut shards: Vec<PathBuf> = (0..SHARDS)
                .map(|i| {
                    let shard = root.join(format!("shard-{i:02}"));
                    let mut a = to(&args, &shard);
                    a.extend(argv!["--shard", format!("{i}/{SHARDS}")]);
                    succeeds::<R>(&a).map(|()| shard)
                })
                .collect::<Result<_, _>>()?;
            shards.reverse();
            let merged = root.join("merged");
            let mut merge = argv!["merge"].to_vec();
            merge.extend(shards.iter().map(OsString::from));
            succeeds::<R>(&to(&merge, &merged))?;
            let differences = file_differences(&single, &merged);
            if !differences.is_empty() {
                return Err(format!("{command}: {}", differences.join("; ")));
            }
        }
        Ok(())
    }
}

/// The run, comparison and sweep of [`Shards`], without `--out` and `--shard`.
fn commands<G: Registered>() -> Vec<(&'static str, Vec<OsString>)> {
    let common = |mut v: Vec<OsString>| {
        v.extend(argv![
            "--games",
            "20011",
            "--seed",
            "7",
            "--threads",
            "1",
            "-q"
        ]);
        v
    };
    let fixture = G::FIXTURE;
    let mut compare = argv!["compare", G::NAME].to_vec();
    // The first policy as the baseline: not the best, so the paired differences are its own.
    if G::TABLE != Table::Duel {
        compare.extend(argv!["--baseline", fixture.compare[0]]);
    }
    for p in fixture.compare {
        compare.extend(argv!["--policy", *p]);
    }
    let (rule, low, high) = fixture.vary;
    let vary = format!("{rule}={low},{high}");
    let run = argv![G::NAME, "--policy", G::DEFAULT_POLICY, "--per-game"].to_vec();
    let sweep = argv![
        "sweep",
        G::NAME,
        "--policy",
        G::DEFAULT_POLICY,
        "--vary",
        vary
    ]
    .to_vec();
    vec![
        ("run", common(run)),
        ("compare", common(compare)),
        ("sweep", common(sweep)),
    ]
}

/// A policy name no game knows.
const NO_POLICY: &str = "no-such-policy";

/// Bad input is refused with exit code 2 and nothing written; a policy the game does not know,
/// or a search player's bad budget, gets the one unknown-policy error listing every policy the
/// game lists; a rule it does not have is named.
pub struct BadInput;

impl Check for BadInput {
    const WHAT: &'static str = "bad_input";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let rules = G::Rules::default();
        let known: Vec<&str> = G::policies().iter().map(|p| p.name).collect();
        for (spec, why) in [
            (NO_POLICY, ""),
            ("pimc-0", " (pimc-0: pimc-N takes N from 1 to "),
        ] {
            let Err(e) = G::with_policy(rules.clone(), spec) else {
                return Err(format!("--policy {spec} was taken"));
            };
            let e = e.to_string();
            let expected = format!("unknown policy {spec} for {}{why}", G::NAME);
            let listed = format!("known policies are {}", known.join(", "));
            if !e.starts_with(&expected) || !e.ends_with(&listed) {
                return Err(format!(
                    "--policy {spec}: {e:?} is not {expected:?}...{listed:?}"
                ));
            }
        }
        match sim::rules::load::<G::Rules>(None, &["no_such_rule=1".to_string()]).map(|_| ()) {
            Err(e) if e.to_string().contains("no_such_rule") => {}
            other => return Err(format!("--set no_such_rule=1: {other:?}")),
        }
        let cases: [&[&str]; 5] = [
            &["--policy", NO_POLICY, "--games", "10"],
            &["--policy", "pimc-0", "--games", "10"],
            &["--set", "no_such_rule=1", "--games", "10"],
            &["--games", "none"],
            &["--seed", "-1", "--games", "10"],
        ];
        for (i, flags) in cases.into_iter().enumerate() {
            let out = dir.join(format!("case-{i}"));
            let mut args = argv![G::NAME, "-q"].to_vec();
            args.extend(flags.iter().map(OsString::from));
            match in_process::<R>(&to(&args, &out)) {
                Ok(code) if code == ExitCode::from(2) && !out.exists() => {}
                Ok(code) if code == ExitCode::from(2) => {
                    return Err(format!("{flags:?}: refused but wrote {}", out.display()));
                }
                other => return Err(format!("{flags:?}: {other:?}, not exit code 2")),
            }
        }
        Ok(())
    }
}

/// Rule sets per game.
const RULE_SETS: u64 = 150;

/// Random rule sets (the defaults changed as a careless or hostile user would, as a file or as
/// `--set` flags) are played (exit 0, a summary written) or refused (exit 2, nothing written),
/// never a panic; both happen.
pub struct RandomRules;

impl Check for RandomRules {
    const WHAT: &'static str = "random_rules";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let defaults = G::Rules::default().to_table();
        let mut rng = Rand::new(20_261_205);
        let mut failures = Vec::new();
        let mut counts = [0u64; 2];
        for case in 0..RULE_SETS {
            let rules = mutate_table(&mut rng, &defaults, 3);
            let out = dir.join(format!("out-{case}"));
            let mut args = argv![
                G::NAME,
                "--games",
                "40",
                "--threads",
                "1",
                "-q",
                "--out",
                &out
            ]
            .to_vec();
            if rng.one_in(3) {
                // The same values as --set flags.
                for (path, value) in sim::rules::leaves(&rules)
                    .into_iter()
                    .filter(|_| rng.one_in(4))
                {
                    args.extend(argv!["--set", format!("{path}={value}")]);
                }
            } else {
                let file = dir.join(format!("{case}.toml"));
                std::fs::write(&file, toml::to_string(&rules).unwrap_or_default())
                    .map_err(|e| e.to_string())?;
                args.extend(argv!["--rules", &file]);
            }
            let run = |a: &[OsString]| in_process::<R>(a);
            failures.extend(check_case(&case.to_string(), &args, &out, &mut counts, run));
        }
        if !failures.is_empty() {
            return Err(failures.join("; "));
        }
        match counts {
            [0, _] | [_, 0] => Err(format!("played and refused {counts:?}: both must occur")),
            _ => Ok(()),
        }
    }
}

/// The concrete `--policy` values a game lists in `sim list`: each name, a family's (`X[-N]`)
/// at a small budget (`X-2`), its strategy files for `PATH.toml`; a family of plain policies
/// (`bank-at-N`) is played through the members it lists by name.
fn listed_policies<G: Registered>() -> Vec<String> {
    let mut out = Vec::new();
    for help in G::policies() {
        let name = help.name;
        if let Some((base, _)) = name.split_once('[') {
            out.push(format!("{base}-2"));
        } else if name.ends_with(".toml") {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("strategies")
                .join(G::NAME);
            out.extend(
                // ismcts.toml and pimc.toml are the search players above (the game's search
                // tests prove it), here at a test's budget.
                files_in(&dir)
                    .into_iter()
                    .filter(|f| f.ends_with(".toml") && f != "ismcts.toml" && f != "pimc.toml")
                    .map(|f| dir.join(f).display().to_string()),
            );
        } else if !name.ends_with("-N") {
            out.push(name.to_string());
        }
    }
    out
}

/// Every policy and search player the game lists plays a few games, its summary written.
pub struct EveryPolicy;

impl Check for EveryPolicy {
    const WHAT: &'static str = "every_policy";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let policies = listed_policies::<G>();
        for (i, policy) in policies.iter().enumerate() {
            let games = "4";
            let out = dir.join(format!("policy-{i}"));
            let args = argv![
                G::NAME,
                "--policy",
                policy,
                "--games",
                games,
                "--threads",
                "1",
                "-q"
            ];
            succeeds::<R>(&to(&args, &out))?;
            if !out.join("summary.parquet").exists() {
                return Err(format!("--policy {policy}: no summary.parquet"));
            }
        }
        for searcher in SEARCHERS {
            if !policies.iter().any(|p| p.starts_with(&searcher[..4])) {
                return Err(format!("{searcher} is not among the policies listed"));
            }
        }
        Ok(())
    }
}

/// `sim evaluate` on a few deals and one search budget writes its profile and ladder.
pub struct Evaluate;

impl Check for Evaluate {
    const WHAT: &'static str = "evaluate";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let out = dir.join("evaluate");
        let args = argv![
            "evaluate",
            G::NAME,
            "--games",
            "6",
            "--budgets",
            "2",
            "--threads",
            "1",
            "-q"
        ];
        succeeds::<R>(&to(&args, &out))?;
        for file in ["evaluate.parquet", "ladder.parquet"] {
            if !out.join(file).exists() {
                return Err(format!("sim evaluate wrote no {file}"));
            }
        }
        Ok(())
    }
}

/// `sim balance` searches the fixture's rule for a win rate on a tiny budget and writes its
/// rows.
pub struct Balance;

impl Check for Balance {
    const WHAT: &'static str = "balance";

    fn check<R: Registry, G: Registered>(&self, dir: &Path) -> Result<(), String> {
        let out = dir.join("balance");
        let (rule, low, high) = G::FIXTURE.vary;
        let args = argv![
            "balance",
            G::NAME,
            "--policy",
            G::DEFAULT_POLICY,
            "--target",
            "win_rate=0.5",
            "--vary",
            format!("{rule}={low}..{high}"),
            "--budget",
            "3000",
            "--threads",
            "1",
            "-q"
        ];
        succeeds::<R>(&to(&args, &out))?;
        if !out.join("balance.parquet").exists() {
            return Err("sim balance wrote no balance.parquet".into());
        }
        Ok(())
    }
}
