#!/usr/bin/env bash
# Smoke test for the example checkers (checker protocol v1), without rootguard.
#
#   bash examples/checkers/smoke.sh
#
# In a fresh temp dir it builds a small hostile tree, then pipes hand-written
# requests through every checker and asserts that
#   (a) the sound checkers answer every hostile request right,
#   (b) each flawed checker escapes (allowed:true where the truth is outside)
#       on the requests of its own class,
#   (c) every checker answers malformed requests with allowed:false, answers
#       each line as it comes (flushes), and exits 0 when stdin closes;
#   (d) the strict root-URI parsers agree with corpus/root-uris.json;
#   (e) the Windows and macOS checkers, asked requests spelled in their
#       flavour ("flavor"), answer as docs/semantics.md section 5 says when
#       sound, and each flawed one shows its flaw on its own class: an
#       escape, or for the two whose only flaw is to refuse, a refusal of
#       a path that is inside.
# A checker whose language is missing here (python3, node, cargo) is skipped,
# and said so; under CI=true (or CI=1) that is a failure instead, since CI
# must run them all (.ci/run installs them). The Rust checkers are built
# first with cargo.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); printf 'ok    %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$*"; }
skip() {
  case ${CI:-} in
    [Tt][Rr][Uu][Ee] | 1) fail "$* (under CI=true nothing may skip: install it; .ci/run does)" ;;
    *) skipped=$((skipped + 1)); printf 'skip  %s\n' "$*" ;;
  esac
}

# --- the tree ------------------------------------------------------------------
base=$(cd "$work" && pwd -P)
if [[ ! $base =~ ^[A-Za-z0-9/._-]+$ ]]; then
  echo "smoke: temp dir $base holds characters a root URI would need to escape" >&2
  exit 2
fi
(
  cd "$base" || exit 1
  mkdir -p b/project/sub b/project2 b/Project b/outside/dir
  echo a >b/project/a.txt
  echo s >b/project/secret.txt
  echo s >b/project2/secret.txt
  echo s >b/Project/secret.txt
  echo s >b/outside/secret.txt
  ln -s ../outside b/project/linkout              # a link to a directory outside
  ln -s ../outside/secret.txt b/project/linkfile  # a link to a file outside
  ln -s ../outside/new.txt b/project/dangling     # dangling, pointing outside
  ln -s chain2 b/project/chain1                   # a chain: chain1 -> chain2 -> outside
  ln -s ../outside/secret.txt b/project/chain2
  ln -s ../outside/dir b/project/linkdeep         # linkdeep/.. is b/outside, not b/project
  ln -s loop b/project/loop                       # ELOOP
  mkdir b/ｐｒｏｊｅｃｔ                            # fullwidth: a different directory
  echo s >b/ｐｒｏｊｅｃｔ/secret.txt
  ln -s ../outside/notes.txt "b/project/notes.txt " # a name ending in a space, dangling out
  for k in $(seq 1 12); do ln -s "c$((k + 1))" "b/project/c$k"; done  # 13 links: c1 -> ... -> c13
  ln -s ../outside b/project/c13
  ln -s ../outside/new.txt "$(printf 'b/project/l\377')" # a name that is not UTF-8 (0xFF), dangling out
  mkdir 'b/[p]roject'                              # a sibling whose name, as a glob, matches the root's
  echo s >'b/[p]roject/secret.txt'
) || exit 2
B=$base/b
R="file://$B/project"

