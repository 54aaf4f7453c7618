//! The hostile suite's output class: what `sim` is told to write over. Devices and named pipes
//! (made with mknod in a temporary folder, never the real /dev), its own inputs (directly, through
//! `..` and through symlinks), two outputs of one command naming one file, and names as long as a
//! file system allows. Each command must refuse with exit code 2 and one line naming the path,
//! leave what was there as it was, and write nothing; or, for a legal name, simply work.

use std::ffi::OsString;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// Makes a character device like /dev/null (1:3) or /dev/full (1:7) at `path`.
fn mknod_char(path: &Path, minor: u32) {
    let status = Command::new("mknod")
        .arg(path)
        .args(["c", "1", &minor.to_string()])
        .status()
        .expect("run mknod");
    assert!(
        status.success(),
        "mknod {} (the suite runs as root)",
        path.display()
    );
}

/// Makes a named pipe at `path`.
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The names of everything in `dir` (files and folders, hidden ones too), sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn is_char_device(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// A small run's results folder at `dir`.
fn small_run(dir: &Path) {
    let out = run(&argv!["crownfall", "--games", "100", "--out", dir, "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `args` must be refused by the bad-input contract, its one line naming `named`.
fn refused(failures: &mut Vec<String>, args: &[OsString], named: &str) {
    let out = run(args);
    match usage_error(&out, None) {
        Ok(err) if err.contains(named) => {}
        Ok(err) => failures.push(format!("{args:?}: the error does not name {named}: {err}")),
        Err(e) => failures.push(format!("{args:?}: {e}")),
    }
}

#[test]
fn a_device_or_a_pipe_as_an_output_is_refused_and_left_as_it_was() {
    let tmp = TempDir::new("hostile-devices");
    let results = tmp.join("results");
    small_run(&results);
    let null = tmp.join("null");
    let full = tmp.join("full");
    let fifo = tmp.join("fifo");
    mknod_char(&null, 3);
    mknod_char(&full, 7);
    mkfifo(&fifo);
    let mut failures = Vec::new();
    for node in [&null, &full, &fifo] {
        let shown = node.display().to_string();
        let cases: Vec<Vec<OsString>> = vec![
            argv!["solve", "crownfall", "--out", node].to_vec(),
            argv!["solve", "crownfall", "--chart", node].to_vec(),
            argv!["solve", "crownfall", "--chart", node, "--report"].to_vec(),
            argv!["report", &results, "--out", node].to_vec(),
            argv!["play", "crownfall", "--record", node].to_vec(),
            argv!["crownfall", "--games", "10", "--out", node].to_vec(),
            argv![
                "compare",
                "crownfall",
                "--policy",
                "bank-at-15",
                "--policy",
                "bank-at-17",
                "--games",
                "10",
                "--out",
                node
            ]
            .to_vec(),
            argv!["merge", &results, "--out", node].to_vec(),
        ];
        for args in cases {
            refused(&mut failures, &args, &shown);
        }
    }
    assert!(
        is_char_device(&null) && is_char_device(&full),
        "the devices stay"
    );
    assert!(is_fifo(&fifo), "the pipe stays");
    // A device where a result file goes, in a results folder that is reused.
    let reused = tmp.join("reused");
    small_run(&reused);
    let summary = reused.join("summary.parquet");
    std::fs::remove_file(&summary).unwrap();
    mknod_char(&summary, 3);
    refused(
        &mut failures,
        &argv!["crownfall", "--games", "10", "--out", &reused],
        "summary.parquet",
    );
    assert!(is_char_device(&summary), "the device in --out stays");
    assert_no_failures(&failures);
}

#[test]
fn an_input_as_an_output_is_refused_directly_through_dot_dot_and_through_a_symlink() {
    let tmp = TempDir::new("hostile-inputs");
    let o = tmp.join("o");
    small_run(&o);
    let summary = o.join("summary.parquet");
    let before = std::fs::read(&summary).unwrap();
    let rules = tmp.write("r.toml", "start_hp = 20\n");
    let strategy = tmp.write("s.toml", "");
    std::fs::copy("strategies/crownfall/cautious.toml", &strategy).unwrap();
    std::os::unix::fs::symlink(&o, tmp.join("link-o")).unwrap();
    std::os::unix::fs::symlink(&rules, tmp.join("link-r.toml")).unwrap();
    let dotdot = tmp.path().join("o/../o/summary.parquet");
    let mut failures = Vec::new();
    let cases: Vec<(Vec<OsString>, &str)> = vec![
        (
            argv!["report", &o, "--out", &summary].to_vec(),
            "summary.parquet",
        ),
        (
            argv!["report", &o, "--out", &dotdot].to_vec(),
            "summary.parquet",
        ),
        (
            argv!["report", tmp.join("link-o"), "--out", &summary].to_vec(),
            "summary.parquet",
        ),
        (
            argv!["solve", "crownfall", "--rules", &rules, "--out", &rules].to_vec(),
            "r.toml",
        ),
        (
            argv![
                "solve",
                "crownfall",
                "--rules",
                &rules,
                "--chart",
                tmp.join("link-r.toml")
            ]
            .to_vec(),
            "link-r.toml",
        ),
        (
            argv![
                "solve",
                "crownfall",
                "--rules",
                &rules,
                "--chart",
                tmp.join("x/../r.toml")
            ]
            .to_vec(),
            "r.toml",
        ),
        (
            argv![
                "solve",
                "crownfall",
                "--evaluate",
                &strategy,
                "--chart",
                &strategy
            ]
            .to_vec(),
            "s.toml",
        ),
        (
            argv![
                "play",
                "crownfall",
                "--rules",
                &rules,
                "--record",
                tmp.join("link-r.toml")
            ]
            .to_vec(),
            "link-r.toml",
        ),
        (
            argv![
                "crownfall",
                "--games",
                "10",
                "--rules",
                &rules,
                "--out",
                &rules
            ]
            .to_vec(),
            "r.toml",
        ),
        (
            argv!["merge", &o, "--out", tmp.join("link-o")].to_vec(),
            "link-o",
        ),
    ];
    for (args, named) in cases {
        refused(&mut failures, &args, named);
    }
    // A strategy file inside the folder a run would replace.
    let solved = tmp.join("solved");
    let out = run(&argv!["solve", "crownfall", "--out", &solved, "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plan = solved.join("strategy.toml");
    refused(
        &mut failures,
        &argv![
            "crownfall",
            "--games",
            "10",
            "--policy",
            &plan,
            "--out",
            &solved
        ],
        "strategy.toml",
    );
    assert!(plan.is_file(), "the strategy file stays");
    assert_eq!(
        std::fs::read(&summary).unwrap(),
        before,
        "the run's Parquet stays"
    );
    assert_eq!(
        std::fs::read_to_string(&rules).unwrap(),
        "start_hp = 20\n",
        "the rules stay"
    );
    assert_no_failures(&failures);
}

#[test]
fn two_outputs_of_solve_never_name_one_file() {
    let tmp = TempDir::new("hostile-solve");
    let c = tmp.join("c");
    std::fs::create_dir(&c).unwrap();
    let mut failures = Vec::new();
    let cases: Vec<(Vec<OsString>, &str)> = vec![
        (
            argv![
                "solve",
                "crownfall",
                "--chart",
                c.join("solve.json"),
                "--report"
            ]
            .to_vec(),
            "solve.json",
        ),
        (
            argv![
                "solve",
                "crownfall",
                "--chart",
                c.join("report.html"),
                "--report"
            ]
            .to_vec(),
            "report.html",
        ),
        (
            argv![
                "solve",
                "crownfall",
                "--out",
                tmp.join("sub/../a"),
                "--chart",
                tmp.join("a")
            ]
            .to_vec(),
            "same file",
        ),
        (
            argv![
                "solve",
                "crownfall",
                "--out",
                &c,
                "--chart",
                c.join("chart.parquet")
            ]
            .to_vec(),
            "chart.parquet",
        ),
    ];
    for (args, named) in cases {
        refused(&mut failures, &args, named);
    }
    assert!(entries(&c).is_empty(), "nothing written: {:?}", entries(&c));
    assert_eq!(entries(tmp.path()), ["c"], "nothing made beside");
    assert_no_failures(&failures);
}

/// The longest name of one file or folder.
const NAME_MAX: usize = 255;

#[test]
fn a_legal_name_as_long_as_the_file_system_allows_works_for_every_output() {
    let tmp = TempDir::new("hostile-long");
    let long = |suffix: &str| -> PathBuf {
        tmp.join(&format!("{}{suffix}", "n".repeat(240 - suffix.len())))
    };
    let mut failures = Vec::new();
    let runs: Vec<(Vec<OsString>, PathBuf)> = vec![
        (
            argv!["crownfall", "--games", "100", "--out", long(""), "-q"].to_vec(),
            long("").join("summary.parquet"),
        ),
        (
            argv!["solve", "crownfall", "--out", long("-s"), "-q"].to_vec(),
            long("-s").join("strategy.toml"),
        ),
        (
            argv!["solve", "crownfall", "--chart", long(".parquet"), "-q"].to_vec(),
            long(".parquet"),
        ),
        (
            argv!["report", long(""), "--out", long(".html"), "-q"].to_vec(),
            long(".html"),
        ),
    ];
    for (args, made) in runs {
        let out = run(&args);
        if !out.status.success() || !made.is_file() {
            failures.push(format!(
                "{args:?}: {:?} {} (made: {})",
                out.status,
                stderr(&out),
                made.is_file()
            ));
        }
    }
    // A name one byte too long is refused up front, by name, before anything runs.
    let too_long = tmp.join(&"n".repeat(NAME_MAX + 1));
    refused(
        &mut failures,
        &argv!["crownfall", "--games", "10", "--out", &too_long],
        "at most 255",
    );
    let hidden: Vec<String> = entries(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "staging left behind: {hidden:?}");
    assert_no_failures(&failures);
}

#[test]
fn errors_name_the_users_path_and_say_what_is_wrong_in_the_users_words() {
    let tmp = TempDir::new("hostile-words");
    let mut failures = Vec::new();
    // A record that cannot be written: the message names the path given, not a temporary file.
    let blocker = tmp.write("file", "not a folder");
    let record = blocker.join("r.jsonl");
    let out = run(&argv!["play", "crownfall", "--record", &record]);
    match usage_error(&out, None) {
        Ok(err) if err.contains(&record.display().to_string()) && !err.contains(".tmp") => {}
        other => failures.push(format!("play --record under a file: {other:?}")),
    }
    // A Crownfall prefix resumed as Scoundrel.
    let shard = tmp.join("shard");
    let out = run(&argv![
        "crownfall",
        "--games",
        "100",
        "--shard",
        "0/2",
        "--out",
        &shard,
        "-q"
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&argv![
        "scoundrel",
        "--games",
        "100",
        "--shard",
        "0/2",
        "--resume",
        &shard
    ]);
    match usage_error(&out, None) {
        Ok(err) if err.contains("holds a crownfall run") => {}
        other => failures.push(format!("crownfall prefix resumed as scoundrel: {other:?}")),
    }
    // A value of the wrong type for a rule of named values: the rule and its values.
    let out = run(&argv!["crownfall", "--set", "deck=99999", "--games", "10"]);
    match usage_error(&out, None) {
        Ok(err)
            if err.contains("deck")
                && err.contains("finite")
                && err.contains("infinite")
                && !err.contains("variant") => {}
        other => failures.push(format!("--set deck=99999: {other:?}")),
    }
    assert_no_failures(&failures);
}
