//! The runner: splits a range of game indices into chunks and plays them in parallel.
//!
//! Work goes in waves of chunks. Within a wave rayon plays the chunks on any threads in any order;
//! the wave's results are then handed to the sink strictly in chunk order. Because every game draws
//! from its own generator and tallies are integers, the results are the same bit for bit whatever
//! the thread count. A stop request (a signal) starts no new chunks and drops those in flight
//! (which may have cut their games short on seeing it, a long search inside a game included), and
//! hands over only the prefix of chunks completed before it, so what was played is always games
//! `first .. first + n` for some `n`.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

/// Which game indices to play and how to group them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Index of the first game.
    pub first_game: u64,
    /// How many games.
    pub games: u64,
    /// Games per chunk: the unit of parallel work.
    pub chunk: u64,
    /// Games per wave: the most results held at once before the sink takes them.
    pub wave: u64,
}

impl Plan {
    /// Games `first_game .. first_game + games` in chunks of `chunk` games, waves of 64 chunks.
    /// The last index must fit in a `u64` (the command line checks it).
    pub fn new(first_game: u64, games: u64, chunk: u64) -> Self {
        let chunk = chunk.max(1);
        Self {
            first_game,
            games,
            chunk,
            wave: 64 * chunk,
        }
    }

    fn end(&self) -> u64 {
        self.first_game
            .checked_add(self.games)
            .expect("the plan's last game index fits in a u64")
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Games completed: always a prefix of the plan's indices.
    pub games: u64,
    /// True if every planned game was played.
    pub complete: bool,
}

/// Plays `plan` with `work` (one call per chunk of game indices) and hands each chunk's result to
/// `sink` in chunk order. Stops early, at a chunk boundary, when `stop` is set or `sink` asks to
/// (returns `Ok(false)`).
pub fn run<T, E, W, S>(plan: &Plan, stop: &AtomicBool, work: W, mut sink: S) -> Result<Played, E>
where
    T: Send,
    W: Fn(Range<u64>) -> T + Sync,
    S: FnMut(T) -> Result<bool, E>,
{
    let mut next = plan.first_game;
    let end = plan.end();
    let chunk = plan.chunk.max(1);
    let wave = plan.wave.max(chunk);
    while next < end {
        let wave_end = next.saturating_add(wave).min(end);
        let chunks: Vec<Range<u64>> = (next..wave_end)
            .step_by(chunk as usize)
            .map(|s| s..s.saturating_add(chunk).min(wave_end))
            .collect();
        let results: Vec<Option<T>> = chunks
            .par_iter()
            .map(|r| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let result = work(r.clone());
                // A chunk that saw the request may have cut its games short: it is dropped.
                (!stop.load(Ordering::SeqCst)).then_some(result)
            })
            .collect();
        for (range, result) in chunks.iter().zip(results) {
            let Some(result) = result else {
                return Ok(Played {
                    games: next - plan.first_game,
                    complete: false,
                });
            };
            next = range.end;
            if !sink(result)? {
                return Ok(Played {
                    games: next - plan.first_game,
                    complete: next == end,
                });
            }
        }
    }
    Ok(Played {
        games: next - plan.first_game,
        complete: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::CHUNK;
    use std::convert::Infallible;

    fn sum_of_indices(plan: &Plan, threads: usize) -> (u64, Vec<u64>) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut firsts = Vec::new();
        let mut total = 0u64;
        let stop = AtomicBool::new(false);
        pool.install(|| {
            run::<_, Infallible, _, _>(
                plan,
                &stop,
                |r| (r.start, r.sum::<u64>()),
                |(first, s)| {
                    firsts.push(first);
                    total += s;
                    Ok(true)
                },
            )
            .unwrap()
        });
        (total, firsts)
    }

    #[test]
    fn every_index_once_in_order_whatever_the_threads() {
        let plan = Plan {
            first_game: 5,
            games: 3 * CHUNK + 17,
            chunk: CHUNK,
            wave: 2 * CHUNK,
        };
        let expected: u64 = (5..5 + plan.games).sum();
        let (t1, f1) = sum_of_indices(&plan, 1);
        let (t3, f3) = sum_of_indices(&plan, 3);
        assert_eq!(t1, expected);
        assert_eq!(t3, expected);
        assert_eq!(f1, vec![5, 5 + CHUNK, 5 + 2 * CHUNK, 5 + 3 * CHUNK]);
        assert_eq!(f1, f3);
    }

    #[test]
    fn a_stop_request_keeps_a_prefix() {
        let plan = Plan::new(0, 10 * CHUNK, CHUNK);
        let stop = AtomicBool::new(true);
        let played = run::<_, Infallible, _, _>(&plan, &stop, |_| (), |_| Ok(true)).unwrap();
        assert_eq!(
            played,
            Played {
                games: 0,
                complete: false
            }
        );
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        let played = run::<_, Infallible, _, _>(
            &plan,
            &stop,
            |r| r.end,
            |_| {
                seen += 1;
                Ok(seen < 3)
            },
        )
        .unwrap();
        assert_eq!(played.games, 3 * CHUNK);
        assert!(!played.complete);
    }

    #[test]
    fn a_chunk_that_sees_the_request_is_dropped() {
        // The request comes while chunk 4 plays (it may have cut its games short): the prefix
        // ends before it, on any threads.
        for threads in [1, 2] {
            let plan = Plan {
                first_game: 0,
                games: 10 * CHUNK,
                chunk: CHUNK,
                wave: 2 * CHUNK,
            };
            let stop = AtomicBool::new(false);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut seen = Vec::new();
            let played = pool.install(|| {
                run::<_, Infallible, _, _>(
                    &plan,
                    &stop,
                    |r| {
                        if r.start == 4 * CHUNK {
                            stop.store(true, Ordering::SeqCst);
                        }
                        r.start
                    },
                    |start| {
                        seen.push(start);
                        Ok(true)
                    },
                )
                .unwrap()
            });
            assert_eq!(
                played,
                Played {
                    games: 4 * CHUNK,
                    complete: false
                }
            );
            assert_eq!(seen, [0, CHUNK, 2 * CHUNK, 3 * CHUNK]);
        }
    }

    #[test]
    fn small_chunks_tile_the_range_in_order() {
        let plan = Plan::new(3, 10, 4);
        let (t2, firsts) = sum_of_indices(&plan, 2);
        assert_eq!(t2, (3..13).sum::<u64>());
        assert_eq!(firsts, vec![3, 7, 11]);
    }
}
