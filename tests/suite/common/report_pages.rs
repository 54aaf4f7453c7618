//! The HTML reports the report tests read: one of each kind made by the commands' `--report`,
//! and a page taken apart: its tables with the exact values their cells carry, its figures and
//! their bars, and the page without the lines that differ from run to run.

use std::path::{Path, PathBuf};

use super::{TempDir, run, stderr};

/// A report made by a command: its kind, the command's words (without `sim`, `--out`,
/// `--report`), the folder it was written into, and the ids of the figures and tables it must
/// hold.
pub struct Made {
    pub kind: &'static str,
    pub args: &'static [&'static str],
    pub dir: PathBuf,
    pub expected: &'static [&'static str],
}

impl Made {
    pub fn page(&self) -> PathBuf {
        self.dir.join("report.html")
    }
}

/// One of each kind of report: what to run (`--out DIR` and `--report` are added, but for
/// solve, which writes beside its `--chart`) and the ids it must hold.
const KINDS: &[(&str, &[&str], &[&str])] = &[
    (
        "run",
        &[
            "crownfall",
            "--policy",
            "bank-at-17",
            "--games",
            "100K",
            "--set",
            "start_hp=18",
        ],
        &[
            "run-1-final_hp",
            "run-1-cleared",
            "run-1-strikes",
            "run-1-perfect_21s",
            "run-1-figures",
        ],
    ),
    (
        "run",
        &[
            "junkyard", "--policy", "greedy", "--vs", "simple", "--games", "2000",
        ],
        &[
            "run-1-seats",
            "run-1-first-move",
            "run-1-per-seat",
            "run-1-turns",
            "run-1-final_hp_seat0",
            "run-1-final_hp_seat1",
        ],
    ),
    (
        "run",
        &[
            "regicide",
            "--players",
            "3",
            "--policy",
            "heuristic",
            "--seat",
            "2=simple",
            "--games",
            "2000",
        ],
        &["run-1-seats", "run-1-royals", "run-1-turns"],
    ),
    (
        "compare",
        &[
            "compare",
            "crownfall",
            "--policy",
            "bank-at-15..17",
            "--policy",
            "bank-at-target",
            "--baseline",
            "bank-at-16",
            "--games",
            "20K",
        ],
        &["compare-1-ranked", "compare-1-forest"],
    ),
    (
        "sweep",
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-16",
            "--policy",
            "bank-at-17",
            "--vary",
            "guard_damage.king=1..3",
            "--games",
            "10K",
        ],
        &["sweep-1-lines", "sweep-1-cells-table"],
    ),
    (
        "sweep",
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--vary",
            "guard_damage.king=1..3",
            "--vary",
            "start_hp=16,20",
            "--games",
            "5K",
        ],
        &["sweep-1-heatmap-0", "sweep-1-cells-table"],
    ),
    (
        "tournament",
        &[
            "compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--policy",
            "random", "--games", "1000",
        ],
        &[
            "tournament-1-matrix",
            "tournament-1-ratings",
            "tournament-1-ratings-table",
        ],
    ),
    (
        "evaluate",
        &[
            "evaluate",
            "crownfall",
            "--games",
            "100",
            "--budgets",
            "25,50",
            "--set",
            "start_hp=18",
        ],
        &[
            "evaluate-1-ladder",
            "evaluate-1-gains",
            "evaluate-1-duration-strikes",
            "evaluate-1-ladder-table",
            "evaluate-1-metrics-ladder",
            "evaluate-1-metrics-luck",
            "evaluate-1-metrics-seats",
            "evaluate-1-metrics-duration",
            "evaluate-1-metrics-tension",
        ],
    ),
    (
        "evaluate",
        &[
            "evaluate",
            "crownfall",
            "--games",
            "60",
            "--budgets",
            "25",
            "--vary",
            "guard_damage.king=1..3",
        ],
        &[
            "evaluate-1-vary-headroom",
            "evaluate-1-vary-luck",
            "evaluate-1-vary-ladder",
            "evaluate-1-duration-0-strikes",
            "evaluate-1-duration-2-strikes",
            "evaluate-1-ladder-table",
            "evaluate-1-metrics-ladder",
        ],
    ),
    (
        "evaluate",
        &[
            "evaluate",
            "regicide",
            "--players",
            "2",
            "--games",
            "30",
            "--budgets",
            "19",
        ],
        &[
            "evaluate-1-ladder",
            "evaluate-1-gains",
            "evaluate-1-duration-turns",
            "evaluate-1-ladder-table",
        ],
    ),
    (
        "evaluate",
        &["evaluate", "junkyard", "--games", "16", "--budgets", "2,4"],
        &[
            "evaluate-1-seats",
            "evaluate-1-ladder",
            "evaluate-1-ladder-table",
            "evaluate-1-metrics-seats",
        ],
    ),
    (
        "brief",
        &[
            "balance",
            "crownfall",
            "--set",
            "deck=infinite",
            "--target",
            "win_rate[optimal]>=0.7",
            "--target",
            "gap[optimal,bank-at-17]>=0.25",
            "--vary",
            "start_hp=8,12,16,20",
            "--vary",
            "target.king=15,17,19",
            "--games",
            "200K",
        ],
        &[
            "brief-1-heatmap-region",
            "brief-1-target1-forest",
            "brief-1-target2-forest",
            "brief-1-cells",
        ],
    ),
    (
        "balance",
        &[
            "balance",
            "crownfall",
            "--policy",
            "optimal",
            "--target",
            "win_rate=0.75",
            "--vary",
            "start_hp=8..20",
            "--games",
            "1M",
        ],
        &["balance-1-candidates", "balance-1-steps"],
    ),
    (
        "balance",
        &[
            "balance",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--target",
            "win_rate>=0.55",
            "--vary",
            "start_hp=16,20",
            "--vary",
            "guard_damage.king=1,3",
            "--games",
            "200K",
            "--set",
            "guard_zone=3",
        ],
        &["balance-1-candidates", "balance-1-steps"],
    ),
    (
        "balance",
        &[
            "balance",
            "junkyard",
            "--policy",
            "simple",
            "--target",
            "first_move_adv=0",
            "--vary",
            "second_seat_hp_bonus=0..20",
            "--games",
            "20K",
        ],
        &["balance-1-candidates", "balance-1-steps"],
    ),
    (
        "solve",
        &["solve", "crownfall", "--evaluate", "bank-at-17"],
        &[
            "solve-1-evaluated",
            "solve-1-chart-jack-hard",
            "solve-1-chart-jack-soft",
            "solve-1-chart-queen-hard",
            "solve-1-chart-king-soft",
            "solve-1-chart-joker",
        ],
    ),
];

