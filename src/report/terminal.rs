//! Terminal output: a run's figures as text, with distributions drawn as bars.

use std::fmt::Write;

use crate::stats::histogram::Histogram;

use crate::results::summary::SummaryRow;

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate such as `12.3M` for a count per second.
pub fn per_second(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2}M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}K", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

/// A count of worker threads in words: `1 thread`, `2 threads`.
pub fn threads(n: usize) -> String {
    if n == 1 {
        "1 thread".to_string()
    } else {
        format!("{n} threads")
    }
}

/// What stands for a figure that could not be estimated (`NaN`: too few games).
pub const NOT_ESTIMATED: &str = "n/a: needs 2 or more games";

/// A probability as a percentage with two decimals ([`NOT_ESTIMATED`] for `NaN`).
pub fn percent(p: f64) -> String {
    if !p.is_finite() {
        return NOT_ESTIMATED.into();
    }
    format!("{:.2}%", 100.0 * p)
}

/// The line naming the rules that differ from the defaults (`changed`, as (path, value)):
/// `  rules: deck=infinite, guard_zone=3 (the rest the defaults)`; empty for the default rules.
pub fn rules_line(changed: &[(String, String)]) -> String {
    if changed.is_empty() {
        return String::new();
    }
    let set: Vec<String> = changed.iter().map(|(p, v)| format!("{p}={v}")).collect();
    format!("  rules: {} (the rest the defaults)\n", set.join(", "))
}

/// `text` with `line` put after its first line (a report's header).
pub fn after_header(text: &str, line: &str) -> String {
    match text.split_once('\n') {
        Some((head, rest)) => format!("{head}\n{line}{rest}"),
        None => format!("{text}\n{line}"),
    }
}

/// The headline figures of one summary row.
pub fn summary(row: &SummaryRow) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} | policy {} | {} games | seed {}{}",
        row.game,
        row.policy,
        thousands(row.games),
        row.seed,
        if row.complete {
            ""
        } else {
            " | INCOMPLETE (stopped early)"
        }
    );
    let _ = writeln!(
        s,
        "  {:<22}{}  (95% CI {} to {})",
        "win rate",
        percent(row.win.rate),
        percent(row.win.low),
        percent(row.win.high)
    );
    for (name, value) in &row.means {
        let label = name.replace('_', " ");
        if value.is_finite() {
            let _ = writeln!(s, "  {label:<22}{value:.4}");
        } else {
            let _ = writeln!(s, "  {label:<22}{NOT_ESTIMATED}");
        }
    }
    s
}

/// A histogram drawn as one text bar per value, with each value's share.
pub fn bars(title: &str, hist: &Histogram) -> String {
    let rows: Vec<(String, u64)> = hist.nonzero().map(|(v, c)| (v.to_string(), c)).collect();
    labelled_bars(title, &rows)
}

/// Counts drawn as bars under `title`, each row labelled (a value, or a range of values).
pub fn labelled_bars(title: &str, rows: &[(String, u64)]) -> String {
    const WIDTH: f64 = 40.0;
    let total = rows.iter().map(|(_, c)| c).sum::<u64>().max(1) as f64;
    let max = rows.iter().map(|(_, c)| *c).max().unwrap_or(1).max(1) as f64;
    let mut s = format!("  {title}:\n");
    for (value, count) in rows {
        let count = *count;
        let eighths = (count as f64 / max * WIDTH * 8.0).round() as usize;
        let mut bar = "█".repeat(eighths / 8);
        if !eighths.is_multiple_of(8) {
            bar.push(['▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8 - 1]);
        }
        let _ = writeln!(
            s,
            "  {value:>5} {bar:<40} {:>7}",
            percent(count as f64 / total)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_counts_rates_and_bars() {
        assert_eq!(thousands(10_000_000), "10,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(per_second(4_560_000.0), "4.56M");
        assert_eq!(
            (threads(1).as_str(), threads(2).as_str()),
            ("1 thread", "2 threads")
        );
        let mut h = Histogram::new(0, 3);
        for v in [0, 0, 0, 0, 2] {
            h.add(v);
        }
        let text = bars("final HP", &h);
        assert!(
            text.contains(&format!("    0 {}  80.00%", "█".repeat(40))),
            "{text}"
        );
        assert!(text.contains("    2 ██████████"), "{text}");
        assert!(!text.contains("    1 "), "{text}");
    }
}
