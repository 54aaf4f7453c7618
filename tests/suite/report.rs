//! The HTML report (`--report`, `sim report`): every number a page shows from a file equals the
//! file's (exactly), every histogram bar is as tall as its count, the solve's chart is the
//! chart file's, a page made from merged shards is the single run's but for its timing lines,
//! the other files are the same bytes with and without `--report`, no page names a URL, and bad
//! input is refused. The browser tests are in `report_browser`.

use std::path::Path;

use polars::prelude::AnyValue;
use serde_json::Value;

use crate::common::report_pages::{self, Made, bar_heights, figure_svg, tables, without_timing};
use crate::common::*;

/// Checks every cell of every table that shows rows of a file against that file: the value it
/// carries is the file's, to the last bit. Returns the (file, column) pairs it checked.
fn check_against_files(made: &Made, html: &str) -> Vec<(String, String)> {
    let mut checked = Vec::new();
    for table in tables(html) {
        let Some(source) = &table.source else {
            continue;
        };
        let df = read_parquet(&made.dir.join(source));
        for row in &table.rows {
            let r: usize = row.key.parse().expect("a row number");
            for cell in &row.cells {
                let (Some(col), Some(value)) = (&cell.col, &cell.value) else {
                    continue;
                };
                let want = value_at(&df, col, r);
                let same = match &want {
                    AnyValue::Float64(v) => value
                        .parse::<f64>()
                        .is_ok_and(|x| x.to_bits() == v.to_bits()),
                    AnyValue::UInt64(v) => value.parse::<u64>() == Ok(*v),
                    AnyValue::UInt32(v) => value.parse::<u32>() == Ok(*v),
                    AnyValue::Int64(v) => value.parse::<i64>() == Ok(*v),
                    AnyValue::Boolean(v) => value.parse::<bool>() == Ok(*v),
                    AnyValue::String(v) => value == v,
                    AnyValue::StringOwned(v) => value == v.as_str(),
                    other => panic!("{source} {col}: unexpected {other:?}"),
                };
                assert!(
                    same,
                    "{}: table {} row {r} column {col}: page {value}, {source} {want}",
                    made.kind, table.id
                );
                checked.push((source.clone(), col.clone()));
            }
        }
    }
    checked
}

