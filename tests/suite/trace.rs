//! `sim trace`: a trace is exactly the game the run played, its events tell the same story as
//! the run's `--per-game` row, its JSON deal replays through the engine's stacked-deck entry
//! (a replay written here, independent of the library's) event for event, and its JSON layout is
//! the one `docs/trace-schema.txt` describes for the schema version.

use std::cell::Cell;
use std::collections::BTreeSet;

use serde_json::{Value, json};
use sim::cards::{Dealer, Stacked};
use sim::games::Game;
use sim::games::crownfall::engine::{JokerView, StrikeView};
use sim::games::crownfall::events::{Event as CEvent, Seen as CSeen};
use sim::games::crownfall::policy::BankTable;
use sim::games::crownfall::{self, Crownfall, Enemy};
use sim::games::junkyard::Junkyard;
use sim::games::observe::Recorder;
use sim::games::regicide::Regicide;
use sim::games::scoundrel::events::{Event as SEvent, Seen as SSeen};
use sim::games::scoundrel::{self, Scoundrel, Turn, View};
use sim::games::seats::Seating;
use sim::rng::GameRng;
use sim::rules::load;
use sim::trace::{SCHEMA_VERSION, Traceable, json_lines, outcome_fields, schema};

use crate::common::*;

const SEED: u64 = 7;

/// Crownfall's named policies (bank-at-N for every N) and shipped strategy files.
fn crownfall_policies() -> Vec<String> {
    let mut p: Vec<String> = (2..=21).map(|n| format!("bank-at-{n}")).collect();
    p.extend(["bank-at-target", "optimal", "expectimax"].map(String::from));
    for f in ["cautious", "gambler", "guarded", "heal-hunter"] {
        p.push(format!("strategies/crownfall/{f}.toml"));
    }
    p
}

/// Scoundrel's fair named policies and shipped strategy files (the clairvoyant solver apart).
fn scoundrel_policies() -> Vec<String> {
    let mut p: Vec<String> = [
        "random",
        "greedy",
        "heuristic",
        "lookahead",
        "tuned",
        "tuned-lookahead",
        "clairvoyant-win",
    ]
    .map(String::from)
    .to_vec();
    for f in ["bold", "cautious", "weapon-saver"] {
        p.push(format!("strategies/scoundrel/{f}.toml"));
    }
    p
}

fn crownfall(sets: &[&str], policy: &str) -> Crownfall {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Crownfall::with_policy(load(None, &sets).unwrap(), policy).unwrap()
}

fn scoundrel(sets: &[&str], policy: &str) -> Scoundrel {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scoundrel::with_policy(load(None, &sets).unwrap(), policy).unwrap()
}

/// The outcomes a run plays for games `range` (two at a time, as `sim` plays them).
fn run_outcomes<G: Game>(game: &G, range: std::ops::Range<u64>) -> Vec<(u64, G::Outcome)> {
    let mut out = Vec::new();
    game.play_range(SEED, range, |i, o| out.push((i, o)));
    out
}

/// For each game of `range`: the trace's outcome is the run's, and `story` (what the events
/// add up to) agrees with it.
fn traces_reproduce_the_run<G: Traceable>(
    game: &G,
    range: std::ops::Range<u64>,
    story: impl Fn(&[G::Seen], &G::Outcome) -> Result<(), String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (i, played) in run_outcomes(game, range) {
        let traced = game.trace(SEED, i);
        if outcome_fields(&traced.outcome) != outcome_fields(&played) {
            failures.push(format!(
                "{} game {i}: trace {:?} but the run played {:?}",
                game.policy_name(),
                outcome_fields(&traced.outcome),
                outcome_fields(&played)
            ));
        } else if let Err(e) = story(&traced.events, &played) {
            failures.push(format!("{} game {i}: {e}", game.policy_name()));
        }
    }
    failures
}

