#!/usr/bin/env bash
# A low open-file limit is refused before the first socket, with the
# count it takes and exit 2, instead of an abort in libzmq or CZMQ
# (exit 134): run, ping and the agent, at limits of 5 to 40. A soft
# limit below what is needed, under a hard one that allows it, is raised
# and the run goes on.
. "$(dirname "$0")/lib.sh"

# expect_refused LIMIT PATTERN COMMAND...: COMMAND under `ulimit -n LIMIT`
# exits 2 and says PATTERN on stderr.
expect_refused () {
    local limit=$1 pattern=$2 rc=0
    shift 2
    ( ulimit -n "$limit" && exec timeout 20 "$@" ) > "$SCRATCH/out" 2> "$SCRATCH/err" || rc=$?
    [ "$rc" = 2 ] && grep -qE "$pattern" "$SCRATCH/err" ||
        { cat "$SCRATCH/err"; fail "ulimit -n $limit: $* exited $rc"; }
}

start_agent a1
printf '[agent a1]\nendpoint = %s\n[job w]\nagent = a1\npath = w\nsize = 1M\nsettle = 0\n' \
    "$ENDPOINT" > "$SCRATCH/one.ini"
expect_refused 10 "^iofleet: 1 agent needs 65 open files, and this process may have no more than 10" \
    "$BIN/iofleet" run -q --no-db "$SCRATCH/one.ini" -o "$SCRATCH/r10"
[ ! -e "$SCRATCH/r10" ] || fail "a refused run made its results directory"
for limit in 5 10; do
    expect_refused "$limit" "^iofleet ping: 1 agent needs 65 open files" "$BIN/iofleet" ping "$ENDPOINT"
done
for limit in 5 8; do
    expect_refused "$limit" "^iofleet-agent: the agent needs 64 open files, .* no more than $limit " \
        "$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --root "$SCRATCH" --name low
done

# Ten agents at 40: the count is the fleet's, said once.
{
    echo "[group many]"
    echo "agents = m[1-10]"
    echo "endpoint = tcp://127.0.0.1:{n+1}"
    printf '[job w]\nagent = many\npath = w\nsize = 1M\n'
} > "$SCRATCH/ten.ini"
expect_refused 40 "^iofleet: 10 agents need 74 open files, and this process may have no more than 40" \
    "$BIN/iofleet" run -q --no-db "$SCRATCH/ten.ini" -o "$SCRATCH/r40"

# A soft limit of 10 under a higher hard one is raised: the run, ping
# and an agent work.
rc=0
( ulimit -Sn 10 && exec timeout 60 "$BIN/iofleet" run -q --no-db "$SCRATCH/one.ini" -o "$SCRATCH/soft" ) \
    > "$SCRATCH/out" 2> "$SCRATCH/err" || rc=$?
[ "$rc" = 0 ] || { cat "$SCRATCH/err"; fail "a run at a soft limit of 10 exited $rc"; }
( ulimit -Sn 10 && exec timeout 20 "$BIN/iofleet" ping "$ENDPOINT" ) > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "ping at a soft limit of 10 failed"; }
mkdir -p "$SCRATCH/soft-agent"
( ulimit -Sn 10 && exec "$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --root "$SCRATCH/soft-agent" \
    --name soft ) 2> "$SCRATCH/soft-agent.log" &
PIDS+=($!)
wait_bound soft-agent
"$BIN/iofleet" ping "$ENDPOINT" > "$SCRATCH/out" 2>&1 || { cat "$SCRATCH/out"; fail "the agent at a soft limit of 10 does not answer"; }
echo "fd limits: ok"