#[test]
fn every_number_shown_is_the_files_and_every_figure_is_there() {
    let tmp = TempDir::new("report-numbers");
    for made in report_pages::make_all(&tmp) {
        let html = report_pages::read(&made.page());
        for id in made.expected {
            assert!(
                html.contains(&format!("id=\"{id}\"")),
                "{}: no element {id} in {}",
                made.kind,
                made.page().display()
            );
        }
        let checked = check_against_files(&made, &html);
        if made.kind == "solve" {
            continue;
        }
        let must: &[(&str, &str)] = match made.kind {
            "tournament" => &[
                ("tournament.parquet", "win_rate"),
                ("ratings.parquet", "elo"),
            ],
            "compare" => &[
                ("summary.parquet", "win_rate"),
                ("summary.parquet", "diff_ci_low"),
            ],
            "evaluate" => &[
                ("evaluate.parquet", "value"),
                ("evaluate.parquet", "ci_high"),
                ("evaluate.parquet", "games"),
                ("ladder.parquet", "result"),
                ("ladder.parquet", "gain_low"),
                ("durations.parquet", "games"),
            ],
            "balance" | "brief" => &[
                ("balance.parquet", "value"),
                ("balance.parquet", "ci_low"),
                ("balance.parquet", "decision_high"),
                ("balance.parquet", "games"),
            ],
            _ => &[
                ("summary.parquet", "win_rate"),
                ("summary.parquet", "win_ci_high"),
            ],
        };
        for (file, col) in must {
            assert!(
                checked.iter().any(|(f, c)| f == file && c == col),
                "{}: {file} {col} not checked",
                made.kind
            );
        }
        if ["evaluate", "balance", "brief"].contains(&made.kind) {
            // Every row of each file is shown, and every figure's value (each that is a number).
            for file in [
                "evaluate.parquet",
                "ladder.parquet",
                "durations.parquet",
                "balance.parquet",
            ] {
                if !made.dir.join(file).exists() {
                    continue;
                }
                let rows: std::collections::HashSet<String> = tables(&html)
                    .iter()
                    .filter(|t| t.source.as_deref() == Some(file))
                    .flat_map(|t| t.rows.iter().map(|r| r.key.clone()))
                    .collect();
                let height = read_parquet(&made.dir.join(file)).height();
                assert_eq!(
                    rows.len(),
                    height,
                    "{}: every row of {file}",
                    made.dir.display()
                );
            }
            if made.kind == "balance" {
                // One rule: the answer's metric is the headline.
                let rows = read_parquet(&made.dir.join("balance.parquet"));
                let varied = made.args.iter().filter(|a| **a == "--vary").count();
                for r in (0..rows.height()).filter(|&r| bool_at(&rows, "answer", r)) {
                    let AnyValue::Float64(v) = value_at(&rows, "value", r) else {
                        panic!("value is a float")
                    };
                    let headline = format!("<strong data-col=\"value\" data-value=\"{v}\">");
                    assert_eq!(
                        html.contains(&headline),
                        varied == 1,
                        "{}",
                        made.dir.display()
                    );
                }
            }
            if made.kind == "evaluate" {
                let figures = read_parquet(&made.dir.join("evaluate.parquet"));
                let shown = checked
                    .iter()
                    .filter(|(f, c)| f == "evaluate.parquet" && c == "value")
                    .count();
                let numbers = (0..figures.height())
                    .filter(|&r| matches!(value_at(&figures, "value", r), AnyValue::Float64(v) if v.is_finite()))
                    .count();
                assert_eq!(
                    shown,
                    numbers,
                    "{}: every figure's value",
                    made.dir.display()
                );
            }
        }
        if made.kind == "run" {
            // Every column of the game's own figures is shown, and every row of the
            // distributions.
            let summary = read_parquet(&made.dir.join("summary.parquet"));
            let names = column_names(&summary);
            let from = names.iter().position(|n| n == "win_ci_high").unwrap() + 1;
            let to = names.iter().position(|n| n == "seed").unwrap();
            for name in &names[from..to] {
                assert!(
                    checked
                        .iter()
                        .any(|(f, c)| f == "summary.parquet" && c == name),
                    "{}: column {name} not shown",
                    made.dir.display()
                );
            }
            let dist = read_parquet(&made.dir.join("distributions.parquet"));
            let rows: std::collections::HashSet<String> = tables(&html)
                .iter()
                .filter(|t| t.source.as_deref() == Some("distributions.parquet"))
                .flat_map(|t| t.rows.iter().map(|r| r.key.clone()))
                .collect();
            assert_eq!(
                rows.len(),
                dist.height(),
                "{}: every distribution row",
                made.dir.display()
            );
            check_bars(&made.dir, &html);
        }
    }
}

/// A count as the command line writes it (`2000`, `20K`, `10M`).
fn count(words: &str) -> u64 {
    let (digits, scale) = match words.as_bytes().last() {
        Some(b'K') => (&words[..words.len() - 1], 1_000),
        Some(b'M') => (&words[..words.len() - 1], 1_000_000),
        _ => (words, 1),
    };
    digits.parse::<u64>().expect("a count") * scale
}

/// The word after `flag` in `words`, each time it appears.
fn after<'a, S: AsRef<str>>(words: &'a [S], flag: &str) -> Vec<&'a str> {
    words
        .windows(2)
        .filter(|w| w[0].as_ref() == flag)
        .map(|w| w[1].as_ref())
        .collect()
}

