//! The same scenarios made real in a fresh temp dir: core on the real file
//! system against kernel truth, and the model against the kernel.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_fuzzing::{check_resolve_kernel, ScenarioInput};

// The trees go to tmpfs by default (`rootguard_judge::clean_temp_parent`).
fuzz_target!(|input: ScenarioInput| check_resolve_kernel(&input));
