//! rootguard's benchmarks live in `benches/`; this crate also builds the
//! trivial always-deny checker that vet's throughput is measured against.
