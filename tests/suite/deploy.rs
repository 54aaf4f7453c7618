//! The Kubernetes manifests of deploy/k8s against the schemas of a pinned Kubernetes version,
//! with a pinned `kubernetes-validate` installed into a virtual environment the test makes (in
//! Cargo's target folder, once). A manifest broken on purpose must fail the same check, so the
//! check is known to look. Where Python or the package index is not at hand the test says so and
//! passes, except under CI=true, where it fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The validator, pinned.
const VALIDATOR: &str = "kubernetes-validate==1.34.1";
/// The Kubernetes version the manifests are checked against.
const KUBERNETES: &str = "1.34.0";

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The `kubernetes-validate` of a venv made for it, or why there is none. The venv is reused only
/// where it was made: its scripts name their interpreter by absolute path, so a target folder
/// moved elsewhere gets a fresh venv.
fn validator() -> Result<PathBuf, String> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("k8s-validate-venv");
    let bin = venv.join("bin/kubernetes-validate");
    let marker = venv.join("installed");
    let made = format!("{VALIDATOR} in {}", venv.display());
    if fs::read_to_string(&marker).ok() == Some(made.clone()) && bin.exists() {
        return Ok(bin);
    }
    let run = |cmd: &mut Command, what: &str| -> Result<(), String> {
        let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{what} failed: {}", text(&out)))
        }
    };
    run(
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv),
        "python3 -m venv",
    )?;
    run(
        Command::new(venv.join("bin/pip")).args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            VALIDATOR,
        ]),
        &format!("pip install {VALIDATOR}"),
    )?;
    fs::write(&marker, made).map_err(|e| e.to_string())?;
    Ok(bin)
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
            eprintln!("SKIPPED: cannot install {VALIDATOR} here: {why}");
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
