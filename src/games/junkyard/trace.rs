//! Junkyard traced and played: its events in words with both tables after them, its deal (both
//! heaps and every batch that went back under them), its decisions replayed through the engine's
//! stacked-heap entry, and a person in seat 0 against the game's policy in seat 1.
//!
//! A trace and a game at the terminal put the same policy in both seats (the shared `trace`
//! and `play` arguments have no `--vs`); game `2d + 1` of such a run is deal `2d + 1` as seated.

use std::cell::{Cell, RefCell};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::{Value, json};

use crate::cards::{Dealer, Stacked};
use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::junkyard::automaton::{Automaton, Pattern};
use crate::games::junkyard::cards::{Counts, Heap, KING, LESSER, MAX_HEAP, NUMBERS, is_number};
use crate::games::junkyard::combat::{self, Blocks, MAX_BOTS};
use crate::games::junkyard::events::{Event, Observer};
use crate::games::junkyard::greedy::LETHAL;
use crate::games::junkyard::lookahead::Lookahead;
use crate::games::junkyard::{
    Engine, Junkyard, Outcome, Policy, PolicyKind, Rules, Sources, Streams, Turn, View, build,
};
use crate::games::observe::Scripted;
use crate::rng::{GameKey, GameRng};

use crate::trace::play::{Answer, Ask, Desk};
use crate::trace::{Traceable, Traced, check_deal_cards};

/// A seat's automatons in index order, in a fixed array so that a state stays `Copy`; written
/// to JSON as a list.
#[derive(Clone, Copy)]
pub struct Bots {
    list: [Automaton; MAX_BOTS],
    len: u8,
}

impl Bots {
    const NONE: Self = Self {
        list: [Automaton::FOUR_ONES; MAX_BOTS],
        len: 0,
    };

    /// The automatons, in index order.
    pub fn as_slice(&self) -> &[Automaton] {
        &self.list[..usize::from(self.len)]
    }

    fn push(&mut self, bot: Automaton) {
        if usize::from(self.len) < MAX_BOTS {
            self.list[usize::from(self.len)] = bot;
            self.len += 1;
        }
    }

    /// Removes automaton `i` as the engine does: the last one takes its place.
    fn remove(&mut self, i: usize) {
        if i < usize::from(self.len) {
            self.len -= 1;
            self.list[i] = self.list[usize::from(self.len)];
        }
    }
}

/// Equal when the automatons are (not the unused slots).
impl PartialEq for Bots {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Bots {}

impl std::fmt::Debug for Bots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl Serialize for Bots {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Bots {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let list = Vec::<Automaton>::deserialize(d)?;
        if list.len() > MAX_BOTS {
            return Err(serde::de::Error::custom(format!(
                "{} automatons: at most {MAX_BOTS}",
                list.len()
            )));
        }
        let mut bots = Self::NONE;
        list.into_iter().for_each(|b| bots.push(b));
        Ok(bots)
    }
}

/// One seat's table after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    /// HP.
    pub hp: i16,
    /// Cards in the heap.
    pub heap: u8,
    /// The assembly area: how many of each number, 1 to 10.
    pub assembly: [u8; NUMBERS],
    /// Tear-downs in hand, `[kings, lessers]`.
    pub hand: [u8; 2],
    /// The automatons, in index order.
    pub bots: Bots,
}

/// Both tables after an event, and the turns played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// Turns played so far.
    pub turn: u16,
    /// Seat 0's table and seat 1's.
    pub seats: [Table; 2],
}

impl State {
    /// The state before the deal: both seats at their starting HP, nothing else.
    fn start(rules: &Rules) -> Self {
        let table = |seat| Table {
            hp: rules.hp(seat),
            heap: 0,
            assembly: [0; NUMBERS],
            hand: [0; 2],
            bots: Bots::NONE,
        };
        Self {
            turn: 0,
            seats: [table(0), table(1)],
        }
    }

