//! The hash of a root's path, for the table of many roots.

/// The hash of a root's path, for [`ManyRoots`](super::many::ManyRoots): its bytes as 8-byte words
/// (the last ones overlapping those before them), two words at a time
/// folded by one 64×64→128-bit multiply, as the `foldhash` crate does. A
/// root of 9 to 32 bytes costs one or two multiplications that do not
/// wait on each other. The length is mixed in, so a path and its prefix
/// differ even where their words coincide. Not resistant to chosen
/// collisions, which cost only time: roots come from the client's
/// configuration.
#[inline(always)]
pub(super) fn path_hash(bytes: &[u8]) -> u64 {
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let n = bytes.len();
    let len = n as u64;
    if n < 8 {
        let mut padded = [0u8; 8];
        padded[..n].copy_from_slice(bytes);
        return fold(u64::from_le_bytes(padded) ^ K[0], len ^ K[1]);
    }
    if n <= 16 {
        return fold(word(0) ^ K[0], word(n - 8) ^ len ^ K[1]);
    }
    let mut acc = len;
    let mut at = 0;
    while n - at > 32 {
        acc = fold(word(at) ^ K[2], word(at + 8) ^ acc);
        acc ^= fold(word(at + 16) ^ K[3], word(at + 24) ^ K[0]);
        at += 32;
    }
    // The last 32 bytes, or all of a shorter root (its words then overlap).
    let (a, b) = if n >= 32 { (n - 32, n - 24) } else { (0, 8) };
    let low = fold(word(a) ^ K[0], word(b) ^ acc ^ K[1]);
    let high = fold(word(n - 16) ^ K[2], word(n - 8) ^ K[3]);
    low ^ high.rotate_left(23)
}

/// The high and low halves of a 128-bit product, xored.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// Arbitrary constants: the first hex digits of pi's fraction.
const K: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths that differ anywhere, in length alone or in one byte at any
    /// place, hash apart; the hash reads every byte.
    #[test]
    fn path_hash_reads_every_byte() {
        let hash = path_hash;
        let mut seen = std::collections::HashSet::new();
        for n in 0..=100 {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(seen.insert(hash(&a)), "length {n} collides");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x01;
                assert!(seen.insert(hash(&b)), "a change at {at} of {n} collides");
            }
        }
        // Zero bytes are bytes: the padding of a short path is told apart.
        assert_ne!(hash(b"/a"), hash(b"/a\0"));
    }

    /// Roots that differ in a few bytes (numbered, in the middle, at the
    /// end, of every length) spread over the table as random hashes
    /// would: 4096 of them take at least 70% of the 8192 slots' low bits
    /// (random: 79%). A weak hash is never wrong, only slow; this is what
    /// keeps it from being slow.
    #[test]
    fn similar_roots_spread_over_the_table() {
        let families: [&dyn Fn(usize) -> String; 5] = [
            &|i| format!("/srv/ws/r{i:04}/proj"),
            &|i| format!("/home/{i}"),
            &|i| format!("/a/{:0>60}/b", i),
            &|i| format!("/{}", "x".repeat(1 + i % 100)) + &format!("/{}", i / 100),
            &|i| format!("/data/projects/shared/client-{i:05}"),
        ];
        for (f, family) in families.iter().enumerate() {
            let low: std::collections::HashSet<u64> = (0..4096)
                .map(|i| path_hash(family(i).as_bytes()) & 8191)
                .collect();
            assert!(low.len() >= 2867, "family {f}: {} of 4096", low.len());
        }
    }
}
