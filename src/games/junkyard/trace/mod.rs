//! Junkyard traced and played: its events in words with both tables after them, its deal (both
//! heaps and every batch that went back under them), its decisions replayed through the state
//! API from the stacked heaps ([`replay`]), and a person in seat 0 against the seated policy in
//! seat 1 ([`person`]), both choosing among the state's legal moves.
//!
//! A trace puts the same policy in both seats unless `--vs` or `--seat` says otherwise; game
//! `2d + 1` of a duel of two policies is deal `d` with the seats swapped.

mod person;
mod replay;

use std::cell::{Cell, RefCell};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::{Map, Value, json};

use crate::error::{Result, SimError};
use crate::games::Game;
use crate::games::junkyard::automaton::{Automaton, Pattern};
use crate::games::junkyard::cards::{Counts, KING, LESSER, MAX_HEAP, NUMBERS, is_number};
use crate::games::junkyard::combat::{self, MAX_BOTS};
use crate::games::junkyard::events::{Event, Observer};
use crate::games::junkyard::{Junkyard, Outcome, Rules, Streams, View};
use crate::search::play::Searching;
use crate::search::seat::SEARCH;

use crate::trace::play::Desk;
use crate::trace::{Traceable, Traced};

use person::Person;

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

    /// The seat the first policy sat in: a duel of two policies swaps them on odd games.
    fn take_recorded(outcome: &mut Outcome, recorded: &Map<String, Value>) -> Result<()> {
        outcome.swapped = match recorded.get("first_policy_seat").and_then(Value::as_u64) {
            Some(0) => false,
            Some(1) => true,
            _ => {
                return Err(SimError::input(
                    "the outcome's first_policy_seat: expected 0 or 1",
                ));
            }
        };
        Ok(())
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
        let desk = RefCell::new(desk);
        let quit = Cell::new(false);
        let mut events = Vec::new();
        let mut obs = Watch {
            state: State::start(self.rules()),
            each: |seen: Seen| {
                let words = match seen.event {
                    // The person sees neither heap's order nor the tear-downs the other draws.
                    Event::Dealt { .. } | Event::Split { .. } => None,
                    Event::Drew { seat: 1, card } if !is_number(card) => {
                        Some("  seat 1 draws a tear-down (to its hand)".to_string())
                    }
                    _ => self.words(&seen),
                };
                if let Some(words) = words.filter(|_| !quit.get()) {
                    desk.borrow_mut().show(&words);
                }
                events.push(seen);
            },
        };
        // `sim play` seats no swapped games: the person is seat 0 of deal `index`.
        let (state, key, swapped) = self.deal_state(seed, index, &mut obs);
        let adviser = self
            .seated_search(index, 0)
            .map(|s| Searching::new(s, key.stream(SEARCH)));
        let mut person = Person {
            policy: self.seated(index, 0),
            label: self.seated_name(index, 0),
            hints,
            adviser,
            desk: &desk,
            quit: &quit,
            coins: key.stream(Streams::POLICY),
            attack: None,
            blocks: None,
        };
        let outcome = self.play_state(state, key, swapped, &mut obs, Some(&mut person));
        (!quit.get()).then_some(Traced { events, outcome })
    }
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
