//! Roots and a path of any bytes: core's lexical check against the lexical
//! oracle (whole components, `.` and `..` applied by text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_proptests::fuzzing::{check_lexical, LexicalInput};

fuzz_target!(|input: LexicalInput| check_lexical(&input));