#[test]
fn every_page_states_what_made_it_and_its_command_makes_the_same_files() {
    let tmp = TempDir::new("report-facts");
    for made in report_pages::make_all(&tmp) {
        let html = report_pages::read(&made.page());
        let sections = report_pages::facts(&html);
        assert_eq!(sections.len(), 1, "{}: one section", made.kind);
        let facts = &sections[0];
        let command = &facts.command;
        let what = format!("{} {:?}", made.kind, made.args);
        let terms: Vec<&str> = facts.terms.iter().map(|(t, _)| t.as_str()).collect();
        // "policy" for one, "policies" for a list.
        let listed = facts.terms.get(2).map_or("", |(_, text)| text.as_str());
        let policies = if listed.contains(", ") {
            "policies"
        } else {
            "policy"
        };
        assert_eq!(
            terms,
            [
                "game",
                "rules",
                policies,
                "seed",
                "games",
                "sim version",
                "command"
            ],
            "{what}"
        );
        let stated = |term: &str| facts.stated(term).to_string();
        let game = made
            .args
            .iter()
            .find(|a| ["crownfall", "scoundrel", "regicide", "junkyard"].contains(a))
            .unwrap();
        assert_eq!(stated("game"), *game, "{what}");
        assert_eq!(stated("sim version"), env!("CARGO_PKG_VERSION"), "{what}");
        // Every policy named on the command line, the rules set and the seed are stated, and
        // the command carries them.
        for flag in ["--policy", "--vs", "--evaluate", "--seat"] {
            for name in after(made.args, flag).iter().filter(|n| !n.contains("..")) {
                let name = name.split_once('=').map_or(*name, |(_, p)| p);
                assert!(stated(policies).contains(name), "{what}: policy {name}");
                assert!(command.iter().any(|w| w.ends_with(name)), "{what}: {name}");
            }
        }
        let mut set: Vec<(String, String)> = after(made.args, "--set")
            .iter()
            .map(|kv| kv.split_once('=').unwrap())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        set.extend(
            after(made.args, "--players")
                .iter()
                .map(|p| ("players".into(), p.to_string())),
        );
        if set.is_empty() {
            assert_eq!(stated("rules"), "the defaults", "{what}");
        }
        for (rule, value) in &set {
            assert!(
                stated("rules").contains(&format!("{rule} = {value}")),
                "{what}: rules {}",
                stated("rules")
            );
            let flag = if rule == "players" {
                "--players"
            } else {
                "--set"
            };
            let word = if rule == "players" {
                value.clone()
            } else {
                format!("{rule}={value}")
            };
            assert!(
                after(command, flag).contains(&word.as_str()),
                "{what}: {command:?}"
            );
        }
        if made.kind == "solve" {
            assert!(stated("seed").starts_with("none"), "{what}");
            assert!(stated("games").starts_with("none (exact)"), "{what}");
        } else {
            let file = match made.kind {
                "evaluate" => "evaluate.parquet",
                "balance" | "brief" => "balance.parquet",
                _ => "summary.parquet",
            };
            let recorded = read_parquet(&made.dir.join(file));
            let seed = u64_at(&recorded, "seed", 0).to_string();
            assert_eq!(stated("seed"), seed, "{what}");
            assert_eq!(after(command, "--seed"), [seed.as_str()], "{what}");
            let games = count(after(made.args, "--games")[0]);
            if made.kind == "balance" || made.kind == "brief" {
                // The games played, and the cap per candidate (a brief's: per cell and
                // target) that --games gave.
                let played: u64 = (0..recorded.height())
                    .map(|r| u64_at(&recorded, "games", r))
                    .sum();
                let stated_games = stated("games").replace(',', "");
                let cap = if made.kind == "brief" {
                    format!("at most {games} a cell and target")
                } else {
                    format!("at most {games} a candidate")
                };
                assert!(
                    stated_games.starts_with(&played.to_string()) && stated_games.contains(&cap),
                    "{what}: games {}",
                    stated("games")
                );
            } else {
                assert!(
                    stated("games")
                        .replace(',', "")
                        .starts_with(&games.to_string()),
                    "{what}: games {}",
                    stated("games")
                );
            }
            assert_eq!(
                after(command, "--games")
                    .iter()
                    .map(|g| count(g))
                    .collect::<Vec<_>>(),
                [games],
                "{what}"
            );
        }
        // The command, run again, writes the same files to the byte.
        assert_eq!(command[0], "sim", "{what}");
        let again = tmp.join(&format!(
            "again-{}",
            made.dir.file_name().unwrap().to_string_lossy()
        ));
        let mut argv: Vec<std::ffi::OsString> = command[1..]
            .iter()
            .map(|w| report_pages::unquoted(w).into())
            .collect();
        if made.kind == "solve" {
            let at = argv.iter().position(|w| w == "--chart").unwrap() + 1;
            argv[at] = again.join("chart.parquet").into();
            std::fs::create_dir_all(&again).unwrap();
        } else {
            argv.extend(argv!["--out", &again]);
        }
        argv.push("-q".into());
        let out = run(&argv);
        assert!(
            out.status.success(),
            "{what}: {command:?}: {}",
            stderr(&out)
        );
        let names: Vec<String> = files_in(&made.dir)
            .into_iter()
            .filter(|n| n != "report.html" && n != "solve.json")
            .collect();
        assert_eq!(names, files_in(&again), "{what}: {command:?}");
        for name in &names {
            assert!(
                std::fs::read(made.dir.join(name)).unwrap()
                    == std::fs::read(again.join(name)).unwrap(),
                "{what}: {name} differs when made by the stated command {command:?}"
            );
        }
    }
}

