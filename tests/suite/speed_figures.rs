//! The README's speed figures are the performance page's: every figure in bold in the README's
//! "Speed" section (`**4.73M games per second on one core**`) is one of the figures of the
//! "Headline" table of docs/performance.md, and each of those is in the README, so the two
//! pages cannot drift apart.

use std::path::Path;

fn read(page: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The lines of the section of `text` under the heading `heading`, up to the next heading of its
/// level or above.
fn section<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| l.trim() != heading);
    assert!(lines.next().is_some(), "no heading {heading:?}");
    let level = heading.chars().take_while(|&c| c == '#').count();
    lines
        .take_while(|l| {
            let hashes = l.chars().take_while(|&c| c == '#').count();
            hashes == 0 || hashes > level || !l[hashes..].starts_with(' ')
        })
        .collect()
}

/// The figures in `text`: a number (with a `K` or `M` suffix, or none) followed by a unit, as
/// `4.73M games` or `1.07 s`.
fn figures(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '*' | '(' | ')' | ',' | ';' | ':')))
        .collect();
    let is_number = |w: &str| {
        let digits = w.trim_end_matches(['K', 'M']);
        !digits.is_empty()
            && digits.starts_with(|c: char| c.is_ascii_digit())
            && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    let mut found = Vec::new();
    for pair in words.windows(2) {
        let unit = match pair[1] {
            w if w.starts_with("games") => "games",
            "s" | "s." => "s",
            _ => continue,
        };
        if is_number(pair[0]) {
            found.push(format!("{} {unit}", pair[0]));
        }
    }
    found.sort();
    found
}

/// The texts between `**` pairs in `lines`.
fn bold(lines: &[&str]) -> Vec<String> {
    let text = lines.join(" ");
    text.split("**")
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The second column of the rows of the first table in `lines` (its header and rule skipped).
fn second_column(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| row.split('|').nth(2).unwrap_or_default().trim().to_string())
        .collect()
}

#[test]
fn the_readmes_speed_figures_are_the_performance_pages_headline() {
    let readme = read("README.md");
    let page = read("docs/performance.md");
    let from_readme = figures(&bold(&section(&readme, "## Speed")).join(" "));
    let from_page = figures(&second_column(&section(&page, "## Headline")).join(" "));
    assert!(
        !from_page.is_empty(),
        "no figures in the Headline table of docs/performance.md"
    );
    assert_eq!(
        from_readme, from_page,
        "the README's bold speed figures differ from docs/performance.md's Headline table"
    );
}

#[test]
fn figures_are_read_with_their_units() {
    assert_eq!(
        figures("plays **4.73M games per second**, 10M games take **1.07 s end to end**"),
        ["1.07 s", "10M games", "4.73M games"]
    );
    assert_eq!(
        bold(&["a **b** c **d e**", "f"]),
        ["b".to_string(), "d e".to_string()]
    );
    let table = ["| what | figure |", "|---|---|", "| x | 4.73M games/s |"];
    assert_eq!(second_column(&table), ["4.73M games/s"]);
    assert_eq!(figures("4.73M games/s 1.07 s"), ["1.07 s", "4.73M games"]);
}
