# Shared by the benchmarks (tests/bench/*.sh), after tests/lib.sh: the
# alternating rounds and the medians. Absolute figures wander on these
# machines, so every tool runs in every round, in an order that rotates.

# The knobs every benchmark shares: rounds per tool and mode, and the
# bytes of a sequential run (BENCH_SIZE, powers of 1024 as numfmt reads
# them: 2G).
rounds=${BENCH_ROUNDS:-3}
size=${BENCH_SIZE:-2G}
bytes=$(numfmt --from=iec "$size")

# bench_rounds ROUNDS "MODES" TOOL...: run `run_TOOL MODE` (which prints
# MB/s) for every round, mode and tool; the rates go to RATES[MODE.TOOL],
# space-separated, and each one to stdout as it comes.
declare -A RATES
bench_rounds () {
    local rounds=$1 modes=$2 round mode k tool rate
    shift 2
    local tools=("$@")
    for round in $(seq "$rounds"); do
        for mode in $modes; do
            for k in "${!tools[@]}"; do
                tool=${tools[$(( (k + round) % ${#tools[@]} ))]}
                rate=$("run_$tool" "$mode")
                RATES[$mode.$tool]="${RATES[$mode.$tool]:-} $rate"
                printf 'round %d  %-6s  %-7s  %8s MB/s\n' "$round" "$mode" "$tool" "$rate"
            done
        done
    done
}

# bench_figures ROUNDS "MODES" "FIGURES" TOOL...: as bench_rounds, for
# tools whose `run_TOOL MODE` prints several figures of one run, in the
# order of FIGURES (or nothing, for a mode the tool does not do): each
# goes to RATES[MODE-FIGURE.TOOL], and each run's line to stdout.
bench_figures () {
    local rounds=$1 modes=$2 figures=$3 round mode k tool result figure
    shift 3
    local tools=("$@")
    for round in $(seq "$rounds"); do
        for mode in $modes; do
            for k in "${!tools[@]}"; do
                tool=${tools[$(( (k + round) % ${#tools[@]} ))]}
                result=$("run_$tool" "$mode") || fail "$tool failed"
                [ -n "$result" ] || continue
                # shellcheck disable=SC2086  # one word a figure
                set -- $result
                for figure in $figures; do
                    RATES[$mode-$figure.$tool]="${RATES[$mode-$figure.$tool]:-} $1"
                    shift
                done
                printf 'round %d  %-8s  %-8s  %s: %s\n' "$round" "$mode" "$tool" "$figures" "$result"
            done
        done
    done
}

# median MODE TOOL: the median of its rates.
median () {
    echo "${RATES[$1.$2]:-}" | tr ' ' '\n' | grep . | sort -n |
        awk '{ a[NR] = $1 } END { if (NR) print (NR % 2)? a[(NR+1)/2]: (a[NR/2] + a[NR/2+1]) / 2 }'
}

# spread MODE TOOL: the least and the largest of its rates, as LOW-HIGH.
spread () {
    echo "${RATES[$1.$2]:-}" | tr ' ' '\n' | grep . | sort -n | sed -n '1p;$p' | paste -sd-
}

# paired MODE OURS PEER: the median of the rounds' ratios OURS/PEER. The
# tools of one round ran minutes apart on one machine state, so a round's
# ratio is steadier than the ratio of the medians when the state wanders.
paired () {
    paste -d' ' <(echo "${RATES[$1.$2]:-}" | tr ' ' '\n' | grep .) \
                <(echo "${RATES[$1.$3]:-}" | tr ' ' '\n' | grep .) |
        awk 'NF == 2 && $2 > 0 { print $1 / $2 }' | sort -n |
        awk '{ a[NR] = $1 } END { if (NR) print (NR % 2)? a[(NR+1)/2]: (a[NR/2] + a[NR/2+1]) / 2 }'
}

# rate_of RESULTS_DIR: the first stream's MB/s in an iofleet results directory.
rate_of () {
    python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["tests"][0]["streams"][0]["rate_mbps"])' \
        "$1/results.json"
}

# bench_ratios "MODES" OURS PEER1 PEER2: one line per mode with the three
# medians and our ratio to each peer and to the better of them.
bench_ratios () {
    local modes=$1 ours=$2 a=$3 b=$4 mode
    printf '%-8s %10s %10s %10s %12s %12s %14s\n' mode "$ours" "$a" "$b" "$ours/$a" "$ours/$b" "$ours/best"
    for mode in $modes; do
        awk -v m="$mode" -v i="$(median "$mode" "$ours")" -v d="$(median "$mode" "$a")" \
            -v f="$(median "$mode" "$b")" 'BEGIN {
            best = (d > f)? d: f
            printf "%-8s %10.1f %10.1f %10.1f %12.3f %12.3f %14.3f\n", m, i, d, f, i / d, i / f, i / best }'
    done
}
