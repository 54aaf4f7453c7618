//! Scoundrel traced and played: its events in words, its deal, its turns replayed, and a person
//! choosing how to play each room through the state API, with the hints of the game's player (a
//! search player's values of the ways it weighed; the value of each way to play the room for
//! `lookahead`, `tuned-lookahead`, the heuristic and strategy files).

use std::cell::{Cell, RefCell};

use serde_json::{Value, json};

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::observe::{Each, Recorder, Scripted};
use crate::games::scoundrel::card::{self, Kind};
use crate::games::scoundrel::evaluate::Evaluation;
use crate::games::scoundrel::events::{Event, Seen};
use crate::games::scoundrel::features::Summary;
use crate::games::scoundrel::hero::{FRESH, Hero};
use crate::games::scoundrel::heuristic::future_avoided;
use crate::games::scoundrel::plans::Options;
use crate::games::scoundrel::rules::ROOM;
use crate::games::scoundrel::state::{Move, State};
use crate::games::scoundrel::{Engine, Policy, PolicyKind, Rules, Scoundrel, Streams, Turn, View};
use crate::games::state::GameState;
use crate::rng::{GameKey, GameRng};
use crate::search::play::{Player, Searching};
use crate::search::seat::SEARCH;

use crate::trace::play::{Answer, Ask, Desk, search_hint};
use crate::trace::{Traceable, Traced, check_deal_cards, deal_pile, deal_piles};

/// A card value's name: 2..10, J, Q, K, A.
fn rank(v: u8) -> String {
    match v {
        11 => "J".into(),
        12 => "Q".into(),
        13 => "K".into(),
        14 => "A".into(),
        _ => v.to_string(),
    }
}

/// A card in words: "monster Q", "weapon 7", "potion 5".
fn name(code: u8) -> String {
    let kind = match card::kind(code) {
        Kind::Monster => "monster",
        Kind::Weapon => "weapon",
        Kind::Potion => "potion",
    };
    format!("{kind} {}", rank(card::value(code)))
}

/// A card in short: "mQ", "w7", "p5".
fn short(code: u8) -> String {
    let kind = match card::kind(code) {
        Kind::Monster => "m",
        Kind::Weapon => "w",
        Kind::Potion => "p",
    };
    format!("{kind}{}", rank(card::value(code)))
}

