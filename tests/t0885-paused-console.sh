#!/usr/bin/env bash
# A console paused (SIGSTOP, as Ctrl-Z or a paused VM does) for longer
# than the lease, mid-test, then resumed: it counts no silence for the
# time it did not listen, reads what waited on its socket before judging
# anyone, and finishes the run. a1's test ended while the console was
# stopped: its complete result is kept. a2's stream was still running
# when its lease gave the silent console up: it is the only thing lost.
# The later tests run on both agents, whose sessions are opened again.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/pause.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
pause_scenario "$SCRATCH/paused.ini" "$E1" "$E2"
RESULTS=$SCRATCH/out
"$BIN/iofleet" run "$SCRATCH/paused.ini" -o "$RESULTS" \
    > "$SCRATCH/run.txt" 2> "$SCRATCH/run.err" &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/a1.log" "event=start "
sleep 1.5
kill -STOP "$run"
sleep 8                                 # past the lease (5 s)
kill -CONT "$run"
pause_wait "$run" 30
cat "$SCRATCH/run.err"
[ -s "$RESULTS/results.json" ] || fail "no results written (exit $RC)"

# a1's complete result, sent while the console was stopped, is kept.
[ "$(json '[s["bytes"] for t in r["tests"] if t["name"]=="t1" for s in t["streams"] if s["agent"]=="a1"][0]')" = 8388608 ] ||
    fail "a1's complete t1 result was not kept"
[ "$(json '[s.get("error") or "" for t in r["tests"] if t["name"]=="t1" for s in t["streams"] if s["agent"]=="a1"][0]')" = "" ] ||
    fail "a1's t1 stream is marked failed"
grep -q "agent=a1 event=lost test=t1 reason=\"agent lost: no word" "$SCRATCH/run.err" &&
    fail "a1 was judged silent for the time the console was stopped"
# Every later test ran whole on every agent.
for t in t2 t3 t4; do
    n=$(json "len([s for t in r['tests'] if t['name']=='$t' for s in t['streams'] if s.get('finished') and not s.get('error')])")
    want=$([ "$t" = t2 ] && echo 1 || echo 2)
    [ "$n" = "$want" ] || fail "test $t: $n of $want streams complete"
done
grep -q "event=absent" "$SCRATCH/run.err" && fail "an agent was absent from a later test"
# What was lost is a2's t1 stream, aborted by its own lease: exit 1 says so.
[ "$RC" = 1 ] || fail "exit $RC, expected 1 (a2's t1 stream was aborted by its lease)"
echo "paused console: ok"
