# Sourced by first-escape.sh and seed-stability.sh: builds what is needed
# and sets `rootguard` (the binary to run: $ROOTGUARD, else a release
# build), `checkers` (every flawed example checker of examples/checkers/,
# as "name|command") and `tmp` (a scratch directory removed on exit).
# Expects `here`, the repository's root.
if [ -z "${ROOTGUARD:-}" ]; then
  cargo build --quiet --release -p rootguard-cli --manifest-path "$here/Cargo.toml" || exit 2
fi
cargo build --quiet --release --manifest-path "$here/examples/checkers/rust/Cargo.toml" || exit 2
rootguard=${ROOTGUARD:-${CARGO_TARGET_DIR:-$here/target}/release/rootguard}
rustbin=$here/examples/checkers/rust/target/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

checkers=()
for f in "$here"/examples/checkers/python/*.py; do
  [ "$(basename "$f")" = sound.py ] || checkers+=("python/$(basename "$f")|python3 $f")
done
for f in "$here"/examples/checkers/node/*.js; do
  [ "$(basename "$f")" = sound.js ] || checkers+=("node/$(basename "$f")|node $f")
done
for f in clean_before_resolve dangling_write uri_any_host; do
  checkers+=("rust/src/bin/$f.rs|$rustbin/$f")
done
