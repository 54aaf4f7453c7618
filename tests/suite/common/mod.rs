//! Helpers shared by the tests that run the `sim` binary: temporary folders, running it, the
//! bad-input contract, and reading its Parquet files.
// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

pub mod png;
pub mod pty;
pub mod regicide_traces;
pub mod report_pages;
pub mod toys;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use polars::prelude::{AnyValue, DataFrame, ParquetReader, SerReader};

/// The exit code for bad input.
pub const USAGE: i32 = 2;
/// The exit code of a run stopped by Ctrl-C.
pub const INTERRUPTED: i32 = 130;
/// Games per chunk: a stopped run always played a whole number of chunks.
pub const CHUNK: u64 = 16_384;

/// A temporary folder unique to one test in this process, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(test: &str) -> Self {
        // One test binary runs every test in one process: a counter keeps two folders of the
        // same name apart.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("sim-cli-{test}-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("create the test folder");
        Self(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `text` to the file `name` in the folder and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.join(name);
        fs::write(&path, text).expect("write a test input file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The `sim` binary under test: this build's, or the one `SIM_UNDER_TEST` names (to show that a
/// test fails with another build, e.g. `SIM_UNDER_TEST=/work/main/target/release/sim`).
pub fn sim() -> Command {
    Command::new(
        std::env::var("SIM_UNDER_TEST").unwrap_or_else(|_| env!("CARGO_BIN_EXE_sim").into()),
    )
}

/// Runs `sim` with `args` and returns its output.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    sim().args(args).output().expect("run the sim binary")
}

/// The arguments of a command line, from anything that reads as an OS string (`&str`, `&Path`).
#[macro_export]
macro_rules! argv {
    ($($arg:expr),* $(,)?) => {
        [$(std::ffi::OsString::from($arg)),*]
    };
}

/// Plays shards `indices` of `count` (`--shard I/COUNT`) of `args` into `root/shard-II`, and
/// returns their folders; panics unless each succeeds.
pub fn play_shards(
    root: &Path,
    args: &[std::ffi::OsString],
    count: u64,
    indices: impl Iterator<Item = u64>,
) -> Vec<PathBuf> {
    indices
        .map(|i| {
            let dir = root.join(format!("shard-{i:02}"));
            let mut a = args.to_vec();
            a.extend(argv!["--shard", format!("{i}/{count}"), "--out", &dir]);
            let out = run(&a);
            assert!(out.status.success(), "sim {a:?} failed: {}", stderr(&out));
            dir
        })
        .collect()
}

/// Rewrites the record `dir/shard.json` with `edit` applied to its JSON, and its digest made
/// anew for the edited content, as a forger would.
pub fn forge(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = dir.join("shard.json");
    let text = fs::read_to_string(&path).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut value);
    let manifest: sim::results::manifest::Manifest<serde_json::Value> =
        serde_json::from_value(value).unwrap();
    let text = serde_json::to_string(&manifest.sealed()).unwrap();
    fs::write(&path, text).unwrap();
}

/// Runs `sim merge DIRS --out OUT`.
pub fn merge_to(dirs: &[PathBuf], out: &Path) -> Output {
    let mut args = argv!["merge"].to_vec();
    args.extend(dirs.iter().map(std::ffi::OsString::from));
    args.extend(argv!["--out", out]);
    run(&args)
}

/// Runs `sim GAME ARGS --out OUT`.
pub fn game_to<S: AsRef<std::ffi::OsStr>>(game: &str, out: &Path, args: &[S]) -> Output {
    sim()
        .arg(game)
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run the sim binary")
}

/// The bad-input contract of [`usage_error`] for `out`, whose one error line must also name
/// `named`: `None` if both hold, else what was wrong, led by `case`.
pub fn refused_naming(
    out: &Output,
    out_dir: Option<&Path>,
    named: &str,
    case: &str,
) -> Option<String> {
    match usage_error(out, out_dir) {
        Ok(err) if err.contains(named) => None,
        Ok(err) => Some(format!("{case}: {err:?} does not name {named:?}")),
        Err(e) => Some(format!("{case}: {e}")),
    }
}

