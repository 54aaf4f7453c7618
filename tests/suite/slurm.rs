//! The real thing: a one-node Slurm cluster on this machine (deploy/slurm/local-cluster), a run
//! split by `deploy/slurm/run-sharded 8` into an 8-task job array plus a merge job, and its merged
//! files compared byte for byte with the single run's; and the same with one task stopped mid-way
//! by `scancel --signal=TERM`, requeued, resumed and merged all the same.
//!
//! The cluster needs Slurm and munge installed (`.ci/prepare`, which `.ci/run` calls, installs
//! them once per machine; the test installs nothing) and root to start the daemons. Where it
//! cannot run, the test says it is skipped, why, and how to prepare it on stderr, and passes,
//! except under CI=true, where it must run and fails instead.
//!
//! The cluster is the machine's (its daemons listen on fixed ports), so the test holds an exclusive
//! lock on a file in the temporary folder from start to stop: a second test run on the same machine
//! waits for the first instead of stopping its cluster under it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/slurm")
        .join(name)
}

/// Waits until no other test run on this machine holds the local cluster, then holds it until
/// dropped (the lock is released when the file closes, even if the test panics).
fn hold_the_cluster() -> fs::File {
    let path = std::env::temp_dir().join("sim-local-slurm.lock");
    let file = fs::File::create(&path).expect("create the cluster's lock file");
    file.lock().expect("lock the cluster's lock file");
    file
}

/// Stops the local cluster when the test ends, whatever happened.
struct Cluster;

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script("local-cluster")).arg("stop").status();
    }
}

/// Starts the local cluster (holding it against other test runs) and runs `test` with its
/// `SLURM_CONF`; stops it afterwards. Where the cluster cannot run, says why and returns, except
/// under CI=true.
fn with_cluster(test: impl FnOnce(&str)) {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let _held = hold_the_cluster();
    let start = Command::new(script("local-cluster"))
        .arg("start")
        .output()
        .expect("run deploy/slurm/local-cluster");
    let why = stderr(&start);
    match start.status.code() {
        Some(0) => {}
        Some(3) if !ci => {
            eprintln!(
                "SKIPPED: the Slurm test cannot run on this machine: {}\n  to run it: .ci/prepare (as root), then cargo test --release -- slurm",
                why.trim()
            );
            return;
        }
        _ => panic!(
            "deploy/slurm/local-cluster start failed ({:?}){}: {why}",
            start.status,
            if ci { " and CI=true requires it" } else { "" }
        ),
    }
    let _cluster = Cluster;
    let conf = stdout(&start)
        .lines()
        .find_map(|l| l.strip_prefix("export SLURM_CONF=").map(String::from))
        .expect("local-cluster prints the SLURM_CONF line");
    test(&conf);
}

/// `deploy/slurm/run-sharded 8 -- ARGS --out DIR` as a command, on the cluster of `conf`.
fn run_sharded(conf: &str, args: &[std::ffi::OsString], dir: &Path) -> Command {
    let mut cmd = Command::new(script("run-sharded"));
    cmd.arg("8")
        .arg("--")
        .args(args)
        .arg("--out")
        .arg(dir)
        .env("SLURM_CONF", conf)
        .env("SIM", env!("CARGO_BIN_EXE_sim"));
    cmd
}

/// Asserts that the merged files in `sharded` are the single run's of `args`, byte for byte.
fn assert_merged_as_single(tmp: &TempDir, args: &[std::ffi::OsString], sharded: &Path) {
    let shards = fs::read_dir(sharded.join("shards"))
        .expect("the shards' folder")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with("-of-008"))
        })
        .count();
    assert_eq!(shards, 8, "one shard folder per array task");
    let single = tmp.join("single");
    let mut one = sim();
    one.args(args).arg("--out").arg(&single);
    assert!(one.status().expect("run sim").success());
    assert_no_failures(&file_differences(&single, sharded));
}