/// Each histogram has one bar per value of its metric, and the bars' heights are in the
/// proportions of the counts (to the pixel plotters rounds to).
fn check_bars(dir: &Path, html: &str) {
    let dist = read_parquet(&dir.join("distributions.parquet"));
    let mut metrics: Vec<(String, Vec<u64>)> = Vec::new();
    for (metric, count) in metric_counts(&dist) {
        match metrics.last_mut() {
            Some((m, counts)) if *m == metric => counts.push(count),
            _ => metrics.push((metric, vec![count])),
        }
    }
    for (metric, counts) in metrics {
        let heights = bar_heights(figure_svg(html, &format!("run-1-{metric}")));
        assert_eq!(heights.len(), counts.len(), "{metric}: one bar per value");
        let top = *counts.iter().max().unwrap() as f64;
        let tallest = heights.iter().copied().fold(0.0, f64::max);
        for (h, c) in heights.iter().zip(&counts) {
            let want = tallest * *c as f64 / top;
            assert!(
                (h - want).abs() <= 1.5,
                "{metric}: bar {h} px for {c} games, {want} expected"
            );
        }
    }
}

/// The totals of a chart text ("17+", "12-13, 17+", "never"), read here on its own.
fn chart_totals(text: &str) -> Vec<u32> {
    if text == "never" {
        return Vec::new();
    }
    text.split(", ")
        .flat_map(|run| {
            let (a, b) = match run.strip_suffix('+') {
                Some(a) => (a.parse().unwrap(), 21),
                None => match run.split_once('-') {
                    Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                    None => (run.parse().unwrap(), run.parse().unwrap()),
                },
            };
            a..=b
        })
        .collect()
}

#[test]
fn the_solve_page_draws_the_chart_file_and_states_the_solution() {
    let tmp = TempDir::new("report-solve");
    let made = report_pages::make_all(&tmp)
        .into_iter()
        .find(|m| m.kind == "solve")
        .unwrap();
    let html = report_pages::read(&made.page());
    let chart = read_parquet(&made.dir.join("chart.parquet"));
    let record: Value =
        serde_json::from_str(&report_pages::read(&made.dir.join("solve.json"))).unwrap();
    let printed = run(&[
        "solve",
        "crownfall",
        "--evaluate",
        "bank-at-17",
        "--format",
        "json",
    ]);
    let printed: Value = serde_json::from_str(&stdout(&printed)).unwrap();
    assert_eq!(record["win_probability"], printed["win_probability"]);
    let win = record["win_probability"].as_f64().unwrap();
    assert!(
        html.contains(&format!(
            "data-col=\"win_probability\" data-value=\"{win}\""
        )),
        "the headline is solve.json's {win}"
    );
    // Count, for every royal, kind, total and HP, the tower states that bank there.
    let mut banks = std::collections::HashMap::<(String, &str, u32, u32), (usize, usize)>::new();
    for i in 0..chart.height() {
        let enemy = str_at(&chart, "enemy", i);
        let hp = match value_at(&chart, "hp", i) {
            AnyValue::UInt32(v) => v,
            other => panic!("hp {other:?}"),
        };
        for (kind, col, low) in [("hard", "bank_hard", 2), ("soft", "bank_soft", 11)] {
            let text = str_at(&chart, col, i);
            if text.is_empty() {
                continue;
            }
            let set = chart_totals(&text);
            for total in low..=21 {
                let e = banks.entry((enemy.clone(), kind, total, hp)).or_default();
                e.1 += 1;
                e.0 += usize::from(set.contains(&total));
            }
        }
    }
    let mut cells = 0;
    for table in tables(&html)
        .iter()
        .filter(|t| t.id.starts_with("solve-1-chart-"))
    {
        let parts: Vec<&str> = table.id.split('-').collect();
        if parts[3] == "joker" {
            continue;
        }
        let (royal, kind) = (parts[3], parts[4]);
        for row in &table.rows {
            let total: u32 = row.cells[0].text.parse().unwrap();
            for (h, cell) in row.cells[1..].iter().enumerate() {
                let (bank, of) = banks[&(
                    royal.to_string(),
                    if kind == "hard" { "hard" } else { "soft" },
                    total,
                    h as u32 + 1,
                )];
                let title = cell.title.as_deref().unwrap();
                assert!(
                    title.ends_with(&format!("bank in {bank} of {of} tower states")),
                    "{royal} {kind} {total} hp {}: {title}",
                    h + 1
                );
                let class = cell.class.as_deref().unwrap();
                let want = match (bank, 2 * bank >= of) {
                    (b, _) if b == of => "bank",
                    (0, _) => "push",
                    (_, true) => "bank-mostly",
                    (_, false) => "push-mostly",
                };
                assert_eq!(class, want, "{royal} {kind} {total} hp {}", h + 1);
                cells += 1;
            }
        }
    }
    assert!(cells > 1000, "{cells} chart cells checked");
}