    /// The state after `event`, folded from the events alone (the engine's sides are not
    /// consulted; the tests check the two agree).
    fn after(mut self, event: &Event) -> Self {
        let at = |s: u8| usize::from(s & 1);
        match *event {
            Event::Dealt { seat, heap } => self.seats[at(seat)].heap = heap.as_slice().len() as u8,
            Event::TurnStarted { seat, turn } => {
                self.turn = turn;
                let bots = &mut self.seats[at(seat)].bots;
                for bot in &mut bots.list[..usize::from(bots.len)] {
                    bot.attacking = false;
                }
            }
            Event::Drew { seat, card } => {
                let t = &mut self.seats[at(seat)];
                t.heap = t.heap.saturating_sub(1);
                if is_number(card) {
                    t.assembly[usize::from(card) - 1] += 1;
                } else if card == KING || card == LESSER {
                    t.hand[usize::from(card == LESSER)] += 1;
                }
            }
            Event::Built { seat, bot } => {
                let t = &mut self.seats[at(seat)];
                let mut used = Counts::default();
                bot.add_cards(&mut used);
                for (have, &spent) in t.assembly.iter_mut().zip(&used[1..]) {
                    *have = have.saturating_sub(spent);
                }
                t.bots.push(Automaton {
                    attacking: false,
                    ..bot
                });
            }
            Event::Deployed {
                seat,
                card,
                target_at,
                own_at,
                ..
            } => {
                let me = at(seat);
                let hand = &mut self.seats[me].hand[usize::from(card == LESSER)];
                *hand = hand.saturating_sub(1);
                self.seats[1 - me].bots.remove(usize::from(target_at));
                if let Some(i) = own_at {
                    self.seats[me].bots.remove(usize::from(i));
                }
            }
            Event::Returned { seat, cards } => {
                self.seats[at(seat)].heap += cards.as_slice().len() as u8;
            }
            Event::Attacked { seat, mask } => {
                let bots = &mut self.seats[at(seat)].bots;
                for i in combat::bits(mask) {
                    if i < usize::from(bots.len) {
                        bots.list[i].attacking = true;
                    }
                }
            }
            Event::Destroyed { seat, at: i, .. } => {
                self.seats[at(seat)].bots.remove(usize::from(i));
            }
            Event::Damage { seat, amount } => {
                self.seats[1 - at(seat)].hp -= amount as i16;
            }
            Event::Blocked { .. } | Event::Split { .. } | Event::Ended { .. } => {}
        }
        self
    }
}

/// An event with both tables after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seen {
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
    /// The state after it.
    pub state: State,
}

/// The engine's observer for tracing: folds each event into the state and hands both on.
struct Watch<F> {
    state: State,
    each: F,
}

impl<F: FnMut(Seen)> Observer for Watch<F> {
    fn event(&mut self, event: Event) {
        self.state = self.state.after(&event);
        (self.each)(Seen {
            event,
            state: self.state,
        });
    }
}

/// A card in short: 1 to 10, `K` (the greater tear-down), `J` (a lesser one, Jack or Queen).
fn card(code: u8) -> String {
    match code {
        KING => "K".into(),
        LESSER => "J".into(),
        v => v.to_string(),
    }
}

fn cards(codes: &[u8]) -> String {
    codes.iter().map(|&c| card(c)).collect::<Vec<_>>().join(" ")
}

/// An automaton in words: "run 1-4 (10/10)", "5+3x7 (5/21)", "2x3+2x6 (6/12)", "four 1s (1/1)".
pub fn bot_words(bot: &Automaton) -> String {
    let shape = match bot.pattern {
        Pattern::FourOnes => "four 1s".to_string(),
        Pattern::TwoPairs => format!("2x{}+2x{}", bot.a, bot.b),
        Pattern::OneThree => format!("{}+3x{}", bot.a, bot.b),
        Pattern::Run => format!("run 1-{}", bot.a),
    };
    format!("{shape} ({}/{})", bot.power, bot.toughness)
}

