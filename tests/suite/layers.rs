//! The crate's layers: every module of src/ imports only from its own folder and from the layers
//! below it, and no two folders import each other, directly or through others. The allowed
//! directions are [`LAYERS`], written here once.
//!
//! Imports are read from the source: every `crate::` path (in `use` items and in code),
//! `super::` paths that climb out of their folder, and `sim::` in the binary. Comments and
//! string literals are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, top first: the top-level modules of src/ (a folder or a file) in each, and
/// `folder/*` for each folder inside `folder` (`games/*`: every game's own folder, apart from the
/// rest of `games`). A module may import from its own layer (no circle allowed) and from any
/// layer below it.
pub const LAYERS: &[&[&str]] = &[
    // The binary and the command line: parse, dispatch, and (for now) run orchestration.
    &["main", "cli"],
    // The list of the games `sim` ships.
    &["registry"],
    // Presentation: terminal text, JSON, the HTML page, all read from results.
    &["report"],
    // The designer's tools.
    &["balance", "evaluate", "explore", "learn"],
    // What is written and read back: manifests, result sets, Parquet, summary rows.
    &["results"],
    // Playing games: the runner, its grids and shards.
    &["sim"],
    // Each game's folder.
    &["games/*"],
    // What every game builds on: the search players and traces over the state API.
    &["search", "trace"],
    // What a game is: the Game, Tally and GameState traits, seats, invariants.
    &["games"],
    // The leaves.
    &["stats", "rng", "cards", "error", "rules", "files", "stop"],
];

/// Upward imports owed, as (from, to, why): known, and to be paid by moving the piece to its
/// layer. Each is left out of the upward and circle checks; the test fails on any other upward
/// import, and on an owed one that is gone (so the list only shrinks).
pub const OWED: &[(&str, &str, &str)] = &[
    (
        "games",
        "evaluate",
        "the registry's Registered asks for a ladder (evaluate's Evaluable)",
    ),
    (
        "games",
        "trace",
        "the registry's Registered asks for a trace",
    ),
    (
        "games/crownfall",
        "evaluate",
        "each game's ladder.rs implements evaluate's Evaluable with its Rung and Subject, which \
         belong below the games",
    ),
    ("games/scoundrel", "evaluate", "its ladder, as above"),
    ("games/regicide", "evaluate", "its ladder, as above"),
    ("games/junkyard", "evaluate", "its ladder, as above"),
    (
        "games/on_state",
        "evaluate",
        "a state game's ladder, as above",
    ),
    (
        "sim",
        "report",
        "the progress bar's rate is written with the terminal's per_second",
    ),
];

/// True if the import from `from` to `to` is owed (see [`OWED`]).
fn owed(from: &str, to: &str) -> bool {
    OWED.iter().any(|(f, t, _)| *f == from && *t == to)
}

/// One import of a module from another top-level module: where it is written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Import {
    /// The importing top-level module.
    pub from: String,
    /// The imported top-level module.
    pub to: String,
    /// The file and line, as `src/...rs:N`.
    pub at: String,
}

/// The source folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("a source folder") {
            let path = entry.expect("a source entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The top-level modules of `src`: its folders and its `.rs` files (`lib.rs` aside).
pub fn top_modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("the src folder")
        .map(|e| e.expect("a source entry").path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            if p.is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs").map(str::to_string)
            }
        })
        .filter(|name| name != "lib")
        .collect()
}

/// The module path of a file relative to src/: `report/html/mod.rs` is `[report, html]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// A token of Rust source: an identifier or keyword, or one punctuation character (`::` is one
/// token), with its line.
#[derive(Debug, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

/// The tokens of `source` that matter for paths, without comments, strings and characters.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let ident = |c: char| c == '_' || c.is_alphanumeric();
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !raw_prefix_is_ident(&chars, i)
        {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(Token {
                    text: "r".into(),
                    line,
                });
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    Some(ch) => {
                        line += usize::from(*ch == '\n');
                        j += 1;
                    }
                }
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                line += usize::from(chars.get(i) == Some(&'\n'));
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{..}'), or a lifetime (left as punctuation).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ident(c) {
            let start = i;
            while i < chars.len() && ident(chars[i]) {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                line,
            });
        } else if c == ':' && next == Some(':') {
            out.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token {
                    text: c.to_string(),
                    line,
                });
            }
            i += 1;
        }
    }
    out
}

/// Whether the `r` at `i` ends an identifier (as in `for"` never, but `bar#`), not a raw string.
fn raw_prefix_is_ident(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1] == '_' || chars[i - 1].is_alphanumeric())
}

