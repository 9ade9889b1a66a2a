#!/usr/bin/env bash
# Mutation testing of core in two passes (docs/mutants.md says why):
#   pass 1: every mutant of core/ against the tests of rootguard,
#           rootguard-cli, rootguard-judge and rootguard-fuzzing (.cargo/mutants.toml);
#   pass 2: each mutant pass 1 missed, against the whole workspace
#           (--test-workspace=true).
# Usage: scripts/mutants-core.sh [OUT_DIR]   (default: mutants-core)
# Prints the combined score last. Needs cargo-mutants and python3.
# Both passes run under scripts/confined.sh: a mutant of core's open code
# may write outside its test's temp dir (one created /file), and every
# mount but the work tree, the temp dir and cargo's home is read-only there.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-mutants-core}
files=(-f 'core/src/*.rs' -f 'core/src/**/*.rs')
test_args=(--cargo-test-arg=--lib --cargo-test-arg=--tests)

# cargo-mutants exits 2 when mutants are missed and 3 on timeouts: both are
# results here, not failures of the script. Any other non-zero exit (1: bad
# usage, 4: the unmutated tree fails its tests) stops the script.
result_ok() { [ "$1" -eq 0 ] || [ "$1" -eq 2 ] || [ "$1" -eq 3 ]; }
mkdir -p "$out"
scripts/confined.sh cargo mutants "${files[@]}" "${test_args[@]}" -o "$out/pass1"
rc=$?
result_ok "$rc" || { echo "mutants-core: pass 1 failed (exit $rc)" >&2; exit "$rc"; }
p1="$out/pass1/mutants.out"

if [ -s "$p1/missed.txt" ]; then
    # One anchored regex of the missed mutants' names, exactly as listed.
    re=$(python3 -c 'import re, sys; names = [l.strip() for l in open(sys.argv[1]) if l.strip()]; print("^(" + "|".join(re.escape(n) for n in names) + ")$")' "$p1/missed.txt")
    # The baseline of a --test-workspace run still tests only core, so the
    # automatic timeout (60 s) would cut the workspace's tests short.
    scripts/confined.sh cargo mutants "${files[@]}" "${test_args[@]}" --test-workspace=true \
        --timeout 600 --re "$re" -o "$out/pass2"
    rc=$?
    result_ok "$rc" || { echo "mutants-core: pass 2 failed (exit $rc)" >&2; exit "$rc"; }
fi
p2="$out/pass2/mutants.out"

# grep -c prints 0 and fails when nothing matches.
count() { if [ -f "$1" ]; then grep -c . "$1" || true; else echo 0; fi; }
caught1=$(count "$p1/caught.txt"); timeout1=$(count "$p1/timeout.txt")
unviable=$(count "$p1/unviable.txt"); missed1=$(count "$p1/missed.txt")
caught2=$(count "$p2/caught.txt"); timeout2=$(count "$p2/timeout.txt")
missed=$((missed1 - caught2 - timeout2))
viable=$((caught1 + timeout1 + missed1))
detected=$((caught1 + timeout1 + caught2 + timeout2))
echo "pass 1: $caught1 caught, $timeout1 timeouts (hangs), $missed1 missed, $unviable unviable"
echo "pass 2 (--test-workspace=true): $caught2 of $missed1 caught, $timeout2 timeouts"
awk -v d="$detected" -v v="$viable" -v m="$missed" \
    'BEGIN { printf "score: %d of %d viable mutants detected (%.1f%%), %d missed\n", d, v, v ? 100 * d / v : 0, m }'
