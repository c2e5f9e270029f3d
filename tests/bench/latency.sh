#!/usr/bin/env bash
# make bench: our latency percentiles beside fio's, on a file system whose
# every read takes the same time (tests/bench/delayfs.c, FUSE). On a disk
# two runs a minute apart differ by more than either tool's resolution;
# on a latency known in advance, what is left between the tools is how
# each measures. Both read 4K blocks of one file, O_DIRECT, with pread:
# the read workload against fio psync, 1 and 4 streams (numjobs),
# alternating, BENCH_ROUNDS rounds. Prints the medians of mean, p50,
# p95, p99 and p99.9, and the ratio ours/fio of each.
#
#   BENCH_LATENCY_US   the file system's time per request (default 1000)
#   BENCH_LATENCY_TIME seconds a run (default 5)
#
# Resolution: our histogram is good to 1% (proto/histogram.h); fio keeps
# 64 buckets per power of two and gives a percentile as its bucket's
# value, good to 1/128 either way. A ratio within 1.8% of 1 is within
# what the two can tell apart.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

delay_us=${BENCH_LATENCY_US:-1000}
seconds=${BENCH_LATENCY_TIME:-5}
modes="1 4"
figures="mean p50 p95 p99 p999"
command -v fio > /dev/null || fail "fio missing: make deps-test"
pkg-config --exists fuse3 || fail "libfuse3 missing: make deps-test"

# The file system, built here, mounted in the foreground of its own
# process (stopped by pid, which unmounts it; MOUNTS covers a crash).
cc -O2 -Wall -Wextra -Werror "$top/tests/bench/delayfs.c" $(pkg-config --cflags --libs fuse3) \
    -o "$SCRATCH/delayfs" || fail "delayfs does not build"
mnt=$SCRATCH/mnt
mkdir -p "$mnt"
"$SCRATCH/delayfs" "$delay_us" 256 "$mnt" -f 2> "$SCRATCH/delayfs.log" &
PIDS+=($!)
MOUNTS+=("$mnt")
for _ in $(seq 100); do
    mountpoint -q "$mnt" && break
    sleep 0.05
done
mountpoint -q "$mnt" || { cat "$SCRATCH/delayfs.log"; fail "delayfs did not mount"; }
start_agent bench --root "$mnt"
endpoint=$ENDPOINT

# Each tool prints mean p50 p95 p99 p999 in microseconds, of one run.
run_iofleet () {   # streams
    cat > "$SCRATCH/bench.ini" <<INI
[global]
settle = 0
[agent bench]
endpoint = $endpoint
[job lat]
agent = bench
workload = read
path = $mnt/data
streams = $1
bs = 4K
direct = yes
runtime = ${seconds}s
INI
    rm -rf "$SCRATCH/res"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" > /dev/null 2> "$SCRATCH/run.err" ||
        { cat "$SCRATCH/run.err" >&2; fail "iofleet run failed"; }
    python3 - "$SCRATCH/res/results.json" <<'PY'
import json, sys
l = json.load(open(sys.argv[1]))["tests"][0]["summary"]["latency"]["read"]
print(" ".join("%.2f" % (l[k] / 1e3) for k in ("mean_ns", "p50_ns", "p95_ns", "p99_ns", "p999_ns")))
PY
}
run_fio () {   # streams
    fio --name=lat --filename="$mnt/data" --rw=read --bs=4k --direct=1 --ioengine=psync \
        --numjobs="$1" --group_reporting --time_based --runtime="$seconds" \
        --output-format=json 2>/dev/null |
        python3 -c 'import json, sys
c = json.load(sys.stdin)["jobs"][0]["read"]["clat_ns"]
p = c["percentile"]
print(" ".join("%.2f" % (v / 1e3) for v in (c["mean"], p["50.000000"], p["95.000000"],
                                            p["99.000000"], p["99.900000"])))'
}

echo "bench: $rounds rounds of $seconds s per tool: 4K O_DIRECT reads on delayfs (${delay_us} us a request), 1 and 4 streams"
bench_figures "$rounds" "$modes" "$figures" iofleet fio

echo
printf '%-8s %-6s %12s %12s %10s %20s %20s\n' streams figure "iofleet us" "fio us" iofleet/fio \
    "iofleet rounds" "fio rounds"
for mode in $modes; do
    for figure in $figures; do
        awk -v m="$mode" -v f="$figure" -v i="$(median "$mode-$figure" iofleet)" \
            -v o="$(median "$mode-$figure" fio)" -v si="$(spread "$mode-$figure" iofleet)" \
            -v so="$(spread "$mode-$figure" fio)" 'BEGIN {
            printf "%-8s %-6s %12.2f %12.2f %10.4f %20s %20s\n", m, f, i, o, i / o, si, so }'
    done
done
echo "(medians of $rounds rounds, and the range of each tool's rounds; the two resolve 1.8% together, see the header)"
