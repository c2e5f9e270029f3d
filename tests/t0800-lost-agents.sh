#!/usr/bin/env bash
# Three hosts (network namespaces). An agent that dies or freezes
# mid-test is declared lost within the silence (the lease) plus one tick;
# the others finish; the report and the JSON are written and say partial;
# the exit status is 1. A frozen agent woken up again takes part in the
# next test, which its stale messages do not disturb.
# runs alone: an agent must be declared lost within the lease plus one tick
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"

netns_up
index=2
for a in a1 a2 a3; do
    netns_host "$a" "$index"
    index=$((index + 1))
    netns_agent "$a" "$SCRATCH/$a"
    eval "E_$a=\$ENDPOINT"
done
held=16M        # the held test: 4 s at 4 MB/s
scenario () {   # extra tests...
    printf '[global]\nlease = 2s\nconnect_timeout = 5s\ninterval = 100ms\nbs = 256K\nsettle = 0\n'
    for a in a1 a2 a3; do
        eval "printf '[agent %s]\\nendpoint = %s\\n' $a \$E_$a"
        # Held open for seconds without writing much, at 4 MB/s.
        printf '[job held-%s]\ntest = held\nagent = %s\npath = held\nsize = %s\nrate = 4M\n' "$a" "$a" "$held"
        [ $# -gt 0 ] && printf '[job after-%s]\ntest = after\nagent = %s\npath = after\nsize = 4M\n' "$a" "$a"
    done
    return 0
}
wait_started () {   # agent: until its stream has started
    for _ in $(seq 100); do
        grep -q "event=start " "$SCRATCH/$1.log" && return 0
        sleep 0.05
    done
    fail "$1 never started"
}
pid_of () { case $1 in a1) echo "${PIDS[0]}";; a2) echo "${PIDS[1]}";; a3) echo "${PIDS[2]}";; esac; }

# 1. SIGKILL a3 one second into the test.
scenario > "$SCRATCH/kill.ini"
"$BIN/iofleet" run "$SCRATCH/kill.ini" -o "$SCRATCH/kill" > "$SCRATCH/kill.txt" 2> "$SCRATCH/kill.err" &
run=$!
PIDS+=("$run")
wait_started a3
sleep 1
kill -KILL "$(pid_of a3)"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/kill.err" "$SCRATCH/kill.txt"
[ "$rc" = 1 ] || fail "exit $rc with an agent killed, expected 1"
grep -q "agent=a3 event=lost" "$SCRATCH/kill.err" || fail "a3 not declared lost"
python3 - "$SCRATCH/kill/results.json" <<'PY' || fail "the results of the test with a lost agent are wrong"
import json, re, sys
r = json.load(open(sys.argv[1]))
t = r["tests"][0]
s = t["summary"]
assert s["lost_streams"] == 1 and s["partial"], s
for st in t["streams"]:
    if st["agent"] == "a3":
        assert st["lost"] and not st["finished"], st
        silence = float(re.search(r"for ([0-9.]+) s", st["error"]).group(1))
        # lease 2 s, plus one tick of the coordinator's loop (0.5 s)
        assert silence <= 2.0 + 0.5 + 0.2, st["error"]
        assert st["samples"] > 0, "the lost stream's samples were dropped"
    else:
        assert st["finished"] and not st["error"] and st["bytes"] == 16 * 2**20, st
print("lost: a3 after its silence; a1 and a2 complete; summary partial")
PY
grep -Eq "^held +3 +.* partial" "$SCRATCH/kill.txt" || fail "the combined rate is not marked partial"
grep -q "FAILED  test held agent a3 .*agent lost.*last sample" "$SCRATCH/kill.txt" ||
    fail "the lost stream is not named with its last sample"

# 2. SIGSTOP a3 (its socket stays open), SIGCONT it before the next test.
netns_agent a3 "$SCRATCH/a3"
E_a3=$ENDPOINT
PIDS[2]=${PIDS[-1]}
scenario after > "$SCRATCH/stop.ini"
"$BIN/iofleet" run "$SCRATCH/stop.ini" -o "$SCRATCH/stop" > "$SCRATCH/stop.txt" 2> "$SCRATCH/stop.err" &
run=$!
PIDS+=("$run")
wait_started a3
sleep 1
kill -STOP "$(pid_of a3)"
for _ in $(seq 100); do
    grep -q "agent=a3 event=lost" "$SCRATCH/stop.err" && break
    sleep 0.05
done
kill -CONT "$(pid_of a3)"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/stop.err" "$SCRATCH/stop.txt"
[ "$rc" = 1 ] || fail "exit $rc with an agent frozen, expected 1"
python3 - "$SCRATCH/stop/results.json" <<'PY' || fail "a frozen agent was not lost, or the next test suffered"
import json, sys
r = json.load(open(sys.argv[1]))
held, after = r["tests"]
assert held["summary"]["lost_streams"] == 1, held["summary"]
assert [st["agent"] for st in held["streams"] if st["lost"]] == ["a3"]
s = after["summary"]
assert s["failed_streams"] == 0 and s["lost_streams"] == 0 and s["streams"] == 3, s
assert all(st["bytes"] == 4 * 2**20 and st["finished"] for st in after["streams"])
print("frozen: a3 lost in 'held', back and whole in 'after'")
PY
# 3. on_lost = abort: the first loss ends the test everywhere and the run.
# (a3 is the one woken up in 2.) The held test lasts 6 s here.
held=24M
scenario after > "$SCRATCH/abort.ini"
"$BIN/iofleet" run "$SCRATCH/abort.ini" --on-lost abort -o "$SCRATCH/abort" \
    > "$SCRATCH/abort.txt" 2> "$SCRATCH/abort.err" &
run=$!
PIDS+=("$run")
wait_started a3
started=$(date +%s)
sleep 1
kill -KILL "$(pid_of a3)"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/abort.err"
[ "$rc" = 1 ] || fail "on_lost = abort: exit $rc, expected 1"
grep -q "event=abort" "$SCRATCH/abort.err" || fail "on_lost = abort: the run did not say it aborted"
# The held test would have lasted 6 s; the loss shows after 1 + 2 s.
[ $(( $(date +%s) - started )) -lt 6 ] || fail "on_lost = abort: the others were not stopped"
python3 - "$SCRATCH/abort/results.json" <<'PY' || fail "on_lost = abort: wrong results"
import json, sys
r = json.load(open(sys.argv[1]))
assert [t["name"] for t in r["tests"]] == ["held"], "the run went on after the loss"
for st in r["tests"][0]["streams"]:
    if st["agent"] == "a3":
        assert st["lost"], st
    else:
        assert "aborted: an agent was lost (on_lost = abort)" in st["error"], st
        assert 0 < st["bytes"] < 24 * 2**20, st
print("abort: the others stopped, the next test never ran")
PY
echo "lost agents: ok"
