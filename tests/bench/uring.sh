#!/usr/bin/env bash
# make bench: one stream on engine = io_uring beside fio's
# ioengine=io_uring (one job, the same depth), on the same file, in the
# same run, alternating, several rounds: 4K random reads and 4K random
# writes, O_DIRECT, at a queue depth of 1, 8, 32 and 128 (randrw, mode
# rndrd and rndwr), and 128K sequential reads and writes, O_DIRECT, at a
# depth of 16 (the read and write workloads; sn: the write's first pass
# alone, over a new file, each request extending it), with the buffers of
# both tools in pages of 4K (our iomem = malloc, fio's default) and again in
# huge pages of 2M (srh, swh: our iomem = huge, fio's iomem=shmhuge, for
# which the bench reserves huge pages while it runs and gives them back
# after; without the right to, those modes are left out, said so).
# Prints the medians of IOPS
# (MB/s for the sequential ones) and of the rounds' own ratios to fio,
# the CPU seconds each spends per million requests (the agent's usr +
# sys from /proc/PID/stat over its run; fio's and its job's, from the
# kernel's rusage of the command), and the p50 and p99 latencies beside
# fio's.
#
#   BENCH_URING_SIZE    the file (default 1G)
#   BENCH_URING_TIME    seconds a run (default 5)
#   BENCH_URING_DEPTHS  depths of the random modes (default "1 8 32 128")
#   BENCH_URING_MODES   modes (default: rr-DEPTH and rw-DEPTH for every
#                       depth, then sr-16 sw-16 sn-16 srh-16 swh-16; rr
#                       random read, rw random write, sr sequential read,
#                       sw sequential write for the run's time, sn the
#                       sequential write of a new file once, an h after
#                       them: in huge pages)
#   BENCH_URING_BASE    another build directory: its agent runs every mode
#                       too, as `base`, for a change measured against what
#                       it replaces in the same run
#   BENCH_ROUNDS        rounds (default 5 here)
#   TMPDIR              where the file goes (the file system measured)
#
# Both tools register their buffers and the file with the ring (ours
# always, fio with fixedbufs and registerfiles), draw offsets with
# replacement (fio: norandommap) and keep the queue full; fio submits
# and reaps in batches of its defaults. The file is laid out once by
# iofleet, untimed, kept, and read and written where it is by fio (the
# random writes go over it in place, as randrw's do); a sequential write
# goes to a file of its own, new for every run of either tool. Written
# for the run's time (sw), the file's first pass is of writes that extend
# it (which the kernel hands to io_uring's workers, one inode lock
# between them), and the passes after it overwrite it in place; sn
# measures that first pass alone. Neither tool flushes on the way
# (fsync_every = 0, fsync = none; fio without fsync nor end_fsync); a
# randrw stream that wrote fsyncs its file once at its end, inside its
# window.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
. "$top/tests/bench/lib.sh"

file_size=${BENCH_URING_SIZE:-1G}
seconds=${BENCH_URING_TIME:-5}
depths=${BENCH_URING_DEPTHS:-1 8 32 128}
modes=${BENCH_URING_MODES:-$(for d in $depths; do printf 'rr-%s ' "$d"; done
                             for d in $depths; do printf 'rw-%s ' "$d"; done
                             echo sr-16 sw-16 sn-16 srh-16 swh-16)}
command -v fio > /dev/null || fail "fio missing: make deps-test"
start_agent bench
endpoint=$ENDPOINT
agent_pid=${PIDS[-1]}
tools="iofleet fio"
if [ -n "${BENCH_URING_BASE:-}" ]; then
    base_bin=$(cd "$BENCH_URING_BASE" && pwd)
    # The base agent works in the same root, on the same file.
    "$base_bin/iofleet-agent" --bind 'tcp://127.0.0.1:*' --name bench --root "$SCRATCH/bench" \
        2>"$SCRATCH/base.log" &
    PIDS+=($!)
    base_pid=$!
    wait_bound base
    base_endpoint=$ENDPOINT
    tools="iofleet base fio"
fi
tick=$(getconf CLK_TCK)

