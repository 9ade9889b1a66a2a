#!/usr/bin/env bash
# Tests the GitHub Action (action.yml) as far as it can be without GitHub:
# with $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, $GITHUB_PATH, $RUNNER_TEMP and
# $GITHUB_ACTION_PATH as a runner sets them (temp files here, the checkout
# as the action's path), it runs the action's own steps, as action.yml
# calls them, and checks their outputs, the SARIF and the step summary:
#
#   - action.yml calls only these steps, and maps every input it declares;
#   - install builds rootguard with `cargo install --locked` (reusing
#     target/release) and finds it again the second time, as after a cache hit;
#   - the Python and Node adapters install from the action's own copy;
#   - vet on a flawed checker: exit 1 kept for the verdict step, a SARIF file
#     of its defects, a summary naming them and the seed; on a checker built
#     on the adapter with a sound check: exit 0, no defects;
#   - mcp on a server that keeps stale roots, and on one that does not;
#   - a baseline: no new defects pass, a new one fails (once `rootguard vet`
#     has --baseline, which comes with defect IDs, issue #19; until then the
#     step is skipped and the input must be refused with a clear error);
#   - bad inputs stop the run with an error that says what to give.
# Once the report crate is there (#19), the SARIF is also validated against
# the official SARIF 2.1.0 schema it vendors (report/tests/data/), with
# Python's jsonschema installed into target/pypi-cache; under CI=true a
# failing install fails the test, elsewhere it is skipped, and said so.
#
#   bash action/test-action.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
step_script=$repo/action/rootguard_action.py

export GITHUB_ACTION_PATH=$repo RUNNER_TEMP=$scratch/runner-temp GITHUB_WORKSPACE=$scratch/workspace
export GITHUB_STEP_SUMMARY=$scratch/summary.md GITHUB_PATH=$scratch/path
export PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1 npm_config_offline=true npm_config_cache=$scratch/npm-cache
mkdir -p "$RUNNER_TEMP" "$GITHUB_WORKSPACE"
cd "$GITHUB_WORKSPACE"

failed=0
checks=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}
check() { # check WHAT COMMAND...: counts a check, fails it (with the last step's log) when COMMAND does
    local what=$1
    shift
    checks=$((checks + 1))
    if "$@"; then echo "ok    $what"; else fail "$what" && show_log; fi
}
under_ci() { [[ ${CI:-} =~ ^([Tt][Rr][Uu][Ee]|1)$ ]]; }

# step NAME VAR=VALUE...: runs one step of the action with those inputs and a
# fresh $GITHUB_OUTPUT; its status in $status, its output in $scratch/step.log.
step() {
    local name=$1
    shift
    export GITHUB_OUTPUT=$scratch/output-$name
    : >"$GITHUB_OUTPUT"
    status=0
    env "$@" python3 "$step_script" "$name" >"$scratch/step.log" 2>&1 || status=$?
}
# output NAME: the value the last step wrote for NAME.
output() { sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -n 1; }
said() { grep -qF -- "$1" "$scratch/step.log"; }
refused() { [[ $status == 2 ]] && said "$1"; } # refused MESSAGE: the last step stopped with it
show_log() { [ ! -f "$scratch/step.log" ] || sed 's/^/      | /' "$scratch/step.log" | tail -n 30; }

echo "== action.yml calls these steps and maps every input"
check "action.yml: steps, env and uses are what the steps expect" python3 - "$repo/action.yml" "$step_script" <<'EOF'
import re, sys
yml, script = open(sys.argv[1]).read(), open(sys.argv[2]).read()
steps = set(re.findall(r'^STEPS = \{(.*)\}$', script, re.M)[0].replace('"', "").replace(" ", "").split(",")) 
steps = {s.split(":")[0] for s in steps}
bad = []
runs = re.findall(r"^\s+run: (.*)$", yml, re.M)
called = []
for run in runs:
    m = re.fullmatch(r'python3 "\$GITHUB_ACTION_PATH/action/rootguard_action\.py" (\w+)', run)
    if not m or m.group(1) not in steps:
        bad.append(f"a run line that is not one of the steps: {run}")
    else:
        called.append(m.group(1))
