#!/usr/bin/env bash
# make bench: the copy workload reading over nfs:// beside nfs-cp (libnfs'
# own copy tool, same library, same server) and cp from the exported
# directory as a local path, on the same source, in the same run,
# alternating, several rounds. The copy runs at iodepth 1 (one READ call
# in flight, as nfs-cp) and at iodepth 8 (eight in flight on the
# stream's connection, the blocks written in order). The target is a
# copy not slower than nfs-cp; cp shows what the local disk and page
# cache give without NFS.
#
#   BENCH_COPY_SIZE   bytes of the source (default 1G)   BENCH_ROUNDS (default 3)
#
# Three modes: "cache", nothing flushed (iofleet fsync = none; nfs-cp and cp
# as they are), "fsync", the destination's data flushed and timed
# (iofleet fsync = end; nfs-cp and cp followed by `sync --data` on the
# file, inside the timing), and "read", the source read and nothing
# written to a disk (iofleet's read workload; nfs-cp, which cannot write
# to /dev/null, to a file in /dev/shm, and cp to /dev/null, from the
# page cache). nfs-cp and cp are timed as whole processes,
# their mount and start-up included; iofleet's rate starts after its
# prepare (mount and open), as every iofleet rate does.
#
# The NFS server (rpcbind + ganesha) runs in a network namespace of its
# own (tests/nfs.sh), which needs root.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/netns.sh"
. "$top/tests/nfs.sh"
. "$top/tests/bench/lib.sh"

size=${BENCH_COPY_SIZE:-1G}
bytes=$(numfmt --from=iec "$size")
command -v nfs-cp >/dev/null || fail "nfs-cp missing: make deps (libnfs-utils)"

nfs_server "$SCRATCH/export"
head -c "$bytes" /dev/urandom > "$SCRATCH/export/src"
start_agent bench --allow-nfs "$NFS_ADDR"
endpoint=$ENDPOINT
out=$SCRATCH/bench

# Each tool prints MB/s (10^6 bytes/s) of one copy on stdout and checks
# that the copy is whole.
check_size () {   # file
    [ "$(stat -c %s "$1")" = "$bytes" ] || fail "$1: $(stat -c %s "$1") bytes, not $bytes"
    rm -f "$1"
}
s_iofleet () {   # mode iodepth
    local fsync=none job
    [ "$1" = fsync ] && fsync=end
    job="workload = copy\nsrc = $NFS_URL/src\ndst = copy.dat\nfsync = $fsync"
    [ "$1" = read ] && job="workload = read\npath = $NFS_URL/src"
    printf '[global]\nsettle = 0\nkeep = yes\n[agent bench]\nendpoint = %s\n[job c]\nagent = bench\n%b\nbs = 1M\niodepth = %s\n' \
        "$endpoint" "$job" "$2" > "$SCRATCH/bench.ini"
    "$BIN/iofleet" run -q "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    rate_of "$SCRATCH/res"
    if [ "$1" = read ]; then
        python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["tests"][0]["streams"][0]["bytes"] != int(sys.argv[2]))' \
            "$SCRATCH/res/results.json" "$bytes" || fail "the read did not read $bytes bytes"
    else
        check_size "$SCRATCH/bench/copy.dat"
    fi
    rm -rf "$SCRATCH/res"
}
run_iofleet () {   # mode
    s_iofleet "$1" 1
}
run_iofleet8 () {   # mode
    s_iofleet "$1" 8
}
s_timed () {   # mode file command...: run, flush file if asked, print MB/s
    local mode=$1 file=$2 start end
    shift 2
    start=$(date +%s%N)
    "$@" >/dev/null
    [ "$mode" = fsync ] && sync --data "$file"
    end=$(date +%s%N)
    awk -v b="$bytes" -v ns=$((end - start)) 'BEGIN { printf "%.1f\n", b / (ns / 1e9) / 1e6 }'
    [ "$mode" = read ] || check_size "$file"
}
run_nfscp () {   # mode
    local file=$out/nfscp.dat
    [ "$1" = read ] && file=$SHM_FILE
    s_timed "$1" "$file" nfs-cp "$NFS_URL/src" "$file"
    rm -f "$SHM_FILE"
}
run_cp () {   # mode
    local file=$out/cp.dat
    [ "$1" = read ] && file=/dev/null
    s_timed "$1" "$file" cp "$SCRATCH/export/src" "$file"
}
SHM_FILE=/dev/shm/iofleet-bench-$$.dat
trap 'rm -f "$SHM_FILE"; netns_cleanup_all' EXIT

echo "bench: $rounds rounds of copying $size per tool and mode, from $NFS_URL/src"
bench_rounds "$rounds" "cache fsync read" iofleet iofleet8 nfscp cp
echo
printf '%-7s %10s %10s %10s %10s %15s %15s %12s\n' mode iofleet iodepth=8 nfs-cp cp \
    iofleet/nfs-cp iodepth=8/nfs-cp iofleet/cp
for mode in cache fsync read; do
    i=$(median "$mode" iofleet)
    d=$(median "$mode" iofleet8)
    n=$(median "$mode" nfscp)
    c=$(median "$mode" cp)
    awk -v m="$mode" -v i="$i" -v d="$d" -v n="$n" -v c="$c" 'BEGIN {
        printf "%-7s %10.1f %10.1f %10.1f %10.1f %15.3f %15.3f %12.3f\n", m, i, d, n, c,
               i / n, d / n, i / c }'
done
echo "(medians of $rounds rounds, MB/s = 10^6 bytes/s; iofleet at iodepth 1 and 8;"
echo " target: iofleet/nfs-cp >= 1)"
