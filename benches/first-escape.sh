#!/usr/bin/env bash
# Time to first escape: vets every flawed example checker (examples/checkers/)
# at seeds 1..5 with --fail-fast, --strict and --jobs 1, and prints a Markdown
# table of the median and worst seconds from the start to the first escape the
# search saw (the report's first_escape_seconds; triage excluded), the worst
# query it was seen at (first_escape_query: the same on any machine, where
# seconds depend on the load), and the median of the first finding that fails
# the --strict run (first_failure_seconds: an overblock counts), the bar of a
# checker whose only flaw is an overblock. A seed that sees no escape within
# the budget counts as the budget and is marked.
#
#   bash benches/first-escape.sh            # budget 30 s a run
#   BUDGET=10 SEEDS="1 2 3" bash benches/first-escape.sh
#   ROOTGUARD=target/debug/rootguard bash benches/first-escape.sh   # a build you have
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
budget=${BUDGET:-30}
seeds=${SEEDS:-1 2 3 4 5}
# shellcheck source=benches/flawed-checkers.sh
source "$here/benches/flawed-checkers.sh"

echo "| checker | median (s) | worst (s) | worst query | seeds that saw an escape | first failure under --strict, median (s) |"
echo "|---|---|---|---|---|---|"
for entry in "${checkers[@]}"; do
  name=${entry%%|*}
  rest=${entry#*|}
  flavour=${rest%%|*}
  read -r -a cmd <<<"${rest#*|}"
  [ "$flavour" = linux ] || name="$name --flavor $flavour"
  times=()
  failures=()
  queries=()
  caught=0
  for seed in $seeds; do
    "$rootguard" vet --flavor "$flavour" --fail-fast --strict --jobs 1 --seed "$seed" --budget "$budget" \
      --json "$tmp/report.json" -- "${cmd[@]}" >/dev/null 2>&1
    read -r t q < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); t, q = r.get("first_escape_seconds"), r.get("first_escape_query"); print("-" if t is None else t, "-" if q is None else q)' "$tmp/report.json" 2>/dev/null || echo "- -")
    f=$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get("first_failure_seconds"); print("none" if v is None else v)' "$tmp/report.json" 2>/dev/null)
    failures+=("${f:-none}")
    if [ "$t" != "-" ]; then
      caught=$((caught + 1))
      times+=("$t")
      queries+=("$q")
    else
      times+=("$budget")
    fi
  done
  python3 - "$name" "$caught" "${failures[*]}" "${queries[*]:-}" "${times[@]}" <<'PY'
import statistics, sys
name, caught, failures = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
queries = [int(q) for q in sys.argv[4].split()]
times = [float(t) for t in sys.argv[5:]]
worst = max(queries) if queries else "none"
seen = [float(f) for f in failures if f != "none"]
failure = f"{statistics.median(seen):.2f}" if len(seen) == len(failures) else f"none at {len(failures) - len(seen)} seeds"
print(f"| `{name}` | {statistics.median(times):.2f} | {max(times):.2f} | {worst} | {caught} of {len(times)} | {failure} |")
PY
done