fn names(codes: &[u8]) -> String {
    codes
        .iter()
        .map(|&c| name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The hero in words: "HP 17 | weapon 7 (up to Q)".
fn hero_words(hero: &Hero) -> String {
    let weapon = match (hero.weapon, hero.limit) {
        (0, _) => "no weapon".to_string(),
        (w, FRESH) => format!("weapon {w} (unused)"),
        (w, l) => format!("weapon {w} (up to {})", rank(l)),
    };
    format!("HP {} | {weapon}", hero.hp)
}

/// The hero a state shows, at the start of a turn.
fn hero_of(seen: &Seen) -> Hero {
    Hero {
        hp: seen.state.hp,
        weapon: seen.state.weapon,
        limit: seen.state.limit,
        heals: 0,
    }
}

/// Plays `turn` in `room` from `hero` without an engine: the hero after it, the card it leaves
/// (0 for none) and the turn in words (each card, a monster with or without the weapon).
fn walk(rules: &Rules, room: &[u8], to_face: usize, hero: Hero, turn: &Turn) -> (Hero, u8, String) {
    let mut h = hero;
    h.new_turn();
    let mut steps = Vec::new();
    for (step, &i) in turn.order[..to_face].iter().enumerate() {
        let code = room[usize::from(i)];
        let armed = turn.weapon >> step & 1 == 1 && card::is_monster(code);
        let with = armed && h.can_use_weapon(card::value(code));
        h.face(rules, code, armed);
        steps.push(if card::is_monster(code) {
            format!(
                "{} {}",
                name(code),
                if with { "(weapon)" } else { "(barehanded)" }
            )
        } else {
            name(code)
        });
        if !h.alive() {
            break;
        }
    }
    let left = (0..room.len() as u8)
        .find(|i| to_face < room.len() && !turn.order[..to_face].contains(i))
        .map_or(0, |i| room[usize::from(i)]);
    (h, left, steps.join(", "))
}

impl Traceable for Scoundrel {
    type Seen = Seen;

    fn trace(&self, seed: u64, index: u64) -> Traced<Seen, Self::Outcome> {
        let mut rec = Recorder::default();
        let outcome = self.play_observed(seed, index, &mut rec);
        Traced {
            events: rec.events,
            outcome,
        }
    }

    fn deal(events: &[Seen]) -> Value {
        let mut deal = json!({});
        let mut avoided = Vec::new();
        for seen in events {
            match seen.event {
                Event::Deal { dungeon } => deal = json!({ "dungeon": dungeon }),
                Event::Avoided { cards } => avoided.push(cards),
                _ => {}
            }
        }
        deal["avoided"] = json!(avoided);
        deal
    }

    fn replay(&self, deal: &Value, events: &[Seen]) -> Result<Traced<Seen, Self::Outcome>> {
        check_deal_cards(self, deal, &[&["dungeon"]])?;
        let dungeon = deal_pile(deal, "dungeon")?;
        if dungeon.len() > crate::games::scoundrel::rules::MAX_CARDS {
            return Err(SimError::input(
                "the deal's dungeon holds more than 60 cards",
            ));
        }
        for (n, seen) in events.iter().enumerate() {
            if let Event::Turn {
                order,
                weapon,
                discard,
                faced,
                ..
            } = &seen.event
            {
                check_turn(n, order, *weapon | *discard, faced.as_slice().len())?;
            }
        }
        let turns: Vec<Turn> = events
            .iter()
            .filter_map(|s| match s.event {
                Event::Turn {
                    avoid,
                    order,
                    weapon,
                    discard,
                    ..
                } => Some(Turn {
                    avoid,
                    order,
                    weapon,
                    discard,
                }),
                _ => None,
            })
            .collect();
        let script = Script {
            turns,
            next: Cell::new(0),
        };
        let mut engine = Engine::stacked(self.rules(), &dungeon);
        let mut rec = Recorder::default();
        rec.events.push(engine.seen(
            Event::Deal {
                dungeon: engine.dungeon().iter().collect(),
            },
            0,
        ));
        let mut avoid = Scripted::new(deal_piles(deal, "avoided")?);
        let outcome = engine.play_observed(
            self.rules(),
            &script,
            &mut avoid,
            &mut GameRng::unused(),
            &mut rec,
        );
        Ok(Traced {
            events: rec.events,
            outcome,
        })
    }

    fn words(&self, seen: &Seen) -> Option<String> {
        let s = &seen.state;
        Some(match seen.event {
            Event::Deal { dungeon } => format!(
                "deal: dungeon {} (top first)",
                dungeon
                    .as_slice()
                    .iter()
                    .map(|&c| short(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Event::Room {
                room,
                can_avoid,
                to_face,
            } => {
                let hero = hero_of(seen);
                let options = Options::new(self.rules(), room.as_slice(), to_face.into(), hero);
                let ways = match options.as_slice().len() {
                    0 => format!("every way to face {to_face} kills"),
                    1 => format!("1 way to face {to_face}"),
                    n => format!("{n} ways to face {to_face}"),
                };
                format!(
                    "room: {} | {} | dungeon {} | {ways}{}",
                    names(room.as_slice()),
                    hero_words(&hero),
                    s.dungeon_left,
                    if can_avoid { ", or avoid" } else { "" }
                )
            }
            Event::Turn { avoid: true, .. } => "  choice: AVOID".into(),
            Event::Turn { faced, left, .. } => {
                let leave = if left == 0 {
                    String::new()
                } else {
                    format!("; leave {}", name(left))
                };
                format!("  choice: face {}{leave}", names(faced.as_slice()))
            }
            Event::Avoided { cards } => format!(
                "  avoided: {} to the bottom of the dungeon",
                names(cards.as_slice())
            ),
            Event::Face {
                card: code,
                armed,
                damage,
                healed,
                wasted,
            } => {
                let what = match card::kind(code) {
                    Kind::Monster if armed => format!("with the weapon: {damage} damage"),
                    Kind::Monster => format!("barehanded: {damage} damage"),
                    Kind::Weapon => "equipped".into(),
                    Kind::Potion if wasted => "wasted (one potion a turn)".into(),
                    Kind::Potion => format!("healed {healed}"),
                };
                format!("  {} {what} | {}", name(code), hero_words(&hero_of(seen)))
            }
        })
    }

    fn is_decision(seen: &Seen) -> bool {
        matches!(seen.event, Event::Turn { .. })
    }

    fn play_person(
        &self,
        seed: u64,
        index: u64,
        hints: bool,
        desk: &mut dyn Desk,
    ) -> Option<Traced<Seen, Self::Outcome>> {
        let desk = RefCell::new(desk);
        let quit = Cell::new(false);
        let mut events = Vec::new();
        let mut obs = Each(|seen: Seen| {
            // The person does not see the deal; the room and the turn are on the screen already.
            let shown = !matches!(
                seen.event,
                Event::Deal { .. } | Event::Room { .. } | Event::Turn { .. }
            );
            if shown
                && !quit.get()
                && let Some(words) = self.words(&seen)
            {
                desk.borrow_mut().show(&words);
            }
            events.push(seen);
        });
        let key = GameKey::new(seed, index);
        let state = self.state(seed, index, &mut obs);
        let mut person = Person {
            game: self,
            hints,
            adviser: self
                .searcher()
                .map(|s| Searching::new(s, key.stream(SEARCH))),
            desk: &desk,
            quit: &quit,
            coins: GameRng::new(seed, index, Streams::POLICY),
        };
        let outcome = self.play_state(state, key, Some(&mut person), &mut obs);
        (!quit.get()).then_some(Traced { events, outcome })
    }
}

/// The turns of a recorded game, in order: the policy of a replay.
struct Script {
    turns: Vec<Turn>,
    next: Cell<usize>,
}

impl Policy for Script {
    fn choose(&self, _: &Rules, view: &View, _: &mut GameRng) -> Turn {
        let i = self.next.get();
        self.next.set(i + 1);
        // Past the record's end (a replay that drifted), or a turn the room does not allow (a
        // damaged record): face in order, and the replay departs from the record.
        self.turns
            .get(i)
            .copied()
            .filter(|turn| allowed(turn, view))
            .unwrap_or(Turn::face([0, 1, 2, 3], 0))
    }
}

/// True if `turn` is one the room of `view` allows: an avoidance where it may be avoided, an
/// order of the room's cards.
fn allowed(turn: &Turn, view: &View) -> bool {
    if turn.avoid {
        return view.can_avoid;
    }
    let n = view.room.len();
    let mut seen = [false; 4];
    turn.order[..n.min(4)].iter().all(|&i| {
        let i = usize::from(i);
        i < n && !std::mem::replace(&mut seen[i], true)
    })
}

/// A move in words, as the person reads it among the choices: avoiding, or the cards faced in
/// order (the weapon or barehanded on each monster) and where the play leaves the player.
fn move_words(rules: &Rules, view: &View, mv: &Move) -> String {
    if mv.turn.avoid {
        return "avoid the room (its cards go to the bottom)".into();
    }
    let (hero, left, steps) = walk(rules, view.room, view.to_face, view.hero, &mv.turn);
    let result = if hero.alive() {
        let leave = if left == 0 {
            String::new()
        } else {
            format!(", leaves {}", name(left))
        };
        format!("{}{leave}", hero_words(&hero))
    } else {
        "DEATH".into()
    };
    format!("face {steps} -> {result}")
}

/// The choice among `moves` that `turn` amounts to in the room of `view`: the same end for the
/// hero and the same card left (a policy may order cards that commute otherwise).
fn choice_of(rules: &Rules, view: &View, moves: &[Move], turn: &Turn) -> Option<usize> {
    let end = |t: &Turn| {
        let (hero, left, _) = walk(rules, view.room, view.to_face, view.hero, t);
        (hero, left)
    };
    let mv = State::canonical(rules, view, turn);
    if mv.turn.avoid {
        return moves.iter().position(|m| m.turn.avoid);
    }
    let want = end(&mv.turn);
    moves
        .iter()
        .position(|m| !m.turn.avoid && end(&m.turn) == want)
}

/// A person choosing at the desk among the ways to play each room that no other way beats
/// (the state's candidates: avoiding it when allowed, the ways no other beats, or the best way
/// to die if every way kills), advised by the game's player if `hints`: a search player's
/// advice, or the plain policy's choice (with the values of the ways where it values them).
/// After `q` every room is faced in order, unseen, so the game ends.
struct Person<'a, 'd, 'r> {
    game: &'a Scoundrel,
    hints: bool,
    /// The search player, if one plays.
    adviser: Option<Searching<'a, State<'r>>>,
    desk: &'a RefCell<&'d mut dyn Desk>,
    quit: &'a Cell<bool>,
    /// The hint policy's own generator (`random`, the lookahead's samples).
    coins: GameRng,
}

impl<'r> Person<'_, '_, 'r> {
    /// The hint lines at `state`'s room among `moves` (listed as `words`).
    fn hint(&mut self, state: &State<'r>, moves: &[Move], words: &[String]) -> Vec<String> {
        let label = self.game.policy_name();
        if let Some(adviser) = self.adviser.as_mut() {
            let advice = adviser.advise(state, 0);
            return search_hint(label, &adviser.searcher.settings, &advice, moves, words);
        }
        let rules = state.rules();
        let view = state.view();
        let policy = self.game.policy();
        let coins = &mut self.coins;
        let mut values: Vec<(usize, f32)> = Vec::new();
        let mut value = |t: Turn, v: f32| {
            if let Some(i) = choice_of(rules, &view, moves, &t) {
                values.push((i, v));
            }
        };
        let (turn, kind) = match policy {
            PolicyKind::Lookahead(p) => (
                Some(p.valued(rules, &view, coins, value)),
                "expected best value of the next room",
            ),
            PolicyKind::TunedLookahead(p) => (
                Some(p.valued(rules, &view, coins, value)),
                "expected best value of the next room",
            ),
            PolicyKind::Heuristic(p) => {
                let ready = Summary::of(view.dungeon);
                let options = Options::of(rules, &view);
                for mv in moves {
                    if mv.turn.avoid {
                        value(
                            mv.turn,
                            p.weights.value(&view.hero, &future_avoided(&view), true),
                        );
                    } else if let Some(o) = options.as_slice().iter().find(|o| o.turn == mv.turn) {
                        value(mv.turn, p.weights.value_after(&ready, &o.hero, o.left));
                    }
                }
                (policy.choose(rules, &view, coins), "heuristic value")
            }
            _ => (policy.choose(rules, &view, coins), ""),
        };
        let Some(turn) = turn else {
            return vec![format!("hint ({label}): none, it sees the dungeon's order")];
        };
        let choice = match choice_of(rules, &view, moves, &turn) {
            Some(i) => format!("{}) {}", i + 1, words[i]),
            None => {
                let (_, _, steps) = walk(rules, view.room, view.to_face, view.hero, &turn);
                format!("face {steps}")
            }
        };
        let mut lines = vec![format!("hint ({label}): {choice}")];
        if !values.is_empty() {
            values.sort_by_key(|&(i, _)| i);
            let listed: Vec<String> = values
                .iter()
                .map(|(i, v)| format!("{}) {v:.2}", i + 1))
                .collect();
            lines.push(format!("  {kind}: {}", listed.join("  ")));
        }
        lines
    }
}

impl<'r> Player<State<'r>> for Person<'_, '_, 'r> {
    fn decide(&mut self, state: &mut State<'r>, _seat: u8, _coins: &mut GameRng) -> Move {
        let rules = state.rules();
        let view = state.view();
        if self.quit.get() {
            return State::canonical(rules, &view, &Turn::face([0, 1, 2, 3], 0));
        }
        let mut moves = Vec::new();
        state.candidates(&mut moves, usize::MAX);
        let words: Vec<String> = moves.iter().map(|m| move_words(rules, &view, m)).collect();
        let table = vec![format!(
            "{} | dungeon {} cards | room: {}",
            hero_words(&view.hero),
            view.dungeon.len(),
            names(view.room)
        )];
        let hint = if self.hints {
            self.hint(state, &moves, &words)
        } else {
            Vec::new()
        };
        let ask = Ask {
            table,
            choices: words.clone(),
            hint,
        };
        let answer = self.desk.borrow_mut().ask(&ask);
        match answer {
            Answer::Pick(i) => {
                let said = if moves[i].turn.avoid {
                    "you avoid the room".to_string()
                } else {
                    format!("you {}", words[i].split(" -> ").next().unwrap_or(""))
                };
                self.desk.borrow_mut().show(&said);
                moves[i]
            }
            Answer::Quit => {
                self.quit.set(true);
                State::canonical(rules, &view, &Turn::face([0, 1, 2, 3], 0))
            }
        }
    }
}

/// Refuses event `n`, a turn, unless its `order` lists each of the room's places once and its
/// weapon and discard choices (`choices`, their bits together) name only the `faced` cards
/// faced: a record's turn holds nothing the replay would read past.
fn check_turn(n: usize, order: &[u8; ROOM], choices: u8, faced: usize) -> Result<()> {
    let mut seen = [false; ROOM];
    for &i in order {
        match seen.get_mut(usize::from(i)) {
            Some(place) if !*place => *place = true,
            _ => {
                return Err(SimError::input(format!(
                    "event {n}: the turn's order {order:?} is not each of the room's {ROOM} places once"
                )));
            }
        }
    }
    if u32::from(choices) >> faced != 0 {
        return Err(SimError::input(format!(
            "event {n}: the turn's weapon or discard choices name a card past the {faced} it faced"
        )));
    }
    Ok(())
}
