//! `sim list`: the games, their policies, and their rule parameters with defaults.

use std::fmt::Write;

use crate::games::Game;
use crate::rules::RuleSet;

/// The listing of one game.
pub fn describe<G: Game>() -> String {
    let mut s = format!("{}: {}\n  policies:\n", G::NAME, G::ABOUT);
    for p in G::policies() {
        let _ = writeln!(s, "    {:<16} {}", p.name, p.about);
    }
    s.push_str("  rules (defaults; change with --set PATH=VALUE or --rules FILE.toml):\n");
    let defaults = toml::to_string(&G::Rules::default().to_table()).expect("rules are TOML");
    for line in defaults.lines().filter(|l| !l.is_empty()) {
        let _ = writeln!(s, "    {line}");
    }
    s
}