if called != ["key", "install", "adapter", "run", "verdict"]:
    bad.append(f"steps called in the order {called}")
inputs = re.findall(r"^  ([a-z-]+):\n    description:", yml.split("\noutputs:")[0], re.M)
for name in inputs:
    if f"inputs.{name}" not in yml:
        bad.append(f"input {name} is declared and never used")
for env, expr in re.findall(r"^\s+(INPUT_[A-Z_]+): \$\{\{ (.*) \}\}$", yml, re.M):
    if expr.startswith("inputs."):
        if env != "INPUT_" + expr[len("inputs."):].upper().replace("-", "_"):
            bad.append(f"{env} carries {expr}")
        if expr[len("inputs."):] not in inputs:
            bad.append(f"{expr} is not a declared input")
    if f'"{env[6:].lower().replace("_", "-")}"' not in script:
        bad.append(f"{env} is read by no step")
if "${{" in "".join(runs):
    bad.append("an expression pasted into a run line")
for uses in ["actions/cache@v5", "github/codeql-action/upload-sarif@v4"]:
    if f"uses: {uses}" not in yml:
        bad.append(f"no step uses {uses}")
if "sarif_file: ${{ steps.run.outputs.sarif }}" not in yml:
    bad.append("the upload does not take the run step's SARIF")
for b in bad:
    print("      " + b)
sys.exit(bool(bad))
EOF

echo "== key"
step key
check "key: a key from the sources, and the install root" \
    bash -c '[[ $0 =~ ^rootguard-[0-9a-f]{24}$ && $1 == "$RUNNER_TEMP/rootguard-install" ]]' "$(output key)" "$(output root)"
root=$(output root)

echo "== install (cargo install --locked --path cli; a few minutes the first time)"
step install INPUT_ROOT="$root"
bin=$(output bin)
check "install: rootguard built and on GITHUB_PATH" \
    bash -c '[[ $0 == "$1/bin/rootguard" && -x $0 ]] && "$0" --version >/dev/null && grep -qxF "$1/bin" "$GITHUB_PATH"' "$bin" "$root" \
   
step install INPUT_ROOT="$root"
check "install: found again, as after a cache hit" said "is there already (from the cache)"

echo "== adapters from the action's own copy"
python3 -m venv "$scratch/venv"
step adapter INPUT_ADAPTER=python PATH="$scratch/venv/bin:$PATH"
check "adapter python: pip-installed into the python3 on PATH" \
    bash -c '[[ $0 == 0 ]] && "$1/venv/bin/python" -c "import rootguard_protocol"' "$status" "$scratch"
step adapter INPUT_ADAPTER=node INPUT_WORKING_DIRECTORY="$GITHUB_WORKSPACE"
check "adapter node: npm-installed into the working directory" \
    test "$status" = 0 -a -f "$GITHUB_WORKSPACE/node_modules/rootguard-protocol/index.cjs"
step adapter INPUT_ADAPTER=ruby
check "adapter ruby: refused, saying what to give" refused "give python, node, or nothing"

# The checker a user writes with the adapter (README, "Vet your checker"),
# its check the sound example's.
mkdir -p my_server
printf 'import sys\nsys.path.insert(0, "%s")\nfrom sound import check as is_allowed\n' \
    "$repo/examples/checkers/python" >my_server/paths.py
cat >rootguard_checker.py <<'EOF'
from rootguard_protocol import serve
from my_server.paths import is_allowed
serve(is_allowed)
EOF
flawed="python3 $repo/examples/checkers/python/sibling_prefix.py"
sound="$scratch/venv/bin/python ./rootguard_checker.py"

