#!/usr/bin/env bash
# A fuzzing campaign: every target (or those named) for a time budget with
# libFuzzer's -fork, then the corpus merged and minimized (cargo fuzz cmin),
# then every crash minimized (cargo fuzz tmin) and kept as a regression
# input under fuzz/regressions/<target>/, which `cargo test` replays.
#
#   fuzz/campaign.sh [-t SECONDS] [-j JOBS] [-s SANITIZER] [TARGET...]
#
#   -t  seconds per target (default 600)
#   -j  libFuzzer -fork jobs per target (default: the number of cores)
#   -s  sanitizer: none (default; safe Rust, ~6x faster) or address
#
# Toolchain: FUZZ_TOOLCHAIN=nightly uses `cargo +nightly fuzz`; the default
# is the active (stable) toolchain with RUSTC_BOOTSTRAP=1, which lets stable
# accept the -Z flags cargo-fuzz passes. The working corpus is
# fuzz/corpus-work/<target>/ (seeded from the checked-in fuzz/corpus/, not
# committed); crashes land in fuzz/artifacts/<target>/.
#
# Exits 1 when any target crashed (its minimized inputs are then in
# fuzz/regressions/), 2 on a usage or build error.
set -euo pipefail
cd "$(dirname "$0")"

# shellcheck source=fuzz/targets.sh
source ./targets.sh
seconds=600
jobs=$(nproc)
sanitizer=none
while getopts "t:j:s:h" opt; do
    case $opt in
        t) seconds=$OPTARG ;;
        j) jobs=$OPTARG ;;
        s) sanitizer=$OPTARG ;;
        *) sed -n '2,20p' "$(basename "$0")"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${TARGETS[@]}")

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi
fuzz_command
flags=(-s "$sanitizer")
echo "== building ${targets[*]} (sanitizer $sanitizer)"
for t in "${targets[@]}"; do
    mapfile -t build < <(build_flags "$t")
    "${fuzz[@]}" build "${flags[@]}" "${build[@]}" "$t" || exit 2
done

crashed=()
for t in "${targets[@]}"; do
    work=corpus-work/$t
    artifacts=artifacts/$t
    mkdir -p "$work" "$artifacts" "regressions/$t"
    cp -n "corpus/$t"/* "$work"/ 2>/dev/null || true
    before=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' \) | sort)

    mapfile -t options < <(target_options "$t")
    mapfile -t build < <(build_flags "$t")
    echo "== $t: ${seconds}s, -fork=$jobs ${options[*]}"
    # -ignore_crashes: a crash ends one fork job, not the campaign.
    "${fuzz[@]}" run "${flags[@]}" "${build[@]}" "$t" "$work" -- \
        "${options[@]}" -fork="$jobs" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
        -max_total_time="$seconds" -dict="dicts/$t.dict" \
        -artifact_prefix="$artifacts/" -print_final_stats=1 \
        2>&1 | tee "$artifacts/campaign.log" | grep -E '^#[0-9]+: cov|INFO: fuzzed|CRASH|panicked' || true

    echo "== $t: cmin ($(find "$work" -type f | wc -l) inputs)"
    "${fuzz[@]}" cmin "${flags[@]}" "${build[@]}" "$t" "$work" >"$artifacts/cmin.log" 2>&1 \
        || echo "cmin failed; see $artifacts/cmin.log"
    echo "   now $(find "$work" -type f | wc -l) inputs"

    after=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' \) | sort)
    new=$(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d')
    [ -n "$new" ] || continue
    crashed+=("$t")
    # Fork mode saves every input that crashes, often hundreds for one
    # bug: group them by where they panic and keep the smallest of each.
    binary=target/x86_64-unknown-linux-gnu/release/$t
    declare -A smallest=()
    for input in $new; do
        signature=$("$binary" "$input" 2>&1 | grep -m1 -oE 'panicked at [^ ]+|ERROR: [A-Za-z]+: [a-z-]+|ERROR: libFuzzer: [a-z-]+' || true)
        signature="$(basename "$input" | cut -d- -f1) ${signature:-unknown}"
        current=${smallest[$signature]:-}
        if [ -z "$current" ] || [ "$(stat -c %s "$input")" -lt "$(stat -c %s "$current")" ]; then
            smallest[$signature]=$input
        fi
    done
    echo "== $t: $(echo "$new" | wc -l) crashing inputs, ${#smallest[@]} distinct (by kind and panic site)"
    for signature in "${!smallest[@]}"; do
        input=${smallest[$signature]}
        name=$(basename "$input")
        kept=regressions/$t/$name
        echo "   $signature: $name"
        case $name in
            crash-*)
                marker=$(mktemp)
                "${fuzz[@]}" tmin "${flags[@]}" "${build[@]}" -r 20000 "$t" "$input" >"$artifacts/tmin-$name.log" 2>&1 || true
                minimized=$(find "$artifacts" -maxdepth 1 -name 'minimized-from-*' -newer "$marker" | head -1)
                rm -f "$marker"
                if [ -n "$minimized" ]; then mv "$minimized" "$kept"; else cp "$input" "$kept"; fi
                ;;
            *) cp "$input" "$kept" ;;
        esac
        echo "   kept $kept ($(stat -c %s "$kept") bytes); print it: cargo fuzz fmt $t $kept"
    done
    unset smallest
done

if [ ${#crashed[@]} -gt 0 ]; then
    echo "CRASHES in: $(printf '%s\n' "${crashed[@]}" | sort -u | tr '\n' ' ')"
    echo "Each is kept under fuzz/regressions/ and fails \`cargo test -p rootguard-fuzzing --test fuzz_regressions\` until fixed."
    exit 1
fi
echo "no crash in ${targets[*]}"
