//! Roots and a path, both structured and arbitrary: core's lexical check
//! against the lexical oracle (whole components, `.` and `..` applied by
//! text), with the roots parsed per input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_fuzzing::{check_lexical_roots, LexicalInput};

fuzz_target!(|input: LexicalInput| check_lexical_roots(&input));
