//! Any bytes as a scenario document: no panic, clear errors, and a valid
//! document round-trips through `to_json`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_fuzzing::check_scenario_json;

fuzz_target!(|data: &[u8]| check_scenario_json(data));
