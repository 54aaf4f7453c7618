//! The reports' layout in a real browser, at 1280 and 800 pixels wide: nothing is wider than
//! the page (the document's scroll width is the viewport's; a wide table scrolls inside its own
//! box), the tables a reader needs whole (a balance search's steps, an evaluation's ladder) fit
//! at 1280, every chart's axes carry a title with a unit, every varied value has its tick, and
//! every page opens with its verdict.
//!
//! The page's own policy runs no script, so each page is measured through a copy that allows
//! one inline script, appended at its end, which writes what it measured into the DOM that
//! Chromium dumps. A control page wider than the screen shows the measure can fail.

use std::path::Path;

use crate::common::report_pages::{self, Made, unescape};
use crate::common::*;
use crate::report_browser::{browser, chromium};

/// The widths the pages are laid out at: a laptop's and a narrow window's.
const WIDTHS: [u32; 2] = [1280, 800];

/// The units an axis title may name, in parentheses at its end.
const UNITS: &[&str] = &[
    "%", "pts", "Elo", "HP", "turns", "count", "value", "ms", "values",
];

/// Figures whose y axis is a list of labelled rows (an interval plot), which needs no title;
/// every other plotted figure's y axis is numeric and must have one.
const ROW_FIGURES: &[&str] = &[
    "seats",
    "forest",
    "ratings",
    "ladder",
    "gains",
    "candidates",
    "cells",
];

/// The script that measures the page: the viewport and document widths, each table box's
/// width and content width, and each figure's texts (rotated ones are y-axis titles).
const PROBE: &str = r#"<script>(function () {
const d = document.documentElement, out = [];
out.push(['page', d.clientWidth, d.scrollWidth].join('\t'));
for (const t of document.querySelectorAll('div.table')) {
  const table = t.querySelector('table');
  out.push(['table', table.id, t.clientWidth, t.scrollWidth].join('\t'));
}
for (const f of document.querySelectorAll('figure.chart')) {
  const svg = f.querySelector('svg');
  if (!svg) continue;
  const box = svg.getBoundingClientRect();
  out.push(['figure', f.id, Math.round(box.right)].join('\t'));
  for (const t of svg.querySelectorAll('text')) {
    const rotated = (t.getAttribute('transform') || '').includes('rotate');
    out.push(['text', f.id, rotated ? 'y' : 'x', t.textContent].join('\t'));
  }
}
for (const v of document.querySelectorAll('p.verdict')) out.push(['verdict', v.textContent].join('\t'));
const pre = document.createElement('pre');
pre.id = 'probe';
pre.textContent = '\n' + out.join('\n') + '\n';
document.body.appendChild(pre);
})();</script>"#;

/// What the probe measured on one page at one width.
#[derive(Debug, Default)]
struct Measured {
    viewport: u32,
    scroll: u32,
    /// (table id, box width, content width).
    tables: Vec<(String, u32, u32)>,
    /// (figure id, right edge of its SVG).
    figures: Vec<(String, u32)>,
    /// (figure id, axis `x` or `y`, text).
    texts: Vec<(String, char, String)>,
    verdicts: Vec<String>,
}

/// `page` laid out `width` pixels wide, measured by the probe.
fn measure(browser: &Path, tmp: &TempDir, page: &Path, width: u32) -> Measured {
    let html = report_pages::read(page);
    let key = "content=\"default-src 'none'; style-src 'unsafe-inline'\"";
    assert!(
        html.contains(key),
        "{}: the report's policy",
        page.display()
    );
    let probed = html
        .replace(
            key,
            "content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\"",
        )
        .replace("</body>", &format!("{PROBE}</body>"));
    let name = format!(
        "{}-{width}.html",
        page.parent()
            .and_then(|p| p.file_name())
            .map_or("page".into(), |n| n.to_string_lossy().into_owned())
    );
    let copy = tmp.write(&name, &probed);
    let profile = TempDir::new("chromium-layout");
    let out = chromium(
        browser,
        &profile,
        &[&format!("--window-size={width},900"), "--dump-dom"],
        &copy,
    );
    let dom = stdout(&out);
    let at = dom
        .find("<pre id=\"probe\">")
        .unwrap_or_else(|| panic!("{}: the probe did not run", page.display()));
    let text = &dom[at..dom[at..].find("</pre>").map_or(dom.len(), |e| at + e)];
    let mut m = Measured::default();
    for line in text.lines() {
        let line = unescape(line);
        let f: Vec<&str> = line.split('\t').collect();
        let n = |i: usize| f[i].parse::<u32>().expect("a width");
        match f[0] {
            "page" => (m.viewport, m.scroll) = (n(1), n(2)),
            "table" => m.tables.push((f[1].to_string(), n(2), n(3))),
            "figure" => m.figures.push((f[1].to_string(), n(2))),
            "text" => m.texts.push((
                f[1].to_string(),
                f[2].chars().next().unwrap_or('x'),
                f[3..].join("\t"),
            )),
            "verdict" => m.verdicts.push(f[1..].join("\t")),
            _ => {}
        }
    }
    m
}