/// The paths a path names from `tokens[at]` on, after its prefix: `[x, y]` for `x::y`, and one
/// path per item of a group (`x::{y, z::w}` is `[x, y]` and `[x, z, w]`). Returns the paths and
/// the index after them.
fn paths_at(tokens: &[Token], mut at: usize) -> (Vec<Vec<String>>, usize) {
    let mut path = Vec::new();
    loop {
        match tokens.get(at).map(|t| t.text.as_str()) {
            Some("{") => {
                let mut all = Vec::new();
                at += 1;
                while tokens.get(at).is_some_and(|t| t.text != "}") {
                    let (inner, next) = paths_at(tokens, at);
                    all.extend(inner.into_iter().map(|tail| [path.clone(), tail].concat()));
                    at = next;
                    // Skip what follows an item (`as name`) up to its comma or the group's end.
                    while tokens
                        .get(at)
                        .is_some_and(|t| t.text != "," && t.text != "}")
                    {
                        at += 1;
                    }
                    if tokens.get(at).is_some_and(|t| t.text == ",") {
                        at += 1;
                    }
                }
                return (all, at + 1);
            }
            Some(name) if name.starts_with(|c: char| c == '_' || c.is_alphanumeric()) => {
                if name != "self" {
                    path.push(name.to_string());
                }
                at += 1;
                if tokens.get(at).is_some_and(|t| t.text == "::") {
                    at += 1;
                } else {
                    return (vec![path], at);
                }
            }
            _ => return (vec![path], at),
        }
    }
}

/// The modules of src/ that the tests tell apart: the top-level modules, and each folder of a
/// top-level folder written `folder/*` in [`LAYERS`] (each game's folder apart from `games`).
pub struct Units {
    tops: BTreeSet<String>,
    split: BTreeMap<String, BTreeSet<String>>,
}

impl Units {
    /// The units of the crate whose sources are in `src`.
    pub fn of(src: &Path) -> Self {
        let tops = top_modules(src);
        let split = LAYERS
            .iter()
            .flat_map(|layer| layer.iter())
            .filter_map(|name| name.strip_suffix("/*"))
            .map(|folder| {
                let dirs = std::fs::read_dir(src.join(folder))
                    .map(|entries| {
                        entries
                            .map(|e| e.expect("a source entry").path())
                            .filter(|p| p.is_dir())
                            .filter_map(|p| Some(p.file_name()?.to_str()?.to_string()))
                            .collect()
                    })
                    .unwrap_or_default();
                (folder.to_string(), dirs)
            })
            .collect();
        Self { tops, split }
    }

    /// The unit a module path from the crate's root lies in, if it names one.
    pub fn unit(&self, path: &[String]) -> Option<String> {
        let top = path.first().filter(|t| self.tops.contains(*t))?;
        match (self.split.get(top), path.get(1)) {
            (Some(dirs), Some(sub)) if dirs.contains(sub) => Some(format!("{top}/{sub}")),
            _ => Some(top.clone()),
        }
    }

    /// The layer of a unit (0 the top), if [`LAYERS`] places it.
    pub fn layer(&self, unit: &str) -> Option<usize> {
        let pattern = match unit.split_once('/') {
            Some((folder, _)) => format!("{folder}/*"),
            None => unit.to_string(),
        };
        LAYERS
            .iter()
            .position(|layer| layer.contains(&pattern.as_str()))
    }
}

/// The imports `source` (the file at `relative` under src/) makes of other units.
pub fn imports_of(relative: &Path, source: &str, units: &Units) -> Vec<Import> {
    let file_module = module_path(relative);
    let from = units
        .unit(&file_module)
        .expect("a file of src/ is in a unit");
    let binary = relative == Path::new("main.rs");
    let tokens = tokens(source);
    let mut found = Vec::new();
    // Inline modules (`mod tests { ... }`) open: the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let is = |i: usize, text: &str| tokens.get(i).is_some_and(|t| t.text == text);
    for i in 0..tokens.len() {
        let text = tokens[i].text.as_str();
        match text {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                inline.retain(|(_, d)| *d <= depth);
            }
            "mod" if is(i + 2, "{") => inline.push((tokens[i + 1].text.clone(), depth + 1)),
            _ => {}
        }
        let starts_path = is(i + 1, "::") && (i == 0 || !is(i - 1, "::"));
        if !starts_path {
            continue;
        }
        let (base, after): (Vec<String>, usize) = match text {
            "crate" => (Vec::new(), i + 2),
            "sim" if binary => (Vec::new(), i + 2),
            "super" => {
                let mut module = file_module.clone();
                module.extend(inline.iter().map(|(name, _)| name.clone()));
                let mut j = i;
                while is(j, "super") && is(j + 1, "::") {
                    module.pop();
                    j += 2;
                }
                (module, j)
            }
            _ => continue,
        };
        for tail in paths_at(&tokens, after).0 {
            let to = units.unit(&[base.clone(), tail].concat());
            if let Some(to) = to.filter(|to| *to != from) {
                found.push(Import {
                    from: from.clone(),
                    to,
                    at: format!("src/{}:{}", relative.display(), tokens[i].line),
                });
            }
        }
    }
    found
}