# reports COMMAND: 1 when `rootguard COMMAND` writes the report crate's
# reports, which come with --baseline (#19), else nothing.
reports() {
    local help
    help=$("$bin" "$1" --help)
    grep -qE '^\s*(-\w, )?--baseline\b' <<<"$help" && echo 1 || true
}
has_baseline=$(reports vet)

# sarif_ok FILE MIN [COMMAND]: the SARIF has the shape code scanning reads,
# and at least MIN results.
sarif_ok() {
    python3 - "$1" "$2" "$(reports "${3:-vet}")" <<'EOF'
import json, sys
path, least, report_crate = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
sarif = json.load(open(path))
bad = []
if sarif.get("version") != "2.1.0":
    bad.append("version is not 2.1.0")
run = sarif["runs"][0]
driver = run["tool"]["driver"]
if not driver.get("name", "").startswith("rootguard"):
    bad.append(f"driver name {driver.get('name')!r}")
rules = {r["id"] for r in driver.get("rules", [])}
results = run["results"]
if len(results) < least:
    bad.append(f"{len(results)} results, expected at least {least}")
for r in results:
    if r.get("ruleId") not in rules:
        bad.append(f"result of an unknown rule {r.get('ruleId')!r}")
    if r.get("level") not in ("error", "warning", "note"):
        bad.append(f"level {r.get('level')!r}")
    if not r.get("message", {}).get("text"):
        bad.append("a result without a message")
    if report_crate:  # what code scanning needs beyond the schema, written by the report crate (#19)
        loc = (r.get("locations") or [{}])[0].get("physicalLocation", {})
        uri = loc.get("artifactLocation", {}).get("uri", "")
        if not uri or " " in uri or loc.get("region", {}).get("startLine") != 1:
            bad.append(f"a result without a usable location: {loc}")
        if not r.get("partialFingerprints"):
            bad.append("a result without a fingerprint")
for b in bad[:10]:
    print("      " + b)
sys.exit(bool(bad))
EOF
}
sarifs=()

echo "== vet"
step run INPUT_BIN="$bin" INPUT_CHECKER="$flawed" INPUT_BUDGET=2 INPUT_SEED=1
sarif=$(output sarif)
check "vet, flawed checker: the step passes, exit 1 kept for the verdict" \
    bash -c '[[ $0 == 0 && $1 == 1 && $2 -gt 0 && $3 == "$RUNNER_TEMP/rootguard-vet.sarif" ]]' \
    "$status" "$(output exit-code)" "$(output defects)" "$sarif"
check "vet, flawed checker: SARIF with its defects" sarif_ok "$sarif" 1
sarifs+=("$sarif")
cp "$sarif" "$scratch/flawed.sarif"
check "vet, flawed checker: summary with the verdict, the defects, the seed and the report" \
    grep -qF -e "## rootguard vet: failed" "$GITHUB_STEP_SUMMARY"
rule=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["results"][0]["ruleId"])' "$sarif")
check "vet, flawed checker: the summary names $rule and seed 1" \
    bash -c 'grep -qF "| \`$0\` | error |" "$GITHUB_STEP_SUMMARY" && grep -qF -- "- seed: 1 (" "$GITHUB_STEP_SUMMARY" && grep -qF "<details><summary>rootguard" "$GITHUB_STEP_SUMMARY"' "$rule"
step verdict INPUT_EXIT_CODE=1 INPUT_DEFECTS=3
check "verdict: defects fail the job with an error annotation" \
    bash -c '[[ $0 == 1 ]] && grep -qF "::error title=rootguard::3 defects" "$1"' "$status" "$scratch/step.log"
step verdict INPUT_EXIT_CODE=1 INPUT_FAIL_ON_DEFECTS=false
check "verdict: fail-on-defects false lets it pass" test "$status" = 0

