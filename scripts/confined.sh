#!/usr/bin/env bash
# confined.sh CMD ARGS...: runs CMD in a private mount namespace where every
# mount is read-only but the current directory, the temp dir ($TMPDIR or
# /tmp), /dev/shm and cargo's home. For runs that may write where they must
# not: mutation testing mutates core's open-for-write code, and a mutant
# that loses its root descriptor creates files in / (seen: /file).
# Needs root (the CI machine and this one run as root).
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: scripts/confined.sh CMD ARGS..." >&2; exit 2; }
RG_KEEP=$(printf '%s\n' "$PWD" "${TMPDIR:-/tmp}" /dev/shm "${CARGO_HOME:-$HOME/.cargo}")
export RG_KEEP
# Seen by the cargo-mutants shim some machines use, so it does not nest.
export RG_CONFINED=1
exec unshare --mount --propagation private -- sh -c '
set -e
echo "$RG_KEEP" | while read -r d; do [ -d "$d" ] && mount --bind "$d" "$d"; done
cut -d" " -f5 /proc/self/mountinfo | while read -r mp; do
  if echo "$RG_KEEP" | grep -qxF "$mp"; then continue; fi
  if [ "$mp" = / ]; then mount -o remount,bind,ro /; else mount -o remount,bind,ro "$mp" 2>/dev/null || true; fi
done
exec "$@"
' sh "$@"