/// Every import across units in `src`.
pub fn imports(src: &Path) -> Vec<Import> {
    let units = Units::of(src);
    let mut all = Vec::new();
    for file in rust_files(src) {
        let relative = file.strip_prefix(src).expect("a file under src");
        if relative == Path::new("lib.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&file).expect("a readable source file");
        all.extend(imports_of(relative, &source, &units));
    }
    all.sort();
    all
}

/// The import graph between top-level modules: each edge with one place it is written.
pub fn graph(imports: &[Import]) -> BTreeMap<(String, String), String> {
    let mut edges = BTreeMap::new();
    for import in imports {
        edges
            .entry((import.from.clone(), import.to.clone()))
            .or_insert_with(|| import.at.clone());
    }
    edges
}

/// The circles: each set of two or more top-level modules that reach each other through imports
/// (the strongly connected components), sorted.
pub fn circles(edges: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::from([from.clone()]);
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for (a, b) in edges.keys() {
                if *a == n && seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut circles: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        let circle: Vec<String> = nodes
            .iter()
            .filter(|m| reaches[*n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if circle.len() > 1 && !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    circles
}

impl Units {
    /// Every unit: the top-level modules, and the folders of a split folder.
    pub fn all(&self) -> Vec<String> {
        let mut all: Vec<String> = self.tops.iter().cloned().collect();
        for (folder, dirs) in &self.split {
            all.extend(dirs.iter().map(|d| format!("{folder}/{d}")));
        }
        all
    }
}

#[test]
fn every_module_of_src_has_a_layer() {
    let units = Units::of(&src());
    let unplaced: Vec<String> = units
        .all()
        .into_iter()
        .filter(|m| units.layer(m).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "src/ modules in no layer (add them to LAYERS in tests/suite/layers.rs): {unplaced:?}"
    );
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let units = Units::of(&src());
    let all = imports(&src());
    let is_upward = |i: &Import| matches!((units.layer(&i.from), units.layer(&i.to)), (Some(f), Some(t)) if t < f);
    let upward: Vec<String> = all
        .iter()
        .filter(|i| is_upward(i) && !owed(&i.from, &i.to))
        .map(|i| format!("{} imports {} ({})", i.from, i.to, i.at))
        .collect();
    assert!(
        upward.is_empty(),
        "imports from a layer above:\n{}",
        upward.join("\n")
    );
    let paid: Vec<String> = OWED
        .iter()
        .filter(|(f, t, _)| {
            !all.iter()
                .any(|i| i.from == *f && i.to == *t && is_upward(i))
        })
        .map(|(f, t, _)| format!("{f} -> {t}"))
        .collect();
    assert!(
        paid.is_empty(),
        "owed imports no longer made (take them off OWED): {}",
        paid.join(", ")
    );
}

#[test]
fn no_folders_import_each_other() {
    let kept: Vec<Import> = imports(&src())
        .into_iter()
        .filter(|i| !owed(&i.from, &i.to))
        .collect();
    let edges = graph(&kept);
    let circles = circles(&edges);
    let shown: Vec<String> = circles
        .iter()
        .map(|circle| {
            let inside: Vec<String> = edges
                .iter()
                .filter(|((a, b), _)| circle.contains(a) && circle.contains(b))
                .map(|((a, b), at)| format!("  {a} -> {b} ({at})"))
                .collect();
            format!("{}:\n{}", circle.join(", "), inside.join("\n"))
        })
        .collect();
    assert!(
        circles.is_empty(),
        "import circles across folders:\n{}",
        shown.join("\n")
    );
}

#[test]
fn the_reader_finds_paths_in_code_and_not_in_comments_or_strings() {
    let units = Units {
        tops: ["sim", "games", "report", "stats", "rules"]
            .map(String::from)
            .into(),
        split: BTreeMap::from([("games".to_string(), BTreeSet::from(["toy".to_string()]))]),
    };
    let source = "use crate::{games::{Game, toy::{self, Toy}}, sim::runner as r};\n\
                  // crate::report::x\n\
                  fn f() { let s = \"crate::report\"; crate::stats::z::<u8>(); }\n\
                  mod tests { use super::super::report::y; }\n";
    let found: Vec<(String, String)> = imports_of(Path::new("sim/grid.rs"), source, &units)
        .into_iter()
        .map(|i| (i.to, i.at))
        .collect();
    let want = [
        ("games", 1),
        ("games/toy", 1),
        ("games/toy", 1),
        ("stats", 3),
    ]
    .map(|(m, l)| (m.to_string(), format!("src/sim/grid.rs:{l}")));
    assert_eq!(
        found, want,
        "super::super from a test module of sim/grid.rs is still sim"
    );
    // From a top-level file, `super::` in its test module is the file itself.
    let found = imports_of(
        Path::new("rules.rs"),
        "mod tests { use super::games; }",
        &units,
    );
    assert!(found.is_empty(), "{found:?}");
    // A game's folder is its own unit, and climbs out of it with super.
    let found = imports_of(Path::new("games/toy/mod.rs"), "use super::Game;", &units);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].to, "games");
    assert_eq!(units.layer("games/toy"), units.layer("games/crownfall"));
}
