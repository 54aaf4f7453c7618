//! `sim balance` with a brief of several targets, checked against the truth: Crownfall with an
//! infinite deck, whose solver gives `optimal`'s and `bank-at-17`'s exact win probabilities
//! for every cell. A brief of two targets with some cells meeting it and one of three that no
//! cell meets; every cell's exact standing computed by solving it; `sim balance` must return
//! exactly it, and its joint confidence statement must hold for at least 19 seeds of 20.
//! Then the files (JSON keyed by the rules' full paths, `balance.parquet` naming the target a
//! cell fails), the report page, the old spelling as the same thing, and bad briefs.

use std::path::Path;

use polars::prelude::AnyValue;
use serde_json::Value;

use crate::common::*;

/// The grid of both truth briefs: 4 x 3 cells.
const GRID: [&str; 4] = [
    "--vary",
    "start_hp=8,12,16,20",
    "--vary",
    "target.king=15,17,19",
];

/// Two targets: a good player wins 70%, skill pays 25 points over the rule of thumb. Exactly
/// (8, 15), (12, 15) and (16, 15) meet it (tolerance two points; every exact value is at least
/// 2.5 points from an end of its target's values).
const TWO: [&str; 4] = [
    "--target",
    "win_rate[optimal]>=0.7",
    "--target",
    "gap[optimal,bank-at-17]>=0.25",
];

/// Three targets that no cell meets together: a good player wins 92%, skill pays 32 points,
/// the rule of thumb wins at most 45%.
const THREE: [&str; 6] = [
    "--target",
    "win_rate[best]>=0.92",
    "--target",
    "gap[best,baseline]>=0.32",
    "--target",
    "win_rate[bank-at-17]<=0.45",
];

/// `optimal`'s and `bank-at-17`'s exact win probabilities under `deck = "infinite"` and `sets`.
fn exact(sets: &[String]) -> (f64, f64) {
    let mut args = vec![
        "solve".to_string(),
        "crownfall".into(),
        "--set".into(),
        "deck=infinite".into(),
        "--evaluate".into(),
        "bank-at-17".into(),
        "--format".into(),
        "json".into(),
    ];
    for set in sets {
        args.extend(["--set".into(), set.clone()]);
    }
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    (
        doc["win_probability"].as_f64().unwrap(),
        doc["evaluated"][0]["win_probability"].as_f64().unwrap(),
    )
}

/// A target's exact figure from the two exact win rates, and its zone (tolerance two points).
struct Truth {
    spec: &'static str,
    figure: fn(f64, f64) -> f64,
    low: f64,
    high: f64,
}

