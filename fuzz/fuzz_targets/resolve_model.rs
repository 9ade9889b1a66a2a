//! A small hostile scenario: core on its in-memory file system against
//! the model oracle (truth, target and containing root).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_fuzzing::{check_resolve_model, ScenarioInput};

fuzz_target!(|input: ScenarioInput| check_resolve_model(&input));
