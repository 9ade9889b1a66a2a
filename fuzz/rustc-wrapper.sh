#!/bin/sh
# The rustc wrapper of fuzz builds (targets.sh exports it as RUSTC_WRAPPER;
# $1 is rustc). A crate built with its feature `no-coverage` (the judge and
# the checks, rootguard-judge and rootguard-fuzzing, when a target is built
# `--features judge-no-coverage`)
# is compiled without libFuzzer's coverage counters: LLVM takes the last
# -sanitizer-coverage-level given, and 0 turns the pass off for that crate
# alone. The cfg tells the crate that this happened (without it the build
# stops with an error). Every other crate is compiled exactly as cargo-fuzz
# asks. A wrapper of your own (sccache, say) still runs: targets.sh keeps
# it in ROOTGUARD_RUSTC_WRAPPER.
prev=
for arg in "$@"; do
    if [ "$prev" = --cfg ] && [ "$arg" = 'feature="no-coverage"' ]; then
        set -- "$@" -Cllvm-args=-sanitizer-coverage-level=0 --cfg rootguard_no_coverage
        break
    fi
    prev=$arg
done
exec ${ROOTGUARD_RUSTC_WRAPPER:+"$ROOTGUARD_RUSTC_WRAPPER"} "$@"