fn truths(specs: &[&'static str]) -> Vec<Truth> {
    specs
        .iter()
        .map(|&spec| match spec {
            "win_rate[optimal]>=0.7" => Truth {
                spec,
                figure: |o, _| o,
                low: 0.68,
                high: 1.0,
            },
            "gap[optimal,bank-at-17]>=0.25" => Truth {
                spec,
                figure: |o, b| o - b,
                low: 0.23,
                high: 1.0,
            },
            "win_rate[best]>=0.92" => Truth {
                spec,
                figure: |o, _| o,
                low: 0.90,
                high: 1.0,
            },
            "gap[best,baseline]>=0.32" => Truth {
                spec,
                figure: |o, b| o - b,
                low: 0.30,
                high: 1.0,
            },
            "win_rate[bank-at-17]<=0.45" => Truth {
                spec,
                figure: |_, b| b,
                low: 0.0,
                high: 0.47,
            },
            other => panic!("no truth for {other}"),
        })
        .collect()
}

/// A cell, (start_hp, target.king), with its exact (optimal, bank-at-17) win rates.
type ExactCell = ((i64, i64), (f64, f64));

/// Every cell of the grid with its exact (optimal, bank-at-17) win rates.
fn exact_grid() -> Vec<ExactCell> {
    let mut cells = Vec::new();
    for hp in [8, 12, 16, 20] {
        for king in [15, 17, 19] {
            let p = exact(&[format!("start_hp={hp}"), format!("target.king={king}")]);
            cells.push(((hp, king), p));
        }
    }
    cells
}

/// Runs the brief `targets` over the grid with `seed`; returns the JSON report.
fn brief(out: &Path, targets: &[&str], seed: u64) -> Value {
    let seed = seed.to_string();
    let mut args = vec!["balance", "crownfall", "--set", "deck=infinite"];
    args.extend(targets);
    args.extend(GRID);
    args.extend(["--seed", &seed, "--format", "json", "--out"]);
    let run = sim().args(&args).arg(out).output().expect("run sim");
    assert!(run.status.success(), "{args:?}: {}", stderr(&run));
    serde_json::from_str(&stdout(&run)).expect("JSON")
}

/// What is wrong with `doc` against the exact grid: a cell meeting that does not, a cell
/// failing a target it meets, an exact meeting cell not reported, a cell left open.
fn wrong(doc: &Value, truths: &[Truth], grid: &[ExactCell]) -> Vec<String> {
    let mut wrong = Vec::new();
    let cells = doc["cells"].as_array().unwrap();
    assert_eq!(cells.len(), grid.len());
    for cell in cells {
        let key = (
            cell["start_hp"].as_i64().unwrap(),
            cell["target.king"].as_i64().unwrap(),
        );
        let (_, (o, b)) = grid.iter().find(|(k, _)| *k == key).unwrap();
        let meets = |t: &Truth| {
            let f = (t.figure)(*o, *b);
            (t.low..=t.high).contains(&f)
        };
        let all = truths.iter().all(meets);
        match cell["standing"].as_str().unwrap() {
            "meets" if !all => wrong.push(format!("{key:?} meets, but exactly it does not")),
            "fails" => {
                let spec = cell["fails"].as_str().unwrap();
                let t = truths.iter().find(|t| t.spec == spec).unwrap();
                if meets(t) {
                    wrong.push(format!("{key:?} fails {spec}, which it meets exactly"));
                }
            }
            "meets" => {}
            other => wrong.push(format!("{key:?} is {other}")),
        }
        for t in truths {
            let v = cell["targets"][t.spec]["verdict"].as_str().unwrap();
            let f = (t.figure)(*o, *b);
            if (v == "on target" && !meets(t)) || ((v == "below" || v == "above") && meets(t)) {
                wrong.push(format!("{key:?}: {} {v}, exactly {f}", t.spec));
            }
        }
    }
    wrong
}

/// The exact standing of the truth briefs, and `sim balance`'s on seed 1, exactly; then 20
/// seeds, of which at least 19 must have every verdict right together.
#[test]
fn briefs_return_the_exact_region_of_the_solver() {
    let tmp = TempDir::new("brief-truth");
    let grid = exact_grid();
    let two = truths(&TWO.iter().skip(1).step_by(2).copied().collect::<Vec<_>>());
    let three = truths(&THREE.iter().skip(1).step_by(2).copied().collect::<Vec<_>>());
    let exact_meets = |truths: &[Truth]| -> Vec<(i64, i64)> {
        grid.iter()
            .filter(|(_, (o, b))| {
                truths
                    .iter()
                    .all(|t| (t.low..=t.high).contains(&(t.figure)(*o, *b)))
            })
            .map(|(k, _)| *k)
            .collect()
    };
    assert_eq!(exact_meets(&two), [(8, 15), (12, 15), (16, 15)]);
    assert!(exact_meets(&three).is_empty());

    let doc = brief(&tmp.join("two"), &TWO, 1);
    let meets: Vec<(i64, i64)> = doc["meets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["start_hp"].as_i64().unwrap(),
                c["target.king"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(meets, exact_meets(&two));
    assert_no_failures(&wrong(&doc, &two, &grid));
    assert!(
        doc["verdict"].as_str().unwrap().starts_with(
            "3 of 12 cells meet every target: start_hp = 8, target.king = 15; start_hp = 12, target.king = 15; start_hp = 16, target.king = 15; the nearest other, "
        ),
        "{}",
        doc["verdict"]
    );
    let games_two = doc["speed"]["games"].as_u64().unwrap();

    let doc = brief(&tmp.join("three"), &THREE, 1);
    assert_eq!(doc["meets"], Value::Array(vec![]));
    assert_no_failures(&wrong(&doc, &three, &grid));
    // The nearest cell by the exact figures is (12, 15), missing only the rule of thumb's
    // target, by 6.3 points; the next, (8, 15), misses by 13.4.
    let nearest = &doc["nearest"];
    assert_eq!(
        (
            nearest["start_hp"].as_i64(),
            nearest["target.king"].as_i64()
        ),
        (Some(12), Some(15))
    );
    let miss = nearest["misses"]["win_rate[bank-at-17]<=0.45"]
        .as_f64()
        .unwrap();
    assert!((miss - 0.063).abs() < 0.03, "{miss}");
    assert!(doc["verdict"].as_str().unwrap().starts_with(
        "0 of 12 cells meet every target; the nearest, start_hp = 12, target.king = 15, misses win_rate[bank-at-17]<=0.45 by "
    ));
    // Every pair said to pull against each other does: each cell misses one of the two.
    for pair in doc["conflicts"].as_array().unwrap() {
        let pair: Vec<&Truth> = pair
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                three
                    .iter()
                    .find(|t| t.spec == s.as_str().unwrap())
                    .unwrap()
            })
            .collect();
        for (k, (o, b)) in &grid {
            assert!(
                pair.iter()
                    .any(|t| !(t.low..=t.high).contains(&(t.figure)(*o, *b))),
                "{k:?} meets both of {:?}",
                pair.iter().map(|t| t.spec).collect::<Vec<_>>()
            );
        }
    }
    let games_three = doc["speed"]["games"].as_u64().unwrap();
    println!("two targets: {games_two} games; three targets: {games_three} games (seed 1)");

    let mut right = 0;
    let mut failures = Vec::new();
    for seed in 1..=20 {
        let mut w = wrong(
            &brief(&tmp.join(&format!("two{seed}")), &TWO, seed),
            &two,
            &grid,
        );
        w.extend(wrong(
            &brief(&tmp.join(&format!("three{seed}")), &THREE, seed),
            &three,
            &grid,
        ));
        if w.is_empty() {
            right += 1;
        } else {
            failures.push(format!("seed {seed}: {}", w.join("; ")));
        }
    }
    assert!(right >= 19, "{right} of 20 seeds right: {failures:?}");
}

/// The files: JSON keyed by the rules' full paths with every target's estimate and interval,
/// `balance.parquet` one row per cell and target naming the target a cell fails, and the
/// report page.
#[test]
fn a_brief_writes_its_cells_by_rule_path_and_a_page() {
    let tmp = TempDir::new("brief-files");
    let out = tmp.join("out");
    let mut args = vec!["balance", "crownfall", "--set", "deck=infinite"];
    args.extend(TWO);
    args.extend(GRID);
    args.extend(["--report", "--format", "json", "--out"]);
    let run = sim().args(&args).arg(&out).output().unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let doc: Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(doc["kind"], "brief");
    assert_eq!(doc["players"], serde_json::json!(["optimal", "bank-at-17"]));
    let first = &doc["meets"][0];
    assert_eq!(first["start_hp"], 8);
    assert_eq!(first["target.king"], 15);
    let t = &first["targets"]["win_rate[optimal]>=0.7"];
    let (v, low, high) = (
        t["value"].as_f64().unwrap(),
        t["ci_low"].as_f64().unwrap(),
        t["ci_high"].as_f64().unwrap(),
    );
    assert!(low <= v && v <= high && (0.70..0.83).contains(&v), "{t}");
    assert_eq!(t["verdict"], "on target");
    let rows = read_parquet(&out.join("balance.parquet"));
    assert_eq!(rows.height(), 12 * 2);
    let mut failing = 0;
    for r in 0..rows.height() {
        let standing = str_at(&rows, "standing", r);
        let fails = str_at(&rows, "fails", r);
        assert_eq!(standing == "fails", !fails.is_empty(), "row {r}");
        assert_eq!(bool_at(&rows, "answer", r), standing == "meets", "row {r}");
        if standing == "fails" {
            failing += 1;
            assert!(TWO.contains(&fails.as_str()), "{fails}");
        }
    }
    assert_eq!(failing, 9 * 2);
    assert!(column_names(&rows).contains(&"target.king".to_string()));
    // The nearest cell's rows are flagged, and carry its misses.
    let nearest: Vec<usize> = (0..rows.height())
        .filter(|&r| bool_at(&rows, "nearest", r))
        .collect();
    assert_eq!(nearest.len(), 2, "one row per target");
    for &r in &nearest {
        let AnyValue::Int64(hp) = value_at(&rows, "start_hp", r) else {
            panic!("start_hp is an integer")
        };
        assert_eq!(Some(hp), doc["nearest"]["start_hp"].as_i64());
        let spec = str_at(&rows, "spec", r);
        let AnyValue::Float64(miss) = value_at(&rows, "miss", r) else {
            panic!("miss is a float")
        };
        assert_eq!(
            Some(miss),
            doc["nearest"]["misses"][&spec].as_f64(),
            "{spec}"
        );
    }
    // The brief's page: the terminal's verdict first, the region with a cell per combination,
    // coloured by its standing, and a forest plot per target.
    let page = std::fs::read_to_string(out.join("report.html")).expect("a report page");
    let text = crate::common::report_pages::unescape(&page);
    let verdict = doc["verdict"].as_str().unwrap();
    let first = text.find("class=\"verdict\"").expect("a verdict");
    assert!(
        text[first..].contains(verdict),
        "the page's verdict is the terminal's: {verdict}"
    );
    let region = text
        .split("id=\"brief-1-heatmap-region\"")
        .nth(1)
        .and_then(|rest| rest.split("</svg>").next())
        .expect("the region's map");
    let meets = doc["meets"].as_array().unwrap().len();
    assert_eq!(region.matches(">meets<").count(), meets, "{region}");
    assert_eq!(region.matches(">fails #").count(), 12 - meets, "{region}");
    for id in ["brief-1-target1-forest", "brief-1-target2-forest"] {
        assert!(page.contains(&format!("id=\"{id}\"")), "{id}");
    }
    for file in ["summary.parquet", "distributions.parquet"] {
        assert!(out.join(file).exists(), "{file}");
    }
}

/// One target written in the brief's words is the same search as in the old spelling: the
/// same answer and the same `balance.parquet`.
#[test]
fn the_old_spelling_is_the_same_target() {
    let tmp = TempDir::new("brief-old");
    let old = [
        "balance",
        "crownfall",
        "--policy",
        "optimal",
        "--baseline",
        "bank-at-17",
        "--set",
        "deck=infinite",
        "--target",
        "gap=0.2",
        "--vary",
        "start_hp=8..20",
    ];
    let new = [
        "balance",
        "crownfall",
        "--set",
        "deck=infinite",
        "--target",
        "gap[optimal,bank-at-17]=0.2",
        "--vary",
        "start_hp=8..20",
    ];
    for (name, args) in [("old", &old[..]), ("new", &new[..])] {
        let out = sim()
            .args(args)
            .arg("--out")
            .arg(tmp.join(name))
            .arg("-q")
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
    assert_eq!(
        std::fs::read(tmp.join("old/balance.parquet")).unwrap(),
        std::fs::read(tmp.join("new/balance.parquet")).unwrap()
    );
}

/// A single rule's figure flat over part of the range: the answer says where it is flat rather
/// than naming one value as the nearest.
#[test]
fn a_flat_figure_outside_the_range_is_called_flat() {
    let tmp = TempDir::new("brief-flat");
    let out = sim()
        .args([
            "balance",
            "crownfall",
            "--policy",
            "optimal",
            "--target",
            "win_rate=0.6",
            "--vary",
            "guard_damage.king=0..20",
            "--out",
        ])
        .arg(tmp.join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The verdict on top and the answer below it both say where the figure is flat, never a
    // nearest value.
    for lead in ["  verdict: ", "  answer: "] {
        let line = text.lines().find(|l| l.starts_with(lead)).unwrap();
        assert!(line.contains("is outside the range"), "{line}");
        assert!(line.contains("is flat from guard_damage.king = "), "{line}");
        assert!(!line.contains("nearest"), "{line}");
    }
}

/// Bad briefs: one line naming the target, exit 2, nothing written.
#[test]
fn bad_briefs_are_refused_naming_the_target() {
    let tmp = TempDir::new("brief-bad");
    let with = |targets: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["crownfall"];
        for t in targets {
            v.extend(["--target", t]);
        }
        v.extend(["--vary", "start_hp=8..12"]);
        v
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            with(&["win_rate[optimal]>=0.7", "win_rate[wizard]<=0.3"]),
            "--target win_rate[wizard]<=0.3: unknown policy",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "gap<=0.3"]),
            "--target gap<=0.3: gap is the win rate of one player minus another's",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "win_rate[optimal]<=0.6"]),
            "--target win_rate[optimal]>=0.7 and --target win_rate[optimal]<=0.6: no value of win_rate[optimal] meets both",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "first_move_adv[best]=0"]),
            "--target first_move_adv[best]=0: crownfall has no first_move_adv: it is a duel's figure",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "luck_share<=0.3"]),
            "--target luck_share<=0.3: luck_share is a figure of sim evaluate's whole ladder",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "skill_headroom>=0.25"]),
            "--target skill_headroom>=0.25: crownfall has no random policy",
        ),
        (
            with(&["win_rate[optimal]>=1.7", "gap[optimal,baseline]>=0.2"]),
            "--target win_rate[optimal]>=1.7: win_rate[optimal] is a rate, between 0 and 1",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "mean_strikes[optimal]=12..16"]),
            "--target mean_strikes[optimal]=12..16: mean_strikes[optimal] is a mean: give its tolerance",
        ),
        (
            with(&["win_rate[optimal]>=0.7", "wins[optimal]>=0.2"]),
            "unknown figure wins; figures of crownfall: win_rate[P], mean_final_hp[P]",
        ),
        (
            vec![
                "junkyard",
                "--target",
                "first_move_adv[simple]=0",
                "--target",
                "skill_headroom>=0.2",
                "--vary",
                "second_seat_hp_bonus=0..4",
            ],
            "--target skill_headroom>=0.2: skill_headroom of a duel",
        ),
    ];
    assert_each_refused_naming("balance", &tmp, "10K", cases);
}