# --- the requests ----------------------------------------------------------------
# add TRUTH LABEL ROOTS PATH OP: TRUTH as semantics.md section 3 says; ROOTS is
# a JSON array as text.
requests=()
truths=()
labels=()
paths=()
add() {
  local id=$((${#requests[@]} + 1))
  requests+=("{\"id\": $id, \"roots\": $3, \"path\": \"$4\", \"op\": \"$5\"}")
  truths+=("$1")
  labels+=("$2")
  paths+=("$4")
}
add inside  "plain file in the root"          "[\"$R\"]" "$B/project/a.txt" read          # 1
add outside "sibling prefix project2"         "[\"$R\"]" "$B/project2/secret.txt" read    # 2
add outside "../ out of the root"             "[\"$R\"]" "$B/project/../outside/secret.txt" read
add outside "link to a directory outside"     "[\"$R\"]" "$B/project/linkout/secret.txt" read
add outside "link/.. is physical"             "[\"$R\"]" "$B/project/linkdeep/../secret.txt" read
add outside "write through a dangling link"   "[\"$R\"]" "$B/project/dangling" write      # 6
add outside "new file under a linked dir"     "[\"$R\"]" "$B/project/linkout/new.txt" write
add outside "link to a file outside"          "[\"$R\"]" "$B/project/linkfile" read
add outside "chain of two links"              "[\"$R\"]" "$B/project/chain1" read         # 9
add outside "case variant Project"            "[\"$R\"]" "$B/Project/secret.txt" read
add outside "empty roots"                     "[]" "$B/outside/secret.txt" read          # 11
add outside "only invalid roots"              "[\"$B/project\", \"file:relative\"]" "$B/project/a.txt" read
add outside "root with a host"                "[\"file://srv$B/outside\"]" "$B/outside/secret.txt" read
add outside "root with %2F"                   "[\"file://$B/project%2F..%2Foutside\"]" "$B/outside/secret.txt" read
add outside "root double-encoded .."          "[\"file://$B/project/%252e%252e/outside\"]" "$B/outside/secret.txt" read
add outside "root in quotes"                  "[\"\\\"file://$B/outside\\\"\"]" "$B/outside/secret.txt" read
add outside "root with spaces around"         "[\" file://$B/outside \"]" "$B/outside/secret.txt" read
add outside "root with a query"               "[\"file://$B/outside?x=1\"]" "$B/outside/secret.txt" read
add outside "root with %00"                   "[\"file://$B/project%00\"]" "$B/project/a.txt" read
add outside "root //.. pops the empty segment" "[\"file://$B/project//../outside\"]" "$B/outside/secret.txt" read
add outside "root not file:"                  "[\"http://localhost$B/project\"]" "$B/project/a.txt" read
add outside "write a link to a file outside"  "[\"$R\"]" "$B/project/linkfile" write
add inside  "new file in the root"            "[\"$R\"]" "$B/project/new.txt" write      # 22
add inside  "sub/.. stays inside"             "[\"$R\"]" "$B/project/sub/../a.txt" read
add inside  "the root itself"                 "[\"$R\"]" "$B/project" read
add inside  "root via localhost"              "[\"file://localhost$B/project\"]" "$B/project/a.txt" read
add inside  "root in the FILE:/path form"     "[\"FILE:$B/project\"]" "$B/project/a.txt" read
add inside  "root with %2e%2e"                "[\"file://$B/project/sub/%2e%2e\"]" "$B/project/a.txt" read
add inside  "root reached through a link"     "[\"file://$B/project/linkout\"]" "$B/outside/secret.txt" read
add inside  "a file as the root"              "[\"file://$B/project/a.txt\"]" "$B/project/a.txt" read
add inside  "a bad root beside a good one"    "[\"file://$B/nonexistent\", \"$R\"]" "$B/project/a.txt" read
add inside  "root /"                          "[\"file:///\"]" "$B/outside/secret.txt" read
add either  "write path ending in /"          "[\"$R\"]" "$B/project/sub/" write
add either  "write to a directory"            "[\"$R\"]" "$B/project/sub" write
add either  "link loop"                       "[\"$R\"]" "$B/project/loop" read
add either  "read of a missing file"          "[\"$R\"]" "$B/project/missing.txt" read
add either  "file used as a directory"        "[\"$R\"]" "$B/project/a.txt/x" read
add outside "backslashes are not separators"  "[\"$R\"]" "$B\\\\project\\\\new.txt" write  # 38
add outside "%2F is not a separator"          "[\"$R\"]" "$B%2Fproject%2Fnew.txt" write
add outside "fullwidth look-alike of the root" "[\"$R\"]" "$B/ｐｒｏｊｅｃｔ/secret.txt" read
add outside "trailing space: a link out"      "[\"$R\"]" "$B/project/notes.txt " write     # 41
add outside "a link out after 48 components"  "[\"$R\"]" "$B/project$(printf '/.%.0s' $(seq 1 48))/linkout/secret.txt" read  # 42
add outside "a chain of 13 links"             "[\"$R\"]" "$B/project/c1/secret.txt" read  # 43
add outside "a name that is not UTF-8, \\udcff" "[\"$R\"]" "$B/project/l\\udcff" write      # 44
add either  "a NUL byte, \\u0000"             "[\"$R\"]" "$B/project/a.txt\\u0000" read
add outside "a sibling named like a glob: [p]roject" "[\"$R\"]" "$B/[p]roject/secret.txt" read  # 46

# Each flawed checker must escape on these requests of its own class.
declare -A own=(
  [python/sibling_prefix.py]="2"
  [python/case_folding.py]="10"
  [python/uri_decoding.py]="13 14 15 16 17 18 20"
  [python/empty_roots.py]="11 12"
  [python/backslash_separator.py]="38"
  [python/unicode_nfkc.py]="40"
  [python/component_cap.py]="42"
  [python/link_budget.py]="43"
  [python/glob_match.py]="46"
  [node/percent_decoded_path.js]="39"
  [node/trimmed_path.js]="41"
  [node/lexical_only.js]="4"
  [node/missing_file_fallback.js]="6 7"
  [node/one_level_link.js]="9"
  [node/swallowed_denial.js]="8"
  [rust/clean_before_resolve]="5"
  [rust/dangling_write]="6"
  [rust/uri_any_host]="13"
)

# --- the checkers ------------------------------------------------------------------
checkers=()  # "name|interpreter|program", the interpreter empty for a binary
if command -v python3 >/dev/null; then
  for f in sound sibling_prefix case_folding uri_decoding empty_roots backslash_separator unicode_nfkc \
      component_cap link_budget glob_match; do
    checkers+=("python/$f.py|python3|$here/python/$f.py")
  done
else
  skip "Python checkers: python3 not found"
fi
if command -v node >/dev/null; then
  for f in sound lexical_only missing_file_fallback one_level_link swallowed_denial percent_decoded_path trimmed_path; do
    checkers+=("node/$f.js|node|$here/node/$f.js")
  done
else
  skip "Node checkers: node not found"
fi
if command -v cargo >/dev/null; then
  if cargo build --quiet --manifest-path "$here/rust/Cargo.toml"; then
    bin=${CARGO_TARGET_DIR:-$here/rust/target}/debug
    for f in sound clean_before_resolve dangling_write uri_any_host; do
      checkers+=("rust/$f||$bin/$f")
    done
  else
    fail "cargo build of the Rust checkers"
  fi
else
  skip "Rust checkers: cargo not found"
fi

# ask INPUT OUTPUT: run the current checker on a whole file of requests.
ask() {
  timeout 60 ${interp:+"$interp"} "$prog" <"$1" >"$2" 2>"$2.err"
}

# answers FILE: "id allowed use" per response line ("-" when there is no
# "use"). Good enough for these checkers' own output: the id comes first, and
# no path here holds a quote. A "use" holding a backslash (only #38 has one)
# reads as "-", so that answer is judged on the path asked.
answers() {
  local line use
  local re='^\{"id": ?("[^"]*"|-?[0-9]+|null),.*"allowed": ?(true|false)' use_re='"use": ?"([^"\\]*)"'
  while IFS= read -r line; do
    if [[ $line =~ $re ]]; then
      printf '%s %s ' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
      use=-
      [[ $line =~ $use_re ]] && use=${BASH_REMATCH[1]}
      printf '%s\n' "$use"
    else
      echo '? ? -'
    fi
  done <"$1"
}

printf '%s\n' "${requests[@]}" >"$work/hostile.jsonl"
n=${#requests[@]}

malformed=(
  'not json at all'
  '{"id": 1}'
  '{"id": 2, "roots": "file:///", "path": "/", "op": "read"}'
  '{"id": 3, "roots": ["file:///"], "path": 7, "op": "read"}'
  '{"id": 4, "roots": ["file:///"], "path": "/", "op": "delete"}'
  '[1, 2, 3]'
  '{"id": "five", "roots": ["file:///"], "path": "/", "op": "read"}'
  '{"id": 6, "roots": ["file:///"], "path": "/", "op": "read"'
  "$(printf '{"id": 7, "roots": ["file:///"], "path": "/\xff\xfe", "op": \xff}')"
  "$(printf '%0.s[' {1..20000})"
  '{"id": 8, "roots": null, "path": null, "op": null}'
)
printf '%s\n' "${malformed[@]}" "{\"id\": 99, \"roots\": [\"$R\"], \"path\": \"$B/project/a.txt\", \"op\": \"read\"}" \
  >"$work/malformed.jsonl"

# (d): the strict root-URI parsers agree with the shared vectors.
vectors=$here/../../corpus/root-uris.json
if command -v python3 >/dev/null; then
  if PYTHONPATH=$here/python python3 - "$vectors" <<'EOF'; then
import json, sys
import sound
bad = 0
for v in json.load(open(sys.argv[1]))["vectors"]:
    try:
        got = sound.parse_root_uri(v["uri"])
    except sound.InvalidRoot:
        got = None
    want = None if "invalid" in v else bytes.fromhex(v["path_hex"]) if "path_hex" in v else v["path"].encode()
    if got != want:
        bad += 1
        print(f"      {v['uri']!r}: got {got!r}, want {want!r}")
sys.exit(bad != 0)
EOF
    pass "python/sound.py: root URI parser agrees with corpus/root-uris.json"
  else
    fail "python/sound.py: root URI parser disagrees with corpus/root-uris.json"
  fi
fi
if command -v node >/dev/null; then
  if node - "$here/node/sound.js" "$vectors" <<'EOF'; then
const [sound, vectors] = process.argv.slice(2).map((f) => require(f));
let bad = 0;
for (const v of vectors.vectors) {
  let got = null;
  try {
    got = Buffer.from(sound.parseRootUri(v.uri), 'latin1').toString('hex');
  } catch (e) {
    if (!(e instanceof sound.InvalidRoot)) throw e;
  }
  const want = 'invalid' in v ? null : 'path_hex' in v ? v.path_hex : Buffer.from(v.path).toString('hex');
  if (got !== want) {
    bad++;
    console.log(`      ${JSON.stringify(v.uri)}: got ${got}, want ${want}`);
  }
}
process.exit(bad ? 1 : 0);
EOF
    pass "node/sound.js: root URI parser agrees with corpus/root-uris.json"
  else
    fail "node/sound.js: root URI parser disagrees with corpus/root-uris.json"
  fi
fi
if command -v cargo >/dev/null; then
  if cargo test --quiet --manifest-path "$here/rust/Cargo.toml" >"$work/cargo-test.txt" 2>&1; then
    pass "rust: cargo test (root URI parser agrees with corpus/root-uris.json)"
  else
    fail "rust: cargo test: $(tail -n 20 "$work/cargo-test.txt")"
  fi
fi

echo "smoke: base $base, ${#checkers[@]} checkers, $n hostile requests"
for entry in "${checkers[@]}"; do
  IFS='|' read -r name interp prog <<<"$entry"
  out=$work/out.$$.txt

  # (a) and (b): the hostile requests.
  ask "$work/hostile.jsonl" "$out"
  rc=$?
  mapfile -t got < <(answers "$out")
  if [[ $rc -ne 0 || ${#got[@]} -ne $n ]]; then
    fail "$name: exit $rc, ${#got[@]} answers to $n requests ($(head -c 300 "$out.err"))"
    continue
  fi
  escapes=()
  overblocks=()
  wrong=()
  for ((i = 0; i < n; i++)); do
    id=$((i + 1))
    read -r gid allowed use <<<"${got[i]}"
    if [[ $gid != "$id" ]]; then
      wrong+=("#$id answered as id $gid")
      continue
    fi
    if [[ $use != - && $use != "${paths[i]}" ]]; then
      continue # rewritten: the truth would be that of "use", not judged here
    fi
    case ${truths[i]}:$allowed in
      outside:true) escapes+=("$id") ;;
      inside:false) overblocks+=("$id") ;;
      either:true) [[ $name == */sound* ]] && wrong+=("#$id ${labels[i]} allowed") ;;
    esac
  done
  if [[ $name == */sound* ]]; then
    for id in "${escapes[@]}"; do wrong+=("#$id ${labels[id - 1]}: ESCAPE"); done
    for id in "${overblocks[@]}"; do wrong+=("#$id ${labels[id - 1]}: overblock"); done
    if ((${#wrong[@]})); then
      fail "$name: $(printf '%s; ' "${wrong[@]}")"
    else
      pass "$name: all $n hostile requests answered right"
    fi
  else
    missing=()
    for id in ${own[$name]}; do
      if [[ " ${escapes[*]} " == *" $id "* ]]; then
        printf '      %s escapes on #%s (%s): %s\n' "$name" "$id" "${labels[id - 1]}" "${requests[id - 1]}"
      else
        missing+=("#$id ${labels[id - 1]}")
      fi
    done
    if ((${#wrong[@]})); then
      fail "$name: $(printf '%s; ' "${wrong[@]}")"
    elif ((${#missing[@]})); then
      fail "$name: no escape on its own class: $(printf '%s; ' "${missing[@]}")"
    else
      pass "$name: escapes on its own class (all escapes: #${escapes[*]}; overblocks: ${overblocks[*]:-none})"
    fi
  fi

  # (c): malformed requests are denied, the process lives on and exits 0.
  ask "$work/malformed.jsonl" "$out"
  rc=$?
  mapfile -t got < <(answers "$out")
  expected=$((${#malformed[@]} + 1))
  bad=()
  for ((i = 0; i < ${#malformed[@]}; i++)); do
    [[ ${got[i]:-} == *" false "* ]] || bad+=("line $((i + 1)): ${got[i]:-no answer}")
  done
  [[ ${got[expected - 1]:-} == "99 true "* ]] || bad+=("the valid request after them: ${got[expected - 1]:-no answer}")
  if [[ $rc -ne 0 || ${#got[@]} -ne $expected || ${#bad[@]} -ne 0 ]]; then
    fail "$name: malformed input: exit $rc, ${#got[@]}/$expected answers; $(printf '%s; ' "${bad[@]}")"
  else
    pass "$name: denies ${#malformed[@]} malformed requests, then answers and exits 0"
  fi

  # (c): one answer per line as it comes, before stdin closes; exit 0 on close.
  coproc checker { exec ${interp:+"$interp"} "$prog" 2>/dev/null; }
  to=${checker[1]}
  from=${checker[0]}
  printf '%s\n' "${requests[0]}" >&"$to"
  line=
  read -r -t 10 line <&"$from"
  exec {to}>&-
  # shellcheck disable=SC2154 # set by coproc
  wait "$checker_PID"
  rc=$?
  if [[ $line == *'"allowed": true'* || $line == *'"allowed":true'* ]] && [[ $rc -eq 0 ]]; then
    pass "$name: answers a line before stdin closes, exits 0 when it does"
  else
    fail "$name: interactive answer '${line}', exit $rc"
  fi
done

# --- (e) the Windows and macOS checkers ----------------------------------------------
# flavoured FLAVOUR TRUTH LABEL ROOTS PATH: PATH is JSON text (escapes as JSON
# writes them); every request is a read.
freqs=()
ftruths=()
flabels=()
fflavours=()
flavoured() {
  local id=$((${#freqs[@]} + 1))
  freqs+=("{\"id\": $id, \"roots\": $4, \"path\": \"$5\", \"op\": \"read\", \"flavor\": \"$1\"}")
  fflavours+=("$1")
  ftruths+=("$2")
  flabels+=("$3")
}
flavoured windows inside  "plain file in the root"         '["file:///C:/proj"]' 'C:\\proj\\notes.txt'                                 # 1
flavoured windows outside "sibling prefix proj2"           '["file:///C:/proj"]' 'C:\\proj2\\secret.txt'
flavoured windows outside "a final .. (not trailing dots)" '["file:///C:/proj"]' 'C:\\proj\\..'
flavoured windows outside "a DOS device"                   '["file:///C:/proj"]' 'C:\\proj\\CON'
flavoured windows outside "a stream, then .."              '["file:///C:/proj"]' 'C:\\proj::$INDEX_ALLOCATION\\..\\secret.txt'  # 5
flavoured windows inside  "another case of the root"       '["file:///C:/proj"]' 'C:\\PROJ\\notes.txt'
flavoured windows outside "the Kelvin sign is not k"       '["file:///C:/prokj"]' 'C:\\pro\u212aj\\secret.txt'
flavoured windows outside "a superscript is not a digit"   '["file:///C:/pro2j"]' 'C:\\pro\u00b2j\\secret.txt'
flavoured windows inside  "a file's data stream"           '["file:///C:/proj"]' 'C:\\proj\\notes.txt::$DATA'
flavoured windows inside  "a verbatim prefix"              '["file:///C:/proj"]' '\\\\?\\C:\\proj\\notes.txt'                    # 10
flavoured macos   inside  "plain file in the root"         '["file:///tmp/proj"]' '/tmp/proj/notes.txt'
flavoured macos   outside "/tmp/.. is /private"            '["file:///Users/me/proj"]' '/tmp/../Users/me/proj/secret.txt'
flavoured macos   inside  "the root in NFD"                '["file:///private/tmp/Caf%C3%A9"]' '/private/tmp/Cafe\u0301/notes.txt'
flavoured macos   outside "a name that NFKC makes .."      '["file:///Users/me/proj"]' '/Users/me/other/\u2025/proj/secret.txt'
flavoured macos   outside "a superscript is not a digit"   '["file:///Users/me/pro2j"]' '/Users/me/pro\u00b2j/secret.txt'  # 15
flavoured macos   inside  "case folded: STRASSE"           '["file:///tmp/Stra%C3%9Fe"]' '/private/tmp/STRASSE/x'

# Each flawed flavoured checker shows its flaw on these: "E:" an escape,
# "O:" a refusal of a path inside.
declare -A fown=(
  [python/windows_prefix.py]="E:2 E:4"
  [python/windows_trailing_dot.py]="E:3"
  [python/windows_case.py]="O:6"
  [python/windows_normcase.py]="E:7"
  [node/win32_device.js]="E:4"
  [node/win32_ads.js]="E:5"
  [node/win32_lowercase.js]="E:7"
  [node/win32_locale.js]="E:7 E:8"
  [python/macos_private.py]="E:12"
  [python/macos_nfd.py]="O:13"
  [python/macos_nfkc.py]="E:14 E:15"
  [node/macos_nfkc.js]="E:14 E:15"
)
fcheckers=()  # "name|interpreter|program|flavour"
if command -v python3 >/dev/null; then
  for f in windows_sound windows_prefix windows_trailing_dot windows_case windows_normcase; do
    fcheckers+=("python/$f.py|python3|$here/python/$f.py|windows")
  done
  for f in macos_sound macos_private macos_nfd macos_nfkc; do
    fcheckers+=("python/$f.py|python3|$here/python/$f.py|macos")
  done
fi
if command -v node >/dev/null; then
  for f in windows_sound win32_device win32_ads win32_lowercase win32_locale; do
    fcheckers+=("node/$f.js|node|$here/node/$f.js|windows")
  done
  for f in macos_sound macos_nfkc; do
    fcheckers+=("node/$f.js|node|$here/node/$f.js|macos")
  done
fi
for flavour in windows macos; do
  : >"$work/$flavour.jsonl"
  for ((i = 0; i < ${#freqs[@]}; i++)); do
    [[ ${fflavours[i]} == "$flavour" ]] && printf '%s\n' "${freqs[i]}" >>"$work/$flavour.jsonl"
  done
done
echo "smoke: ${#fcheckers[@]} Windows and macOS checkers, ${#freqs[@]} requests in their flavours"
for entry in "${fcheckers[@]}"; do
  IFS='|' read -r name interp prog flavour <<<"$entry"
  out=$work/out.$$.txt
  ask "$work/$flavour.jsonl" "$out"
  rc=$?
  mapfile -t got < <(answers "$out")
  asked=$(wc -l <"$work/$flavour.jsonl")
  if [[ $rc -ne 0 || ${#got[@]} -ne $asked ]]; then
    fail "$name: exit $rc, ${#got[@]} answers to $asked requests ($(head -c 300 "$out.err"))"
    continue
  fi
  shown=()
  for line in "${got[@]}"; do
    read -r gid allowed _ <<<"$line"
    case ${ftruths[gid - 1]}:$allowed in
      outside:true) shown+=("E:$gid") ;;
      inside:false) shown+=("O:$gid") ;;
    esac
  done
  if [[ $name == */*sound* ]]; then
    if ((${#shown[@]})); then
      fail "$name: $(for s in "${shown[@]}"; do printf '%s (%s); ' "$s" "${flabels[${s#*:} - 1]}"; done)"
    else
      pass "$name: all $asked $flavour requests answered right"
    fi
  else
    missing=()
    for want in ${fown[$name]}; do
      [[ " ${shown[*]} " == *" $want "* ]] || missing+=("$want ${flabels[${want#*:} - 1]}")
    done
    if ((${#missing[@]})); then
      fail "$name: its flaw does not show: $(printf '%s; ' "${missing[@]}")"
    else
      pass "$name: shows its flaw (${shown[*]})"
    fi
  fi
done

echo "smoke: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
