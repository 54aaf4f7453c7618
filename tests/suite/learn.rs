//! `sim learn`: a value model trained from seeded games is the same file on any thread count,
//! carries its provenance, knows more than the base rate on held-out deals, is refused field by
//! field when spoiled, and a search player reads it from a strategy file.

use std::fs;

use crate::common::{TempDir, rejected, run, stdout};

/// Trains Scoundrel's estimate on `games` games with `threads` threads into `out`.
fn train(out: &std::path::Path, games: &str, threads: &str) -> std::process::Output {
    run(&argv![
        "learn",
        "scoundrel",
        "--games",
        games,
        "--seed",
        "3",
        "--threads",
        threads,
        "--out",
        out
    ])
}

#[test]
fn the_same_seed_gives_the_same_model_file_on_any_thread_count() {
    let tmp = TempDir::new("learn-same");
    let (a, b) = (tmp.join("a.json"), tmp.join("b.json"));
    for (path, threads) in [(&a, "1"), (&b, "2")] {
        let out = train(path, "300", threads);
        assert!(out.status.success(), "{}", crate::common::stderr(&out));
    }
    // The same file but for the command it records, which names its own --out.
    let text = fs::read_to_string(&a).unwrap();
    let other = fs::read_to_string(&b).unwrap();
    let (a_out, b_out) = (a.display().to_string(), b.display().to_string());
    assert_eq!(text.replace(&a_out, "OUT"), other.replace(&b_out, "OUT"));
    let model: serde_json::Value = serde_json::from_str(&text).unwrap();
    let p = &model["provenance"];
    assert_eq!(p["game"], "scoundrel");
    assert_eq!(p["seed"], 3);
    assert_eq!(p["games"], 300);
    assert!(p["positions"].as_u64().unwrap() > 300, "{p}");
    assert!(p["rules"].is_object(), "{p}");
    assert!(
        p["command"]
            .as_str()
            .unwrap()
            .starts_with("sim learn scoundrel")
    );
    // Another seed, another model.
    let c = tmp.join("c.json");
    let out = run(&argv![
        "learn",
        "scoundrel",
        "--games",
        "300",
        "--seed",
        "4",
        "--out",
        &c
    ]);
    assert!(out.status.success());
    let third = fs::read_to_string(&c).unwrap();
    assert_ne!(
        text.replace(&a_out, "OUT"),
        third.replace(&c.display().to_string(), "OUT")
    );
}

#[test]
fn a_model_knows_more_than_the_base_rate_on_held_out_deals() {
    let tmp = TempDir::new("learn-check");
    let model = tmp.join("m.json");
    assert!(train(&model, "1000", "2").status.success());
    let out = run(&argv![
        "learn",
        "scoundrel",
        "--check",
        &model,
        "--games",
        "500",
        "--json"
    ]);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // Held out: the model's seed + 1 by default.
    assert_eq!(report["seed"], 4);
    assert_eq!(report["rules_as_trained"], true);
    let c = &report["calibration"];
    let (brier, base) = (
        c["brier"].as_f64().unwrap(),
        c["brier_base"].as_f64().unwrap(),
    );
    assert!(brier < base, "Brier {brier} against the base rate's {base}");
    let bins = c["bins"].as_array().unwrap();
    assert_eq!(bins.len(), 10);
    let counted: u64 = bins.iter().map(|b| b["positions"].as_u64().unwrap()).sum();
    assert_eq!(counted, c["positions"].as_u64().unwrap());
    // Under another rule the report says so.
    let out = run(&argv![
        "learn",
        "scoundrel",
        "--check",
        &model,
        "--games",
        "200",
        "--set",
        "start_hp=15"
    ]);
    assert!(stdout(&out).contains("NOT as trained"), "{}", stdout(&out));
    // The training deals are not held out.
    let out = run(&argv![
        "learn",
        "scoundrel",
        "--check",
        &model,
        "--seed",
        "3"
    ]);
    assert!(rejected(&out, None).contains("trained on this seed"));
}

#[test]
fn a_spoiled_model_file_is_refused_in_one_line() {
    let tmp = TempDir::new("learn-bad");
    let model = tmp.join("m.json");
    assert!(train(&model, "200", "2").status.success());
    let good: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&model).unwrap()).unwrap();
    let spoil = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        edit(&mut v);
        tmp.write(name, &serde_json::to_string(&v).unwrap())
    };
    let cases = [
        (
            spoil("format.json", &|v| v["format"] = 99.into()),
            "format 99",
        ),
        (
            spoil("game.json", &|v| {
                v["provenance"]["game"] = "regicide".into()
            }),
            "a model of regicide",
        ),
        (
            spoil("short.json", &|v| {
                v["weights"].as_array_mut().unwrap().pop();
            }),
            "weights has",
        ),
        (
            spoil("scale.json", &|v| v["scale"][0] = (-1.0).into()),
            "scale holds",
        ),
        (
            spoil("extra.json", &|v| v["bonus"] = 1.into()),
            "unknown field",
        ),
        (tmp.write("text.json", "not json"), "not a value model file"),
        (tmp.join("missing.json"), "cannot read"),
    ];
    for (path, says) in cases {
        let out = run(&argv![
            "learn",
            "scoundrel",
            "--check",
            &path,
            "--games",
            "10"
        ]);
        let err = rejected(&out, None);
        assert!(err.contains(says), "{}: {err}", path.display());
    }
    // A strategy file naming a model of another game.
    let regicide = tmp.join("r.json");
    let out = run(&argv![
        "learn",
        "regicide",
        "--games",
        "50",
        "--policy",
        "heuristic",
        "--out",
        &regicide
    ]);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let strategy = tmp.write(
        "valued.toml",
        "[search]\nalgorithm = \"pimc\"\nsimulations = 20\nvalue = \"r.json\"\nleaf = 0.5\n",
    );
    let out = run(&argv!["scoundrel", "--policy", &strategy, "--games", "2"]);
    assert!(rejected(&out, None).contains("a model of regicide"));
    // leaf without a model.
    let bare = tmp.write("bare.toml", "[search]\nleaf = 0.5\n");
    let out = run(&argv!["scoundrel", "--policy", &bare, "--games", "2"]);
    assert!(rejected(&out, None).contains("name its model"));
}

#[test]
fn a_search_follows_the_estimate_of_its_model() {
    let tmp = TempDir::new("learn-search");
    let model = tmp.join("v.json");
    assert!(train(&model, "1000", "2").status.success());
    // The same model turned upside down: it prefers what loses.
    let mut v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&model).unwrap()).unwrap();
    for w in v["weights"].as_array_mut().unwrap() {
        *w = (-w.as_f64().unwrap()).into();
    }
    v["intercept"] = (-v["intercept"].as_f64().unwrap()).into();
    tmp.write("upside-down.json", &serde_json::to_string(&v).unwrap());
    let wins = |value: &str| {
        let strategy = tmp.write(
            "s.toml",
            &format!(
                "[search]\nalgorithm = \"pimc\"\nsimulations = 4\nvalue = \"{value}\"\nleaf = 1.0\n"
            ),
        );
        let out = run(&argv![
            "scoundrel",
            "--policy",
            &strategy,
            "--games",
            "200",
            "--format",
            "json",
            "--out",
            tmp.join(&format!("out-{value}"))
        ]);
        assert!(out.status.success(), "{}", crate::common::stderr(&out));
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        report["wins"].as_u64().unwrap()
    };
    let (right, wrong) = (wins("v.json"), wins("upside-down.json"));
    assert!(
        right > wrong + 20,
        "the model {right} wins, upside down {wrong}"
    );
}
