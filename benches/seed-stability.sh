#!/usr/bin/env bash
# Defects at every seed: vets every flawed example checker (examples/checkers/)
# at seeds 1..5 with the same budget, and prints a Markdown table of the
# failing defect IDs each seed named, and whether every seed named the same.
# A baseline taken at one seed holds at another only when they agree.
#
#   bash benches/seed-stability.sh                 # --budget 10, seeds 1..5
#   BUDGET=5 SEEDS="1 2 3" bash benches/seed-stability.sh
#   ROOTGUARD=target/debug/rootguard bash benches/seed-stability.sh   # a build you have
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
budget=${BUDGET:-10}
seeds=${SEEDS:-1 2 3 4 5}
# shellcheck source=benches/flawed-checkers.sh
source "$here/benches/flawed-checkers.sh"

echo "| checker | failing defect IDs (seed ${seeds%% *}) | seeds that named the same |"
echo "|---|---|---|"
for entry in "${checkers[@]}"; do
  name=${entry%%|*}
  rest=${entry#*|}
  flavour=${rest%%|*}
  read -r -a cmd <<<"${rest#*|}"
  [ "$flavour" = linux ] || name="$name --flavor $flavour"
  : >"$tmp/ids"
  for seed in $seeds; do
    "$rootguard" vet --flavor "$flavour" --jobs 1 --seed "$seed" --budget "$budget" \
      --json "$tmp/report.json" -- "${cmd[@]}" >/dev/null 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join(sorted(d["id"] for d in r["defects"] if d["fails"])) or "none")' \
      "$tmp/report.json" >>"$tmp/ids" 2>/dev/null || echo "no report" >>"$tmp/ids"
  done
  python3 - "$name" "$tmp/ids" <<'PY'
import sys
name, lines = sys.argv[1], open(sys.argv[2]).read().splitlines()
first = lines[0]
same = sum(1 for l in lines if l == first)
ids = ", ".join(f"`{i}`" for i in first.split()) if first not in ("none", "no report") else first
others = sorted(set(l for l in lines if l != first))
note = "" if not others else " (others: " + "; ".join(others) + ")"
print(f"| `{name}` | {ids} | {same} of {len(lines)}{note} |")
PY
done
