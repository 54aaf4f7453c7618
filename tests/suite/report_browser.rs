//! The reports in a real browser: headless Chromium loads one report of each kind, logs no
//! console message (the page's Content-Security-Policy turns any attempt to load something from
//! elsewhere into one), holds every expected figure and table in its DOM, and paints a
//! screenshot that is not blank. Control pages prove each check can fail.
//!
//! Without Chromium the tests say they are skipped and how to run them (on stderr, which a plain
//! `cargo test` shows), and pass; with `SIM_BROWSER_TESTS=required` (as `.ci/run` sets) a
//! missing browser fails them. `SIM_CHROMIUM` names the browser if it is not `chromium` on the
//! PATH. A page under the report's Content-Security-Policy runs no script (a control shows it),
//! so the browser sees each report as with JavaScript off.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::png;
use crate::common::report_pages::{self, Made};
use crate::common::*;

/// What Chromium needs to run headless as root, offline and quietly, with a fresh profile.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
];

/// The browser, or `None` (having said so) if the tests are to be skipped.
pub fn browser(test: &str) -> Option<PathBuf> {
    let named = std::env::var_os("SIM_CHROMIUM").map(PathBuf::from);
    let found = named.filter(|p| p.is_file()).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|n| dir.join(n)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("SIM_BROWSER_TESTS").as_deref() != Ok("required"),
            "{test}: SIM_BROWSER_TESTS=required but no chromium on the PATH or at SIM_CHROMIUM (run .ci/chromium)"
        );
        // Straight to stderr: the test harness captures `eprintln!` of a passing test, and this
        // is to be seen in a plain `cargo test`.
        let _ = writeln!(
            std::io::stderr(),
            "skipped {test}: no chromium on the PATH. To run the browser tests: `sudo .ci/chromium` \
             (Debian's chromium package), then `cargo test --release --test suite -- report_browser`"
        );
    }
    found
}

/// Chromium with a fresh profile in `profile`, `extra` flags, on `page`; panics if it fails.
pub fn chromium(
    browser: &Path,
    profile: &TempDir,
    extra: &[&str],
    page: &Path,
) -> std::process::Output {
    let out = Command::new(browser)
        .args(FLAGS)
        .arg(format!(
            "--user-data-dir={}",
            profile.join("profile").display()
        ))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed on {}: {}",
        page.display(),
        stderr(&out)
    );
    out
}

/// The page's DOM after loading, and the console messages it logged.
fn load(browser: &Path, page: &Path) -> (String, Vec<String>) {
    let profile = TempDir::new("chromium-dom");
    let out = chromium(
        browser,
        &profile,
        &["--enable-logging=stderr", "--v=0", "--dump-dom"],
        page,
    );
    let console = stderr(&out)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (stdout(&out), console)
}

/// A screenshot of the top `height` pixels of the page, 1000 wide.
fn screenshot(browser: &Path, page: &Path, height: u32) -> png::Image {
    let profile = TempDir::new("chromium-shot");
    let file = profile.join("shot.png");
    chromium(
        browser,
        &profile,
        &[
            &format!("--window-size=1000,{height}"),
            &format!("--screenshot={}", file.display()),
        ],
        page,
    );
    png::decode(&std::fs::read(&file).expect("the screenshot"))
}

/// Why a screenshot is blank, or `None` if it is not: at least 2% of it must be drawn (not
/// white) and a thousand pixels coloured (the figures, the strategy chart, the rule above each
/// result).
fn blank(image: &png::Image) -> Option<String> {
    let drawn = image
        .rgb
        .iter()
        .filter(|p| p.iter().any(|&c| c < 240))
        .count();
    let coloured = image
        .rgb
        .iter()
        .filter(|p| {
            let (lo, hi) = (p.iter().min().unwrap(), p.iter().max().unwrap());
            hi - lo > 60
        })
        .count();
    let share = drawn as f64 / image.rgb.len() as f64;
    (share < 0.02 || coloured < 1000)
        .then(|| format!("{:.2}% drawn, {coloured} coloured pixels", 100.0 * share))
}

