#!/usr/bin/env bash
# make bench: the write workload beside dd and fio on the same file
# system, in the same run, alternating, several rounds. Absolute figures
# wander on these machines; the ratios measured side by side do not.
#
#   BENCH_SIZE   bytes per run (default 2G)        BENCH_ROUNDS (default 3)
#   TMPDIR       where the files go (the file system measured)
#
# Two modes: buffered with the final fdatasync timed (iofleet fsync = end,
# dd conv=fdatasync, fio psync end_fsync=1) and O_DIRECT with no final
# flush (iofleet direct = yes, fsync = none; dd oflag=direct; fio direct=1).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

start_agent bench
endpoint=$ENDPOINT

# Each tool prints MB/s (10^6 bytes/s) of one run on stdout.
run_iofleet () {   # mode
    local direct=no fsync=end
    [ "$1" = direct ] && direct=yes fsync=none
    printf '[global]\nsettle = 0\n[agent bench]\nendpoint = %s\n[job w]\nagent = bench\npath = iofleet.dat\nsize = %s\nbs = 1M\nfsync = %s\ndirect = %s\n' \
        "$endpoint" "$size" "$fsync" "$direct" > "$SCRATCH/bench.ini"
    "$BIN/iofleet" run -q "$SCRATCH/bench.ini" -o "$SCRATCH/res" >/dev/null 2>&1 ||
        fail "iofleet run failed"
    rate_of "$SCRATCH/res"
    rm -rf "$SCRATCH/res"
}
run_dd () {   # mode
    local flag=conv=fdatasync
    [ "$1" = direct ] && flag=oflag=direct
    LC_ALL=C dd if=/dev/zero of="$SCRATCH/dd.dat" bs=1M count=$((bytes / 1048576)) "$flag" 2>&1 |
        awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") t = $(i-1); printf "%.1f\n", $1 / t / 1e6 }'
    rm -f "$SCRATCH/dd.dat"
}
run_fio () {   # mode
    local opts="--end_fsync=1"
    [ "$1" = direct ] && opts="--direct=1"
    # shellcheck disable=SC2086
    fio --name=bench --filename="$SCRATCH/fio.dat" --rw=write --bs=1M --size="$bytes" \
        --ioengine=psync $opts --output-format=json 2>/dev/null |
        python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["jobs"][0]["write"]["bw_bytes"] / 1e6))'
    rm -f "$SCRATCH/fio.dat"
}

echo "bench: $rounds rounds of $size per tool and mode, on $(df --output=source,fstype "$SCRATCH" | tail -1)"
bench_rounds "$rounds" "fsync direct" iofleet dd fio

echo
bench_ratios "fsync direct" iofleet dd fio
echo "(medians of $rounds rounds, MB/s = 10^6 bytes/s; target: iofleet/best >= 0.97)"
