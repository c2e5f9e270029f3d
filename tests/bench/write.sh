#!/usr/bin/env bash
# make bench: the write workload beside dd and fio on the same file
# system, in the same run, alternating, several rounds. Absolute figures
# wander on these machines; the ratios measured side by side do not.
#
#   BENCH_SIZE   bytes per run (default 2G)        BENCH_ROUNDS (default 3)
#   BENCH_DIR    where the files go (default: a scratch dir in $TMPDIR)
#
# Two modes: buffered with the final fdatasync timed (dd conv=fdatasync,
# fio psync end_fsync=1) and O_DIRECT (dd oflag=direct, fio direct=1).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/${1:-build}
size=${BENCH_SIZE:-2G}
rounds=${BENCH_ROUNDS:-3}
scratch=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/iofleet-bench.XXXXXX")
agent_pid=
cleanup () {
    [ -n "$agent_pid" ] && kill "$agent_pid" 2>/dev/null && wait "$agent_pid" 2>/dev/null
    rm -rf "$scratch"
}
trap cleanup EXIT

bytes=$(numfmt --from=iec "$size")
mib=$((bytes / 1048576))
mkdir -p "$scratch/root"
"$bin/iofleet-agent" --bind 'tcp://127.0.0.1:*' --name bench --root "$scratch/root" \
    2>"$scratch/agent.log" &
agent_pid=$!
endpoint=
for _ in $(seq 100); do
    endpoint=$(sed -n 's/.*event=bound .*endpoint=\([^ ]*\).*/\1/p' "$scratch/agent.log" | head -1)
    [ -n "$endpoint" ] && break
    sleep 0.05
done
[ -n "$endpoint" ] || { cat "$scratch/agent.log"; exit 1; }

# Each tool prints MB/s (10^6 bytes/s) of one run on stdout.
run_iofleet () {   # mode
    local direct=no
    [ "$1" = direct ] && direct=yes
    printf '[agent bench]\nendpoint = %s\n[job w]\nagent = bench\npath = iofleet.dat\nsize = %s\nbs = 1M\nfsync = end\ndirect = %s\n' \
        "$endpoint" "$size" "$direct" > "$scratch/bench.ini"
    "$bin/iofleet" run -q "$scratch/bench.ini" -o "$scratch/res" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["tests"][0]["streams"][0]["rate_mbps"])' \
        "$scratch/res/results.json"
    rm -rf "$scratch/res"
}
run_dd () {   # mode
    local flag=conv=fdatasync
    [ "$1" = direct ] && flag=oflag=direct
    LC_ALL=C dd if=/dev/zero of="$scratch/dd.dat" bs=1M count="$mib" "$flag" 2>&1 |
        awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") t = $(i-1); printf "%.1f\n", $1 / t / 1e6 }'
    rm -f "$scratch/dd.dat"
}
run_fio () {   # mode
    local opts="--end_fsync=1"
    [ "$1" = direct ] && opts="--direct=1"
    # shellcheck disable=SC2086
    fio --name=bench --filename="$scratch/fio.dat" --rw=write --bs=1M --size="$bytes" \
        --ioengine=psync $opts --output-format=json 2>/dev/null |
        python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["jobs"][0]["write"]["bw_bytes"] / 1e6))'
    rm -f "$scratch/fio.dat"
}

declare -A all
tools=(iofleet dd fio)
echo "bench: $rounds rounds of $size per tool and mode, on $(df --output=source,fstype "$scratch" | tail -1)"
for round in $(seq "$rounds"); do
    for mode in fsync direct; do
        # Rotate the order each round so that no tool always runs first.
        for k in 0 1 2; do
            tool=${tools[$(( (k + round) % 3 ))]}
            rate=$("run_$tool" "$mode")
            all[$mode.$tool]="${all[$mode.$tool]:-} $rate"
            printf 'round %d  %-6s  %-7s  %8s MB/s\n' "$round" "$mode" "$tool" "$rate"
        done
    done
done

median () { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2)? a[(NR+1)/2]: (a[NR/2] + a[NR/2+1]) / 2 }'; }
echo
printf '%-7s %10s %10s %10s %12s %12s %14s\n' mode iofleet dd fio iofleet/dd iofleet/fio iofleet/best
for mode in fsync direct; do
    i=$(echo "${all[$mode.iofleet]}" | median)
    d=$(echo "${all[$mode.dd]}" | median)
    f=$(echo "${all[$mode.fio]}" | median)
    awk -v m="$mode" -v i="$i" -v d="$d" -v f="$f" 'BEGIN {
        b = (d > f)? d: f
        printf "%-7s %10.1f %10.1f %10.1f %12.3f %12.3f %14.3f\n", m, i, d, f, i / d, i / f, i / b }'
done
echo "(medians of $rounds rounds, MB/s = 10^6 bytes/s; target: iofleet/best >= 0.97)"
