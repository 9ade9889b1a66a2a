#!/usr/bin/env bash
# Tests .clusterfuzzlite/build.sh as far as it can be without Docker: with
# $SRC, $OUT and $WORK as OSS-Fuzz sets them (temp dirs here, the checkout
# linked in as $SRC/rootguard), it must build every target of fuzz/targets and put
# the binary, <target>_seed_corpus.zip and <target>.dict in $OUT, and each
# binary must run its seeds.
#
#   fuzz/test-build-sh.sh        (SANITIZER=none by default, reusing the
#                                 build that fuzz/smoke.sh leaves behind)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export SRC=$scratch/src OUT=$scratch/out WORK=$scratch/work
export SANITIZER=${SANITIZER:-none} FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
mkdir -p "$SRC" "$OUT" "$WORK"
ln -s "$repo" "$SRC/rootguard"
cp "$repo/.clusterfuzzlite/build.sh" "$SRC/build.sh"

echo "== running build.sh (SANITIZER=$SANITIZER)"
(cd "$SRC" && bash -eu ./build.sh)

failed=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}
targets=0
# fd 3, so that nothing in the loop reads the list as its stdin.
while read -r t <&3; do
    targets=$((targets + 1))
    [ -x "$OUT/$t" ] || fail "$OUT/$t is not an executable"
    [ -f "$OUT/$t.dict" ] && cmp -s "$OUT/$t.dict" "$repo/fuzz/dicts/$t.dict" \
        || fail "$OUT/$t.dict is not fuzz/dicts/$t.dict"
    if [ -f "$repo/fuzz/options/$t.options" ]; then
        cmp -s "$OUT/$t.options" "$repo/fuzz/options/$t.options" \
            || fail "$OUT/$t.options is not fuzz/options/$t.options"
    fi
    zip=$OUT/${t}_seed_corpus.zip
    if [ -f "$zip" ]; then
        in_zip=$(unzip -Z1 "$zip" | sort)
        seeds=$(ls "$repo/fuzz/corpus/$t" | sort)
        [ "$in_zip" = "$seeds" ] || fail "$zip does not hold exactly fuzz/corpus/$t/"
        # The runner unpacks the zip and runs the binary on it.
        mkdir -p "$WORK/$t"
        unzip -q "$zip" -d "$WORK/$t"
        if [ -x "$OUT/$t" ]; then
            "$OUT/$t" -runs=0 "$WORK/$t" >"$WORK/$t.log" 2>&1 \
                || fail "$t fails on its own seeds (see below)" && true
            grep -q "INFO: seed corpus\|Done 0 runs\|INITED" "$WORK/$t.log" \
                || { fail "$t did not run its seeds"; tail -20 "$WORK/$t.log"; }
        fi
    else
        fail "$zip is missing"
    fi
done 3<"$repo/fuzz/targets"
extra=$(ls "$OUT" | grep -Ev '_seed_corpus\.zip$|\.dict$|\.options$' | sort)
expected=$(sort "$repo/fuzz/targets")
[ "$extra" = "$expected" ] || fail "\$OUT holds other binaries: $(echo $extra)"

echo "build.sh: $targets targets checked, $failed problems"
[ "$failed" -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