/// What Crownfall's events add up to, against the outcome's columns.
fn crownfall_story(events: &[CSeen], o: &crownfall::Outcome) -> Result<(), String> {
    let last = events.last().ok_or("no events")?.state;
    let mut strikes = 0u16;
    let mut drawn = 0u16;
    let mut perfect = 0u8;
    let mut damage = [0u16; 4];
    let mut current = None;
    for s in events {
        match s.event {
            CEvent::Strike { enemy, .. } => {
                strikes += 1;
                current = Some(enemy);
            }
            CEvent::Joker => current = Some(Enemy::Joker),
            CEvent::Flip { .. } | CEvent::JokerFlip { .. } => drawn += 1,
            CEvent::StrikeEnd {
                damage: d,
                heal,
                defeated,
                total,
            } => {
                let _ = heal;
                perfect += u8::from(defeated && total == 21);
                damage[current.ok_or("a strike end before a strike")? as usize] += u16::from(d);
            }
            CEvent::JokerEnd { damage: d } => damage[Enemy::Joker as usize] += u16::from(d),
            _ => {}
        }
    }
    let told = (
        last.hp.max(0) as u8,
        last.cleared,
        strikes,
        drawn,
        last.reshuffles,
        perfect,
        damage,
    );
    let row = (
        o.final_hp,
        o.cleared,
        o.strikes,
        o.cards_drawn,
        o.reshuffles,
        o.perfect_21s,
        o.damage,
    );
    if told != row {
        return Err(format!(
            "events tell (hp, cleared, strikes, drawn, reshuffles, 21s, damage) {told:?}, the row {row:?}"
        ));
    }
    Ok(())
}

/// What Scoundrel's events add up to, against the outcome's columns.
fn scoundrel_story(events: &[SSeen], o: &scoundrel::Outcome) -> Result<(), String> {
    let last = events.last().ok_or("no events")?.state;
    let (mut faced, mut entered, mut avoided) = (0u8, 0u8, 0u8);
    let (mut damage, mut healed, mut wasted) = (0u16, 0u16, 0u8);
    for s in events {
        match s.event {
            SEvent::Turn { avoid: true, .. } => avoided += 1,
            SEvent::Turn { .. } => entered += 1,
            SEvent::Face {
                damage: d,
                healed: h,
                wasted: w,
                ..
            } => {
                faced += 1;
                damage += u16::from(d);
                healed += u16::from(h);
                wasted += u8::from(w);
            }
            _ => {}
        }
    }
    let told = (
        last.hp,
        faced,
        last.cards_faced,
        entered,
        avoided,
        damage,
        healed,
        wasted,
    );
    let row = (
        o.final_hp,
        o.cards_faced,
        o.cards_faced,
        o.rooms_entered,
        o.rooms_avoided,
        o.damage_taken,
        o.healed,
        o.potions_wasted,
    );
    if told != row {
        return Err(format!(
            "events tell (hp, faced, state faced, entered, avoided, damage, healed, wasted) {told:?}, the row {row:?}"
        ));
    }
    Ok(())
}

