//! A slow second implementation of Junkyard Frankenstein and of `simple`, written from the
//! rulings and the text with plain vectors, played on the same deals (the same heap
//! shuffles and the same shuffles of returned cards) and compared game by game with the engine.
//! Whatever the engine's arrays, masks and shortcuts do, each game must end the same way.

use std::collections::VecDeque;

use sim::games::Game;
use sim::games::junkyard::{Junkyard, Outcome, Rules, Streams};
use sim::games::seats::Seating;
use sim::rng::{GameKey, GameRng};

const KING: u8 = 12;
const LESSER: u8 = 11;

#[derive(Clone, Debug)]
struct Bot {
    power: u32,
    toughness: u32,
    /// run 3, one-and-three 2, two-pairs 1, four 1s 0.
    rank: u32,
    cards: Vec<u8>,
    attacking: bool,
}

impl Bot {
    fn key(&self) -> (u32, u32, u32) {
        (self.power, self.toughness, self.rank)
    }
    fn unblockable(&self) -> bool {
        self.rank == 0
    }
}

#[derive(Clone, Debug, Default)]
struct Player {
    heap: VecDeque<u8>,
    assembly: Vec<u8>,
    hand: Vec<u8>,
    bots: Vec<Bot>,
    hp: i32,
    built: u16,
    destroyed: u16,
    damage: u16,
    teardowns: u16,
}

fn count(cards: &[u8], v: u8) -> usize {
    cards.iter().filter(|&&c| c == v).count()
}

/// Every automaton the cards allow, listed from the four patterns.
fn candidates(asm: &[u8]) -> Vec<Bot> {
    let mut out = Vec::new();
    for a in 1..=10u8 {
        for b in 1..=10u8 {
            if a != b && count(asm, a) >= 1 && count(asm, b) >= 3 {
                out.push(Bot {
                    power: a.into(),
                    toughness: 3 * u32::from(b),
                    rank: 2,
                    cards: vec![a, b, b, b],
                    attacking: false,
                });
            }
            if a < b && count(asm, a) >= 2 && count(asm, b) >= 2 {
                out.push(Bot {
                    power: 2 * u32::from(a),
                    toughness: 2 * u32::from(b),
                    rank: 1,
                    cards: vec![a, a, b, b],
                    attacking: false,
                });
            }
        }
    }
    for k in 3..=10u8 {
        if (1..=k).all(|v| count(asm, v) >= 1) {
            let sum: u32 = (1..=u32::from(k)).sum();
            out.push(Bot {
                power: sum,
                toughness: sum,
                rank: 3,
                cards: (1..=k).collect(),
                attacking: false,
            });
        }
    }
    if count(asm, 1) >= 4 {
        out.push(Bot {
            power: 1,
            toughness: 1,
            rank: 0,
            cards: vec![1; 4],
            attacking: false,
        });
    }
    out
}

fn build_strongest(p: &mut Player) {
    loop {
        let Some(best) = candidates(&p.assembly).into_iter().max_by_key(Bot::key) else {
            return;
        };
        for c in &best.cards {
            let at = p.assembly.iter().position(|x| x == c).unwrap();
            p.assembly.remove(at);
        }
        p.bots.push(best);
        p.built += 1;
    }
}

/// Puts one event's cards under the heap: tear-down first, numbers ascending, then shuffled.
fn put_under(p: &mut Player, tear: Option<u8>, mut numbers: Vec<u8>, rng: &mut GameRng) {
    numbers.sort();
    let mut batch: Vec<u8> = tear.into_iter().chain(numbers).collect();
    if batch.len() > 1 {
        rng.shuffle(&mut batch);
    }
    p.heap.extend(batch);
}

fn draw(p: &mut Player, n: u8) {
    for _ in 0..n {
        let Some(c) = p.heap.pop_front() else { return };
        if c >= LESSER {
            p.hand.push(c);
        } else {
            p.assembly.push(c);
        }
    }
}

fn strongest(bots: &[Bot]) -> Option<usize> {
    (0..bots.len()).max_by_key(|&i| bots[i].key())
}

fn weakest(bots: &[Bot]) -> Option<usize> {
    (0..bots.len()).min_by_key(|&i| bots[i].key())
}

/// T: the opponent's strongest, among equals one in its defense area.
fn target(opp: &[Bot]) -> usize {
    (0..opp.len())
        .max_by_key(|&i| (opp[i].key(), !opp[i].attacking))
        .unwrap()
}

/// Deploys `card`: destroys the opponent's `t`, then the player's own `own`.
fn deploy(
    me: &mut Player,
    opp: &mut Player,
    card: u8,
    t: usize,
    own: Option<usize>,
    rngs: (&mut GameRng, &mut GameRng),
) {
    let gone = opp.bots.remove(t);
    opp.destroyed += 1;
    put_under(opp, None, gone.cards, rngs.1);
    let at = me.hand.iter().position(|&c| c == card).unwrap();
    me.hand.remove(at);
    me.teardowns += 1;
    let mut cards = Vec::new();
    if let Some(i) = own {
        cards = me.bots.remove(i).cards;
        me.destroyed += 1;
    }
    put_under(me, Some(card), cards, rngs.0);
}