: >"$GITHUB_STEP_SUMMARY"
step run INPUT_BIN="$bin" INPUT_CHECKER="$sound" INPUT_BUDGET=2 INPUT_SEED=1 INPUT_SARIF=sound.sarif
check "vet, the adapter's checker with a sound check: exit 0, no defects" \
    bash -c '[[ $0 == 0 && $1 == 0 && $2 == 0 && $3 == "$GITHUB_WORKSPACE/sound.sarif" ]]' \
    "$status" "$(output exit-code)" "$(output defects)" "$(output sarif)"
check "vet, sound: SARIF without results" sarif_ok "$(output sarif)" 0
sarifs+=("$(output sarif)")
check "vet, sound: summary says passed" grep -qF -e "## rootguard vet: passed" -e "No defects." "$GITHUB_STEP_SUMMARY"
step verdict INPUT_EXIT_CODE=0
check "verdict: a clean run passes" test "$status" = 0

echo "== mcp"
server() { echo "python3 $repo/mcp/test-servers/$1 {roots}"; }
step run INPUT_BIN="$bin" INPUT_COMMAND=mcp INPUT_CHECKER="$(server caching_server.py)" INPUT_ARGS="--no-attacks --budget 0 --session roots"
check "mcp, a server that keeps stale roots: exit 1" bash -c '[[ $0 == 0 && $1 == 1 ]]' "$status" "$(output exit-code)"
check "mcp, a server that keeps stale roots: SARIF of it" sarif_ok "$(output sarif)" 1 mcp
sarifs+=("$(output sarif)")
step run INPUT_BIN="$bin" INPUT_COMMAND=mcp INPUT_CHECKER="$(server refreshing_server.py)" INPUT_ARGS="--only sibling-prefix-read --budget 0"
check "mcp, a sound server: exit 0" bash -c '[[ $0 == 0 && $1 == 0 ]]' "$status" "$(output exit-code)"

echo "== bad inputs"
step run INPUT_BIN="$bin" INPUT_COMMAND=scan INPUT_CHECKER="$flawed"
check "command scan: refused" refused "give vet (a checker) or mcp"
step run INPUT_BIN="$bin" INPUT_CHECKER="$flawed" INPUT_BUDGET=soon
check "budget soon: refused" refused "input budget is 'soon': give a whole number"
step run INPUT_BIN="$bin" INPUT_CHECKER=""
check "no checker: refused" refused "input checker is empty"
step run INPUT_BIN="$bin" INPUT_CHECKER="python3 'unclosed"
check "checker with an open quote: refused" refused "input checker is not a list of shell words"
# A rootguard older than an input: its `--help` does not list the flag.
printf '#!/bin/sh\necho "Usage: rootguard mcp [OPTIONS] -- <COMMAND>..."\necho "      --sarif <FILE>"\n' >"$scratch/old-rootguard"
chmod +x "$scratch/old-rootguard"
step run INPUT_BIN="$scratch/old-rootguard" INPUT_COMMAND=mcp INPUT_SEED=3 INPUT_CHECKER="$(server refreshing_server.py)"
check "a seed for a rootguard mcp without --seed: refused" refused "has no --seed: leave that input empty"
step run INPUT_BIN="$bin" INPUT_COMMAND=mcp INPUT_SEED=3 INPUT_BUDGET=2 INPUT_CHECKER="$(server refreshing_server.py)" \
    INPUT_ARGS="--no-table --no-roots-change --session roots"
check "mcp with a seed and a budget: the generative phase runs, a sound server passes" \
    bash -c '[[ $0 == 0 && $1 == 0 ]]' "$status" "$(output exit-code)"

