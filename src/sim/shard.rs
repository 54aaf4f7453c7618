//! Shards: a run's game indices split into contiguous ranges that separate processes play and
//! `sim merge` adds back together. Game `i` of seed `s` depends only on `(s, i)` and tallies are
//! integers, so the merge of the shards' tallies is the tally of the whole run, bit for bit.

use std::fmt;
use std::ops::Range;

/// Shard `index` of `count` (from 0): the `index`-th of `count` contiguous, nearly equal ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

impl Shard {
    /// Parses `I/N` (`3/64`), with `N >= 1` and `I < N`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (i, n) = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)))
            .ok_or_else(|| format!("{text}: expected INDEX/COUNT with shards from 0, e.g. 3/64"))?;
        if n == 0 || i >= n {
            return Err(format!(
                "{text}: the index must be below the count (shards 0/{n} to {}/{n})",
                n.saturating_sub(1)
            ));
        }
        Ok(Self { index: i, count: n })
    }

    /// This shard's part of games `first .. first + games`: games `first + games * I / N` up to
    /// `first + games * (I + 1) / N`, so the shards of one run tile it without gap or overlap.
    pub fn range(&self, first: u64, games: u64) -> Range<u64> {
        let at =
            |i: u64| first + (u128::from(games) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }

    /// The default folder of this shard's files: `shard-003-of-064`.
    pub fn folder(&self) -> String {
        let width = (self.count - 1).to_string().len().max(3);
        format!("shard-{:0width$}-of-{:0width$}", self.index, self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_run_in_order() {
        for (first, games, count) in [
            (0, 1_000_000, 64),
            (7, 10, 10),
            (5, 1001, 3),
            (u64::MAX - 9, 9, 4),
        ] {
            let mut next = first;
            for index in 0..count {
                let r = Shard { index, count }.range(first, games);
                assert_eq!(
                    r.start, next,
                    "shard {index}/{count} starts where the last ended"
                );
                assert!(
                    r.end - r.start >= games / count && r.end - r.start <= games.div_ceil(count)
                );
                next = r.end;
            }
            assert_eq!(next, first + games);
        }
    }

    #[test]
    fn parses_index_over_count() {
        assert_eq!(
            Shard::parse("3/64"),
            Ok(Shard {
                index: 3,
                count: 64
            })
        );
        assert_eq!(
            Shard::parse("0/1").map(|s| s.to_string()),
            Ok("0/1".to_string())
        );
        for bad in ["64/64", "1/0", "3", "a/b", "-1/4", "3/64/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