/// The split rule: by increasing toughness (stronger first at equal toughness), the longest
/// prefix whose toughness fits the power. Returns the destroyed blockers (indices into `list`).
fn split(power: u32, list: &[&Bot]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by(|&a, &b| {
        list[a]
            .toughness
            .cmp(&list[b].toughness)
            .then(list[b].key().cmp(&list[a].key()))
    });
    let mut left = power;
    let mut out = Vec::new();
    for i in order {
        if list[i].toughness > left {
            break;
        }
        left -= list[i].toughness;
        out.push(i);
    }
    out
}

/// `simple`'s blocks: for each of the defender's automatons, the attacker it blocks.
fn blocks(def: &Player, att: &Player, attackers: &[usize]) -> Vec<Option<usize>> {
    let mut assigned: Vec<Option<usize>> = vec![None; def.bots.len()];
    let free = |assigned: &Vec<Option<usize>>| -> Vec<usize> {
        (0..def.bots.len())
            .filter(|&i| !def.bots[i].attacking && assigned[i].is_none())
            .collect()
    };
    let mut order: Vec<usize> = attackers
        .iter()
        .copied()
        .filter(|&j| !att.bots[j].unblockable())
        .collect();
    order.sort_by_key(|&j| std::cmp::Reverse(att.bots[j].key()));
    let mut blocked = vec![false; att.bots.len()];
    for &j in &order {
        let a = &att.bots[j];
        let f = free(&assigned);
        let total: u32 = f.iter().map(|&i| def.bots[i].power).sum();
        let mut done = false;
        if total >= a.toughness {
            let mut by_strength = f.clone();
            by_strength.sort_by_key(|&i| std::cmp::Reverse(def.bots[i].key()));
            let mut g = Vec::new();
            let mut power = 0;
            for i in by_strength {
                if power >= a.toughness {
                    break;
                }
                power += def.bots[i].power;
                g.push(i);
            }
            let list: Vec<&Bot> = g.iter().map(|&i| &def.bots[i]).collect();
            let lost: u32 = split(a.power, &list).iter().map(|&k| list[k].power).sum();
            if lost < a.power {
                g.iter().for_each(|&i| assigned[i] = Some(j));
                done = true;
            }
        }
        if !done {
            let safe = f
                .iter()
                .copied()
                .filter(|&i| def.bots[i].toughness > a.power)
                .min_by_key(|&i| def.bots[i].key());
            if let Some(i) = safe {
                assigned[i] = Some(j);
                done = true;
            }
        }
        blocked[j] = done;
    }
    loop {
        let unblocked: Vec<usize> = attackers.iter().copied().filter(|&j| !blocked[j]).collect();
        let power: i32 = unblocked.iter().map(|&j| att.bots[j].power as i32).sum();
        let f = free(&assigned);
        let candidates: Vec<usize> = unblocked
            .iter()
            .copied()
            .filter(|&j| !att.bots[j].unblockable())
            .collect();
        if power < def.hp || f.is_empty() || candidates.is_empty() {
            break;
        }
        let j = *candidates
            .iter()
            .max_by_key(|&&j| att.bots[j].key())
            .unwrap();
        let i = *f.iter().min_by_key(|&&i| def.bots[i].key()).unwrap();
        assigned[i] = Some(j);
        blocked[j] = true;
    }
    assigned
}

