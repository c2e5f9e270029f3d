#!/usr/bin/env bash
# make bench: the copy workload reading over nfs:// beside nfs-cp (libnfs'
# own copy tool, same library, same server) and cp from the exported
# directory as a local path, on the same source, in the same run,
# alternating, several rounds. The target is a copy not slower than
# nfs-cp; cp shows what the local disk and page cache give without NFS.
#
#   BENCH_COPY_SIZE   bytes of the source (default 1G)   BENCH_ROUNDS (default 3)
#
# Two modes: "cache", nothing flushed (iofleet fsync = none; nfs-cp and cp
# as they are), and "fsync", the destination's data flushed and timed
# (iofleet fsync = end; nfs-cp and cp followed by `sync --data` on the
# file, inside the timing). nfs-cp and cp are timed as whole processes,
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
run_iofleet () {   # mode
    local fsync=none
    [ "$1" = fsync ] && fsync=end
    printf '[global]\nsettle = 0\nkeep = yes\n[agent bench]\nendpoint = %s\n[job c]\nagent = bench\nworkload = copy\nsrc = %s/src\ndst = copy.dat\nbs = 1M\nfsync = %s\n' \
        "$endpoint" "$NFS_URL" "$fsync" > "$SCRATCH/bench.ini"
    "$BIN/iofleet" run -q "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    rate_of "$SCRATCH/res"
    rm -rf "$SCRATCH/res"
    check_size "$SCRATCH/bench/copy.dat"
}
s_timed () {   # mode file command...: run, flush file if asked, print MB/s
    local mode=$1 file=$2 start end
    shift 2
    start=$(date +%s%N)
    "$@" >/dev/null
    [ "$mode" = fsync ] && sync --data "$file"
    end=$(date +%s%N)
    awk -v b="$bytes" -v ns=$((end - start)) 'BEGIN { printf "%.1f\n", b / (ns / 1e9) / 1e6 }'
    check_size "$file"
}
run_nfscp () {   # mode
    s_timed "$1" "$out/nfscp.dat" nfs-cp "$NFS_URL/src" "$out/nfscp.dat"
}
run_cp () {   # mode
    s_timed "$1" "$out/cp.dat" cp "$SCRATCH/export/src" "$out/cp.dat"
}

echo "bench: $rounds rounds of copying $size per tool and mode, from $NFS_URL/src"
bench_rounds "$rounds" "cache fsync" iofleet nfscp cp
echo
printf '%-7s %10s %10s %10s %15s %12s\n' mode iofleet nfs-cp cp iofleet/nfs-cp iofleet/cp
for mode in cache fsync; do
    i=$(median "$mode" iofleet)
    n=$(median "$mode" nfscp)
    c=$(median "$mode" cp)
    awk -v m="$mode" -v i="$i" -v n="$n" -v c="$c" 'BEGIN {
        printf "%-7s %10.1f %10.1f %10.1f %15.3f %12.3f\n", m, i, n, c, i / n, i / c }'
done
echo "(medians of $rounds rounds, MB/s = 10^6 bytes/s; target: iofleet/nfs-cp >= 1)"
