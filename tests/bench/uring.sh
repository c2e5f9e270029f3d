#!/usr/bin/env bash
# make bench: one stream of 4K random reads, O_DIRECT, over one file, at
# a queue depth of 1, 8, 32 and 128: randrw on engine = io_uring beside
# fio's ioengine=io_uring (one job, the same depth), on the same file,
# in the same run, alternating, several rounds. Prints the medians of
# IOPS and of the rounds' own ratios to fio, the CPU seconds each spends
# per million requests (the agent's usr + sys from /proc/PID/stat over
# its run; fio's and its job's, from the kernel's rusage of the command),
# and the p50 and p99 latencies beside fio's.
#
#   BENCH_URING_SIZE    the file (default 1G)
#   BENCH_URING_TIME    seconds a run (default 5)
#   BENCH_URING_DEPTHS  depths (default "1 8 32 128")
#   BENCH_ROUNDS        rounds (default 5 here)
#   TMPDIR              where the file goes (the file system measured)
#
# Both tools register their buffers and the file with the ring (ours
# always, fio with fixedbufs and registerfiles), draw offsets with
# replacement (fio: norandommap) and keep the queue full; fio submits
# and reaps in batches of its defaults. The file is laid out once by
# iofleet, untimed, kept, and read where it is by fio.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
. "$top/tests/bench/lib.sh"

file_size=${BENCH_URING_SIZE:-1G}
seconds=${BENCH_URING_TIME:-5}
depths=${BENCH_URING_DEPTHS:-1 8 32 128}
command -v fio > /dev/null || fail "fio missing: make deps-test"
start_agent bench
endpoint=$ENDPOINT
agent_pid=${PIDS[-1]}
tick=$(getconf CLK_TCK)

# write_ini DEPTH LIMIT: one stream of 4K O_DIRECT random reads over the
# file at DEPTH, ending at LIMIT.
write_ini () {
    cat > "$SCRATCH/bench.ini" <<INI
[global]
settle = 0
[agent bench]
endpoint = $endpoint
[job u4k]
agent = bench
workload = randrw
mode = rndrd
path = u/f
size = $file_size
files = 1
bs = 4K
direct = yes
keep = yes
engine = io_uring
iodepth = $1
$2
INI
}

# The agent's CPU so far, in clock ticks (usr + sys).
agent_ticks () {
    awk '{ print $14 + $15 }' "/proc/$agent_pid/stat"
}

# Each tool prints, of one run at depth D: IOPS, CPU seconds per million
# requests, p50 and p99 in microseconds.
run_iofleet () {   # depth
    write_ini "$1" "runtime = ${seconds}s"
    local before after
    before=$(agent_ticks)
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    after=$(agent_ticks)
    python3 - "$SCRATCH/res/results.json" "$((after - before))" "$tick" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
s = t["summary"]
requests = sum(x["reads"] for x in t["streams"])
window_ns = s["last_end_ns"] - s["first_start_ns"]
lat = s["latency"]["requests"]
cpu_s = int(sys.argv[2]) / int(sys.argv[3])
print("%.1f %.3f %.1f %.1f" % (requests / (window_ns / 1e9), cpu_s / requests * 1e6,
                               lat["p50_ns"] / 1e3, lat["p99_ns"] / 1e3))
PY
    rm -rf "$SCRATCH/res"
}
run_fio () {   # depth
    local TIMEFORMAT='%U %S' cpu
    { cpu=$( { time fio --name=u4k --filename="$SCRATCH/bench/u/f" --size="$file_size" \
            --ioengine=io_uring --fixedbufs --registerfiles --iodepth="$1" --direct=1 \
            --rw=randread --bs=4k --norandommap --time_based --runtime="$seconds" \
            --lat_percentiles=1 --output-format=json --output="$SCRATCH/fio.json" \
            > /dev/null 2>&1; } 2>&1 ); } ||
        fail "fio failed"
    python3 - "$SCRATCH/fio.json" $cpu <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["read"]
# fio's latency of a request: submission to completion (lat_ns).
l = d["lat_ns"]["percentile"]
cpu_s = float(sys.argv[2]) + float(sys.argv[3])
print("%.1f %.3f %.1f %.1f" % (d["iops"], cpu_s / d["total_ios"] * 1e6,
                               l["50.000000"] / 1e3, l["99.000000"] / 1e3))
PY
}

echo "bench: $rounds rounds of ${seconds} s per tool and depth: one stream of 4K random reads, O_DIRECT, engine = io_uring and fio ioengine=io_uring, over one file of $file_size on $(df --output=source,fstype "$SCRATCH" | tail -1)"
# The file, laid out once and kept, untimed: a run of a few requests.
write_ini 1 "requests = 16"
"$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
    fail "laying out the file failed"
rm -rf "$SCRATCH/res"
[ "$(stat -c %s "$SCRATCH/bench/u/f")" = "$(numfmt --from=iec "$file_size")" ] ||
    fail "the file is not laid out"

bench_figures "$rounds" "$depths" "IOPS cpu_s_per_M p50_us p99_us" iofleet fio

echo
printf '%-6s %10s %10s %7s %7s %15s %17s %17s\n' depth iofleet fio ratio "rounds'" \
    "cpu s/M req" "iofleet p50/p99" "fio p50/p99"
for depth in $depths; do
    awk -v d="$depth" -v i="$(median "$depth-IOPS" iofleet)" -v f="$(median "$depth-IOPS" fio)" \
        -v r="$(paired "$depth-IOPS" iofleet fio)" \
        -v ic="$(median "$depth-cpu_s_per_M" iofleet)" -v fc="$(median "$depth-cpu_s_per_M" fio)" \
        -v i50="$(median "$depth-p50_us" iofleet)" -v i99="$(median "$depth-p99_us" iofleet)" \
        -v f50="$(median "$depth-p50_us" fio)" -v f99="$(median "$depth-p99_us" fio)" 'BEGIN {
        printf "%-6s %10.1f %10.1f %7.3f %7.3f %15s %17s %17s\n", d, i, f, i / f, r,
               sprintf("%.2f/%.2f", ic, fc), sprintf("%.1f/%.1f", i50, i99),
               sprintf("%.1f/%.1f", f50, f99) }'
done
echo "(medians of $rounds rounds; ratio: of the medians, rounds': the median of each round's own"
echo " ratio; cpu: seconds of usr + sys per million requests, iofleet's agent/fio; latencies in us,"
echo " submission to completion; targets: IOPS ratio >= 0.97, cpu <= fio's)"
