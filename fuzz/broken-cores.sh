#!/usr/bin/env bash
# Does resolve_model still catch a broken core? Each broken core below is
# one small edit of core's source, made in a scratch git worktree (never
# in this checkout); resolve_model is built there and run from the six
# `spec-*` seeds only, and the time to its first crash is printed.
#
#   fuzz/broken-cores.sh                    # every core, shipped build, 60 s a try, seeds 1 2 3
#   fuzz/broken-cores.sh -b both -t 90      # the shipped build beside the judge-instrumented one
#   fuzz/broken-cores.sh links-39 textual-prefix
#
# -t SECONDS  how long a try may run (default 60)
# -r SEEDS    libFuzzer seeds, one try each (default "1 2 3")
# -b BUILDS   shipped (default), instrumented (the judge keeps its
#             coverage counters), or both (run side by side, one core each)
# Exits 1 if some core was never caught, 2 on a usage or build error.
# FUZZ_TOOLCHAIN=nightly builds with nightly, as campaign.sh does.
# Results: fuzz/README.md, "Does it still catch a broken core?".
set -uo pipefail
cd "$(dirname "$0")" || exit 2
# shellcheck source=fuzz/targets.sh
source ./targets.sh

seconds=60
seeds="1 2 3"
builds=shipped
while getopts "t:r:b:" opt; do
    case $opt in
        t) seconds=$OPTARG ;;
        r) seeds=$OPTARG ;;
        b) builds=$OPTARG ;;
        *) sed -n '2,17p' "$(basename "$0")"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $builds in
    shipped) configs=(shipped) ;;
    instrumented) configs=(instrumented) ;;
    both) configs=(shipped instrumented) ;;
    *) echo "-b takes shipped, instrumented or both, not '$builds'" >&2; exit 2 ;;
esac

# name | file under core/src | sed expression that breaks it
CORES='
creatable-read|resolve.rs|s/let creatable = last \&\& write \&\& !slash_after;/let creatable = last \&\& !slash_after;/
file-slash|resolve.rs|s/if more [|][|] slash_after {/if more {/
abs-link-relative|resolve.rs|s/current.truncate(if target_bytes\[0\] == b.\/. { 1 } else { saved });/current.truncate(saved);/
link-limit-8|resolve.rs|s/if links > MAX_LINKS {/if links > 8 {/
links-39|resolve.rs|s/if links > MAX_LINKS {/if links >= MAX_LINKS {/
name-max-255|resolve.rs|s/if name.len() > NAME_MAX {/if name.len() >= NAME_MAX {/
slash-after-create|resolve.rs|s/let creatable = last \&\& write \&\& !slash_after;/let creatable = last \&\& write;/
final-dir-write|resolve.rs|s/if write \&\& kind == FileKind::Dir {/if write \&\& kind == FileKind::Dir \&\& current.len() > 1 {/
textual-prefix|normal.rs|s/is_none_or([|]\&next[|] next == b.\/.)/is_none_or(|\&next| next == next)/
'
wanted=("$@")
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi
fuzz_command

scratch=$(mktemp -d)
worktree=$scratch/tree
cleanup() {
    git worktree remove --force "$worktree" >/dev/null 2>&1
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
git worktree add --detach -q "$worktree" HEAD || exit 2

build_flags_of() {  # config
    mapfile -t flags < <(build_flags resolve_model)
    if [ "$1" = instrumented ]; then
        # The same build with the judge's counters left in.
        local kept=() skip=
        for f in "${flags[@]}"; do
            if [ -n "$skip" ]; then skip=; continue; fi
            if [ "$f" = --features ]; then skip=1; continue; fi
            kept+=("$f")
        done
        flags=("${kept[@]}")
    fi
}

uncaught=0
while IFS='|' read -r name file expr; do
    [ -n "$name" ] || continue
    if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
    git -C "$worktree" checkout -q -- core/src
    sed -i "$expr" "$worktree/core/src/$file"
    if git -C "$worktree" diff --quiet -- core/src; then
        echo "$name: the edit no longer applies to core/src/$file; update this script"
        exit 2
    fi
    for config in "${configs[@]}"; do
        build_flags_of "$config"
        if ! (cd "$worktree/fuzz" && "${fuzz[@]}" build -s none "${flags[@]}" \
            --target-dir "$scratch/target-$config" resolve_model >"$scratch/build.log" 2>&1); then
            echo "$name: the $config build failed:"; tail -20 "$scratch/build.log"; exit 2
        fi
    done
    for seed in $seeds; do
        for config in "${configs[@]}"; do
            run=$scratch/run-$config
            rm -rf "$run" && mkdir -p "$run/corpus" "$run/artifacts"
            cp corpus/resolve_model/spec-* "$run/corpus/"
            (
                start=$(date +%s.%N)
                "$scratch/target-$config/x86_64-unknown-linux-gnu/release/resolve_model" "$run/corpus" \
                    -seed="$seed" -max_total_time="$seconds" -dict=dicts/resolve_model.dict \
                    -artifact_prefix="$run/artifacts/" >"$run/log" 2>&1
                took=$(echo "$(date +%s.%N) - $start" | bc)
                if compgen -G "$run/artifacts/crash-*" >/dev/null; then
                    printf '%-20s seed %-3s %-12s caught after %5.1f s\n' "$name" "$seed" "$config" "$took"
                else
                    printf '%-20s seed %-3s %-12s NOT caught in %s s\n' "$name" "$seed" "$config" "$seconds"
                fi
            ) &
        done
        wait
    done | tee "$scratch/results"
    grep -q "caught after" "$scratch/results" || uncaught=$((uncaught + 1))
done <<<"$CORES"
git -C "$worktree" checkout -q -- core/src
if [ "$uncaught" -gt 0 ]; then
    echo "$uncaught broken core(s) never caught"
    exit 1
fi