#[test]
fn a_report_of_merged_shards_is_the_single_runs_but_for_its_timing_lines() {
    let tmp = TempDir::new("report-merged");
    let cases: &[&[&str]] = &[
        &[
            "evaluate",
            "crownfall",
            "--games",
            "61",
            "--budgets",
            "25",
            "--vary",
            "start_hp=16,20",
        ],
        &["crownfall", "--policy", "bank-at-17", "--games", "30011"],
        &["regicide", "--policy", "pimc-2", "--games", "7"],
        &[
            "compare", "junkyard", "--policy", "simple", "--policy", "greedy", "--games", "901",
        ],
        &[
            "sweep",
            "crownfall",
            "--policy",
            "bank-at-17",
            "--vary",
            "start_hp=16,20",
            "--games",
            "5003",
        ],
    ];
    // Plays `args` with `extra` (seed 5) into `dir`.
    let play = |args: &[&str], extra: Vec<std::ffi::OsString>, dir: &Path| {
        let mut argv: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        argv.extend(argv!["--seed", "5", "-q", "--out", dir]);
        argv.extend(extra);
        let out = run(&argv);
        assert!(out.status.success(), "{argv:?}: {}", stderr(&out));
    };
    for (i, args) in cases.iter().enumerate() {
        let single = tmp.join(&format!("single-{i}"));
        play(args, argv!["--threads", "1", "--report"].to_vec(), &single);
        let shards: Vec<_> = (0..3)
            .map(|s| {
                let dir = tmp.join(&format!("shard-{i}-{s}"));
                play(args, argv!["--shard", format!("{s}/3")].to_vec(), &dir);
                dir
            })
            .collect();
        let merged = tmp.join(&format!("merged-{i}"));
        let mut argv = argv!["merge"].to_vec();
        argv.extend(shards.iter().map(Into::into));
        argv.extend(argv!["--out", &merged]);
        let out = run(&argv);
        assert!(out.status.success(), "merge {args:?}: {}", stderr(&out));
        let out = run(&argv!["report", &merged, "-q"]);
        assert!(out.status.success(), "report {args:?}: {}", stderr(&out));
        let a = report_pages::read(&single.join("report.html"));
        let b = report_pages::read(&merged.join("report.html"));
        assert!(
            a.contains("class=\"timing\""),
            "{args:?}: the single run states its speed"
        );
        assert_ne!(a, b, "{args:?}: the merged page has no speed line");
        let kept = |html: &str| -> Vec<String> {
            without_timing(html)
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        };
        let (a, b) = (kept(&a), kept(&b));
        if a != b {
            let line = a.iter().zip(&b).find(|(x, y)| x != y);
            panic!("{args:?}: the pages differ beyond timing lines, first at {line:?}");
        }
    }
}

#[test]
fn the_report_changes_no_other_file_and_names_no_url() {
    let tmp = TempDir::new("report-bytes");
    let args = argv![
        "crownfall",
        "--policy",
        "bank-at-16",
        "--games",
        "20000",
        "--per-game",
        "-q"
    ];
    let (with, without) = (tmp.join("with"), tmp.join("without"));
    for (dir, extra) in [(&with, vec!["--report"]), (&without, vec![])] {
        let mut argv = args.to_vec();
        argv.extend(extra.into_iter().map(Into::into));
        argv.extend(argv!["--out", dir]);
        assert!(run(&argv).status.success());
    }
    let mut names = files_in(&with);
    assert!(names.contains(&"report.html".to_string()), "{names:?}");
    names.retain(|n| n != "report.html");
    assert_eq!(names, files_in(&without));
    for name in &names {
        assert!(
            std::fs::read(with.join(name)).unwrap() == std::fs::read(without.join(name)).unwrap(),
            "{name} differs with --report"
        );
    }
    let pages = TempDir::new("report-urls");
    let made = report_pages::make_all(&pages);
    for page in made
        .iter()
        .map(Made::page)
        .chain([with.join("report.html")])
    {
        let html = report_pages::read(&page);
        for bad in [
            "http://", "https://", "<script", "<link", "<img", "@import", "url(", "src=",
        ] {
            assert!(!html.contains(bad), "{} contains {bad}", page.display());
        }
        assert!(
            html.split("href=\"").skip(1).all(|h| h.starts_with('#')),
            "{}: a link out of the page",
            page.display()
        );
    }
}

