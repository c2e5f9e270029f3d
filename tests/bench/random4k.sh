#!/usr/bin/env bash
# make bench: 4K random reads and 4K random writes, direct, with 1 and
# with 16 streams: the randrw workload (mode = rndrd / rndwr) beside fio
# psync, on one file set, in the same run, alternating, several rounds.
# Prints the medians of IOPS with our ratio to fio (and the ratio of the
# best rounds), the medians of the p50 and p99 latencies of both side by
# side, and what each spends per request outside the I/O call. Our IOPS
# are the report's (requests over first start to last end).
#
#   BENCH_4K_SIZE   file set (default 1G)        BENCH_4K_FILES (default 128)
#   BENCH_4K_TIME   seconds a run (default 5)    BENCH_ROUNDS (default 3)
#   TMPDIR          where the set goes (the file system measured)
#
# The file set. A randrw job's streams share one set of files: each
# request picks a block uniformly over every block of every file, with
# replacement. fio's nearest shape is one --filename list that every job
# opens: the same files for all jobs, not a set per job (--nrfiles, or
# one file per job, would split the set among the streams). With
# --file_service_type=random each request picks its file at random, and
# --norandommap draws its offset with replacement, as we do; the files
# are of one size, so the two draws are the same distribution. They are
# the very same files: laid out once by iofleet at the start, untimed,
# kept, and opened by fio where they are (fio lays out nothing, they are
# long enough already).
#
# Both tools make one synchronous call per request (pread or pwrite,
# psync) on an O_DIRECT descriptor, and neither fsyncs while it runs
# (fsync_every = 0; fio without fsync=). At its end a randrw stream
# fsyncs the files it wrote once, inside its window; fio does not.
#
# Latency: ours is every request of the test in one histogram (its error
# is at most 1%); fio's is its clat_ns of the run (psync: the call), from
# a histogram of its own, with an error of its own of the same order.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

set_size=${BENCH_4K_SIZE:-1G}
files=${BENCH_4K_FILES:-128}
seconds=${BENCH_4K_TIME:-5}
set_bytes=$(numfmt --from=iec "$set_size")
command -v fio > /dev/null || fail "fio missing: make deps-test"
start_agent bench
endpoint=$ENDPOINT
set_dir=$SCRATCH/bench/set
modes="rndrd-1 rndrd-16 rndwr-1 rndwr-16"

# write_ini MODE STREAMS LIMIT: a scenario of one randrw job on the set,
# 4K, direct, no fsync on the way, ending at LIMIT (runtime or requests).
write_ini () {
    cat > "$SCRATCH/bench.ini" <<INI
[global]
settle = 0
[agent bench]
endpoint = $endpoint
[job r4k]
agent = bench
workload = randrw
path = set/f
size = $set_size
files = $files
streams = $2
bs = 4K
mode = $1
fsync_every = 0
direct = yes
keep = yes
$3
INI
}