#[test]
fn eight_slurm_array_tasks_and_a_merge_job_give_the_single_runs_files() {
    with_cluster(|conf| {
        let tmp = TempDir::new("slurm");
        let args = argv!["crownfall", "--games", "80K", "--seed", "11", "--per-game"];
        let sharded = tmp.join("sharded");
        let out = run_sharded(conf, &args, &sharded)
            .output()
            .expect("run deploy/slurm/run-sharded");
        assert!(
            out.status.success(),
            "run-sharded failed: {}\n{}",
            stderr(&out),
            stdout(&out)
        );
        assert!(
            stdout(&out).contains("merged 8 shards"),
            "run-sharded prints the merge: {}",
            stdout(&out)
        );
        assert_merged_as_single(&tmp, &args, &sharded);
    });
}

/// `scontrol`, `squeue` or `scancel` with `args` on the cluster of `conf`: its stdout.
fn slurm(conf: &str, tool: &str, args: &[&str]) -> String {
    let out = Command::new(tool)
        .args(args)
        .env("SLURM_CONF", conf)
        .output()
        .unwrap_or_else(|e| panic!("run {tool}: {e}"));
    stdout(&out)
}

/// Waits up to two minutes for `ready` to give a value.
fn wait_for<T>(what: &str, mut ready: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(v) = ready() {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "waited too long for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The process id of the sim that plays shard `shard` (not the srun that started it).
fn shard_process(shard: &str) -> Option<u32> {
    let out = Command::new("pgrep")
        .args([
            "-f",
            &format!("^{} .*--shard {shard} ", env!("CARGO_BIN_EXE_sim")),
        ])
        .output()
        .ok()?;
    stdout(&out).lines().next()?.trim().parse().ok()
}

/// The CPU time (user and system) of process `pid` so far.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    ticks as f64 / 100.0
}

#[test]
fn a_task_stopped_by_sigterm_is_requeued_resumes_and_the_merge_is_the_single_runs() {
    with_cluster(|conf| {
        let tmp = TempDir::new("slurm_fault");
        let args = argv!["scoundrel", "--games", "16M", "--seed", "13", "--per-game"];
        let sharded = tmp.join("sharded");
        let driver = run_sharded(conf, &args, &sharded)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start deploy/slurm/run-sharded");
        let array = wait_for("the job array", || {
            let ids = slurm(conf, "squeue", &["-h", "-n", "sim-shard", "-o", "%F"]);
            ids.lines().next().map(|l| l.trim().to_string())
        });
        // Task 3 runs in the second wave (two CPUs): stop it once it has played a while.
        let task = format!("{array}_3");
        let pid = wait_for("shard 3/8 to play", || {
            shard_process("3/8").filter(|&pid| cpu_seconds(pid) >= 0.3)
        });
        slurm(conf, "scancel", &["--signal=TERM", &task]);
        // Slurm holds a requeued job back for a while; let it start at once.
        wait_for("the task to be requeued", || {
            let job = slurm(conf, "scontrol", &["show", "job", &task]);
            (job.contains("Restarts=1") && job.contains("JobState=PENDING")).then_some(())
        });
        slurm(
            conf,
            "scontrol",
            &["update", &format!("JobId={task}"), "StartTime=now"],
        );
        let out = driver.wait_with_output().expect("wait for run-sharded");
        assert!(
            out.status.success(),
            "run-sharded failed: {}\n{}",
            stderr(&out),
            stdout(&out)
        );
        let log = fs::read_to_string(sharded.join("shards/logs/shard-3.out")).unwrap_or_default();
        eprintln!("task 3 (process {pid}) stopped, requeued and resumed; its log:\n{log}");
        for needle in [
            "stopped by SIGTERM",
            "requeued to resume",
            "resuming",
            "resumed from",
        ] {
            assert!(
                log.contains(needle),
                "task 3's log lacks {needle:?}:\n{log}"
            );
        }
        assert_merged_as_single(&tmp, &args, &sharded);
    });
}