# Huge pages for fio's iomem=shmhuge (it takes them from the reserved
# pool; ours are transparent and need none): 8 of 2M, as many as a
# buffer of 16 requests of 128K can take with its rounding, given back
# on the way out.
hugepages=/proc/sys/vm/nr_hugepages
hugepages_before=$(cat "$hugepages")
case " $modes " in
    *h-*)
        if echo $((hugepages_before + 8)) 2>/dev/null > "$hugepages" &&
           [ "$(cat "$hugepages")" -ge $((hugepages_before + 8)) ]; then
            trap 'echo "$hugepages_before" > "$hugepages"; cleanup' EXIT
        else
            echo "$hugepages_before" > "$hugepages" 2>/dev/null || true
            echo "bench: no huge pages can be reserved here ($hugepages): the modes in huge pages are left out"
            modes=$(printf '%s\n' $modes | grep -v 'h-' | tr '\n' ' ')
        fi ;;
esac

# write_ini ENDPOINT MODE-DEPTH LIMIT: one stream of MODE on the file at
# DEPTH, ending at LIMIT.
write_ini () {
    local kind=${2%-*} depth=${2#*-} job iomem=malloc
    case $kind in *h) kind=${kind%h} iomem=huge ;; esac
    case $kind in
        rr) job="workload = randrw
mode = rndrd
path = u/f
files = 1
bs = 4K" ;;
        rw) job="workload = randrw
mode = rndwr
path = u/f
files = 1
bs = 4K
fsync_every = 0" ;;
        sr) job="workload = read
path = u/f
bs = 128K" ;;
        sw|sn) job="workload = write
path = u/w
bs = 128K
fsync = none" ;;
    esac
    cat > "$SCRATCH/bench.ini" <<INI
[global]
settle = 0
[agent bench]
endpoint = $1
[job u]
agent = bench
$job
size = $file_size
direct = yes
keep = yes
engine = io_uring
iodepth = $depth
iomem = $iomem
$3
INI
}

# The agent's CPU so far, in clock ticks (usr + sys).
agent_ticks () {
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# Each tool prints, of one run of MODE-DEPTH: IOPS, MB/s, CPU seconds per
# million requests, p50 and p99 in microseconds.
run_agent () {   # endpoint pid mode-depth
    local limit="runtime = ${seconds}s"
    case $3 in sn*) limit= ;; esac      # the file's size
    write_ini "$1" "$3" "$limit"
    rm -f "$SCRATCH/bench/u/w"
    local before after
    before=$(agent_ticks "$2")
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    after=$(agent_ticks "$2")
    python3 - "$SCRATCH/res/results.json" "$((after - before))" "$tick" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
s = t["summary"]
requests = sum(x["reads"] + x["writes"] for x in t["streams"])
moved = sum(x["bytes"] for x in t["streams"])
seconds = (s["last_end_ns"] - s["first_start_ns"]) / 1e9
lat = s["latency"]["requests"]
cpu_s = int(sys.argv[2]) / int(sys.argv[3])
print("%.1f %.1f %.3f %.1f %.1f" % (requests / seconds, moved / seconds / 1e6,
                                    cpu_s / requests * 1e6, lat["p50_ns"] / 1e3,
                                    lat["p99_ns"] / 1e3))
PY
    rm -rf "$SCRATCH/res"
}
run_iofleet () { run_agent "$endpoint" "$agent_pid" "$1"; }
run_base () { run_agent "$base_endpoint" "$base_pid" "$1"; }
run_fio () {   # mode-depth
    local kind=${1%-*} depth=${1#*-} rw bs file=$SCRATCH/bench/u/f iomem=malloc
    local limit="--time_based --runtime=$seconds"
    case $kind in *h) kind=${kind%h} iomem=shmhuge ;; esac
    case $kind in
        rr) rw=randread bs=4k ;;
        rw) rw=randwrite bs=4k ;;
        sr) rw=read bs=128k ;;
        sw|sn) rw=write bs=128k file=$SCRATCH/bench/u/w
            rm -f "$file" ;;
    esac
    case $kind in sn) limit= ;; esac     # the file's size
    local TIMEFORMAT='%U %S' cpu
    { cpu=$( { time fio --name=u --filename="$file" --size="$file_size" \
            --ioengine=io_uring --fixedbufs --registerfiles --iodepth="$depth" --direct=1 \
            --iomem="$iomem" \
            --rw="$rw" --bs="$bs" --norandommap $limit \
            --fallocate=none --lat_percentiles=1 --output-format=json \
            --output="$SCRATCH/fio.json" > /dev/null 2>&1; } 2>&1 ); } ||
        fail "fio failed"
    python3 - "$SCRATCH/fio.json" "$rw" $cpu <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["write" if "write" in sys.argv[2] else "read"]
