//! Junkyard Frankenstein's features for a value estimate ([`Featured`]): both tables (the
//! deciding seat's first), its own hand of tear-downs and the turn, from its observation only.

use crate::games::value::Featured;

use super::state::world::Public;
use super::state::{Observation, State};

/// One table's numbers, in the order of the names below.
fn table(t: &Public, out: &mut Vec<f32>) {
    let bots = &t.bots[..usize::from(t.bots_len)];
    let power: u32 = bots.iter().map(|b| u32::from(b.power)).sum();
    let toughness: u32 = bots.iter().map(|b| u32::from(b.toughness)).sum();
    let attacking = bots.iter().filter(|b| b.attacking).count();
    let assembly: u32 = t.assembly.iter().map(|&n| u32::from(n)).sum();
    out.extend([
        f32::from(t.hp) / 20.0,
        f32::from(t.heap) / 40.0,
        assembly as f32 / 10.0,
        f32::from(t.bots_len) / 5.0,
        power as f32 / 20.0,
        toughness as f32 / 20.0,
        attacking as f32 / 5.0,
    ]);
}

impl Featured for State<'_> {
    const FEATURES: &'static [&'static str] = &[
        "own_hp",
        "own_heap",
        "own_assembly",
        "own_automatons",
        "own_power",
        "own_toughness",
        "own_attacking",
        "their_hp",
        "their_heap",
        "their_assembly",
        "their_automatons",
        "their_power",
        "their_toughness",
        "their_attacking",
        "own_kings",
        "own_lessers",
        "turn",
    ];

    fn features(obs: &Observation, out: &mut Vec<f32>) {
        let own = usize::from(obs.seat);
        table(&obs.tables[own], out);
        table(&obs.tables[1 - own], out);
        out.extend([
            f32::from(obs.hand[0]) / 4.0,
            f32::from(obs.hand[1]) / 4.0,
            f32::from(obs.turn) / 100.0,
        ]);
    }
}