#[test]
fn crownfall_traces_are_the_games_of_the_run_for_every_policy() {
    let mut failures = Vec::new();
    for policy in crownfall_policies() {
        let game = crownfall(&[], &policy);
        failures.extend(traces_reproduce_the_run(&game, 0..1000, crownfall_story));
    }
    // Rule flags a run takes: the fresh-odds deck, a wider guard zone and less HP.
    for sets in [&["deck=infinite"][..], &["guard_zone=3", "start_hp=12"]] {
        for policy in ["bank-at-17", "bank-at-target", "optimal", "expectimax"] {
            let game = crownfall(sets, policy);
            failures.extend(traces_reproduce_the_run(&game, 5000..6000, crownfall_story));
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn scoundrel_traces_are_the_games_of_the_run_for_every_fair_policy() {
    let mut failures = Vec::new();
    for policy in scoundrel_policies() {
        let game = scoundrel(&[], &policy);
        failures.extend(traces_reproduce_the_run(&game, 0..1000, scoundrel_story));
    }
    let variants: [&[&str]; 4] = [
        &["avoid_order=shuffle", "weapon_wear=strict"],
        &["end=lenient", "potions_per_turn=2", "avoid_in_a_row=true"],
        &["barehanded=false", "weapon_discard=true"],
        &["avoid_order=reshuffle", "end=monsters"],
    ];
    for sets in variants {
        for policy in ["random", "greedy", "heuristic"] {
            let game = scoundrel(sets, policy);
            failures.extend(traces_reproduce_the_run(&game, 2000..3000, scoundrel_story));
        }
    }
    assert_no_failures(&failures);
}

/// `clairvoyant` (the exact solver) takes about 20 ms a deal on average (twice: the run and
/// the trace), so 1,000 deals take under a minute.
#[test]
fn scoundrel_clairvoyant_traces_are_the_games_of_the_run() {
    let game = scoundrel(&[], "clairvoyant");
    assert_no_failures(&traces_reproduce_the_run(&game, 0..1000, scoundrel_story));
}

/// The search players play through the state API's loop: their traces are the run's games too
/// (small budgets: the same code as the defaults'), and replay through the stacked engine.
#[test]
fn scoundrel_search_traces_are_the_games_of_the_run_and_replay() {
    let mut failures = Vec::new();
    for (sets, policy) in [
        (&[][..], "pimc-2"),
        (&[][..], "ismcts-20"),
        (
            &["avoid_order=shuffle", "weapon_discard=true"][..],
            "ismcts-20",
        ),
    ] {
        let game = scoundrel(sets, policy);
        failures.extend(traces_reproduce_the_run(&game, 0..150, scoundrel_story));
        for i in 0..30 {
            let lines = parsed(&game, i);
            let replay = replay_scoundrel(game.rules(), &lines);
            failures.extend(compare_replay(
                &format!("scoundrel {policy} {sets:?} game {i}"),
                &lines,
                replay,
            ));
        }
    }
    assert_no_failures(&failures);
}

/// The JSON lines of a trace, parsed.
fn parsed<G: Traceable>(game: &G, index: u64) -> Vec<Value> {
    let traced = game.trace(SEED, index);
    json_lines(game, game.policy_name(), SEED, index, &traced)
        .iter()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

/// The event lines of parsed JSON lines, without their `type` and `n`.
fn event_lines(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["type"] == "event")
        .map(|l| {
            let mut l = l.clone();
            let fields = l.as_object_mut().unwrap();
            fields.remove("type");
            fields.remove("n");
            l
        })
        .collect()
}

fn line<'a>(lines: &'a [Value], kind: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} line"))
}

fn codes(v: &Value) -> Vec<u8> {
    serde_json::from_value(v.clone()).expect("a list of card codes")
}

/// Deals each pile as the next recorded order.
struct Orders(Vec<Vec<u8>>);

impl Dealer for Orders {
    fn shuffle(&mut self, cards: &mut [u8]) {
        let order = self.0.remove(0);
        cards.copy_from_slice(&order);
    }
}

/// Crownfall's decisions as the JSON lines recorded them.
struct CrownfallScript {
    banks: Vec<bool>,
    gambles: Vec<bool>,
    at: Cell<(usize, usize)>,
}

impl crownfall::Policy for CrownfallScript {
    fn strike_table(&self, _: &crownfall::Rules, _: &StrikeView) -> Option<BankTable> {
        None
    }
    fn bank(&self, _: &crownfall::Rules, _: &StrikeView) -> bool {
        let (b, g) = self.at.get();
        self.at.set((b + 1, g));
        self.banks[b]
    }
    fn double_or_nothing(&self, _: &crownfall::Rules, _: &JokerView) -> bool {
        let (b, g) = self.at.get();
        self.at.set((b, g + 1));
        self.gambles[g]
    }
}

/// Replays Crownfall JSON lines through `Engine::stacked`; returns the event lines and outcome.
fn replay_crownfall(rules: &crownfall::Rules, lines: &[Value]) -> (Vec<Value>, Value) {
    let deal = line(lines, "deal");
    let tower: Vec<Enemy> = codes(&deal["tower"])
        .into_iter()
        .map(Enemy::from_code)
        .collect();
    let deck = codes(&deal["deck"]);
    let mut orders = vec![deck.clone()];
    orders.extend(deal["reshuffles"].as_array().unwrap().iter().map(codes));
    let events = event_lines(lines);
    let pick = |name: &str, field: &str| -> Vec<bool> {
        events
            .iter()
            .filter(|e| e["event"] == name)
            .map(|e| e[field].as_bool().unwrap())
            .collect()
    };
    let script = CrownfallScript {
        banks: pick("choice", "bank"),
        gambles: pick("joker_choice", "gamble"),
        at: Cell::new((0, 0)),
    };
    let mut rec = Recorder::<CSeen>::default();
    let outcome = crownfall::Engine::stacked(rules, &tower, &deck).play_observed(
        rules,
        &script,
        &mut Stacked,
        &mut Orders(orders),
        &mut rec,
    );
    let replayed = rec.events.iter().map(|s| json!(s)).collect();
    (replayed, json!(outcome_fields(&outcome)))
}

/// Scoundrel's turns as the JSON lines recorded them.
struct ScoundrelScript {
    turns: Vec<Turn>,
    at: Cell<usize>,
}

impl scoundrel::Policy for ScoundrelScript {
    fn choose(&self, _: &scoundrel::Rules, _: &View, _: &mut GameRng) -> Turn {
        let i = self.at.get();
        self.at.set(i + 1);
        self.turns[i]
    }
}

/// Replays Scoundrel JSON lines through `Engine::stacked`; returns the event lines and outcome.
fn replay_scoundrel(rules: &scoundrel::Rules, lines: &[Value]) -> (Vec<Value>, Value) {
    let deal = line(lines, "deal");
    let dungeon = codes(&deal["dungeon"]);
    let avoided = deal["avoided"].as_array().unwrap().iter().map(codes);
    let turns = event_lines(lines)
        .iter()
        .filter(|e| e["event"] == "turn")
        .map(|e| Turn {
            avoid: e["avoid"].as_bool().unwrap(),
            order: serde_json::from_value(e["order"].clone()).unwrap(),
            weapon: e["weapon"].as_u64().unwrap() as u8,
            discard: e["discard"].as_u64().unwrap() as u8,
        })
        .collect();
    let script = ScoundrelScript {
        turns,
        at: Cell::new(0),
    };
    let mut engine = scoundrel::Engine::stacked(rules, &dungeon);
    let deal_event = SEvent::Deal {
        dungeon: engine.dungeon().iter().collect(),
    };
    let mut rec = Recorder::<SSeen>::default();
    rec.events.push(engine.seen(deal_event, 0));
    let outcome = engine.play_observed(
        rules,
        &script,
        &mut Orders(avoided.collect()),
        &mut GameRng::unused(),
        &mut rec,
    );
    let replayed = rec.events.iter().map(|s| json!(s)).collect();
    (replayed, json!(outcome_fields(&outcome)))
}

fn compare_replay(
    what: &str,
    lines: &[Value],
    (replayed, outcome): (Vec<Value>, Value),
) -> Option<String> {
    let recorded = event_lines(lines);
    if let Some(n) =
        (0..recorded.len().max(replayed.len())).find(|&n| recorded.get(n) != replayed.get(n))
    {
        return Some(format!(
            "{what}: event {n} traced {:?}, replayed {:?}",
            recorded.get(n),
            replayed.get(n)
        ));
    }
    let mut traced_outcome = line(lines, "outcome").clone();
    traced_outcome.as_object_mut().unwrap().remove("type");
    (traced_outcome != outcome)
        .then(|| format!("{what}: outcome {traced_outcome} replayed {outcome}"))
}

#[test]
fn the_json_deal_and_decisions_replay_through_the_stacked_engine_event_for_event() {
    let mut failures = Vec::new();
    let mut reshuffled = 0;
    let mut gambled = 0;
    for (sets, policies) in [
        (&[][..], crownfall_policies()),
        (&["deck=infinite"][..], vec!["expectimax".to_string()]),
    ] {
        for policy in policies {
            let game = crownfall(sets, &policy);
            for i in 0..200 {
                let lines = parsed(&game, i);
                reshuffled += usize::from(
                    !line(&lines, "deal")["reshuffles"]
                        .as_array()
                        .unwrap()
                        .is_empty(),
                );
                gambled += event_lines(&lines)
                    .iter()
                    .filter(|e| e["event"] == "joker_choice")
                    .count();
                let replay = replay_crownfall(game.rules(), &lines);
                failures.extend(compare_replay(
                    &format!("crownfall {policy} game {i}"),
                    &lines,
                    replay,
                ));
            }
        }
    }
    let mut avoided = 0;
    for (sets, policies) in [
        (&[][..], scoundrel_policies()),
        (
            &["avoid_order=shuffle"][..],
            vec!["heuristic".into(), "random".into()],
        ),
    ] {
        for policy in policies {
            let game = scoundrel(sets, &policy);
            for i in 0..100 {
                let lines = parsed(&game, i);
                avoided += line(&lines, "deal")["avoided"].as_array().unwrap().len();
                let replay = replay_scoundrel(game.rules(), &lines);
                failures.extend(compare_replay(
                    &format!("scoundrel {policy} game {i}"),
                    &lines,
                    replay,
                ));
            }
        }
    }
    assert_no_failures(&failures);
    // The replays went through reshuffles, Joker choices and avoided rooms.
    assert!(
        reshuffled > 100 && gambled > 100 && avoided > 100,
        "{reshuffled} {gambled} {avoided}"
    );
}

#[test]
fn the_library_replay_of_a_record_matches_it_and_a_changed_record_is_refused() {
    let game = crownfall(&[], "expectimax");
    let traced = game.trace(SEED, 3);
    let text = json_lines(&game, "expectimax", SEED, 3, &traced).join("\n");
    let log = sim::trace::read_log::<Crownfall>(&text, "test").unwrap();
    let replayed = game.replay(&log.deal, &log.events).unwrap();
    assert_eq!(replayed, traced);
    // A flipped decision replays into a different game, which the check sees.
    let flipped = text.replacen("\"bank\":false", "\"bank\":true", 1);
    let mut desk = sim::trace::play::Terminal::new(&b""[..], Vec::new());
    let err = sim::trace::play::replay::<Crownfall>(
        &flipped,
        "flipped",
        |r| Crownfall::with_policy(r, "bank-at-17"),
        &mut desk,
    )
    .unwrap_err();
    assert!(err.to_string().contains("differs"), "{err}");
}

/// The JSON layout of traces that show every kind of event of every game.
fn layout() -> BTreeSet<String> {
    let mut fields = BTreeSet::new();
    for (sets, policy) in [
        (&[][..], "bank-at-17"),
        (&["deck=infinite"][..], "expectimax"),
    ] {
        let game = crownfall(sets, policy);
        for i in 0..100 {
            let t = game.trace(SEED, i);
            schema::describe(
                "crownfall",
                &json_lines(&game, policy, SEED, i, &t),
                &mut fields,
            );
        }
    }
    for (sets, policy) in [
        (&[][..], "heuristic"),
        (&["avoid_order=shuffle"][..], "random"),
    ] {
        let game = scoundrel(sets, policy);
        for i in 0..100 {
            let t = game.trace(SEED, i);
            schema::describe(
                "scoundrel",
                &json_lines(&game, policy, SEED, i, &t),
                &mut fields,
            );
        }
    }
    for (sets, policy) in [(&[][..], "simple"), (&["setup_build=false"][..], "random")] {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let game = Junkyard::with_policy(load(None, &sets).unwrap(), policy).unwrap();
        for i in 0..100 {
            let t = game.trace(SEED, i);
            schema::describe(
                "junkyard",
                &json_lines(&game, policy, SEED, i, &t),
                &mut fields,
            );
        }
    }
    for (players, policy) in [(1, "simple"), (3, "random")] {
        let rules: sim::games::regicide::Rules =
            load(None, &[format!("players={players}")]).unwrap();
        let game = Regicide::new(rules, &Seating::uniform(policy, players)).unwrap();
        for i in 0..100 {
            let t = game.trace(SEED, i);
            schema::describe(
                "regicide",
                &json_lines(&game, policy, SEED, i, &t),
                &mut fields,
            );
        }
    }
    fields
}

#[test]
fn the_json_layout_is_the_documented_one_for_its_schema_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/trace-schema.txt");
    let text = std::fs::read_to_string(path).expect("docs/trace-schema.txt");
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let version = lines.next().unwrap_or_default();
    let documented: BTreeSet<String> = lines.map(String::from).collect();
    let now = layout();
    let added: Vec<_> = now.difference(&documented).collect();
    let removed: Vec<_> = documented.difference(&now).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the JSON layout changed: raise trace::SCHEMA_VERSION (now {SCHEMA_VERSION}) and write the \
         new layout to docs/trace-schema.txt (and docs/trace.md).\nnew: {added:#?}\ngone: {removed:#?}"
    );
    assert_eq!(
        version,
        format!("schema {SCHEMA_VERSION}"),
        "docs/trace-schema.txt describes another schema version than trace::SCHEMA_VERSION"
    );
}

