//! Any string as a root URI: core's parser against the oracle's, and
//! against `url` where the spec says it reads the same path; no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_fuzzing::check_root_uri;

fuzz_target!(|uri: &str| check_root_uri(uri));
