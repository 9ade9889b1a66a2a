//! Roots and a path of any bytes: core's lexical check against the model
//! on a tree of directories only.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rootguard_proptests::fuzzing::{check_lexical, LexicalInput};

fuzz_target!(|input: LexicalInput| check_lexical(&input));