/// Writes the current layout to `docs/trace-schema.txt` (run by hand after a schema change:
/// `cargo test --release --test trace -- --ignored write_the_layout`).
#[test]
#[ignore = "writes docs/trace-schema.txt"]
fn write_the_layout() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/trace-schema.txt");
    let mut text = String::from(
        "# The layout of `sim trace --json` (see docs/trace.md): every line type and event, each field\n\
         # with its JSON type. Checked by tests/suite/trace.rs against trace::SCHEMA_VERSION.\n",
    );
    text += &format!("schema {SCHEMA_VERSION}\n");
    for f in layout() {
        text += &f;
        text += "\n";
    }
    std::fs::write(path, text).unwrap();
}

/// `sim trace --json` against the `--per-game` row the binary wrote for the same game.
#[test]
fn the_binary_traces_the_game_its_per_game_row_recorded() {
    let tmp = TempDir::new("trace_per_game");
    let mut failures = Vec::new();
    for (game, policy, extra) in [
        ("crownfall", "bank-at-17", None),
        ("crownfall", "expectimax", Some("guard_zone=3")),
        ("scoundrel", "heuristic", Some("avoid_order=shuffle")),
        ("scoundrel", "lookahead", None),
        ("junkyard", "greedy", None),
        ("junkyard", "random", Some("shuffle_returns=false")),
        ("regicide", "simple", None),
        ("regicide", "random", Some("players=3")),
    ] {
        let dir = tmp.join(&format!("{game}-{policy}"));
        let mut args = argv![
            game,
            "--policy",
            policy,
            "--games",
            "400",
            "--seed",
            "11",
            "--per-game",
            "--out",
            &dir
        ]
        .to_vec();
        let mut trace_args =
            argv!["trace", game, "--policy", policy, "--seed", "11", "--json"].to_vec();
        if let Some(set) = extra {
            args.extend(argv!["--set", set]);
            trace_args.extend(argv!["--set", set]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let rows = read_parquet(&dir.join("games.parquet"));
        for index in [0u64, 1, 2, 57, 398, 399] {
            let mut a = trace_args.clone();
            a.extend(argv!["--game", index.to_string()]);
            let out = run(&a);
            assert!(out.status.success(), "{}", stderr(&out));
            for (name, want, cell) in outcome_differences(&stdout(&out), &rows, index as usize, &[])
            {
                failures.push(format!(
                    "{game} {policy} game {index}: {name} traced {want}, row {cell}"
                ));
            }
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn a_trace_in_words_names_every_chance_event_and_decision() {
    let out = run(&[
        "trace",
        "crownfall",
        "--policy",
        "bank-at-17",
        "--seed",
        "7",
        "--game",
        "123",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let game = crownfall(&[], "bank-at-17");
    let traced = game.trace(7, 123);
    let count = |f: &dyn Fn(&CEvent) -> bool| traced.events.iter().filter(|s| f(&s.event)).count();
    assert_eq!(
        text.matches("  flip ").count(),
        count(&|e| matches!(e, CEvent::Flip { .. }))
    );
    assert_eq!(
        text.matches("choice (bank or push)").count(),
        count(&|e| matches!(e, CEvent::Choice { .. }))
    );
    assert!(text.starts_with("crownfall | policy bank-at-17 | seed 7 | game 123\ndeal: tower "));
    let verdict = if traced.outcome.win { "WON" } else { "LOST" };
    assert!(text.contains(&format!(
        "\n{verdict}: win {}, final_hp {}",
        traced.outcome.win, traced.outcome.final_hp
    )));
    let out = run(&["trace", "scoundrel", "--policy", "nonsense"]);
    assert_eq!(out.status.code(), Some(USAGE));
}