fn bots_words(bots: &[Automaton]) -> String {
    if bots.is_empty() {
        return "none".into();
    }
    bots.iter()
        .enumerate()
        .map(|(i, b)| {
            let tapped = if b.attacking { " attacking" } else { "" };
            format!("#{} {}{tapped}", i + 1, bot_words(b))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A seat's table in words.
fn table_words(seat: usize, t: &Table) -> String {
    let assembly: Vec<String> = (1..=NUMBERS)
        .flat_map(|v| std::iter::repeat_n(v.to_string(), usize::from(t.assembly[v - 1])))
        .collect();
    format!(
        "seat {seat}: HP {}, heap {}, hand {}K {}J, assembly [{}], automatons: {}",
        t.hp,
        t.heap,
        t.hand[0],
        t.hand[1],
        assembly.join(" "),
        bots_words(t.bots.as_slice())
    )
}

/// The automatons of `mask` among `bots`, in words.
fn masked(bots: &[Automaton], mask: u32) -> String {
    combat::bits(mask)
        .filter_map(|i| bots.get(i).map(|b| format!("#{} {}", i + 1, bot_words(b))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The blocks `of` (of the defender's automatons `blockers` against `attackers`) in words.
fn blocks_words(of: &[u8], blockers: &[Automaton], attackers: &[Automaton]) -> String {
    let pairs: Vec<String> = of
        .iter()
        .enumerate()
        .filter(|&(i, &a)| a > 0 && i < blockers.len())
        .map(|(i, &a)| {
            let on = attackers
                .get(usize::from(a) - 1)
                .map_or("?".into(), bot_words);
            format!("#{} {} blocks #{a} {on}", i + 1, bot_words(&blockers[i]))
        })
        .collect();
    if pairs.is_empty() {
        "no blocks".into()
    } else {
        pairs.join("; ")
    }
}

/// The decisions of one `main` or `setup` call of a recorded game.
#[derive(Clone, Copy, Debug)]
enum Step {
    Build(Automaton),
    Deploy {
        card: u8,
        target: usize,
        own: Option<usize>,
    },
    Attack(u32),
}

/// True if seat `view`'s player may deploy `card` on `target`, destroying its own `own`.
fn deploy_is_legal(view: &View, card: u8, target: usize, own: Option<usize>) -> bool {
    let in_hand = match card {
        KING => view.hand()[0] > 0,
        LESSER => view.hand()[1] > 0,
        _ => false,
    };
    let mine = view.bots();
    let own_ok = match own {
        None => mine.is_empty(),
        Some(i) if i < mine.len() => {
            card == KING || mine[i].power == mine.iter().map(|b| b.power).max().unwrap_or(0)
        }
        Some(_) => false,
    };
    in_hand && target < view.opp_bots().len() && own_ok
}

/// Takes the steps of one call through `turn` (each only if legal, so a replay that drifts
/// shows as different events, never a panic); returns the attack mask.
fn take<D: Dealer, O: Observer>(steps: &[Step], turn: &mut Turn<'_, '_, D, O>) -> u32 {
    for step in steps {
        match *step {
            Step::Build(bot) => {
                if bot.buildable_from(turn.view().assembly()) {
                    turn.build(bot);
                }
            }
            Step::Deploy { card, target, own } => {
                if deploy_is_legal(&turn.view(), card, target, own) {
                    turn.deploy(card, target, own);
                }
            }
            Step::Attack(mask) => return mask,
        }
    }
    0
}

/// True for an automaton of number cards whose power and toughness are its pattern's.
fn well_formed(bot: &Automaton) -> bool {
    usize::from(bot.a) <= NUMBERS
        && usize::from(bot.b) <= NUMBERS
        && Automaton {
            attacking: false,
            ..*bot
        } == Automaton::new(bot.pattern, bot.a, bot.b)
}

/// The decisions of a recorded game, in order: the policy of both seats in a replay.
#[derive(Default)]
struct Script {
    setup: [Vec<Step>; 2],
    turns: Vec<Vec<Step>>,
    blocks: Vec<[u8; MAX_BOTS]>,
    splits: Vec<u32>,
    next: [Cell<usize>; 3],
}

impl Script {
    fn of(events: &[Seen]) -> Self {
        let mut script = Self::default();
        for seen in events {
            let step = match seen.event {
                Event::TurnStarted { .. } => {
                    script.turns.push(Vec::new());
                    continue;
                }
                // A damaged record's automaton is no step: the replay then departs from it.
                Event::Built { bot, .. } if well_formed(&bot) => Step::Build(bot),
                Event::Deployed {
                    card,
                    target_at,
                    own_at,
                    ..
                } => Step::Deploy {
                    card,
                    target: usize::from(target_at),
                    own: own_at.map(usize::from),
                },
                Event::Attacked { mask, .. } => Step::Attack(mask),
                Event::Blocked { of, .. } => {
                    script.blocks.push(of);
                    continue;
                }
                Event::Split { mask, .. } => {
                    script.splits.push(mask);
                    continue;
                }
                _ => continue,
            };
            let seat = match seen.event {
                Event::Built { seat, .. } | Event::Deployed { seat, .. } => usize::from(seat & 1),
                _ => 0,
            };
            match script.turns.last_mut() {
                Some(turn) => turn.push(step),
                None => script.setup[seat].push(step),
            }
        }
        script
    }

    fn next(&self, which: usize) -> usize {
        let i = self.next[which].get();
        self.next[which].set(i + 1);
        i
    }
}

impl Policy for Script {
    fn setup<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) {
        let seat = turn.view().seat();
        take(&self.setup[seat], turn);
    }

    fn main<D: Dealer, O: Observer>(&self, _: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        let i = self.next(0);
        self.turns.get(i).map_or(0, |steps| take(steps, turn))
    }

    fn block(&self, _: &Rules, _: &View, _: u32, _: &mut GameRng) -> Blocks {
        let i = self.next(1);
        self.blocks.get(i).map_or(Blocks::NONE, |&of| Blocks { of })
    }

    fn split(&self, _: &Rules, _: &View, a: &Automaton, b: &[Automaton], _: &mut GameRng) -> u32 {
        let i = self.next(2);
        self.splits
            .get(i)
            .copied()
            .unwrap_or_else(|| combat::split_rule(a, b))
    }
}

/// The heaps of a deal line: two lists of card codes 1 to 12.
fn deal_heaps(deal: &Value) -> Result<[Vec<u8>; 2]> {
    let heaps: Vec<Vec<u8>> =
        serde_json::from_value(deal.get("heaps").cloned().unwrap_or_default())
            .map_err(|e| SimError::input(format!("the deal's heaps: {e}")))?;
    let [a, b]: [Vec<u8>; 2] = heaps
        .try_into()
        .map_err(|_| SimError::input("the deal's heaps: not two heaps"))?;
    for heap in [&a, &b] {
        if heap.len() > MAX_HEAP || heap.iter().any(|&c| !(1..=KING).contains(&c)) {
            return Err(SimError::input(format!(
                "the deal's heaps: at most {MAX_HEAP} cards each, codes 1 to {KING}"
            )));
        }
    }
    Ok([a, b])
}

impl Junkyard {
    /// Replays the deal line `deal` with the decisions of `events` through
    /// [`Engine::from_heaps`]; the engine is returned too, at the game's end.
    pub fn replay_engine(
        &self,
        deal: &Value,
        events: &[Seen],
    ) -> Result<(Traced<Seen, Outcome>, Engine)> {
        check_deal_cards(self, deal, &[&["heaps"]])?;
        let rules = self.rules();
        let [a, b] = deal_heaps(deal)?;
        let returns: Vec<Vec<Vec<u8>>> =
            serde_json::from_value(deal.get("returns").cloned().unwrap_or(json!([[], []])))
                .map_err(|e| SimError::input(format!("the deal's returns: {e}")))?;
        let [ra, rb]: [Vec<Vec<u8>>; 2] = returns
            .try_into()
            .map_err(|_| SimError::input("the deal's returns: not one list per seat"))?;
        let mut engine = Engine::from_heaps(rules, [Heap::stacked(&a), Heap::stacked(&b)]);
        let script = Script::of(events);
        let mut seen = Vec::new();
        let mut obs = Watch {
            state: State::start(rules),
            each: |s| seen.push(s),
        };
        let mut src = Sources {
            returns: &mut [Scripted::new(ra), Scripted::new(rb)],
            coins: &mut [GameRng::unused(), GameRng::unused()],
            obs: &mut obs,
        };
        // A trace seats the same policy twice, so no game of it is swapped.
        let outcome = engine.play(rules, [&script, &script], &mut src);
        Ok((
            Traced {
                events: seen,
                outcome,
            },
            engine,
        ))
    }
}

impl Traceable for Junkyard {
    type Seen = Seen;

    fn adviser(&self) -> &str {
        // `sim play` seats no swapped games.
        self.seated_name(0, 0)
    }

    fn trace(&self, seed: u64, index: u64) -> Traced<Seen, Outcome> {
        let mut events = Vec::new();
        let mut obs = Watch {
            state: State::start(self.rules()),
            each: |s| events.push(s),
        };
        let outcome = self.play_observed(seed, index, &mut obs);
        Traced { events, outcome }
    }

    fn deal(events: &[Seen]) -> Value {
        let mut heaps = [Vec::new(), Vec::new()];
        let mut returns = [Vec::new(), Vec::new()];
        for seen in events {
            match seen.event {
                Event::Dealt { seat, heap } => {
                    heaps[usize::from(seat & 1)] = heap.as_slice().to_vec()
                }
                // A batch of one card is not shuffled, so it has no order to record.
                Event::Returned { seat, cards } if cards.as_slice().len() > 1 => {
                    returns[usize::from(seat & 1)].push(cards.as_slice().to_vec());
                }
                _ => {}
            }
        }
        json!({ "heaps": heaps, "returns": returns })
    }

    fn replay(&self, deal: &Value, events: &[Seen]) -> Result<Traced<Seen, Outcome>> {
        self.replay_engine(deal, events).map(|(traced, _)| traced)
    }

    fn words(&self, seen: &Seen) -> Option<String> {
        let s = &seen.state;
        let bots = |seat: u8| s.seats[usize::from(seat & 1)].bots.as_slice();
        Some(match seen.event {
            Event::Dealt { seat, heap } => {
                format!(
                    "deal: seat {seat}'s heap {} (top first)",
                    cards(heap.as_slice())
                )
            }
            Event::TurnStarted { seat, turn } => format!(
                "turn {turn}: seat {seat} | {} | {}",
                table_words(0, &s.seats[0]),
                table_words(1, &s.seats[1])
            ),
            Event::Drew { seat, card: c } => format!("  seat {seat} draws {}", card(c)),
            Event::Built { seat, bot } => format!("  seat {seat} builds {}", bot_words(&bot)),
            Event::Deployed {
                seat,
                card: c,
                target,
                own,
                ..
            } => {
                let own = own.map_or(String::new(), |b| format!(" and its own {}", bot_words(&b)));
                format!(
                    "  seat {seat} deploys {}: destroys seat {}'s {}{own}",
                    card(c),
                    1 - (seat & 1),
                    bot_words(&target)
                )
            }
            Event::Returned { seat, cards: c } => format!(
                "  under seat {seat}'s heap: {} (heap {})",
                cards(c.as_slice()),
                s.seats[usize::from(seat & 1)].heap
            ),
            Event::Attacked { seat, mask } => {
                format!("  seat {seat} attacks with {}", masked(bots(seat), mask))
            }
            Event::Blocked { seat, of } => format!(
                "  seat {seat} blocks: {}",
                blocks_words(&of, bots(seat), bots(1 - (seat & 1)))
            ),
            Event::Split { .. } => return None,
            Event::Destroyed { seat, bot, .. } => {
                format!("  seat {seat}'s {} is destroyed", bot_words(&bot))
            }
            Event::Damage { seat, amount } => format!(
                "  {amount} damage to seat {}: HP {}",
                1 - (seat & 1),
                s.seats[1 - usize::from(seat & 1)].hp
            ),
            Event::Ended { winner } => match winner {
                Some(w) => format!("seat {w} wins after {} turns", s.turn),
                None => format!("a draw: the turn cap, {} turns", s.turn),
            },
        })
    }

    fn is_decision(seen: &Seen) -> bool {
        matches!(
            seen.event,
            Event::Built { .. }
                | Event::Deployed { .. }
                | Event::Attacked { .. }
                | Event::Blocked { .. }
                | Event::Split { .. }
        )
    }

    fn play_person(
        &self,
        seed: u64,
        index: u64,
        hints: bool,
        desk: &mut dyn Desk,
    ) -> Option<Traced<Seen, Outcome>> {
        let rules = self.rules();
        let key = GameKey::new(seed, index);
        let mut engine = Engine::deal(
            rules,
            [
                &mut key.stream(Streams::HEAP),
                &mut key.stream(Streams::HEAP + 1),
            ],
        );
        let desk = RefCell::new(desk);
        let person = Person {
            policy: self.seated(index, 0),
            label: self.seated_name(index, 0),
            hints,
            desk: &desk,
            quit: Cell::new(false),
        };
        let mut events = Vec::new();
        let mut obs = Watch {
            state: State::start(rules),
            each: |seen: Seen| {
                // The person does not see the heaps' order.
                let words = match seen.event {
                    // The person sees neither heap's order nor the tear-downs the other draws.
                    Event::Dealt { .. } | Event::Split { .. } => None,
                    Event::Drew { seat: 1, card } if !is_number(card) => {
                        Some("  seat 1 draws a tear-down (to its hand)".to_string())
                    }
                    _ => self.words(&seen),
                };
                if let Some(words) = words.filter(|_| !person.quit.get()) {
                    desk.borrow_mut().show(&words);
                }
                events.push(seen);
            },
        };
        let chairs = [Chair::Person(&person), Chair::Policy(self.seated(index, 1))];
        let mut coins = [key.stream(Streams::POLICY), key.stream(Streams::POLICY + 1)];
        let outcome = if rules.shuffle_returns {
            let mut returns = [
                key.stream(Streams::RETURNS),
                key.stream(Streams::RETURNS + 1),
            ];
            engine.play(
                rules,
                [&chairs[0], &chairs[1]],
                &mut Sources {
                    returns: &mut returns,
                    coins: &mut coins,
                    obs: &mut obs,
                },
            )
        } else {
            engine.play(
                rules,
                [&chairs[0], &chairs[1]],
                &mut Sources {
                    returns: &mut [Stacked, Stacked],
                    coins: &mut coins,
                    obs: &mut obs,
                },
            )
        };
        (!person.quit.get()).then_some(Traced { events, outcome })
    }
}

/// A seat of a game at the terminal: the person, or the policy.
enum Chair<'a, 'd> {
    Person(&'a Person<'a, 'd>),
    Policy(&'a PolicyKind),
}

impl Policy for Chair<'_, '_> {
    fn setup<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) {
        match self {
            Chair::Person(p) => {
                p.main_steps(rules, turn, false);
            }
            Chair::Policy(p) => p.setup(rules, turn),
        }
    }

    fn main<D: Dealer, O: Observer>(&self, rules: &Rules, turn: &mut Turn<'_, '_, D, O>) -> u32 {
        match self {
            Chair::Person(p) => p.main_steps(rules, turn, true),
            Chair::Policy(p) => p.main(rules, turn),
        }
    }

    fn block(&self, rules: &Rules, view: &View, attackers: u32, coins: &mut GameRng) -> Blocks {
        match self {
            Chair::Person(p) => p.block(rules, view, attackers, coins),
            Chair::Policy(p) => p.block(rules, view, attackers, coins),
        }
    }

    fn split(
        &self,
        rules: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        coins: &mut GameRng,
    ) -> u32 {
        match self {
            Chair::Person(p) => p.split(rules, view, attacker, blockers, coins),
            Chair::Policy(p) => p.split(rules, view, attacker, blockers, coins),
        }
    }
}

/// A person choosing at the desk, advised by `policy` if `hints`. After `q` the person builds
/// nothing, attacks with nothing and blocks nothing, so the engine ends the game unseen.
struct Person<'a, 'd> {
    policy: &'a PolicyKind,
    label: &'a str,
    hints: bool,
    desk: &'a RefCell<&'d mut dyn Desk>,
    quit: Cell<bool>,
}

/// One choice of step 3: build, deploy, or go on to the attack.
#[derive(Clone, Copy, PartialEq)]
enum Act {
    Build(Automaton),
    Deploy {
        card: u8,
        target: usize,
        own: Option<usize>,
    },
    Done,
}

/// The legal choices of step 3 in `view`, in words.
fn acts(view: &View, attack_next: bool) -> Vec<(Act, String)> {
    let mut acts = Vec::new();
    let mut built = [Automaton::FOUR_ONES; build::MAX_CHOICES];
    let n = build::buildable(view.assembly(), &mut built);
    for bot in &built[..n] {
        acts.push((Act::Build(*bot), format!("build {}", bot_words(bot))));
    }
    let mine = view.bots();
    let owns: Vec<Option<usize>> = if mine.is_empty() {
        vec![None]
    } else {
        (0..mine.len()).map(Some).collect()
    };
    for tear in [KING, LESSER] {
        for (t, target) in view.opp_bots().iter().enumerate() {
            for &own in &owns {
                if !deploy_is_legal(view, tear, t, own) {
                    continue;
                }
                let cost = own.map_or(String::new(), |i| {
                    format!(", losing your #{} {}", i + 1, bot_words(&mine[i]))
                });
                acts.push((
                    Act::Deploy {
                        card: tear,
                        target: t,
                        own,
                    },
                    format!(
                        "deploy {}: destroy their #{} {}{cost}",
                        card(tear),
                        t + 1,
                        bot_words(target)
                    ),
                ));
            }
        }
    }
    let done = if attack_next && !mine.is_empty() {
        "done building: choose attackers"
    } else {
        "done"
    };
    acts.push((Act::Done, done.into()));
    acts
}

/// The table of `view` in words, the person's seat first.
fn view_table(view: &View) -> Vec<String> {
    let mut assembly = String::new();
    for v in 1..=NUMBERS {
        for _ in 0..view.assembly()[v] {
            assembly.push_str(&format!("{v} "));
        }
    }
    vec![
        format!(
            "you: HP {}, heap {}, hand {}K {}J, assembly [{}], automatons: {}",
            view.hp(),
            view.heap_len(),
            view.hand()[0],
            view.hand()[1],
            assembly.trim_end(),
            bots_words(view.bots())
        ),
        format!(
            "them: HP {}, heap {}, automatons: {}",
            view.opp_hp(),
            view.opp_heap_len(),
            bots_words(view.opp_bots())
        ),
    ]
}

impl Person<'_, '_> {
    fn ask(&self, ask: &Ask) -> Option<usize> {
        if self.quit.get() {
            return None;
        }
        match self.desk.borrow_mut().ask(ask) {
            Answer::Pick(i) => Some(i),
            Answer::Quit => {
                self.quit.set(true);
                None
            }
        }
    }

    /// The policy's plan for the rest of this step 3 and 4, and which of `choices` it starts with.
    fn plan_hint<D: Dealer, O: Observer>(
        &self,
        rules: &Rules,
        turn: &Turn<'_, '_, D, O>,
        choices: &[(Act, String)],
    ) -> Vec<String> {
        let (events, mask) = turn.advice(rules, self.policy);
        let mut view_bots: Vec<Automaton> = turn.view().bots().to_vec();
        let mut plan = Vec::new();
        let mut first = None;
        for e in &events {
            let act = match *e {
                Event::Built { bot, .. } => {
                    view_bots.push(bot);
                    plan.push(format!("build {}", bot_words(&bot)));
                    Act::Build(bot)
                }
                Event::Deployed {
                    card: c,
                    target,
                    own_at,
                    target_at,
                    ..
                } => {
                    plan.push(format!("deploy {} on {}", card(c), bot_words(&target)));
                    if let Some(i) = own_at {
                        view_bots.swap_remove(usize::from(i));
                    }
                    Act::Deploy {
                        card: c,
                        target: usize::from(target_at),
                        own: own_at.map(usize::from),
                    }
                }
                _ => continue,
            };
            first.get_or_insert(act);
        }
        if mask != 0 {
            plan.push(format!("attack with {}", masked(&view_bots, mask)));
        } else {
            plan.push("no attack".into());
        }
        let act = first.unwrap_or(Act::Done);
        let pick = choices
            .iter()
            .position(|(a, _)| *a == act)
            .map_or(String::new(), |i| format!("{}) ", i + 1));
        vec![format!("hint ({}): {pick}{}", self.label, plan.join(", "))]
    }

    /// Step 3 (and with `attack`, the choice of attackers) chosen at the desk.
    fn main_steps<D: Dealer, O: Observer>(
        &self,
        rules: &Rules,
        turn: &mut Turn<'_, '_, D, O>,
        attack: bool,
    ) -> u32 {
        loop {
            let view = turn.view();
            let choices = acts(&view, attack);
            let mut ask = Ask {
                table: view_table(&view),
                choices: choices.iter().map(|(_, w)| w.clone()).collect(),
                hint: Vec::new(),
            };
            if self.hints {
                ask.hint = self.plan_hint(rules, turn, &choices);
            }
            match self.ask(&ask).map(|i| choices[i].0) {
                Some(Act::Build(bot)) => turn.build(bot),
                Some(Act::Deploy { card, target, own }) => turn.deploy(card, target, own),
                Some(Act::Done) => break,
                None => return 0,
            }
        }
        let view = turn.view();
        if !attack || view.bots().is_empty() {
            return 0;
        }
        let advice = if self.hints {
            let (_, mask) = turn.advice(rules, self.policy);
            vec![format!(
                "hint ({}): {}",
                self.label,
                if mask == 0 {
                    "no attack".to_string()
                } else {
                    format!("attack with {}", masked(view.bots(), mask))
                }
            )]
        } else {
            Vec::new()
        };
        let mut mask = 0u32;
        loop {
            let bots = view.bots();
            let mut hint = advice.clone();
            if let (true, PolicyKind::Greedy(g)) = (self.hints, self.policy) {
                // Greedy's own score of the attack each choice leaves (the one it maximizes).
                let score = |m: u32| {
                    let s = g.score_attack(bots, view.opp_bots(), m, view.hp(), view.opp_hp());
                    if s >= LETHAL {
                        "lethal".to_string()
                    } else {
                        format!("{s:.2}")
                    }
                };
                let scores: Vec<String> = std::iter::once(score(mask))
                    .chain((0..bots.len()).map(|i| score(mask ^ 1 << i)))
                    .enumerate()
                    .map(|(i, s)| format!("{}) {s}", i + 1))
                    .collect();
                hint.push(format!(
                    "  score of the attack each choice leaves: {}",
                    scores.join("  ")
                ));
            }
            let mut choices = vec![if mask == 0 {
                "no attack: end the turn".to_string()
            } else {
                format!("attack with {}", masked(bots, mask))
            }];
            for (i, b) in bots.iter().enumerate() {
                let verb = if mask & (1 << i) != 0 {
                    "remove"
                } else {
                    "add"
                };
                choices.push(format!("{verb} #{} {}", i + 1, bot_words(b)));
            }
            let ask = Ask {
                table: view_table(&view),
                choices,
                hint,
            };
            match self.ask(&ask) {
                Some(0) => return mask,
                Some(i) => mask ^= 1 << (i - 1),
                None => return 0,
            }
        }
    }

    fn block(&self, rules: &Rules, view: &View, attackers: u32, coins: &mut GameRng) -> Blocks {
        let (theirs, mine) = (view.opp_bots(), view.bots());
        let hint = if self.hints {
            let advice = self.policy.block(rules, view, attackers, coins);
            let advice = combat::legal_blocks(advice, theirs, attackers, mine);
            vec![format!(
                "hint ({}): {}",
                self.label,
                blocks_words(&advice.of, mine, theirs)
            )]
        } else {
            Vec::new()
        };
        let mut blocks = Blocks::NONE;
        loop {
            let mut choices = vec![format!("done: {}", blocks_words(&blocks.of, mine, theirs))];
            let mut pairs = Vec::new();
            for (i, b) in mine.iter().enumerate() {
                for j in combat::bits(attackers) {
                    let mut with = blocks;
                    with.of[i] = if blocks.of[i] == j as u8 + 1 {
                        0
                    } else {
                        j as u8 + 1
                    };
                    if combat::legal_blocks(with, theirs, attackers, mine) != with {
                        continue;
                    }
                    let verb = if with.of[i] == 0 { "stop: " } else { "" };
                    choices.push(format!(
                        "{verb}#{} {} blocks their #{} {}",
                        i + 1,
                        bot_words(b),
                        j + 1,
                        bot_words(&theirs[j])
                    ));
                    pairs.push(with);
                }
            }
            let ask = Ask {
                table: view_table(view),
                choices,
                hint: hint.clone(),
            };
            match self.ask(&ask) {
                Some(0) | None => return blocks,
                Some(i) => blocks = pairs[i - 1],
            }
        }
    }

    fn split(
        &self,
        rules: &Rules,
        view: &View,
        attacker: &Automaton,
        blockers: &[Automaton],
        coins: &mut GameRng,
    ) -> u32 {
        let mut splits = Vec::new();
        combat::for_each_split(attacker, blockers, |m| splits.push(m));
        let words = |m: u32| {
            if m == 0 {
                "destroy none of its blockers".to_string()
            } else {
                format!("destroy {}", masked(blockers, m))
            }
        };
        let mut hint = Vec::new();
        if self.hints {
            let m = self.policy.split(rules, view, attacker, blockers, coins);
            hint.push(format!("hint ({}): {}", self.label, words(m)));
            // Greedy and lookahead split to destroy the most worth (greedy's).
            if let PolicyKind::Greedy(g) | PolicyKind::Lookahead(Lookahead { greedy: g, .. }) =
                self.policy
            {
                let worth: Vec<String> = splits
                    .iter()
                    .enumerate()
                    .map(|(i, &m)| {
                        let w: f32 = combat::bits(m).map(|k| g.worth(&blockers[k])).sum();
                        format!("{}) {w:.2}", i + 1)
                    })
                    .collect();
                hint.push(format!("  worth each split destroys: {}", worth.join("  ")));
            }
        }
        let ask = Ask {
            table: vec![format!(
                "your {} is blocked by {}",
                bot_words(attacker),
                masked(blockers, combat::all(blockers.len()))
            )],
            choices: splits.iter().map(|&m| words(m)).collect(),
            hint,
        };
        match self.ask(&ask) {
            Some(i) if splits.len() > 1 => splits[i],
            _ => combat::split_rule(attacker, blockers),
        }
    }
}
