#!/usr/bin/env bash
# What a test leaves in an idle agent does not grow with its streams:
# after a test of 256 streams the agent holds about what it held after a
# test of one (its private, anonymous memory, RssAnon, within 512 kB).
# Left to glibc it would keep a malloc arena for many of the streams'
# threads and the stacks of 160 of them: some 10 MB more on 2 cores.
. "$(dirname "$0")/lib.sh"

# The sanitizers' allocator keeps what is freed in a quarantine.
! ldd "$BIN/iofleet-agent" | grep -q libasan || { echo "skipped: a sanitizer build"; exit 0; }
[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 2048 ] || {
    echo "skipped: the hard limit on descriptors is $(ulimit -Hn)"; exit 0; }
start_agent a1
AGENT=${PIDS[-1]}

# run_streams COUNT NTH: the NTH test, of COUNT streams writing 64K each;
# then the agent's RssAnon in kB.
run_streams () {
    {
        printf '[global]\nsettle = 0\nfsync = none\nsize = 64K\nbs = 64K\n'
        printf '[agent a1]\nendpoint = %s\n' "$ENDPOINT"
        printf '[job w]\nagent = a1\npath = w/f\nstreams = %d\n' "$1"
    } > "$SCRATCH/s$1.ini"
    RESULTS=$SCRATCH/res$1
    "$BIN/iofleet" run "$SCRATCH/s$1.ini" -q --no-db -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" ||
        { tail -5 "$SCRATCH/err"; fail "the test of $1 streams failed"; }
    [ "$(json 'sum(s["bytes"] for s in r["tests"][0]["streams"])')" = $(($1 * 65536)) ] ||
        fail "not every one of $1 streams wrote its 64K"
    # The agent gives back what the test held when it forgets it.
    local i
    for i in $(seq 100); do
        [ "$(grep -c 'event=test-over' "$SCRATCH/a1.log")" -ge "$2" ] && break
        sleep 0.05
    done
    sleep 0.2
    awk '/^RssAnon:/ { print $2 }' "/proc/$AGENT/status"
}

one=$(run_streams 1 1)
many=$(run_streams 256 2)
echo "RssAnon after 1 stream: $one kB, after 256: $many kB"
[ $((many - one)) -lt 512 ] || fail "256 streams left $((many - one)) kB more than one did"
echo "idle memory: ok"
