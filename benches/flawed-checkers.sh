# Sourced by first-escape.sh and seed-stability.sh: builds what is needed
# and sets `rootguard` (the binary to run: $ROOTGUARD, else a release
# build), `checkers` (every flawed example checker of examples/checkers/,
# as "name|flavour|command": the Windows and macOS ones are vetted with
# --flavor) and `tmp` (a scratch directory removed on exit).
# Expects `here`, the repository's root.
if [ -z "${ROOTGUARD:-}" ]; then
  cargo build --quiet --release -p rootguard-cli --manifest-path "$here/Cargo.toml" || exit 2
fi
cargo build --quiet --release --manifest-path "$here/examples/checkers/rust/Cargo.toml" || exit 2
rootguard=${ROOTGUARD:-${CARGO_TARGET_DIR:-$here/target}/release/rootguard}
rustbin=$here/examples/checkers/rust/target/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The flavour an example checker is written for, by its file name.
flavour_of() {
  case "$1" in
    windows_* | win32_*) echo windows ;;
    macos_*) echo macos ;;
    *) echo linux ;;
  esac
}

checkers=()
for f in "$here"/examples/checkers/python/*.py; do
  b=$(basename "$f")
  case "$b" in sound.py | windows_sound.py | macos_sound.py) continue ;; esac
  checkers+=("python/$b|$(flavour_of "$b")|python3 $f")
done
for f in "$here"/examples/checkers/node/*.js; do
  b=$(basename "$f")
  case "$b" in sound.js | windows_sound.js | macos_sound.js) continue ;; esac
  checkers+=("node/$b|$(flavour_of "$b")|node $f")
done
for f in clean_before_resolve dangling_write uri_any_host; do
  checkers+=("rust/src/bin/$f.rs|linux|$rustbin/$f")
done
