//! What users read names sources they can see (the publisher's rules, the rulings, the docs),
//! not the project's internal ones: no "seed NNN" (the game descriptions the team worked from)
//! and no issue numbers in `sim list`, any command's `--help`, `sim man` (every page) or the
//! pages of docs/ and the README.

use std::path::Path;

use crate::common::*;

/// The phrases that name internal sources, lower case.
const INTERNAL: &[&str] = &["seed 0", "issue "];

/// The internal phrases in `text`, with the line each is on.
fn internal(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| {
            let l = l.to_lowercase();
            INTERNAL.iter().any(|p| l.contains(p))
        })
        .map(|l| l.trim().to_string())
        .collect()
}

/// The output of `sim ARGS`, which must succeed.
fn output_of(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "sim {args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The commands `sim --help` lists.
fn commands() -> Vec<String> {
    let help = output_of(&["--help"]);
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(
        ["list", "crownfall", "junkyard", "man"]
            .iter()
            .all(|c| listed.iter().any(|l| l == c)),
        "sim --help lists the commands: {listed:?}"
    );
    listed
}

#[test]
fn list_help_and_man_pages_name_no_internal_sources() {
    let mut texts = vec![
        ("sim list".to_string(), output_of(&["list"])),
        ("sim --help".to_string(), output_of(&["--help"])),
        ("sim man".to_string(), output_of(&["man"])),
    ];
    for command in commands().iter().filter(|c| *c != "help") {
        texts.push((
            format!("sim {command} --help"),
            output_of(&[command, "--help"]),
        ));
        if command != "man" {
            texts.push((format!("sim man {command}"), output_of(&["man", command])));
        }
    }
    let failures: Vec<String> = texts
        .iter()
        .flat_map(|(what, text)| {
            internal(text)
                .into_iter()
                .map(move |l| format!("{what}: {l}"))
        })
        .collect();
    assert_no_failures(&failures);
}

#[test]
fn the_docs_name_no_internal_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("the docs folder") {
        let path = entry.expect("a docs entry").path();
        if path.extension().is_some_and(|x| x == "md") {
            pages.push(path);
        }
    }
    let failures: Vec<String> = pages
        .iter()
        .flat_map(|page| {
            let text = std::fs::read_to_string(page).expect("read a page");
            internal(&text)
                .into_iter()
                .map(|l| format!("{}: {l}", page.display()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_no_failures(&failures);
}

#[test]
fn the_check_finds_what_it_looks_for() {
    assert_eq!(
        internal("a\nfrom seed 003 (Issue 11)\nseed 1"),
        ["from seed 003 (Issue 11)"]
    );
    assert!(internal("--seed 7; seed 1; issues\n").is_empty());
}