/// Makes one report of each kind under `tmp`, each in its own folder.
pub fn make_all(tmp: &TempDir) -> Vec<Made> {
    KINDS
        .iter()
        .enumerate()
        .map(|(i, &(kind, args, expected))| {
            let dir = tmp.join(&format!("{i}-{kind}"));
            let mut argv: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
            if kind == "solve" {
                argv.extend(["--chart".into(), dir.join("chart.parquet").into()]);
            } else {
                argv.extend(["--out".into(), dir.clone().into()]);
            }
            argv.extend(["--report".into(), "--quiet".into()]);
            let out = run(&argv);
            assert!(out.status.success(), "sim {args:?}: {}", stderr(&out));
            Made {
                kind,
                args,
                dir,
                expected,
            }
        })
        .collect()
}

/// The text of a page.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// `text` with the entities an HTML escaper writes (named: `&lt;`, `&gt;`, `&quot;`, `&amp;`;
/// numeric: `&#39;`, `&#x27;`) turned back into characters.
pub fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').expect("an entity ends with ;");
        let entity = &rest[1..end];
        let c = match entity {
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "amp" => '&',
            "apos" => '\'',
            _ => {
                let code = match entity.strip_prefix("#x").or(entity.strip_prefix("#X")) {
                    Some(hex) => u32::from_str_radix(hex, 16),
                    None => entity.trim_start_matches('#').parse(),
                };
                char::from_u32(code.expect("a numeric entity")).expect("a character")
            }
        };
        out.push(c);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A word of a page's command as the shell passes it on: a single-quoted word without its
