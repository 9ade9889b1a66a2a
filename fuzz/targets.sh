# Sourced by campaign.sh and smoke.sh: the fuzz targets, and how each is
# built and run. (.clusterfuzzlite/build.sh builds every target with
# cargo-fuzz's defaults; see README.md, "Speed".)

fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Every target, in the order they run: fuzz/targets, one name a line, is
# the one list (fuzzing/tests/fuzz_target_list.rs holds Cargo.toml's
# bins, fuzz_targets/, corpus/, dicts/, regressions/ and
# rootguard_fuzzing::TARGETS to it).
mapfile -t TARGETS <"$fuzz_dir/targets"

# The targets that reach core's `unsafe` code (the SSE2 loads in
# core/src/normal.rs and core/src/index.rs), whose out-of-bounds reads
# only AddressSanitizer sees: the nightly workflow's ASan pass runs these.
ASAN_TARGETS=(lexical resolve_kernel)

# cargo-fuzz build flags of a target beyond the sanitizer, one a line.
# `lexical` and `resolve_model` are built without -trace-compares: the
# compare hooks cost them a quarter to a third of their exec/s, and runs with and
# without reached the same coverage. `lexical`, the speed target, is also
# built -O (no debug assertions or overflow checks: a quarter more exec/s);
# `lexical_roots` runs the same check of the same core code with both on.
# `resolve_model` also compiles the judge and the checks (rootguard-judge,
# rootguard-fuzzing) without coverage counters, so that core's branches
# alone guide it: the judge's
# counters were most of what libFuzzer walked after each input (see the
# wrapper below). See README.md, "Speed". Every other target keeps
# cargo-fuzz's defaults.
# cargo keeps each build of the dependencies, so switching is cheap.
build_flags() {
    case $1 in
        lexical) printf '%s\n' -O --no-trace-compares ;;
        resolve_model) printf '%s\n' --no-trace-compares --features judge-no-coverage ;;
    esac
}

# The wrapper that builds the judge and the checks without coverage counters for a target
# built `--features judge-no-coverage` (every other crate, and every other
# target, is compiled as cargo-fuzz asks). A wrapper already set is kept and
# still runs.
if [ "${RUSTC_WRAPPER:-}" != "$fuzz_dir/rustc-wrapper.sh" ]; then
    export ROOTGUARD_RUSTC_WRAPPER=${RUSTC_WRAPPER:-}
    export RUSTC_WRAPPER=$fuzz_dir/rustc-wrapper.sh
fi

# Sets the array `fuzz` to the cargo-fuzz command of the toolchain asked
# for: `cargo +nightly fuzz` with FUZZ_TOOLCHAIN=nightly, else the active
# (stable) toolchain's `cargo fuzz` with RUSTC_BOOTSTRAP=1, which
# cargo-fuzz's flags need there.
fuzz_command() {
    if [ "${FUZZ_TOOLCHAIN:-stable}" = nightly ]; then
        fuzz=(cargo +nightly fuzz)
    else
        export RUSTC_BOOTSTRAP=1
        fuzz=(cargo fuzz)
    fi
}

# A target's libFuzzer options (options/<target>.options, ClusterFuzz's
# format, which build.sh copies to $OUT) as -name=value flags.
target_options() {
    [ -f "options/$1.options" ] || return 0
    sed -n 's/^\([a-z_]*\) *= *\([^ ]*\) *$/-\1=\2/p' "options/$1.options"
}