#[test]
fn the_console_and_blank_checks_catch_what_they_look_for() {
    let Some(browser) = browser("the_console_and_blank_checks_catch_what_they_look_for") else {
        return;
    };
    let tmp = TempDir::new("browser-controls");
    // The report's own policy, with a script allowed so that it can log: the console check sees
    // both the script's message and the refused load of an image from elsewhere.
    let noisy = tmp.write(
        "noisy.html",
        r#"<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"></head>
<body><script>console.error("control message")</script><img src="https://example.invalid/x.png"></body></html>"#,
    );
    let (_, console) = load(&browser, &noisy);
    assert!(
        console.iter().any(|l| l.contains("control message")),
        "{console:?}"
    );
    assert!(
        console.iter().any(|l| l.contains("example.invalid")),
        "{console:?}"
    );
    // Under the report's own policy no script runs, inline or not: the browser refuses it and
    // says so, so a report is seen as with JavaScript off (and the reports hold no script).
    let template = report_pages::read(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/templates/report/page.html"
    )));
    let key = "http-equiv=\"Content-Security-Policy\" content=\"";
    let from = template.find(key).expect("the report's policy") + key.len();
    let policy = &template[from..from + template[from..].find('"').unwrap()];
    let scripted = tmp.write(
        "scripted.html",
        &format!(
            r#"<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="{policy}"></head>
<body><p>text</p><script>document.body.setAttribute("data-" + "ran", "yes")</script></body></html>"#
        ),
    );
    let (dom, console) = load(&browser, &scripted);
    assert!(dom.contains("<p>text</p>"), "{dom}");
    assert!(
        !dom.contains("data-ran"),
        "a script ran under the report's policy"
    );
    assert!(
        console
            .iter()
            .any(|l| l.contains("Content Security Policy")),
        "{console:?}"
    );
    let plain = tmp.write(
        "plain.html",
        "<!DOCTYPE html><html><body><p>hello</p></body></html>",
    );
    let image = screenshot(&browser, &plain, 600);
    assert!(blank(&image).is_some(), "a page with one word is blank");
    let coloured = tmp.write(
        "coloured.html",
        r#"<!DOCTYPE html><html><body style="margin:0"><div style="width:400px;height:300px;background:#4e79a7"></div></body></html>"#,
    );
    let image = screenshot(&browser, &coloured, 600);
    assert_eq!((image.width, image.height), (1000, 600));
    assert_eq!(
        image.rgb[0],
        [0x4e, 0x79, 0xa7],
        "the decoder reads the colour drawn"
    );
    assert_eq!(image.rgb[599 * 1000 + 999], [255, 255, 255]);
    assert_eq!(blank(&image), None);
}

#[test]
fn every_kind_of_report_loads_clean_and_whole_in_chromium() {
    let Some(browser) = browser("every_kind_of_report_loads_clean_and_whole_in_chromium") else {
        return;
    };
    let tmp = TempDir::new("browser-reports");
    let made: Vec<Made> = report_pages::make_all(&tmp);
    let mut failures = Vec::new();
    for m in &made {
        let page = m.page();
        let (dom, console) = load(&browser, &page);
        if !console.is_empty() {
            failures.push(format!("{}: console messages {console:?}", page.display()));
        }
        for id in m.expected {
            if !dom.contains(&format!("id=\"{id}\"")) {
                failures.push(format!("{}: {id} is not in the DOM", page.display()));
            }
        }
        let svgs = dom.matches("<svg").count();
        let figures = m
            .expected
            .iter()
            .filter(|id| !report_pages::figure_svg(&report_pages::read(&page), id).is_empty())
            .count();
        if svgs < figures {
            failures.push(format!(
                "{}: {svgs} SVG figures in the DOM, {figures} expected",
                page.display()
            ));
        }
        if let Some(why) = blank(&screenshot(&browser, &page, 1600)) {
            failures.push(format!("{}: blank screenshot ({why})", page.display()));
        }
    }
    assert_no_failures(&failures);
}
