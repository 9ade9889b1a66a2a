#!/usr/bin/env bash
# A fresh hostile tree for checking an MCP server by hand:
#
#   B=$(scripts/hostile-tree.sh DIR)    # DIR must not exist, or be empty
#
# The root to give the server is "$B/proj". Inside it: inside.txt
# (CANARY-inside), links link -> ../out/secret.txt, ldir -> ../out,
# dangle -> ../out/new.txt (dangling), l2 -> ../proj2/secret.txt. Beside
# it, each holding secret.txt with its own canary: proj2 (CANARY-proj2),
# "proj " (CANARY-space), 'proj"' (CANARY-quote), PROJ (CANARY-case) and
# out (CANARY-out). Any canary but CANARY-inside in an answer, or
# out/new.txt appearing, is an escape.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 DIR (a new or empty directory)" >&2
    exit 2
fi
mkdir -p "$1"
if [ -n "$(ls -A "$1")" ]; then
    echo "$0: $1 is not empty; give a new directory" >&2
    exit 2
fi
B=$(cd "$1" && pwd -P)
mkdir -p "$B/proj/sub" "$B/proj2" "$B/out/sub" "$B/proj " "$B/proj\"" "$B/PROJ"
echo CANARY-inside >"$B/proj/inside.txt"
echo CANARY-proj2 >"$B/proj2/secret.txt"
echo CANARY-space >"$B/proj /secret.txt"
echo CANARY-quote >"$B/proj\"/secret.txt"
echo CANARY-case >"$B/PROJ/secret.txt"
echo CANARY-out >"$B/out/secret.txt"
ln -s ../out/secret.txt "$B/proj/link"
ln -s ../out "$B/proj/ldir"
ln -s ../out/new.txt "$B/proj/dangle"
ln -s ../proj2/secret.txt "$B/proj/l2"
echo "$B"
