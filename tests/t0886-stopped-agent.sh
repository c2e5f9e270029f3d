#!/usr/bin/env bash
# An agent stopped (SIGSTOP: a frozen host, a partition) past the lease
# mid-test and then resumed: the console gives it up for that test, and
# the agent, back, reads the ABORT and the console's new hello. It must
# take part in the next test it has a job in, as a killed and restarted
# agent does: its session goes on (the console reconnected under the
# routing id it keeps for the whole run) and is kept alive from then on.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/pause.sh"

start_agent a1; E1=$ENDPOINT; A1=${PIDS[-1]}
start_agent a2; E2=$ENDPOINT
pause_scenario "$SCRATCH/stopped.ini" "$E1" "$E2"
RESULTS=$SCRATCH/out
"$BIN/iofleet" run "$SCRATCH/stopped.ini" -o "$RESULTS" > "$SCRATCH/run.txt" 2> "$SCRATCH/run.err" &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/a1.log" "event=start "
sleep 1.2
kill -STOP "$A1"
sleep 8                                 # past the lease (5 s)
kill -CONT "$A1"
pause_wait "$run" 40
cat "$SCRATCH/run.err"
[ -s "$RESULTS/results.json" ] || fail "no results written (exit $RC)"
grep -q "agent=a1 event=lost test=t1" "$SCRATCH/run.err" || fail "a1 was not given up in t1"
grep -q "event=lease-expired" "$SCRATCH/a1.log" && {
    cat "$SCRATCH/a1.log"; fail "a1's lease ran out after it came back: no keepalives reached it"; }
grep -q "agent=a1 test=t[34] event=absent" "$SCRATCH/run.err" && fail "a1 was kept out of a later test"
for t in t3 t4; do
    n=$(json "len([s for t in r['tests'] if t['name']=='$t' for s in t['streams'] if s.get('finished') and not s.get('error')])")
    [ "$n" = 2 ] || fail "test $t: $n of 2 streams complete"
done
[ "$(json '[s["bytes"] for t in r["tests"] if t["name"]=="t1" for s in t["streams"] if s["agent"]=="a2"][0]')" = 25165824 ] ||
    fail "a2's t1 stream did not complete"
[ "$RC" = 1 ] || fail "exit $RC, expected 1 (a1's t1 stream was lost)"
echo "stopped agent: ok"
