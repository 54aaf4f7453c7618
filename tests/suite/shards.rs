//! Shards and `sim merge`: a set of shards that does not fit is refused by name, exit code 2, no
//! file. (That every game's run, comparison and sweep split into shards and merged gives the very
//! files of the one-process run is a check of the conformance suite.)

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;

/// Shards per run: enough that the ranges are uneven and none is a whole chunk.
const SHARDS: u64 = 64;

/// Runs `sim ARGS` and panics unless it succeeds.
fn ok(args: &[OsString]) {
    let out = run(args);
    assert!(
        out.status.success(),
        "sim {args:?} failed: {}",
        stderr(&out)
    );
}

/// Edits one field of a shard's manifest, as another sim version or a damaged file would have it.
fn edit_manifest(dir: &Path, from: &str, to: &str) {
    let path = dir.join("shard.json");
    let text = fs::read_to_string(&path).expect("read shard.json");
    assert!(text.contains(from), "shard.json has {from}: {text}");
    fs::write(&path, text.replacen(from, to, 1)).expect("write shard.json");
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("create a folder");
    for entry in fs::read_dir(from).expect("read a folder") {
        let entry = entry.expect("a folder entry");
        fs::copy(entry.path(), to.join(entry.file_name())).expect("copy a file");
    }
}

#[test]
fn shards_that_do_not_fit_are_refused_by_name_with_nothing_written() {
    let tmp = TempDir::new("shards_refused");
    let root = tmp.path();
    let base = argv!["crownfall", "--games", "6400", "--threads", "1"].to_vec();
    let good = play_shards(&root.join("good"), &base, SHARDS, 0..SHARDS);
    let with = |name: &str, extra: &[&str], index: u64| -> PathBuf {
        let mut args = base.clone();
        args.extend(extra.iter().map(OsString::from));
        play_shards(&root.join(name), &args, SHARDS, index..index + 1).remove(0)
    };
    // Shard 5 played with something else each time (the default policy is bank-at-17).
    let other_seed = with("seed", &["--seed", "2"], 5);
    let other_rules = with("rules", &["--set", "start_hp=16"], 5);
    let other_policy = with("policy", &["--policy", "bank-at-16"], 5);
    let other_version = root.join("version/shard-05");
    copy_dir(&good[5], &other_version);
    edit_manifest(
        &other_version,
        "\"version\":\"",
        "\"version\":\"0.0.0-other",
    );
    // Shard 1 of 32 covers shards 2 and 3 of 64.
    let mut overlap_args = base.clone();
    overlap_args.extend(argv!["--shard", "1/32", "--out", root.join("overlap")]);
    ok(&overlap_args);
    let not_a_shard = root.join("plain");
    let mut plain = base.clone();
    plain.extend(argv!["--out", &not_a_shard]);
    ok(&plain);

    let replace = |i: usize, dir: &PathBuf| {
        let mut dirs = good.clone();
        dirs[i] = dir.clone();
        dirs
    };
    let name = |p: &PathBuf| p.display().to_string();
    let mut missing = good.clone();
    missing.remove(40);
    let mut twice = good.clone();
    twice.push(good[9].clone());
    let mut overlapping = good.clone();
    overlapping.push(root.join("overlap"));
    let cases: Vec<(&str, Vec<PathBuf>, Vec<String>)> = vec![
        ("missing", missing, vec!["shard 40/64 is missing".into()]),
        (
            "duplicated",
            twice,
            vec![name(&good[9]), "given twice".into()],
        ),
        (
            "overlapping",
            overlapping,
            vec![name(&root.join("overlap")), "overlap".into()],
        ),
        (
            "other seed",
            replace(5, &other_seed),
            vec![name(&other_seed), "seed 2".into()],
        ),
        (
            "other rules",
            replace(5, &other_rules),
            vec![name(&other_rules), "start_hp = 16".into()],
        ),
        (
            "other policy",
            replace(5, &other_policy),
            vec![name(&other_policy), "policy bank-at-16".into()],
        ),
        (
            "other version",
            replace(5, &other_version),
            vec![name(&other_version), "0.0.0-other".into()],
        ),
        (
            "not a shard",
            replace(5, &not_a_shard),
            vec![name(&not_a_shard), "shard.json".into()],
        ),
    ];
    let mut failures = Vec::new();
    for (what, dirs, needles) in cases {
        let out_dir = root.join(format!("merged-{}", what.replace(' ', "-")));
        let out = merge_to(&dirs, &out_dir);
        match usage_error(&out, Some(&out_dir)) {
            Err(e) => failures.push(format!("{what}: {e}")),
            Ok(err) => {
                for needle in needles {
                    if !err.contains(&needle) {
                        failures.push(format!("{what}: stderr lacks {needle:?}: {err:?}"));
                    }
                }
                if out_dir.exists() {
                    failures.push(format!("{what}: the merge created {}", out_dir.display()));
                }
            }
        }
    }
    // The good shards do merge, so each refusal above is the one shard's doing.
    let out = merge_to(&good, &root.join("merged-good"));
    if !out.status.success() {
        failures.push(format!("the good shards: {}", stderr(&out)));
    }
    // Shard 7/64 played again as the two halves 14/128 and 15/128 still tiles the run.
    let mut resplit: Vec<PathBuf> = good.iter().filter(|d| **d != good[7]).cloned().collect();
    for half in [14, 15] {
        let dir = root.join(format!("resplit/{half}"));
        let mut args = base.clone();
        args.extend(argv!["--shard", format!("{half}/128"), "--out", &dir]);
        ok(&args);
        resplit.push(dir);
    }
    let out = merge_to(&resplit, &root.join("merged-resplit"));
    if !out.status.success() {
        failures.push(format!("the re-split shards: {}", stderr(&out)));
    }
    for name in ["summary.parquet", "distributions.parquet"] {
        if fs::read(root.join("merged-good").join(name)).ok()
            != fs::read(root.join("merged-resplit").join(name)).ok()
        {
            failures.push(format!("the re-split shards give another {name}"));
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn shard_arguments_are_checked_before_anything_runs() {
    let tmp = TempDir::new("shards_args");
    let mut failures = Vec::new();
    let cases: Vec<(&str, Vec<OsString>, &str)> = vec![
        (
            "precision",
            argv![
                "sweep",
                "crownfall",
                "--policy",
                "bank-at-17",
                "--vary",
                "start_hp=16,20",
                "--precision",
                "0.01",
                "--shard",
                "0/2"
            ]
            .to_vec(),
            "--precision",
        ),
        (
            "index past the count",
            argv!["crownfall", "--shard", "4/4", "--games", "1000"].to_vec(),
            "4/4",
        ),
        (
            "more shards than games",
            argv!["crownfall", "--shard", "0/64", "--games", "10"].to_vec(),
            "0/64",
        ),
    ];
    for (what, mut args, needle) in cases {
        let dir = tmp.join(what);
        args.extend(argv!["--out", &dir]);
        match usage_error(&run(&args), Some(&dir)) {
            Err(e) => failures.push(format!("{what}: {e}")),
            Ok(err) if !err.contains(needle) => {
                failures.push(format!("{what}: stderr lacks {needle:?}: {err:?}"));
            }
            Ok(_) => {}
        }
    }
    assert_no_failures(&failures);
}