# Each tool prints, of one run of MODE (rndrd-N or rndwr-N: N streams),
# IOPS, p50 and p99 in microseconds, and the microseconds a stream spends
# per request outside the call: N / IOPS less the mean latency (and, for
# ours, less the last fsyncs' time, spread over the requests). That one
# is the tool's own cost (and its wait for a CPU), whatever the disk does.
run_iofleet () {   # mode
    write_ini "${1%-*}" "${1#*-}" "runtime = ${seconds}s"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    python3 - "$SCRATCH/res/results.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
s = t["summary"]
# The report's random I/O table: requests over first start to last end.
requests = sum(x["reads"] + x["writes"] for x in t["streams"])
window_ns = s["last_end_ns"] - s["first_start_ns"]
lat = s["latency"]
fsync_ns = lat["fsync"]["count"] * lat["fsync"]["mean_ns"] if "fsync" in lat else 0
outside_ns = (len(t["streams"]) * window_ns - fsync_ns) / requests - lat["requests"]["mean_ns"]
print("%.1f %.1f %.1f %.2f" % (requests / (window_ns / 1e9), lat["requests"]["p50_ns"] / 1e3,
                               lat["requests"]["p99_ns"] / 1e3, outside_ns / 1e3))
PY
    rm -rf "$SCRATCH/res"
}
run_fio () {   # mode
    local rw=randread names
    [ "${1%-*}" = rndwr ] && rw=randwrite
    names=f                                 # one file is named path itself
    [ "$files" = 1 ] || names=$(seq -f "f.%g" 1 "$files" | paste -sd:)
    (cd "$set_dir" && fio --name=r4k --filename="$names" --filesize=$((set_bytes / files)) \
        --file_service_type=random --norandommap --ioengine=psync --direct=1 --rw=$rw \
        --bs=4k --numjobs="${1#*-}" --group_reporting --time_based --runtime="$seconds" \
        --output-format=json 2>/dev/null) |
        python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
d = j["read" if sys.argv[1] == "randread" else "write"]
c = d["clat_ns"]
print("%.1f %.1f %.1f %.2f" % (d["iops"], c["percentile"]["50.000000"] / 1e3,
                               c["percentile"]["99.000000"] / 1e3,
                               (int(sys.argv[2]) / d["iops"] * 1e9 - c["mean"]) / 1e3))' \
        "$rw" "${1#*-}"
}

echo "bench: $rounds rounds of ${seconds} s per tool and mode: 4K random reads (rndrd) and writes (rndwr), O_DIRECT, 1 and 16 streams, one set of $files files of $set_size in all, on $(df --output=source,fstype "$SCRATCH" | tail -1)"
# The set, laid out once and kept, untimed: a run of a few requests.
write_ini rndrd 1 "requests = 16"
"$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
    fail "laying out the set failed"
rm -rf "$SCRATCH/res"
last=$set_dir/f.$files
[ "$files" = 1 ] && last=$set_dir/f
[ "$(stat -c %s "$last")" = $((set_bytes / files)) ] || fail "the set is not laid out"

bench_figures "$rounds" "$modes" "IOPS p50_us p99_us out_us" iofleet fio

# best MODE TOOL: the highest of its rates (the quietest round, on a
# shared machine).
best () {
    echo "${RATES[$1.$2]:-}" | tr ' ' '\n' | grep . | sort -n | tail -1
}

echo
printf '%-8s %10s %10s %7s %7s %17s %17s %12s %12s\n' mode iofleet fio ratio best \
    "iofleet p50/p99" "fio p50/p99" "p50/p99 rat" "outside i/f"
for mode in $modes; do
    awk -v m="$mode" -v i="$(median "$mode-IOPS" iofleet)" -v f="$(median "$mode-IOPS" fio)" \
        -v bi="$(best "$mode-IOPS" iofleet)" -v bf="$(best "$mode-IOPS" fio)" \
        -v i50="$(median "$mode-p50_us" iofleet)" -v i99="$(median "$mode-p99_us" iofleet)" \
        -v f50="$(median "$mode-p50_us" fio)" -v f99="$(median "$mode-p99_us" fio)" \
        -v io="$(median "$mode-out_us" iofleet)" -v fo="$(median "$mode-out_us" fio)" 'BEGIN {
        printf "%-8s %10.1f %10.1f %7.3f %7.3f %17s %17s %12s %12s\n", m, i, f, i / f, bi / bf,
               sprintf("%.1f/%.1f", i50, i99), sprintf("%.1f/%.1f", f50, f99),
               sprintf("%.2f/%.2f", i50 / f50, i99 / f99), sprintf("%.2f/%.2f", io, fo) }'
done
echo "(medians of $rounds rounds, each figure its own; latencies in us; best: the ratio of the"
echo " highest IOPS of each; outside: us per request outside the call, iofleet/fio;"
echo " targets: IOPS ratio >= 0.97, p50 and p99 within 1% of fio's)"