/// Runs `sim GAME FLAGS --games GAMES --out DIR` for each case, each with a fresh DIR under
/// `tmp`, and asserts every one keeps the bad-input contract of [`refused_naming`]: exit 2, one
/// error line naming the case's text, nothing written.
pub fn assert_each_refused_naming<'a, F: AsRef<[&'a str]>>(
    game: &str,
    tmp: &TempDir,
    games: &str,
    cases: impl IntoIterator<Item = (F, &'a str)>,
) {
    let mut failures = Vec::new();
    for (i, (flags, named)) in cases.into_iter().enumerate() {
        let flags = flags.as_ref();
        let dir = tmp.join(&format!("out{i}"));
        let mut args = flags.to_vec();
        args.extend(["--games", games]);
        let out = game_to(game, &dir, &args);
        failures.extend(refused_naming(
            &out,
            Some(&dir),
            named,
            &format!("{flags:?}"),
        ));
    }
    assert_no_failures(&failures);
}

/// Runs `sim ARGS --threads T --out DIR` for T = 1 and then 2, each with its own DIR under
/// `tmp` (`t1`, `t2`); asserts both succeed and returns each DIR with its run's output.
pub fn on_1_and_2_threads(tmp: &TempDir, args: &[&str]) -> [(PathBuf, Output); 2] {
    ["1", "2"].map(|threads| {
        let dir = tmp.join(&format!("t{threads}"));
        let out = sim()
            .args(args)
            .args(["--threads", threads, "--out"])
            .arg(&dir)
            .output()
            .expect("run the sim binary");
        assert!(
            out.status.success(),
            "--threads {threads} failed: {:?}\n{}",
            out.status,
            stderr(&out)
        );
        (dir, out)
    })
}

/// Asserts that each file `names` is the same, byte for byte, in the two folders of
/// [`on_1_and_2_threads`].
pub fn assert_same_files_on_1_and_2_threads(runs: &[(PathBuf, Output); 2], names: &[&str]) {
    for name in names {
        let [a, b] = runs
            .each_ref()
            .map(|(dir, _)| std::fs::read(dir.join(name)));
        let (a, b) = (
            a.expect("read the 1-thread file"),
            b.expect("read the 2-thread file"),
        );
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
}

/// Runs `sim crownfall ARGS --out OUT`.
pub fn crownfall_to(out: &Path, args: &[std::ffi::OsString]) -> Output {
    sim()
        .arg("crownfall")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run the sim binary")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The names of the files (anything but folders) in `dir`; none if it does not exist.
pub fn files_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .map(|e| e.expect("read a folder entry"))
        .filter(|e| !e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Checks the contract of bad input: exit code 2, exactly one stderr line starting with
/// "error:", nothing written in `out_dir`. Returns stderr, or a description of what was wrong.
pub fn usage_error(out: &Output, out_dir: Option<&Path>) -> Result<String, String> {
    let err = stderr(out);
    let mut problems = Vec::new();
    if out.status.code() != Some(USAGE) {
        problems.push(format!("exit status {:?}, expected {USAGE}", out.status));
    }
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() != 1 || !lines[0].starts_with("error:") {
        problems.push("stderr is not one line starting with \"error:\"".to_string());
    }
    if let Some(dir) = out_dir {
        let left = files_in(dir);
        if !left.is_empty() {
            problems.push(format!("files left in --out: {left:?}"));
        }
    }
    if problems.is_empty() {
        Ok(err)
    } else {
        Err(format!(
            "{}\n  stderr: {err:?}\n  stdout: {:?}",
            problems.join("; "),
            stdout(out)
        ))
    }
}

/// The stderr of `out`, which must keep the bad-input contract of [`usage_error`]; panics if not.
pub fn rejected(out: &Output, out_dir: Option<&Path>) -> String {
    usage_error(out, out_dir).unwrap_or_else(|e| panic!("{e}"))
}

/// Panics listing every failed case, so one run shows them all.
pub fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

pub fn read_parquet(path: &Path) -> DataFrame {
    let file = fs::File::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    ParquetReader::new(file)
        .finish()
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

pub fn column_names(df: &DataFrame) -> Vec<String> {
    df.get_column_names()
        .iter()
        .map(ToString::to_string)
        .collect()
}

pub fn value_at<'a>(df: &'a DataFrame, column: &str, row: usize) -> AnyValue<'a> {
    df.column(column)
        .and_then(|c| c.get(row))
        .unwrap_or_else(|e| panic!("{column}[{row}]: {e}"))
}

pub fn u64_at(df: &DataFrame, column: &str, row: usize) -> u64 {
    match value_at(df, column, row) {
        AnyValue::UInt64(v) => v,
        other => panic!("{column}[{row}] is {other:?}, not a u64"),
    }
}

pub fn bool_at(df: &DataFrame, column: &str, row: usize) -> bool {
    match value_at(df, column, row) {
        AnyValue::Boolean(v) => v,
        other => panic!("{column}[{row}] is {other:?}, not a bool"),
    }
}

pub fn str_at(df: &DataFrame, column: &str, row: usize) -> String {
    match value_at(df, column, row) {
        AnyValue::String(v) => v.to_string(),
        AnyValue::StringOwned(v) => v.to_string(),
        other => panic!("{column}[{row}] is {other:?}, not a string"),
    }
}

/// The (metric, count) pairs of a distributions table.
pub fn metric_counts(df: &DataFrame) -> Vec<(String, u64)> {
    let metric = df.column("metric").and_then(|c| c.str().cloned());
    let count = df.column("count").and_then(|c| c.u64().cloned());
    let (metric, count) = (metric.expect("metric column"), count.expect("count column"));
    metric
        .iter()
        .zip(count.iter())
        .map(|(m, c)| (m.expect("metric").to_string(), c.expect("count")))
        .collect()
}

/// The sum of the counts of `metric` in a distributions table.
pub fn metric_total(df: &DataFrame, metric: &str) -> u64 {
    metric_counts(df)
        .into_iter()
        .filter(|(m, _)| m == metric)
        .map(|(_, c)| c)
        .sum()
}

/// The fields of a traced game's outcome (the last line of `sim trace --json`'s `stdout`) that
/// differ from row `row` of the per-game file `rows`, as `(field, traced, in the row)`; the
/// line's `type` and the fields in `skip` are not compared.
pub fn outcome_differences(
    stdout: &str,
    rows: &DataFrame,
    row: usize,
    skip: &[&str],
) -> Vec<(String, String, String)> {
    let outcome: serde_json::Value =
        serde_json::from_str(stdout.lines().last().expect("an outcome line")).unwrap();
    outcome
        .as_object()
        .expect("the outcome is an object")
        .iter()
        .filter(|(name, _)| *name != "type" && !skip.contains(&name.as_str()))
        .filter_map(|(name, value)| {
            let cell = value_at(rows, name, row).to_string();
            let cell = cell.trim_matches('"').to_string();
            let traced = match value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (cell != traced).then(|| (name.clone(), traced, cell))
        })
        .collect()
}

/// The exit code of a run stopped by SIGTERM.
pub const TERMINATED: i32 = 143;

/// What a signalled run did: its exit code and output.
pub struct Signalled {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// The CPU time (user and system) process `pid` has used so far; zero once it is gone.
fn cpu_of(pid: u32) -> Duration {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // The fields after the command's name (in parentheses, which may hold spaces).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    Duration::from_millis((ticks(11) + ticks(12)) * 1000 / per_second)
}

/// Runs `sim ARGS`, sends it `signal` (`libc::SIGTERM`, `libc::SIGINT`) once it has used `cpu`
/// of CPU time (so that it is playing, however loaded the machine), and waits for it to end.
pub fn signalled<S: AsRef<std::ffi::OsStr>>(args: &[S], signal: i32, cpu: Duration) -> Signalled {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = sim()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sim");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout piped")));
    let err = drain(Box::new(child.stderr.take().expect("stderr piped")));
    let started = std::time::Instant::now();
    let mut sent = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll sim") {
            break status;
        }
        if !sent && cpu_of(child.id()) >= cpu {
            // SAFETY: kill sends a signal to the child this test started.
            unsafe { libc::kill(child.id() as i32, signal) };
            sent = true;
        }
        if started.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "sim {:?} did not end within 10 minutes",
                args.iter()
                    .map(|a| a.as_ref().to_os_string())
                    .collect::<Vec<_>>()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Signalled {
        code: status.code(),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// Plays a Crownfall run of a billion games into `dir`, stops it with `signal` once it is
/// playing, and asserts that it exited with `code` and kept a prefix of whole chunks, marked
/// incomplete, its distributions counting the same games as its summary; returns what it printed.
pub fn stop_a_long_run(dir: &Path, signal: i32, code: i32) -> Signalled {
    let stopped = signalled(
        &argv!["crownfall", "--games", "1B", "--threads", "2", "--out", dir],
        signal,
        Duration::from_millis(500),
    );
    assert_eq!(
        stopped.code,
        Some(code),
        "stdout: {}\nstderr: {}",
        stopped.stdout,
        stopped.stderr
    );
    let summary = read_parquet(&dir.join("summary.parquet"));
    assert!(!bool_at(&summary, "complete", 0), "complete must be false");
    let games = u64_at(&summary, "games", 0);
    assert!(
        games > 0 && games < 1_000_000_000 && games.is_multiple_of(CHUNK),
        "games = {games}: expected a partial run of whole chunks"
    );
    assert_eq!(
        metric_total(
            &read_parquet(&dir.join("distributions.parquet")),
            "final_hp"
        ),
        games,
        "the distributions cover the same prefix as the summary"
    );
    stopped
}

/// Every entry under `dir`, folders included, as paths relative to it, sorted: what a command
/// left there.
pub fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            out.push(
                path.strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string(),
            );
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The names and bytes of the files in `dir` (not its folders).
pub fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_in(dir)
        .into_iter()
        .map(|name| {
            let bytes = fs::read(dir.join(&name)).unwrap_or_default();
            (name, bytes)
        })
        .collect()
}

/// The files of `a` and `b` that differ (by name, then byte for byte), as lines.
pub fn file_differences(a: &Path, b: &Path) -> Vec<String> {
    let (fa, fb) = (files_in(a), files_in(b));
    if fa != fb {
        return vec![format!(
            "{} holds {fa:?}, {} holds {fb:?}",
            a.display(),
            b.display()
        )];
    }
    fa.iter()
        .filter(|name| fs::read(a.join(name)).ok() != fs::read(b.join(name)).ok())
        .map(|name| format!("{name} differs between {} and {}", a.display(), b.display()))
        .collect()
}

/// Checks that the game's strategy files `strategies/GAME/ismcts.toml` and `pimc.toml` are its
/// built-in search players: the file's settings are the game's defaults, and the player it names
/// is the one its bare name (`ismcts`, `pimc`) names, `searcher` parsing each.
pub fn assert_strategy_files_are_built_in<P: PartialEq + std::fmt::Debug>(
    game: &str,
    defaults: &sim::search::Defaults,
    searcher: impl Fn(&str) -> sim::search::Searcher<P>,
) {
    use sim::search::Algorithm;
    for (file, algorithm) in [("ismcts", Algorithm::Ismcts), ("pimc", Algorithm::Pimc)] {
        let path = format!(
            "{}/strategies/{game}/{file}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let from_file = searcher(&path);
        assert_eq!(from_file.settings, defaults.settings(algorithm), "{path}");
        assert_eq!(from_file, searcher(file), "{path}");
    }
}
