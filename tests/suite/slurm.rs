//! The real thing: a one-node Slurm cluster on this machine (deploy/slurm/local-cluster), a run
//! split by `deploy/slurm/run-sharded 8` into an 8-task job array plus a merge job, and its merged
//! files compared byte for byte with the single run's.
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
use std::process::Command;

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

#[test]
fn eight_slurm_array_tasks_and_a_merge_job_give_the_single_runs_files() {
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
        .find_map(|l| l.strip_prefix("export SLURM_CONF="))
        .expect("local-cluster prints the SLURM_CONF line")
        .to_string();

    let tmp = TempDir::new("slurm");
    let args = argv!["crownfall", "--games", "80K", "--seed", "11", "--per-game"];
    let sharded = tmp.join("sharded");
    let out = Command::new(script("run-sharded"))
        .arg("8")
        .arg("--")
        .args(&args)
        .arg("--out")
        .arg(&sharded)
        .env("SLURM_CONF", &conf)
        .env("SIM", env!("CARGO_BIN_EXE_sim"))
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
    one.args(&args).arg("--out").arg(&single);
    assert!(one.status().expect("run sim").success());
    let expected = files_in(&single);
    assert_eq!(files_in(&sharded), expected, "the same files");
    for name in &expected {
        assert!(
            fs::read(single.join(name)).ok() == fs::read(sharded.join(name)).ok(),
            "{name} of the Slurm run differs from the single run's"
        );
    }
}
