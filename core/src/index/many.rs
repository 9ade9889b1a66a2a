//! The table of many roots: open addressing over their paths' hashes.

use super::hash::path_hash;
use crate::normal::same_bytes;
use crate::root_id::{earliest, RootId};

/// Many roots, found by hash: only the prefixes of a path that some root's
/// length allows are looked up.
#[derive(Clone, Debug)]
pub(super) struct ManyRoots {
    /// An open-addressing table (linear probing) of the distinct root
    /// paths (never `/`): a power of two long and at most half full, so
    /// that a probe soon ends at an empty slot (one whose path is empty).
    /// 32 bytes a slot: 256 KiB for 4096 roots.
    pub(super) slots: Box<[Slot]>,
    /// The distinct byte lengths roots have, shortest first, so that only
    /// the prefixes of those lengths are looked up.
    lengths: Box<[usize]>,
}

/// A root in [`ManyRoots::slots`], its bytes one load away: a lookup
/// reads the slot, then the root's bytes, and nothing else.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    /// [`path_hash`] of `path`.
    hash: u64,
    /// The root's normal path, or empty for a free slot.
    pub(super) path: Box<[u8]>,
    /// The first root with this path in the caller's order.
    id: RootId,
}

impl Default for Slot {
    /// A free slot.
    fn default() -> Slot {
        Slot {
            hash: 0,
            path: Box::default(),
            id: RootId::new(0),
        }
    }
}

impl ManyRoots {
    /// The table of `roots` (none of them `/`), each path under the first
    /// root in the caller's order that has it.
    pub(super) fn new(roots: Vec<(Box<[u8]>, RootId)>) -> ManyRoots {
        let mut lengths: Vec<usize> = roots.iter().map(|(p, _)| p.len()).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let mut slots = vec![Slot::default(); (2 * roots.len()).next_power_of_two()];
        for (path, id) in roots {
            let hash = path_hash(&path);
            // A root repeated later in the caller's list keeps the id of
            // its first appearance.
            if let Err(free) = probe(&slots, &path, hash) {
                slots[free] = Slot { hash, path, id };
            }
        }
        ManyRoots {
            slots: slots.into_boxed_slice(),
            lengths: lengths.into_boxed_slice(),
        }
    }

    /// The first root (in the caller's order) that is `path` or an
    /// ancestor of it: only the prefixes whose lengths some root has, and
    /// that end where a component does, are looked up.
    #[inline(always)]
    pub(super) fn find(&self, path: &[u8]) -> Option<RootId> {
        let n = path.len();
        let mut best: Option<RootId> = None;
        for &len in self.lengths.iter() {
            if len > n {
                break;
            }
            if len == n || path[len] == b'/' {
                best = earliest(best, self.lookup(&path[..len]));
            }
        }
        best
    }

    /// The first root in the caller's order that is `prefix`, if any.
    #[inline(never)]
    fn lookup(&self, prefix: &[u8]) -> Option<RootId> {
        let at = probe(&self.slots, prefix, path_hash(prefix)).ok()?;
        Some(self.slots[at].id)
    }
}

/// In `slots`, the slot of `path` (whose [`path_hash`] is `hash`), or
/// else the free slot where it would go.
#[inline(always)]
fn probe(slots: &[Slot], path: &[u8], hash: u64) -> Result<usize, usize> {
    let mask = slots.len() - 1;
    let mut at = hash as usize & mask;
    loop {
        let slot = &slots[at];
        if slot.hash == hash && slot.path.len() == path.len() && same_bytes(&slot.path, path) {
            return Ok(at);
        }
        if slot.path.is_empty() {
            return Err(at);
        }
        at = (at + 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot is taken for `path` only when its bytes are `path`'s: a
    /// slot whose hash or length matches but whose bytes do not is probed
    /// past, as a real collision would be.
    #[test]
    fn probe_looks_past_forged_collisions() {
        let slot = |hash: u64, path: &[u8], index: usize| Slot {
            hash,
            path: path.into(),
            id: RootId::new(index),
        };
        let wanted = b"/srv/a";
        let hash = path_hash(wanted);
        let mut slots = vec![Slot::default(); 8];
        let home = hash as usize & 7;
        slots[home] = slot(hash, b"/srv/b", 0);
        slots[(home + 1) & 7] = slot(hash ^ 1, wanted, 1);
        slots[(home + 2) & 7] = slot(hash, b"/srv/ab", 2);
        assert_eq!(probe(&slots, wanted, hash), Err((home + 3) & 7));
        slots[(home + 3) & 7] = slot(hash, wanted, 3);
        assert_eq!(probe(&slots, wanted, hash), Ok((home + 3) & 7));
        // Probes wrap around the end of the table.
        let mut slots = vec![Slot::default(); 4];
        slots[3] = slot(7, b"/x", 0);
        slots[0] = slot(7, b"/y", 1);
        assert_eq!(probe(&slots, b"/y", 7), Ok(0));
        assert_eq!(probe(&slots, b"/z", 7), Err(1));
    }
}