#[test]
fn a_ten_million_game_runs_report_is_under_300_kb() {
    let tmp = TempDir::new("report-size");
    let dir = tmp.join("big");
    let out = run(&argv![
        "crownfall",
        "--policy",
        "bank-at-17",
        "--games",
        "10M",
        "--report",
        "-q",
        "--out",
        &dir
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let size = std::fs::metadata(dir.join("report.html")).unwrap().len();
    assert!(size < 300_000, "{size} bytes");
}

#[test]
fn several_folders_make_one_page_with_a_section_each() {
    let tmp = TempDir::new("report-several");
    let made = report_pages::make_all(&tmp);
    let page = tmp.join("all.html");
    let mut argv = argv!["report"].to_vec();
    argv.extend(made.iter().map(|m| m.dir.clone().into()));
    argv.extend(argv!["--out", &page]);
    let out = run(&argv);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), format!("wrote {}", page.display()));
    let html = report_pages::read(&page);
    assert_eq!(html.matches("<section id=").count(), made.len());
    assert_eq!(html.matches("<nav>").count(), 1);
    let ids: Vec<String> = html
        .split(" id=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "ids are unique across sections");
    for (i, m) in made.iter().enumerate() {
        assert!(html.contains(&format!("<section id=\"{}-{}\"", m.kind, i + 1)));
    }
}

#[test]
fn folders_without_results_and_unwritable_pages_are_refused() {
    let tmp = TempDir::new("report-bad");
    let empty = tmp.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let missing = tmp.join("missing");
    let err = rejected(&run(&argv!["report", &missing]), None);
    assert!(err.contains("no such folder"), "{err}");
    assert!(!missing.exists(), "a missing folder is not created");
    let err = rejected(&run(&argv!["report", &empty]), Some(&empty));
    assert!(err.contains("no sim results"), "{err}");
    let results = tmp.join("results");
    assert!(
        run(&argv![
            "crownfall",
            "--games",
            "1000",
            "-q",
            "--out",
            &results
        ])
        .status
        .success()
    );
    let err = rejected(
        &run(&argv!["report", &results, "--out", &empty]),
        Some(&empty),
    );
    assert!(err.contains("a folder"), "{err}");
    let err = rejected(
        &run(&argv![
            "report",
            &results,
            "--out",
            "/proc/none/report.html"
        ]),
        None,
    );
    assert!(err.contains("/proc/none"), "{err}");
    std::fs::write(results.join("summary.parquet"), b"not parquet").unwrap();
    let err = rejected(&run(&argv!["report", &results]), None);
    assert!(err.contains("summary.parquet"), "{err}");
    assert!(!results.join("report.html").exists());
}

#[test]
fn the_test_helpers_read_the_template_as_written() {
    let html = "<p>a</p>\n<p class=\"timing\">speed <b>1</b></p>\n<figure class=\"chart timing\"><figure>x</figure></figure><p>b</p>";
    assert_eq!(without_timing(html), "<p>a</p>\n\n<p>b</p>");
    assert_eq!(
        report_pages::unescape("it&#39;s &lt;&#x2f;&gt; &quot;&amp;&quot;"),
        "it's </> \"&\""
    );
    let row = "<tr data-row=\"3\"><th class=\"text\">a &amp; b</th><td data-col=\"x\" data-value=\"0.5\" title=\"t\">50%</td></tr>";
    let c = report_pages::cells(row);
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].text, "a & b");
    assert_eq!(
        (c[1].col.as_deref(), c[1].value.as_deref()),
        (Some("x"), Some("0.5"))
    );
    assert_eq!(c[1].title.as_deref(), Some("t"));
    assert_eq!(report_pages::unquoted("'win_rate>=0.5'"), "win_rate>=0.5");
    assert_eq!(report_pages::unquoted(r"'it'\''s'"), "it's");
    assert_eq!(report_pages::unquoted("plain"), "plain");
}