echo "== baseline"
if [ -n "$has_baseline" ]; then
    # A query count, not seconds: the same seed then finds the same defects, however loaded the machine.
    same_run=(INPUT_BIN="$bin" INPUT_CHECKER="$flawed" INPUT_BUDGET=600 INPUT_SEED=1)
    step run "${same_run[@]}" INPUT_ARGS="--cases 3000 --write-baseline $scratch/baseline.json"
    check "baseline written by a run of the flawed checker" test -s "$scratch/baseline.json"
    : >"$GITHUB_STEP_SUMMARY"
    step run "${same_run[@]}" INPUT_ARGS="--cases 3000" INPUT_BASELINE="$scratch/baseline.json"
    check "the same defects against the baseline: exit 0" \
        bash -c '[[ $0 == 0 && $1 == 0 ]] && grep -qF "none new since the baseline" "$GITHUB_STEP_SUMMARY"' "$status" "$(output exit-code)"
    step run INPUT_BIN="$bin" INPUT_CHECKER="python3 $repo/examples/checkers/python/empty_roots.py" \
        INPUT_BUDGET=2 INPUT_SEED=1 INPUT_BASELINE="$scratch/baseline.json"
    check "another checker's defects against it: exit 1" bash -c '[[ $0 == 0 && $1 == 1 ]]' "$status" "$(output exit-code)"
else
    echo "skip  the baseline runs: this rootguard vet has no --baseline yet (it comes with defect IDs, issue #19)"
    step run INPUT_BIN="$bin" INPUT_CHECKER="$flawed" INPUT_BASELINE="$scratch/baseline.json"
    check "until then, a baseline input is refused, saying why" \
        refused "has no --baseline: leave that input empty (baselines come with defect IDs"
fi

echo "== the official SARIF 2.1.0 schema"
schema=$repo/report/tests/data/sarif-schema-2.1.0.json
if [ -z "$has_baseline" ]; then
    echo "skip  schema validation: the report crate and its vendored schema come with issue #19"
elif [ ! -f "$schema" ]; then
    fail "rootguard has --baseline but $schema is missing"
else
    # The venv testsupport would make: its requirements pinned in
    # testsupport/packages.toml, written into the venv last as the marker.
    pypi_cache=${ROOTGUARD_PYPI_CACHE:-$repo/target/pypi-cache}
    venv=$pypi_cache/action-sarif-schema
    wanted=$(python3 -c 'import sys, tomllib
pins = tomllib.load(open(sys.argv[1], "rb"))
print("\n".join(next(v["requirements"] for v in pins["pypi"] if v["venv"] == "action-sarif-schema")), end="")' \
        "$repo/testsupport/packages.toml")
    if [ "$(cat "$venv/.rootguard-requirements" 2>/dev/null)" != "$wanted" ]; then
        rm -rf "$venv"
        # shellcheck disable=SC2086 # one requirement a word
        if python3 -m venv "$venv" && env -u PIP_NO_INDEX -u PIP_NO_CACHE_DIR "$venv/bin/pip" install --quiet \
            --disable-pip-version-check --timeout=30 --retries=1 --cache-dir "$pypi_cache/_pip" $wanted; then
            printf '%s' "$wanted" >"$venv/.rootguard-requirements"
        else
            rm -rf "$venv"
        fi
    fi
    if [ -x "$venv/bin/python" ]; then
        check "every SARIF file the action wrote is valid by the official schema" "$venv/bin/python" - "$schema" "${sarifs[@]}" <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
bad = 0
for path in sys.argv[2:]:
    for e in validator.iter_errors(json.load(open(path))):
        bad += 1
        print(f"      {path}: {e.message} at {list(e.absolute_path)}")
# The check would prove nothing if the schema took anything.
broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": [{"message": {}}]}]}
if validator.is_valid(broken):
    bad += 1
    print("      the schema takes a SARIF file without a driver name or message text")
sys.exit(bool(bad))
EOF
    elif under_ci; then
        fail "pip could not install jsonschema into $venv (under CI=true nothing may skip: let pip reach PyPI)"
    else
        echo "skip  schema validation: pip could not install jsonschema (under CI=true this fails: let pip reach PyPI)"
    fi
fi

echo "action: $checks checks, $failed failed"
[ "$failed" -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
