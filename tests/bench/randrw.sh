#!/usr/bin/env bash
# make bench: the randrw workload beside `sysbench fileio rndrw` and fio
# randrw, with the same parameters, on the same file system, in the same
# run, alternating, several rounds. Prints the medians of reads/s and
# writes/s with our ratio to each peer, and the p99 latencies beside.
#
#   BENCH_RANDRW_SIZE  file set (default 1G)     BENCH_RANDRW_FILES (default 128)
#   BENCH_RANDRW_TIME  seconds a run (default 10) BENCH_ROUNDS (default 3)
#   BENCH_RANDRW_MODES (default "buffered direct nofsync", see below)
#   TMPDIR             where the sets go (the file system measured)
#
# sysbench's test as the seed threads ran it: 16 threads over a set of
# files, 16K blocks at random, 1.5 reads per write, every file fsync'd
# after every 100 requests of a thread and at the end; time-bound here,
# so that every tool runs the same seconds. Three modes: "buffered"
# (sysbench's default) and "direct" (O_DIRECT: iofleet direct = yes,
# sysbench --file-extra-flags=direct), iofleet beside sysbench; and
# "nofsync", O_DIRECT with only the last fsync (fsync_every = 0,
# --file-fsync-freq=0), where fio joins them (direct=1, psync,
# end_fsync=1): fio cannot fsync every file of a set every N requests,
# so it is measured only where nobody does. Each tool has its own set of
# the same shape, laid out once, untimed.
#
# The p99s count different requests: sysbench's is of its events, its
# fsyncs among them; ours is of the reads and writes (fsyncs apart);
# fio's is the larger of its read and write p99.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

set_size=${BENCH_RANDRW_SIZE:-1G}
files=${BENCH_RANDRW_FILES:-128}
seconds=${BENCH_RANDRW_TIME:-10}
threads=16
set_bytes=$(numfmt --from=iec "$set_size")
command -v sysbench > /dev/null || fail "sysbench missing: make deps-test"
command -v fio > /dev/null || fail "fio missing: make deps-test"
start_agent bench
endpoint=$ENDPOINT
mkdir -p "$SCRATCH/sysbench" "$SCRATCH/fio"
modes=${BENCH_RANDRW_MODES:-buffered direct nofsync}

# Each tool prints reads/s, writes/s and p99 in ms of one run (fio
# nothing, for a mode it does not do).
run_iofleet () {   # mode
    local direct=yes fsync_every=100
    [ "$1" = buffered ] && direct=no
    [ "$1" = nofsync ] && fsync_every=0
    cat > "$SCRATCH/bench.ini" <<INI
[global]
settle = 0
[agent bench]
endpoint = $endpoint
[job rr]
agent = bench
workload = randrw
path = set/f
size = $set_size
files = $files
streams = $threads
bs = 16K
rwratio = 1.5
fsync_every = $fsync_every
runtime = ${seconds}s
direct = $direct
keep = yes
INI
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    python3 - "$SCRATCH/res/results.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
ss = t["streams"]
window = (max(s["end_ns"] for s in ss) - min(s["start_ns"] for s in ss)) / 1e9
print("%.1f %.1f %.3f" % (sum(s["reads"] for s in ss) / window,
                          sum(s["writes"] for s in ss) / window,
                          t["summary"]["latency"]["requests"]["p99_ns"] / 1e6))
PY
    rm -rf "$SCRATCH/res"
}
sysbench_args () {   # mode
    local flags=
    [ "$1" = buffered ] || flags=--file-extra-flags=direct
    echo "fileio --file-total-size=$set_bytes --file-num=$files --file-block-size=16384 $flags"
}
fsync_freq () {   # mode
    if [ "$1" = nofsync ]; then echo 0; else echo 100; fi
}
run_sysbench () {   # mode
    # shellcheck disable=SC2046
    (cd "$SCRATCH/sysbench" && sysbench $(sysbench_args "$1") --file-test-mode=rndrw \
        --file-rw-ratio=1.5 --file-fsync-freq="$(fsync_freq "$1")" --threads=$threads --time="$seconds" \
        --events=0 --percentile=99 run) |
        awk '/reads\/s:/ { r = $2 } /writes\/s:/ { w = $2 } /99th percentile:/ { p = $3 }
             END { printf "%.1f %.1f %.3f\n", r, w, p }'
}
run_fio () {   # mode
    local names
    [ "$1" = nofsync ] || return 0
    names=$(seq -f "f.%g" 1 "$files" | paste -sd:)
    (cd "$SCRATCH/fio" && fio --name=rr --filename="$names" --filesize=$((set_bytes / files)) \
        --rw=randrw --rwmixread=60 --bs=16k --numjobs=$threads --ioengine=psync \
        --direct=1 --end_fsync=1 --time_based --runtime="$seconds" --group_reporting \
        --output-format=json 2>/dev/null) |
        python3 -c 'import json,sys
j = json.load(sys.stdin)["jobs"][0]
p99 = max(j[k]["clat_ns"]["percentile"]["99.000000"] for k in ("read", "write"))
print("%.1f %.1f %.3f" % (j["read"]["iops"], j["write"]["iops"], p99 / 1e6))'
}

echo "bench: $rounds rounds of ${seconds} s per tool and mode: $threads streams, 16K, rndrw 1.5, fsync every 100 (nofsync: at the end only), $files files of $set_size in all, on $(df --output=source,fstype "$SCRATCH" | tail -1)"
# shellcheck disable=SC2046
(cd "$SCRATCH/sysbench" && sysbench $(sysbench_args buffered) prepare > /dev/null) ||
    fail "sysbench prepare failed"
bench_figures "$rounds" "$modes" "reads writes p99_ms" iofleet sysbench fio

echo
printf '%-8s %-8s %10s %10s %10s %10s %10s %12s %12s %22s\n' mode figure iofleet sysbench fio \
    iofleet/sb iofleet/fio "rounds i/sb" "rounds i/fio" "p99 ms iofleet/sb/fio"
for mode in $modes; do
    for figure in reads writes; do
        awk -v m="$mode" -v f="$figure/s" \
            -v i="$(median "$mode-$figure" iofleet)" -v s="$(median "$mode-$figure" sysbench)" \
            -v o="$(median "$mode-$figure" fio)" -v pi="$(median "$mode-p99_ms" iofleet)" \
            -v ps="$(median "$mode-p99_ms" sysbench)" -v po="$(median "$mode-p99_ms" fio)" \
            -v rs="$(paired "$mode-$figure" iofleet sysbench)" \
            -v ro="$(paired "$mode-$figure" iofleet fio)" 'BEGIN {
            if (o == "") { printf "%-8s %-8s %10.1f %10.1f %10s %10.3f %10s %12.3f %12s %8.3f/%.3f/-\n",
                                  m, f, i, s, "-", i / s, "-", rs, "-", pi, ps; exit }
            printf "%-8s %-8s %10.1f %10.1f %10.1f %10.3f %10.3f %12.3f %12.3f %8.3f/%.3f/%.3f\n",
                   m, f, i, s, o, i / s, i / o, rs, ro, pi, ps, po }'
    done
done
echo "(medians of $rounds rounds, and \"rounds\": the median of the rounds' own ratios; targets: iofleet/sysbench >= 1, iofleet/fio >= 0.97; the p99s count different requests, see the header)"
