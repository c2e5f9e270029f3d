#!/usr/bin/env bash
# make bench: the bonnie workload beside bonnie++ -f (Debian's bonnie++)
# on the same file system, in the same run, alternating, several rounds,
# with the same file size, chunk size and number of seekers. Prints the
# medians and the ratio per phase: block output, rewrite, block input in
# MB/s, random seeks per second.
#
#   BENCH_BONNIE_SIZE   file size (default 4G)      BENCH_ROUNDS (default 3)
#   BENCH_BONNIE_CHUNK  chunk size (default 64K)    TMPDIR: the file system measured
#   BENCH_BONNIE_MEMORY page cache both may use (default 512M)
#
# bonnie++ fsyncs its file at the end of every phase, inside its timing;
# so does the bonnie workload (fsync = close, its default). Both run
# buffered, as bonnie++ does without -D (whose O_DIRECT covers only the
# creation of the file: its rewrite, input and seeks stay buffered), and
# both run inside one memory cgroup that holds their page cache to
# BENCH_BONNIE_MEMORY, so that a file of a few GB is read from the disk
# rather than from this host's 24 GB of memory, as bonnie++'s rule of a
# file twice the memory intends: bonnie++ times nothing under half a
# second ("+++++"), and seeks in memory take less. bonnie++ is told the
# memory is that small (-r). Needs root and the cgroup v1 memory
# controller (/sys/fs/cgroup/memory).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

size=${BENCH_BONNIE_SIZE:-4G}
memory=${BENCH_BONNIE_MEMORY:-512M}
chunk=${BENCH_BONNIE_CHUNK:-64K}
seekers=5
mib=$(( $(numfmt --from=iec "$size") / 1048576 ))
chunk_bytes=$(numfmt --from=iec "$chunk")
command -v bonnie++ >/dev/null || fail "bonnie++ missing: make deps (bonnie++)"
memory_mib=$(( $(numfmt --from=iec "$memory") / 1048576 ))
[ "$memory_mib" -le $((mib / 2)) ] || fail "BENCH_BONNIE_MEMORY $memory: at most half the file"

# The cgroup both tools run in, removed once the agent is gone.
cgroup=/sys/fs/cgroup/memory/iofleet-bench-$$
[ -d /sys/fs/cgroup/memory ] || fail "no cgroup v1 memory controller at /sys/fs/cgroup/memory"
mkdir "$cgroup" || fail "cannot make $cgroup (root?)"
echo $((memory_mib * 1048576)) > "$cgroup/memory.limit_in_bytes"
bench_cleanup () {
    cleanup
    rmdir "$cgroup" 2>/dev/null || true
}
trap bench_cleanup EXIT
start_agent bench
endpoint=$ENDPOINT
echo "${PIDS[-1]}" > "$cgroup/cgroup.procs"
mkdir -p "$SCRATCH/bonnie++"
phases="output rewrite input seeks"

# Each tool prints four figures of one run: output, rewrite and input in
# MB/s (10^6 bytes/s), then seeks/s.
run_iofleet () {
    printf '[global]\nsettle = 0\n[agent bench]\nendpoint = %s\n[job b]\nagent = bench\nworkload = bonnie\npath = bonnie.dat\nsize = %s\nbs = %s\nseekers = %s\n' \
        "$endpoint" "$size" "$chunk" "$seekers" > "$SCRATCH/bench.ini"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    python3 - "$SCRATCH/res/results.json" <<'PY'
import json, sys
tests = {t["phase"]: t["summary"] for t in json.load(open(sys.argv[1]))["tests"]}
print(" ".join("%.1f" % tests[p]["combined_mbps"] for p in ("output", "rewrite", "input")),
      "%.0f" % tests["seeks"]["combined_ops_per_s"])
PY
    rm -rf "$SCRATCH/res"
}
run_bonnie () {
    # CSV fields (bonnie++ 1.98 format): 11 block output K/sec, 13 rewrite,
    # 17 block input, 19 seeks/s; "+++++" when a phase took under half a
    # second, too quick for bonnie++ to time: "-" here, left out of the
    # medians.
    sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cgroup" \
        bonnie++ -q -d "$SCRATCH/bonnie++" -s "${mib}:${chunk_bytes}" -n 0 -f -u root \
        -r "$memory_mib" -x 1 2>/dev/null | tail -1 |
        awk -F, 'function f(v, scale) { return (v ~ /^[0-9.]+$/)? sprintf ("%.1f", v * scale): "-" }
                 { print f($12, 1024 / 1e6), f($14, 1024 / 1e6), f($18, 1024 / 1e6), f($20, 1) }'
}

echo "bench: $rounds rounds of bonnie ${size}:${chunk}, $seekers seekers, page cache $memory, beside bonnie++ -f, on $(df --output=source,fstype "$SCRATCH" | tail -1)"
tools=(iofleet bonnie)
for round in $(seq "$rounds"); do
    for k in 0 1; do
        tool=${tools[$(( (k + round) % 2 ))]}
        figures=$("run_$tool") || fail "$tool failed"
        set -- $figures
        for phase in $phases; do
            [ "$1" = - ] || RATES[$phase.$tool]="${RATES[$phase.$tool]:-} $1"
            shift
        done
        printf 'round %d  %-8s  %s\n' "$round" "$tool" "$figures"
    done
done

echo
printf '%-8s %12s %12s %14s %8s\n' phase iofleet bonnie++ iofleet/bonnie target
for phase in $phases; do
    target=0.97
    case $phase in rewrite|seeks) target=0.90 ;; esac
    awk -v p="$phase" -v i="$(median "$phase" iofleet)" -v b="$(median "$phase" bonnie)" -v t="$target" \
        'BEGIN { if (b == "") { printf "%-8s %12.1f %12s %14s %8s\n", p, i, "+++++", "-", ">= " t; exit }
                 printf "%-8s %12.1f %12.1f %14.3f %8s\n", p, i, b, i / b, ">= " t }'
done
echo "(medians of $rounds rounds; output, rewrite, input in MB/s = 10^6 bytes/s, seeks per second)"
