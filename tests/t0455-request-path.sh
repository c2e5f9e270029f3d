#!/usr/bin/env bash
# The per-request path of randrw makes no system call besides its I/O:
# the clock is the vDSO's, a lock taken per request would show as futex
# calls under contention, a buffer allocated per request as brk/mmap
# calls now and then. strace counts every system call of the agent
# (every thread) over two runs that differ only in their requests, 2000
# and 12000: the reads, writes and fsyncs grow with the requests, and
# the other calls (the loop, the samples, the start and the end) do not,
# beyond a few per hundred requests; the yields of the spin to the start
# instant, which follow the scheduler, are counted apart.
. "$(dirname "$0")/lib.sh"

command -v strace > /dev/null || fail "strace is not installed (scripts/deps.sh installs it)"
start_agent a1; A1_PID=${PIDS[-1]}

# One run of `requests` requests under strace; prints "io other".
traced_run () {
    local requests=$1 out=$SCRATCH/strace-$1.txt
    cat > "$SCRATCH/r$requests.ini" <<INI
[global]
settle = 0
[agent a1]
endpoint = $ENDPOINT
[job j]
agent = a1
workload = randrw
path = set/f
size = 16M
files = 8
streams = 8
bs = 4K
direct = yes
fsync_every = 0
requests = $requests
INI
    strace -f -c -o "$out" -p "$A1_PID" 2> "$SCRATCH/strace-$requests.log" &
    local strace_pid=$!
    PIDS+=($strace_pid)
    wait_log "$SCRATCH/strace-$requests.log" "attached"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/r$requests.ini" -o "$SCRATCH/res$requests" \
        > "$SCRATCH/out$requests" 2>&1 || { cat "$SCRATCH/out$requests"; fail "run failed"; }
    kill -INT "$strace_pid"
    wait "$strace_pid" || true
    cat "$out" >&2
    awk '$NF ~ /^(pread64|pwrite64|fsync)$/ { io += $4; next }
         $NF == "sched_yield" { yields += $4; next }
         $NF != "total" && $4 ~ /^[0-9]+$/ { other += $4 }
         END { print io + 0, other + 0, yields + 0 }' "$out"
}

read -r io_small other_small yields_small < <(traced_run 2000)
read -r io_large other_large yields_large < <(traced_run 12000)
echo "2000 requests: $io_small I/O calls, $other_small others, $yields_small yields; 12000: $io_large I/O calls, $other_large others, $yields_large yields"
# Each run lays out its set (the session that kept it ended with its
# run), the same 16M: the difference is the requests' alone.
[ $((io_large - io_small)) -ge 10000 ] || fail "the I/O calls did not grow with the requests"
grown=$((other_large - other_small))
[ "$grown" -lt 300 ] ||
    fail "10000 more requests made $grown more calls besides their I/O: the request path calls the kernel"
# The streams spin the last milliseconds to the start instant, yielding
# while they do (proto/clock.c): as many yields as the scheduler gives
# turns, a few hundred either way. One a request would be 10000 more.
yields=$((yields_large - yields_small))
[ "$yields" -lt 2000 ] ||
    fail "10000 more requests made $yields more sched_yield calls: the request path yields"
echo "t0455 ok: 10000 more requests, $grown more calls besides their I/O, $yields more yields"