/// True if `title` ends with a unit in parentheses: `win rate (%)`.
fn has_unit(title: &str) -> bool {
    UNITS.iter().any(|u| title.ends_with(&format!("({u})")))
}

/// The values a `--vary RULE=VALUES` flag names: `1..3` is 1, 2, 3; `a,b` is a and b.
fn varied_values(flag: &str) -> Vec<String> {
    let values = flag.split_once('=').map_or("", |(_, v)| v);
    match values.split_once("..") {
        Some((a, b)) => {
            let (a, b): (i64, i64) = (a.parse().expect("a"), b.parse().expect("b"));
            (a..=b).map(|v| v.to_string()).collect()
        }
        None => values.split(',').map(str::to_string).collect(),
    }
}

/// What is wrong with the layout of `made`'s page measured at `width`.
fn layout_failures(made: &Made, page: &Path, m: &Measured, width: u32) -> Vec<String> {
    let mut failures = Vec::new();
    let at = format!("{} at {width} px", page.display());
    if m.viewport == 0 || m.scroll != m.viewport {
        failures.push(format!(
            "{at}: the page is {} px wide in a {} px viewport",
            m.scroll, m.viewport
        ));
    }
    for (id, right) in &m.figures {
        if *right > m.viewport {
            failures.push(format!("{at}: figure {id} ends at {right} px"));
        }
    }
    if width >= 1280 {
        for (id, shown, whole) in &m.tables {
            let needed = id.ends_with("-steps") || id.ends_with("-ladder-table");
            if needed && whole > shown {
                failures.push(format!(
                    "{at}: table {id} is {whole} px wide in a {shown} px box"
                ));
            }
        }
    }
    if m.verdicts.is_empty() || m.verdicts.iter().any(|v| v.trim().is_empty()) {
        failures.push(format!("{at}: no verdict at the top"));
    }
    let figures: Vec<&String> = m.figures.iter().map(|(id, _)| id).collect();
    for id in figures {
        let plain = id.rsplit_once('-').map_or(id.as_str(), |(_, p)| p);
        let local = id
            .split_once('-')
            .and_then(|(_, r)| r.split_once('-'))
            .map_or(id.as_str(), |(_, r)| r);
        if local == "matrix" || local.starts_with("heatmap") {
            continue; // laid out by hand: its rows and columns are labelled, not axes
        }
        let texts: Vec<&(String, char, String)> =
            m.texts.iter().filter(|(f, _, _)| f == id).collect();
        let x_titles = texts
            .iter()
            .filter(|(_, a, t)| *a == 'x' && has_unit(t))
            .count();
        if x_titles == 0 {
            failures.push(format!("{at}: figure {id} has no x-axis title with a unit"));
        }
        let y: Vec<&&(String, char, String)> = texts.iter().filter(|(_, a, _)| *a == 'y').collect();
        if y.iter().any(|(_, _, t)| !has_unit(t)) {
            failures.push(format!(
                "{at}: figure {id}: a y-axis title without a unit {y:?}"
            ));
        }
        if y.is_empty() && !ROW_FIGURES.contains(&local) && !ROW_FIGURES.contains(&plain) {
            failures.push(format!("{at}: figure {id} has no y-axis title"));
        }
    }
    // One varied rule: each of its values is a tick of the figures drawn against it.
    let flags: Vec<&str> = made
        .args
        .windows(2)
        .filter(|w| w[0] == "--vary")
        .map(|w| w[1])
        .collect();
    if let [flag] = flags[..]
        && made.kind != "balance"
    {
        for value in varied_values(flag) {
            for (id, _) in m
                .figures
                .iter()
                .filter(|(id, _)| id.ends_with("-lines") || id.contains("-vary-"))
            {
                if !m
                    .texts
                    .iter()
                    .any(|(f, a, t)| f == id && *a == 'x' && *t == value)
                {
                    failures.push(format!("{at}: figure {id} has no tick for {value}"));
                }
            }
        }
    }
    failures
}

