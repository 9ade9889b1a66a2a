//! Which part of a seed's scenario stream a run asks: `--shard I/N` across
//! machines, and each `--jobs` process's share within it.

use std::fmt;
use std::str::FromStr;

/// Part `index` of `count`: the scenarios (of the corpus, the covering
/// array and the random stream, each numbered from 0) whose number is
/// `index` modulo `count`. N shards with budget B together ask what one
/// run asks with budget N×B.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 0.
    pub index: u64,
    /// How many parts.
    pub count: u64,
}

impl Shard {
    /// The whole stream.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether scenario number `n` is this shard's.
    pub fn holds(self, n: u64) -> bool {
        n % self.count.max(1) == self.index
    }

    /// Part `job` of `jobs` of this shard.
    pub fn split(self, job: u64, jobs: u64) -> Shard {
        Shard {
            index: self.index + self.count * job,
            count: self.count * jobs.max(1),
        }
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

/// Why a `--shard` argument is not `I/N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardError {
    /// It is not two numbers separated by `/`.
    NotIOverN(String),
    /// N is 0, or I is not below N.
    IndexNotBelowCount(u64, u64),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotIOverN(s) => write!(
                f,
                "shard {s:?} is not I/N: give this machine's number and the number of machines, e.g. 0/2"
            ),
            ShardError::IndexNotBelowCount(i, n) => write!(
                f,
                "shard {i}/{n}: I counts from 0 and must be below N (0/{n} to {}/{n})",
                n.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N`, e.g. `0/2` and `1/2`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_vet::Shard;
    ///
    /// let shard: Shard = "1/2".parse().unwrap();
    /// assert!(shard.holds(3) && !shard.holds(4));
    /// assert!("2/2".parse::<Shard>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let not = || ShardError::NotIOverN(s.to_owned());
        let (i, n) = s.split_once('/').ok_or_else(not)?;
        let index: u64 = i.trim().parse().map_err(|_| not())?;
        let count: u64 = n.trim().parse().map_err(|_| not())?;
        if count == 0 || index >= count {
            return Err(ShardError::IndexNotBelowCount(index, count));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
