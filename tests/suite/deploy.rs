//! The Kubernetes manifests of deploy/k8s against the schemas of a pinned Kubernetes version,
//! with the pinned `kubernetes-validate` of `deploy/k8s/validator-requirements.txt`, installed into
//! a virtual environment in Cargo's target folder by `.ci/prepare` (which `.ci/run` calls; the
//! test installs nothing). A manifest broken on purpose must fail the same check, so the check is
//! known to look. Where the validator is not prepared the test says it is skipped and how to
//! prepare it, and passes, except under CI=true, where it fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The validator, pinned: the requirement `.ci/prepare` installs.
const VALIDATOR: &str = include_str!("../../deploy/k8s/validator-requirements.txt");
/// The Kubernetes version the manifests are checked against.
const KUBERNETES: &str = "1.34.0";

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The `kubernetes-validate` of the venv `.ci/prepare` made, or why there is none. The venv's
/// marker names the requirement and the venv's path (its scripts name their interpreter by
/// absolute path, so a target folder moved elsewhere needs preparing again).
fn validator() -> Result<PathBuf, String> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("k8s-validate-venv");
    let bin = venv.join("bin/kubernetes-validate");
    let made = format!("{} in {}", VALIDATOR.trim(), venv.display());
    match fs::read_to_string(venv.join("installed")) {
        Ok(marker) if marker == made && bin.exists() => Ok(bin),
        Ok(marker) => Err(format!("{} holds {marker:?}, not {made:?}", venv.display())),
        Err(_) => Err(format!("{} is not prepared", venv.display())),
    }
}

fn validate(bin: &Path, files: &[PathBuf]) -> Output {
    Command::new(bin)
        .args(["--strict", "--kubernetes-version", KUBERNETES])
        .args(files)
        .output()
        .expect("run kubernetes-validate")
}

#[test]
fn kubernetes_manifests_pass_the_schemas_of_the_pinned_version() {
    let bin = match validator() {
        Ok(bin) => bin,
        Err(why) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true requires the Kubernetes validation: {why}")
        }
        Err(why) => {
            eprintln!(
                "SKIPPED: the Kubernetes validation: {why}\n  to run it: .ci/prepare, then cargo test --release -- deploy"
            );
            return;
        }
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/k8s");
    let mut manifests: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("deploy/k8s")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    manifests.sort();
    let names: Vec<String> = manifests
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for needed in ["sim-indexed-job.yaml", "sim-merge-job.yaml"] {
        assert!(names.iter().any(|n| n == needed), "deploy/k8s/{needed}");
    }
    let indexed = fs::read_to_string(dir.join("sim-indexed-job.yaml")).unwrap();
    for needle in ["completionMode: Indexed", "JOB_COMPLETION_INDEX", "--shard"] {
        assert!(indexed.contains(needle), "the Indexed Job has {needle}");
    }
    let out = validate(&bin, &manifests);
    assert!(out.status.success(), "{}", text(&out));

    let broken = Path::new(env!("CARGO_TARGET_TMPDIR")).join("broken-indexed-job.yaml");
    fs::write(
        &broken,
        indexed.replace("completions: 64", "completions: sixty-four"),
    )
    .unwrap();
    let out = validate(&bin, &[broken]);
    assert!(
        !out.status.success(),
        "a Job with completions: sixty-four must fail: {}",
        text(&out)
    );
}
