#!/usr/bin/env bash
# make bench: one stream's requests in flight on a file system whose
# every request takes the same time (tests/bench/delayfs.c over FUSE,
# each request sleeping its whole time, as many threads as it may be
# asked for at once: tests/delayfs.sh's delayfs_depth_mount). 4K random
# reads, O_DIRECT, one file, alternating rounds:
#   - iodepth 32: engine = io_uring beside fio's ioengine=io_uring (one
#     job, the same depth); 32 requests of 1 ms make 32000 a second, and
#     the goal is >= 0.8 of that;
#   - iodepth 1: engine = io_uring beside engine = psync; the goal is
#     the same rate within 10%.
# Prints each run's requests a second and the file system's peak of
# requests in flight, then the medians and the ratios.
#
#   BENCH_FUSE_US    the file system's time per request (default 1000)
#   BENCH_FUSE_TIME  seconds a run (default 2)
#   BENCH_ROUNDS     rounds (default 3)
#
# What a request costs beyond its sleep is the machine's (the FUSE round
# trip, a sleeping thread's wakeup): about 90 us at iodepth 1 and 170 us
# at 32 on a 2-CPU virtual machine, so 25-28k a second at iodepth 32,
# for either tool.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"
. "$top/tests/delayfs.sh"

delay_us=${BENCH_FUSE_US:-1000}
seconds=${BENCH_FUSE_TIME:-2}
depth=32
command -v fio > /dev/null || fail "fio missing: make deps-test"

delayfs_build
delayfs_depth_mount d "$delay_us" "$depth"
mnt=$SCRATCH/mnt-d
start_agent bench --root "$mnt"
endpoint=$ENDPOINT

# Each tool prints, of one run of MODE (d32, d1): requests a second and
# the file system's peak in flight; nothing for a mode it does not run.
ours () {   # ENGINE DEPTH LIMIT
    cat > "$SCRATCH/bench.ini" <<INI
[global]
settle = 0
[agent bench]
endpoint = $endpoint
[job r]
agent = bench
workload = randrw
mode = rndrd
path = $mnt/one
files = 1
size = 32M
bs = 4K
direct = yes
keep = yes
engine = $1
iodepth = $2
$3
INI
    delayfs_reset d
    rm -rf "$SCRATCH/res"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" > /dev/null 2>&1 ||
        fail "iofleet run failed"
}
figures_ours () {
    python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["tests"][0]["summary"]
print("%.0f %s" % (s["combined_ops_per_s"], sys.argv[2]))' "$SCRATCH/res/results.json" \
        "$(delayfs_stats d peak)"
}
run_iofleet () {
    case $1 in
        d32) ours io_uring "$depth" "runtime = ${seconds}s" ;;
        d1) ours io_uring 1 "runtime = ${seconds}s" ;;
    esac
    figures_ours
}
run_psync () {
    [ "$1" = d1 ] || return 0
    ours psync 1 "runtime = ${seconds}s"
    figures_ours
}
run_fio () {
    [ "$1" = d32 ] || return 0
    delayfs_reset d
    fio --name=r --filename="$mnt/one" --size=32M --ioengine=io_uring --iodepth="$depth" \
        --direct=1 --rw=randread --bs=4k --norandommap --time_based --runtime="$seconds" \
        --output-format=json --output="$SCRATCH/fio.json" > /dev/null 2>&1 || fail "fio failed"
    python3 -c 'import json, sys
print("%.0f %s" % (json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"], sys.argv[2]))' \
        "$SCRATCH/fio.json" "$(delayfs_stats d peak)"
}

echo "bench: $rounds rounds of ${seconds} s: one stream of 4K random reads, O_DIRECT, on a file system of ${delay_us} us a request"
# The file, laid out once by the agent and kept.
ours psync 1 "requests = 16"
bench_figures "$rounds" "d32 d1" "rps peak" iofleet fio psync

ideal=$((depth * 1000000 / delay_us))
echo
awk -v i="$(median d32-rps iofleet)" -v f="$(median d32-rps fio)" -v p="$(paired d32-rps iofleet fio)" \
    -v ip="$(median d32-peak iofleet)" -v fp="$(median d32-peak fio)" -v ideal="$ideal" 'BEGIN {
    printf "iodepth 32: io_uring %.0f/s (peak %d in flight), fio %.0f/s (peak %d); ours/fio %.3f (rounds %.3f);\n",
           i, ip, f, fp, i / f, p
    printf "            %.3f of %d, the goal >= 0.8\n", i / ideal, ideal }'
awk -v u="$(median d1-rps iofleet)" -v p="$(median d1-rps psync)" -v r="$(paired d1-rps iofleet psync)" 'BEGIN {
    printf "iodepth 1:  io_uring %.0f/s, psync %.0f/s; io_uring/psync %.3f (rounds %.3f), the goal 0.9-1.1\n",
           u, p, u / p, r }'
echo "(medians of $rounds rounds)"