/// quotes (`'a>=b'` is `a>=b`, `'it'\''s'` is `it's`).
pub fn unquoted(word: &str) -> String {
    match word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')) {
        Some(inner) => inner.replace("'\\''", "'"),
        None => word.to_string(),
    }
}

/// The value of attribute `name` in the tag text `tag`, unescaped.
pub fn attribute(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    Some(unescape(&tag[at..at + tag[at..].find('"')?]))
}

/// A table of the page: its id, the file its rows show (if any), and each row's key with its
/// cells' (column, exact value) pairs and class and text.
#[derive(Debug)]
pub struct Table {
    pub id: String,
    pub source: Option<String>,
    pub rows: Vec<Row>,
}

#[derive(Debug)]
pub struct Row {
    pub key: String,
    pub cells: Vec<Cell>,
}

#[derive(Debug)]
pub struct Cell {
    pub col: Option<String>,
    pub value: Option<String>,
    pub class: Option<String>,
    pub title: Option<String>,
    pub text: String,
}

/// Every table of the page (the template writes a row per line).
pub fn tables(html: &str) -> Vec<Table> {
    let mut out = Vec::new();
    for chunk in html.split("<table ").skip(1) {
        let head = &chunk[..chunk.find('>').expect("a table tag")];
        let body = &chunk[..chunk.find("</table>").expect("a table end")];
        let rows = body
            .lines()
            .filter(|l| l.starts_with("<tr data-row="))
            .map(|line| Row {
                key: attribute(line, "data-row").expect("a row key"),
                cells: cells(line),
            })
            .collect();
        out.push(Table {
            id: attribute(&format!(" {head}"), "id").expect("a table id"),
            source: attribute(&format!(" {head}"), "data-source"),
            rows,
        });
    }
    out
}

/// The cells of a row's line.
pub fn cells(line: &str) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(['<']).filter(|_| !rest.is_empty()) {
        rest = &rest[at..];
        let is_cell = rest.starts_with("<td") || rest.starts_with("<th");
        let end = rest.find('>').expect("a tag end");
        if is_cell {
            let tag = &rest[..end];
            let close = rest[end..].find("</t").expect("a cell end") + end;
            out.push(Cell {
                col: attribute(tag, "data-col"),
                value: attribute(tag, "data-value"),
                class: attribute(tag, "class"),
                title: attribute(tag, "title"),
                text: unescape(&rest[end + 1..close]),
            });
            rest = &rest[close + 2..];
        } else {
            rest = &rest[end + 1..];
        }
    }
    out
}

/// The SVG of the figure `id` (empty if the page has none).
pub fn figure_svg<'a>(html: &'a str, id: &str) -> &'a str {
    let Some(at) = html.find(&format!("<figure id=\"{id}\"")) else {
        return "";
    };
    let figure = &html[at..];
    let start = figure.find("<svg").unwrap_or(0);
    let end = figure.find("</svg>").map_or(0, |e| e + 6);
    &figure[start..end]
}

/// The heights of the histogram bars of an SVG (the bars' own colour), left to right.
pub fn bar_heights(svg: &str) -> Vec<f64> {
    svg.split("<rect")
        .skip(1)
        .filter(|r| r.contains("fill=\"#4E79A7\""))
        .map(|r| {
            attribute(&format!(" {r}"), "height")
                .expect("a height")
                .parse()
                .expect("a number")
        })
        .collect()
}

