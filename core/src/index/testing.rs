//! What the index's tests share.

/// A xorshift sequence from `seed`: each call gives a number below its
/// argument.
pub(super) fn below(mut state: u64) -> impl FnMut(usize) -> usize {
    move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    }
}
