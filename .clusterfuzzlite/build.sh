#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every target of fuzz/targets built with
# cargo-fuzz and copied to $OUT with its seed corpus
# (<target>_seed_corpus.zip), dictionary (<target>.dict) and, where
# fuzz/options/ has one, libFuzzer options (<target>.options), which the
# runner picks up by name. Tested without Docker by fuzz/test-build-sh.sh.
cd "$SRC/rootguard"

# The base image runs nightly; elsewhere stable needs RUSTC_BOOTSTRAP for
# the -Z flags cargo-fuzz passes.
if ! rustc --version | grep -q nightly; then
    export RUSTC_BOOTSTRAP=1
fi
# cargo-fuzz's own sanitizer flag follows the build's; coverage and
# undefined builds get their instrumentation from RUSTFLAGS alone.
case "${SANITIZER:-address}" in
    address | memory | thread) sanitizer=$SANITIZER ;;
    *) sanitizer=none ;;
esac

cargo fuzz build -O --debug-assertions -s "$sanitizer"

target_dir=${CARGO_TARGET_DIR:-fuzz/target}
release=$target_dir/x86_64-unknown-linux-gnu/release
# fuzz/targets is the one list of targets, one name a line.
while read -r target; do
    cp "$release/$target" "$OUT/"
    rm -f "$OUT/${target}_seed_corpus.zip"
    zip -jq "$OUT/${target}_seed_corpus.zip" "fuzz/corpus/$target"/*
    cp "fuzz/dicts/$target.dict" "$OUT/$target.dict"
    # Input size limits (max_len), read by the runner as libFuzzer flags.
    if [ -f "fuzz/options/$target.options" ]; then
        cp "fuzz/options/$target.options" "$OUT/$target.options"
    fi
done <fuzz/targets