/// The page without its timing parts (elements of class `timing`, which show times that differ
/// from run to run): each is cut from its opening tag to its matching end.
pub fn without_timing(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    loop {
        let found = ["class=\"timing\"", "class=\"chart timing\""]
            .iter()
            .filter_map(|m| rest.find(m))
            .min();
        let Some(mark) = found else {
            out.push_str(rest);
            return out;
        };
        let open = rest[..mark].rfind('<').expect("a tag before the class");
        let name: String = rest[open + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        out.push_str(&rest[..open]);
        let mut depth = 0usize;
        let mut at = open;
        loop {
            let next_open = rest[at + 1..].find(&format!("<{name}")).map(|i| i + at + 1);
            let next_close = rest[at + 1..]
                .find(&format!("</{name}>"))
                .map(|i| i + at + 1);
            match (next_open, next_close) {
                (Some(o), Some(c)) if o < c => {
                    depth += 1;
                    at = o;
                }
                (_, Some(c)) if depth > 0 => {
                    depth -= 1;
                    at = c;
                }
                (_, Some(c)) => {
                    rest = &rest[c + name.len() + 3..];
                    break;
                }
                _ => panic!("an unclosed <{name}> of class timing"),
            }
        }
    }
}

/// What a section of a page states about its result.
pub struct Facts {
    /// Each (term, text), in order, the text's tags cut and its entities read.
    pub terms: Vec<(String, String)>,
    /// The command's words, as the page writes them (one per span).
    pub command: Vec<String>,
}

impl Facts {
    /// The text of `term`.
    pub fn stated(&self, term: &str) -> &str {
        let found = self.terms.iter().find(|(t, _)| t == term);
        &found.unwrap_or_else(|| panic!("no {term} stated")).1
    }
}

/// The facts each section of a page states, in order.
pub fn facts(html: &str) -> Vec<Facts> {
    html.split("<dl class=\"facts\">")
        .skip(1)
        .map(|chunk| {
            let dl = &chunk[..chunk.find("</dl>").expect("the facts end")];
            let terms = dl
                .split("<dt>")
                .skip(1)
                .map(|item| {
                    let (term, rest) = item.split_once("</dt><dd>").expect("a term and its text");
                    let text = &rest[..rest.find("</dd>").expect("the text's end")];
                    (term.to_string(), unescape(&without_tags(text)))
                })
                .collect();
            let command = dl
                .split("<span>")
                .skip(1)
                .map(|w| unescape(&w[..w.find("</span>").expect("a word's end")]))
                .collect();
            Facts { terms, command }
        })
        .collect()
}

/// `html` without its tags.
fn without_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// A page of two comparisons of the same game and size (so of the same title but for their
/// folders): the first comparison of `made` and another on fewer games, by `sim report`.
pub fn combined(tmp: &TempDir, made: &[Made]) -> Made {
    let first = made
        .iter()
        .find(|m| m.kind == "compare")
        .expect("a comparison among the reports");
    let other = tmp.join("combined-compare");
    let mut argv: Vec<std::ffi::OsString> = first.args.iter().map(Into::into).collect();
    let games = argv.iter().position(|a| a == "--games").expect("--games") + 1;
    argv[games] = "5K".into();
    argv.extend(["--out".into(), other.clone().into(), "--quiet".into()]);
    let out = run(&argv);
    assert!(out.status.success(), "sim {argv:?}: {}", stderr(&out));
    let dir = tmp.join("combined");
    std::fs::create_dir_all(&dir).expect("the combined page's folder");
    let out = run(&[
        "report".into(),
        first.dir.clone().into_os_string(),
        other.into_os_string(),
        "--out".into(),
        dir.join("report.html").into_os_string(),
    ]);
    assert!(out.status.success(), "sim report: {}", stderr(&out));
    Made {
        kind: "combined",
        args: &[],
        dir,
        expected: &["compare-1-forest", "compare-2-forest"],
    }
}
