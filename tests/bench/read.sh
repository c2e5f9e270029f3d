#!/usr/bin/env bash
# make bench: the read workload beside `dd of=/dev/null` and fio read, on
# the same file of the same file system, in the same run, alternating,
# several rounds. Absolute figures wander; the ratios measured side by
# side do not.
#
#   BENCH_SIZE   bytes of the file (default 2G)      BENCH_ROUNDS (default 3)
#   TMPDIR       where the file goes (the file system measured)
#
# Two modes, both reading from the disk and not from the page cache:
# "cold", buffered reads after the page cache was dropped (iofleet
# drop_caches = yes; `sync; echo 3 > /proc/sys/vm/drop_caches` before dd
# and fio, whose own invalidate would only drop this file), and "direct",
# O_DIRECT (iofleet direct = yes, dd iflag=direct, fio direct=1). Dropping
# the page cache needs root.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

[ "$(id -u)" = 0 ] || fail "read bench: dropping the page cache needs root"
start_agent bench
endpoint=$ENDPOINT
file=$SCRATCH/bench/read.dat
# One file for all three, written once, untimed.
dd if=/dev/urandom of="$file" bs=1M count=$((bytes / 1048576)) conv=fdatasync status=none

drop_caches () {
    sync
    echo 3 > /proc/sys/vm/drop_caches
}

# Each tool prints MB/s (10^6 bytes/s) of one read on stdout.
run_iofleet () {   # mode
    local direct=no drop=yes
    [ "$1" = direct ] && direct=yes drop=no
    printf '[global]\nsettle = 0\n[agent bench]\nendpoint = %s\n[job r]\nagent = bench\nworkload = read\npath = read.dat\nbs = 1M\ndirect = %s\ndrop_caches = %s\nkeep = yes\n' \
        "$endpoint" "$direct" "$drop" > "$SCRATCH/bench.ini"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    rate_of "$SCRATCH/res"
    rm -rf "$SCRATCH/res"
}
run_dd () {   # mode
    local flag=
    if [ "$1" = direct ]; then flag=iflag=direct; else drop_caches; fi
    # shellcheck disable=SC2086
    LC_ALL=C dd if="$file" of=/dev/null bs=1M $flag 2>&1 |
        awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") t = $(i-1); printf "%.1f\n", $1 / t / 1e6 }'
}
run_fio () {   # mode
    local opts="--invalidate=0"
    if [ "$1" = direct ]; then opts="--direct=1"; else drop_caches; fi
    # shellcheck disable=SC2086
    fio --name=bench --filename="$file" --rw=read --bs=1M --size="$bytes" \
        --ioengine=psync $opts --output-format=json 2>/dev/null |
        python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["jobs"][0]["read"]["bw_bytes"] / 1e6))'
}

echo "bench: $rounds rounds of reading $size per tool and mode, on $(df --output=source,fstype "$SCRATCH" | tail -1)"
bench_rounds "$rounds" "cold direct" iofleet dd fio
echo
bench_ratios "cold direct" iofleet dd fio
echo "(medians of $rounds rounds, MB/s = 10^6 bytes/s; target: iofleet/best >= 0.97)"
