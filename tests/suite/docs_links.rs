//! The documentation's links: every relative link and `#anchor` in README.md and docs/*.md
//! resolves to a file of the repository and, for a Markdown page, to one of its headings (as
//! GitHub names them). Links inside code are not links; web links are not followed.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md, as paths relative to the root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let docs = std::fs::read_dir(root().join("docs")).expect("the docs folder");
    let mut found: Vec<PathBuf> = docs
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| PathBuf::from("docs").join(p.file_name().expect("a file name")))
        .collect();
    found.sort();
    pages.extend(found);
    pages
}

/// The page's lines outside fenced code blocks, as (line number, text); inline code spans are
/// kept (headings need their text), links are read from [`without_code_spans`].
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => lines.push((i + 1, line)),
            _ => {}
        }
    }
    lines
}

/// `line` with its inline code spans blanked out.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    out
}

/// The link targets of a page, as (line number, target): inline links and images
/// `[text](target)`, and reference definitions `[name]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let trimmed = line.trim_start();
        if trimmed.starts_with('[')
            && let Some((_, rest)) = trimmed.split_once("]: ")
        {
            found.push((n, rest.split_whitespace().next().unwrap_or("").to_string()));
            continue;
        }
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            found.push((n, target.trim_matches(['<', '>']).to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` dropped, spaces
/// as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings; a repeated heading gets `-1`, `-2`, ... as on GitHub.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    prose_lines(text)
        .into_iter()
        .filter_map(|(_, line)| {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            let title = line[hashes..].strip_prefix(' ')?;
            (1..=6).contains(&hashes).then(|| slug(title))
        })
        .map(|base| {
            let n = seen.entry(base.clone()).or_default();
            let anchor = if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            *n += 1;
            anchor
        })
        .collect()
}

/// `path` with `.` and `..` resolved, or `None` if it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with the links of `page` (relative to the root), whose text is `text`;
/// `read` gives another file's text (a page's, to find its anchors) or `None` if it is missing,
/// and `exists` says whether a path (file or folder) exists.
fn problems(
    page: &Path,
    text: &str,
    read: &dyn Fn(&Path) -> Option<String>,
    exists: &dyn Fn(&Path) -> bool,
) -> Vec<String> {
    let mut found = Vec::new();
    for (line, target) in links(text) {
        let at = format!("{}:{line}: {target}", page.display());
        if target.is_empty() {
            found.push(format!("{at}: an empty link"));
            continue;
        }
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        let path = if file.is_empty() {
            Some(page.to_path_buf())
        } else {
            normalize(&page.parent().unwrap_or(Path::new("")).join(file))
        };
        let Some(path) = path else {
            found.push(format!("{at}: leaves the repository"));
            continue;
        };
        if !exists(&path) {
            found.push(format!("{at}: no file {}", path.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            let is_page = path.extension().is_some_and(|x| x == "md");
            match read(&path) {
                Some(target_text) if is_page => {
                    if !anchors(&target_text).iter().any(|a| a == anchor) {
                        found.push(format!("{at}: no heading #{anchor} in {}", path.display()));
                    }
                }
                _ => found.push(format!("{at}: an anchor into a file that is not a page")),
            }
        }
    }
    found
}

#[test]
fn every_link_and_anchor_in_the_readme_and_docs_resolves() {
    let read = |p: &Path| std::fs::read_to_string(root().join(p)).ok();
    let exists = |p: &Path| root().join(p).exists();
    let pages = pages();
    assert!(
        pages.len() > 1,
        "docs/ holds no page: {pages:?} (the checker would check nothing)"
    );
    let mut all = Vec::new();
    let mut links_seen = 0;
    for page in &pages {
        let text = read(page).unwrap_or_else(|| panic!("read {}", page.display()));
        links_seen += links(&text).len();
        all.extend(problems(page, &text, &read, &exists));
    }
    assert!(links_seen > 0, "no link found in {pages:?}");
    assert!(
        all.is_empty(),
        "{} broken link(s):\n{}",
        all.len(),
        all.join("\n")
    );
}

#[test]
fn the_checker_finds_broken_files_and_anchors_and_skips_code() {
    let pages: HashMap<PathBuf, &str> = [
        (
            PathBuf::from("docs/a.md"),
            "# Title\n## How to add a game, step by step\n## `--format json`\n## Notes\n## Notes\n\
             [ok](b.md#the-b-page) [self](#how-to-add-a-game-step-by-step) [code](#--format-json)\n\
             [twice](#notes-1) [web](https://example.com/x#y) ![img](../README.md)\n\
             [gone](missing.md) [bad anchor](b.md#nope) [up](../../outside.md)\n\
             `[not a link](nowhere.md)`\n```\n[nor this](nowhere.md)\n```\n[ref]: b.md#nope-either\n",
        ),
        (PathBuf::from("docs/b.md"), "# The B page\n"),
        (PathBuf::from("README.md"), "# sim\n"),
    ]
    .into_iter()
    .collect();
    let read = |p: &Path| pages.get(p).map(|t| t.to_string());
    let exists = |p: &Path| pages.contains_key(p);
    let found = problems(
        Path::new("docs/a.md"),
        pages[Path::new("docs/a.md")],
        &read,
        &exists,
    );
    let short: Vec<&str> = found
        .iter()
        .map(|p| p.rsplit(": ").next().unwrap_or(p))
        .collect();
    assert_eq!(
        short,
        [
            "no file docs/missing.md",
            "no heading #nope in docs/b.md",
            "leaves the repository",
            "no heading #nope-either in docs/b.md",
        ],
        "{found:#?}"
    );
    assert_eq!(
        slug("Crownfall (default rules, 2M games)"),
        "crownfall-default-rules-2m-games"
    );
    assert_eq!(slug("`sim.1`: the man page"), "sim1-the-man-page");
}