/// One turn of `simple` for `me` against `opp`; true if it won the game.
fn simple_turn(me: &mut Player, opp: &mut Player, rngs: (&mut GameRng, &mut GameRng)) -> bool {
    // 1. King.
    if me.hand.contains(&KING) && !opp.bots.is_empty() {
        let t = target(&opp.bots);
        let w = weakest(&me.bots);
        if w.is_none_or(|w| opp.bots[t].key() > me.bots[w].key()) {
            deploy(me, opp, KING, t, w, (&mut *rngs.0, &mut *rngs.1));
        }
    }
    // 2. Queen/Jack.
    if me.hand.contains(&LESSER) && !opp.bots.is_empty() {
        let t = target(&opp.bots);
        let s = strongest(&me.bots);
        if s.is_none_or(|s| opp.bots[t].key() > me.bots[s].key()) {
            let top = me.bots.iter().map(|b| b.power).max();
            let own = (0..me.bots.len())
                .filter(|&i| Some(me.bots[i].power) == top)
                .min_by_key(|&i| me.bots[i].key());
            deploy(me, opp, LESSER, t, own, (&mut *rngs.0, &mut *rngs.1));
        }
    }
    // 3. Build.
    build_strongest(me);
    // 4. Attack.
    let defenders: Vec<&Bot> = opp.bots.iter().filter(|b| !b.attacking).collect();
    let total: i32 = me.bots.iter().map(|b| b.power as i32).sum();
    let attackers: Vec<usize> = if defenders.is_empty() && total >= opp.hp {
        (0..me.bots.len()).collect()
    } else {
        let guard = (0..me.bots.len())
            .filter(|&i| !me.bots[i].unblockable())
            .max_by_key(|&i| (me.bots[i].toughness, std::cmp::Reverse(me.bots[i].key())));
        let top = defenders.iter().map(|b| b.power).max().unwrap_or(0);
        (0..me.bots.len())
            .filter(|&i| Some(i) != guard)
            .filter(|&i| me.bots[i].unblockable() || me.bots[i].toughness > top)
            .collect()
    };
    if attackers.is_empty() {
        return false;
    }
    attackers.iter().for_each(|&j| me.bots[j].attacking = true);
    // 5. Block, 6. damage.
    let assigned = blocks(opp, me, &attackers);
    let mut lost_mine = vec![false; me.bots.len()];
    let mut lost_theirs = vec![false; opp.bots.len()];
    let mut to_player = 0u32;
    for &j in &attackers {
        let idx: Vec<usize> = (0..opp.bots.len())
            .filter(|&i| assigned[i] == Some(j))
            .collect();
        if idx.is_empty() {
            to_player += me.bots[j].power;
            continue;
        }
        let list: Vec<&Bot> = idx.iter().map(|&i| &opp.bots[i]).collect();
        for k in split(me.bots[j].power, &list) {
            lost_theirs[idx[k]] = true;
        }
        let hit: u32 = list.iter().map(|b| b.power).sum();
        if hit >= me.bots[j].toughness {
            lost_mine[j] = true;
        }
    }
    me.damage += to_player as u16;
    opp.hp -= to_player as i32;
    for (p, lost, rng) in [
        (&mut *me, lost_mine, rngs.0),
        (&mut *opp, lost_theirs, rngs.1),
    ] {
        if lost.iter().any(|&l| l) {
            let mut cards = Vec::new();
            let mut keep = Vec::new();
            for (b, l) in p.bots.drain(..).zip(lost) {
                if l {
                    cards.extend(b.cards);
                    p.destroyed += 1;
                } else {
                    keep.push(b);
                }
            }
            p.bots = keep;
            put_under(p, None, cards, rng);
        }
    }
    opp.hp <= 0
}

fn reference_game(rules: &Rules, key: GameKey) -> Outcome {
    let mut full: Vec<u8> = Vec::new();
    for (v, &c) in rules.counts.iter().enumerate() {
        full.extend(std::iter::repeat_n(v as u8 + 1, c.into()));
    }
    full.extend(std::iter::repeat_n(KING, rules.kings.into()));
    full.extend(std::iter::repeat_n(LESSER, rules.lessers.into()));
    let mut players: Vec<Player> = (0..2)
        .map(|s| {
            let mut heap = full.clone();
            key.stream(Streams::HEAP + s).shuffle(&mut heap);
            Player {
                heap: heap.into(),
                hp: rules.hp(s as usize).into(),
                ..Player::default()
            }
        })
        .collect();
    let mut rngs = [
        key.stream(Streams::RETURNS),
        key.stream(Streams::RETURNS + 1),
    ];
    for p in &mut players {
        draw(p, rules.opening_draw);
    }
    if rules.setup_build {
        players.iter_mut().for_each(build_strongest);
    }
    let mut turn = 0u16;
    let winner = loop {
        let s = usize::from(turn % 2);
        turn += 1;
        let (a, b) = players.split_at_mut(1);
        let (me, opp) = if s == 0 {
            (&mut a[0], &mut b[0])
        } else {
            (&mut b[0], &mut a[0])
        };
        me.bots.iter_mut().for_each(|b| b.attacking = false);
        draw(
            me,
            if turn == 1 {
                rules.first_turn_draw
            } else {
                rules.draw_per_turn
            },
        );
        let [r0, r1] = &mut rngs;
        let (mine, theirs) = if s == 0 { (r0, r1) } else { (r1, r0) };
        if simple_turn(me, opp, (mine, theirs)) {
            break Some(s as u8);
        }
        if turn >= rules.turn_cap {
            break None;
        }
    };
    let [a, b] = [&players[0], &players[1]];
    Outcome {
        winner,
        swapped: false,
        final_hp: [a.hp as i16, b.hp as i16],
        turns: turn,
        built: [a.built, b.built],
        destroyed: [a.destroyed, b.destroyed],
        damage: [a.damage, b.damage],
        teardowns: [a.teardowns, b.teardowns],
    }
}

fn compare(rules: Rules, games: u64) {
    let seed = 2026;
    let game = Junkyard::new(rules.clone(), &Seating::uniform("simple", 2)).unwrap();
    for index in 0..games {
        let want = reference_game(&rules, GameKey::new(seed, index));
        assert_eq!(game.play(seed, index), want, "game {index} under {rules:?}");
    }
}

#[test]
fn simple_plays_every_game_as_the_reference_does() {
    compare(Rules::default(), 3000);
}

#[test]
fn and_so_under_other_rules() {
    compare(
        Rules {
            setup_build: false,
            first_turn_draw: 1,
            second_seat_hp_bonus: 4,
            turn_cap: 30,
            ..Rules::default()
        },
        1500,
    );
    compare(
        Rules {
            kings: 2,
            lessers: 0,
            draw_per_turn: 4,
            start_hp: 15,
            ..Rules::default()
        },
        1500,
    );
}
