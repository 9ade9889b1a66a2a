#!/usr/bin/env bash
# The CI smoke campaign: every fuzz target for a few seconds (default 15,
# at most 30) from the checked-in seeds, so that a target that no longer
# builds, or a crash any quick mutation finds, fails CI.
#
#   fuzz/smoke.sh [SECONDS]
#
# Needs cargo-fuzz; installs it (`cargo install cargo-fuzz --locked`) when
# it is missing and crates.io answers; otherwise it says plainly that it
# skips and exits 0, or, under CI=true, fails. Runs on stable with RUSTC_BOOTSTRAP=1 (or on nightly
# with FUZZ_TOOLCHAIN=nightly). Exits 1 on a crash, after printing the
# input as a reproducer. It also runs fuzz/test-build-sh.sh (the
# ClusterFuzzLite build.sh, without Docker). The regression inputs are not
# replayed here: `cargo test` does that (fuzzing/tests/fuzz_regressions.rs).
set -euo pipefail
cd "$(dirname "$0")"

# shellcheck source=fuzz/targets.sh
source ./targets.sh
seconds=${1:-15}
if [ "$seconds" -gt 30 ]; then seconds=30; fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== fuzz smoke: cargo-fuzz is missing; installing it from crates.io"
    if ! cargo install cargo-fuzz --locked >/tmp/rootguard-cargo-fuzz-install.log 2>&1; then
        case "${CI:-}" in
        true | 1)
            echo "== fuzz smoke: FAILED: cargo-fuzz is not installed and could not be installed (see /tmp/rootguard-cargo-fuzz-install.log); under CI nothing skips"
            exit 1
            ;;
        esac
        echo "== fuzz smoke: SKIPPED: cargo-fuzz is not installed and could not be installed (see /tmp/rootguard-cargo-fuzz-install.log); CI=true makes this a failure"
        exit 0
    fi
fi
fuzz_command

echo "== fuzz smoke: building ${#TARGETS[@]} targets ($(cargo fuzz --version))"
"${fuzz[@]}" build -s none

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
for t in "${TARGETS[@]}"; do
    mkdir -p "$scratch/$t/corpus" "$scratch/$t/artifacts"
    # New inputs go to the scratch corpus; the seeds are only read.
    mapfile -t options < <(target_options "$t")
    mapfile -t build < <(build_flags "$t")
    if "${fuzz[@]}" run -s none "${build[@]}" "$t" "$scratch/$t/corpus" "corpus/$t" -- \
        "${options[@]}" -max_total_time="$seconds" -dict="dicts/$t.dict" \
        -artifact_prefix="$scratch/$t/artifacts/" >"$scratch/$t/log" 2>&1; then
        echo "== fuzz smoke: $t ok ($(grep -Eo 'exec/s: [0-9]+' "$scratch/$t/log" | tail -1))"
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "== fuzz smoke: $t CRASHED"
        grep -E -A20 'panicked|ERROR: libFuzzer' "$scratch/$t/log" | head -60 || tail -40 "$scratch/$t/log"
        for input in "$scratch/$t/artifacts"/*; do
            [ -f "$input" ] || continue
            mkdir -p "artifacts/$t"
            cp "$input" "artifacts/$t/"
            echo "-- input kept as fuzz/artifacts/$t/$(basename "$input"); as a reproducer:"
            "${fuzz[@]}" fmt -s none "${build[@]}" "$t" "$input" 2>&1 | sed -n "/Output of/,\$p" | head -80 || true
            echo "-- minimize it and keep it as a regression: fuzz/campaign.sh runs tmin, or"
            echo "   cargo fuzz tmin -s none $t fuzz/artifacts/$t/$(basename "$input") and copy the result to fuzz/regressions/$t/"
        done
    fi
done
# The ClusterFuzzLite build, checked without Docker on the same build.
if bash ./test-build-sh.sh >"$scratch/build-sh.log" 2>&1; then
    echo "== fuzz smoke: .clusterfuzzlite/build.sh ok"
    passed=$((passed + 1))
else
    echo "== fuzz smoke: .clusterfuzzlite/build.sh FAILED"
    tail -30 "$scratch/build-sh.log"
    failed=$((failed + 1))
fi
echo "fuzz-smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
