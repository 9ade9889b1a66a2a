//! A path of any bytes against one of a pool of hostile root sets, each
//! parsed once: core's lexical check against the lexical oracle (whole
//! components, `.` and `..` applied by text). Input: `[set, mode, rest...]`
//! (`rootguard_fuzzing::lexical_path`), or a scenario document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_fuzzing::check_lexical;

fuzz_target!(|data: &[u8]| check_lexical(data));