# fio's latency of a request: submission to completion (lat_ns).
l = d["lat_ns"]["percentile"]
cpu_s = float(sys.argv[3]) + float(sys.argv[4])
print("%.1f %.1f %.3f %.1f %.1f" % (d["iops"], d["bw_bytes"] / 1e6, cpu_s / d["total_ios"] * 1e6,
                                    l["50.000000"] / 1e3, l["99.000000"] / 1e3))
PY
}

echo "bench: $rounds rounds of ${seconds} s per tool and mode: one stream, O_DIRECT, engine = io_uring and fio ioengine=io_uring, over one file of $file_size on $(df --output=source,fstype "$SCRATCH" | tail -1)"
# The file, laid out once and kept, untimed: a run of a few requests.
write_ini "$endpoint" rr-1 "requests = 16"
"$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
    fail "laying out the file failed"
rm -rf "$SCRATCH/res"
[ "$(stat -c %s "$SCRATCH/bench/u/f")" = "$(numfmt --from=iec "$file_size")" ] ||
    fail "the file is not laid out"

# shellcheck disable=SC2086  # one word a tool
bench_figures "$rounds" "$modes" "IOPS MBps cpu_s_per_M p50_us p99_us" $tools

# table OURS: our medians beside fio's, one line a mode.
table () {
    local ours=$1 mode figure
    echo
    printf '%-7s %10s %10s %7s %7s %15s %17s %17s\n' mode "$ours" fio ratio "rounds'" \
        "cpu s/M req" "$ours p50/p99" "fio p50/p99"
    for mode in $modes; do
        # The sequential modes are held to MB/s, the random ones to IOPS.
        case $mode in s*) figure=MBps ;; *) figure=IOPS ;; esac
        awk -v d="$mode" -v i="$(median "$mode-$figure" "$ours")" \
            -v f="$(median "$mode-$figure" fio)" -v r="$(paired "$mode-$figure" "$ours" fio)" \
            -v ic="$(median "$mode-cpu_s_per_M" "$ours")" -v fc="$(median "$mode-cpu_s_per_M" fio)" \
            -v i50="$(median "$mode-p50_us" "$ours")" -v i99="$(median "$mode-p99_us" "$ours")" \
            -v f50="$(median "$mode-p50_us" fio)" -v f99="$(median "$mode-p99_us" fio)" 'BEGIN {
            printf "%-7s %10.1f %10.1f %7.3f %7.3f %15s %17s %17s\n", d, i, f, i / f, r,
                   sprintf("%.2f/%.2f", ic, fc), sprintf("%.1f/%.1f", i50, i99),
                   sprintf("%.1f/%.1f", f50, f99) }'
    done
}
table iofleet
[ -z "${BENCH_URING_BASE:-}" ] || table base
echo "(medians of $rounds rounds; rr/rw: 4K random read/write at the depth, IOPS; sr/sw: 128K"
echo " sequential read/write, MB/s, sn: the write's first pass over a new file alone,"
echo " h: buffers in huge pages (ours iomem = huge, fio's"
echo " iomem=shmhuge); ratio: of the medians, rounds': the median of each round's"
echo " own ratio; cpu: seconds of usr + sys per million requests, the agent's/fio's; latencies"
echo " in us, submission to completion; targets: ratio >= 0.97, cpu <= fio's)"