/// What is wrong with a page of two comparisons: the same title twice, or forest plots on
/// different scales (their x ticks differ).
fn combined_failures(page: &Path, m: &Measured) -> Vec<String> {
    let mut failures = Vec::new();
    let html = report_pages::read(page);
    let titles: Vec<&str> = html
        .split("<h1>")
        .skip(1)
        .map(|h| &h[..h.find("</h1>").unwrap_or(0)])
        .collect();
    if titles.len() != 2 || titles[0] == titles[1] {
        failures.push(format!("{}: titles {titles:?}", page.display()));
    }
    let ticks = |id: &str| -> Vec<&String> {
        m.texts
            .iter()
            .filter(|(f, a, t)| f == id && *a == 'x' && !has_unit(t))
            .map(|(_, _, t)| t)
            .filter(|t| t.starts_with(['+', '-', '0']))
            .collect()
    };
    let (a, b) = (ticks("compare-1-forest"), ticks("compare-2-forest"));
    if a.is_empty() || a != b {
        failures.push(format!(
            "{}: the forest plots' scales differ: {a:?} and {b:?}",
            page.display()
        ));
    }
    failures
}

#[test]
fn a_page_wider_than_the_screen_is_caught() {
    let Some(browser) = browser("a_page_wider_than_the_screen_is_caught") else {
        return;
    };
    let tmp = TempDir::new("layout-control");
    let wide = tmp.write(
        "wide.html",
        r#"<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"></head><body><h1>x</h1><p class="verdict">v</p><div style="width:1500px">wide</div><div class="table"><table id="a-steps"><tr><td style="min-width:2000px">t</td></tr></table></div></body></html>"#,
    );
    let m = measure(&browser, &tmp, &wide, 1280);
    assert_eq!(m.viewport, 1280, "{m:?}");
    assert!(m.scroll >= 1500, "{m:?}");
    let made = Made {
        kind: "control",
        args: &[],
        dir: tmp.join("."),
        expected: &[],
    };
    let failures = layout_failures(&made, &wide, &m, 1280);
    assert!(
        failures.iter().any(|f| f.contains("px viewport")),
        "{failures:?}"
    );
    assert!(
        failures.iter().any(|f| f.contains("table a-steps")),
        "{failures:?}"
    );
    assert!(has_unit("win rate (%)") && !has_unit("win_rate"));
    assert_eq!(varied_values("k=1..3"), ["1", "2", "3"]);
    assert_eq!(varied_values("k=0,5,11"), ["0", "5", "11"]);
}

#[test]
fn every_kind_of_report_fits_the_screen_and_labels_its_axes() {
    let Some(browser) = browser("every_kind_of_report_fits_the_screen_and_labels_its_axes") else {
        return;
    };
    let tmp = TempDir::new("browser-layout");
    let mut made: Vec<Made> = report_pages::make_all(&tmp);
    made.push(report_pages::combined(&tmp, &made));
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    for m in &made {
        let page = m.page();
        for width in WIDTHS {
            let measured = measure(&browser, &tmp, &page, width);
            failures.extend(layout_failures(m, &page, &measured, width));
            if m.kind == "combined" {
                failures.extend(combined_failures(&page, &measured));
            }
            seen.push(format!("{} {width}", m.kind));
        }
    }
    for kind in [
        "run",
        "compare",
        "sweep",
        "tournament",
        "solve",
        "evaluate",
        "balance",
        "brief",
        "combined",
    ] {
        for width in WIDTHS {
            assert!(
                seen.contains(&format!("{kind} {width}")),
                "{kind} at {width} px not laid out"
            );
        }
    }
    assert_no_failures(&failures);
}
