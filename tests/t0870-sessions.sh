#!/usr/bin/env bash
# Sessions that must survive, and losses that must be seen, on loopback:
#
# 1. An agent killed and restarted on its endpoint 0.3 s later (as a
#    service manager would) answers keepalives, but without our session:
#    it is lost at once, the test ends, and the next test has it back.
# 2. An agent idle in a test longer than the lease keeps its session for
#    the next test.
# 3. An agent killed for good does not break the later tests of the
#    others, nor hold them up beyond the hello's timeout; another agent
#    that takes its endpoint is refused, not taken for it.
# 4. lease = 1s holds over a test of several seconds.
# runs alone: a lease of 1 s must hold over a test of several seconds
. "$(dirname "$0")/lib.sh"

for a in a1 a2 a3; do
    start_agent "$a"
    eval "E_$a=\$ENDPOINT"
done
agents () {     # [agent sections of] a1 a2 a3
    for a in a1 a2 a3; do
        eval "printf '[agent %s]\\nendpoint = %s\\n' $a \$E_$a"
    done
}
job () {        # name test agent size [rate]
    printf '[job %s]\ntest = %s\nagent = %s\npath = %s\nsize = %s\n' "$1" "$2" "$3" "$1" "$4"
    [ $# -gt 4 ] && printf 'rate = %s\n' "$5"
    return 0
}
started () {    # agent log: until its stream of test_id N has started
    for _ in $(seq 200); do
        grep -q "event=start test_id=$2 " "$SCRATCH/$1.log" && return 0
        sleep 0.05
    done
    fail "$1 never started test $2"
}

# 1. kill -9 and a fast restart of a3 in the middle of a 4 s test.
{
    printf '[global]\nlease = 3s\nconnect_timeout = 3s\ninterval = 100ms\nbs = 256K\nsettle = 0\n'
    agents
    for a in a1 a2 a3; do job "held-$a" held "$a" 16M 4M; done
    for a in a1 a2 a3; do job "after-$a" after "$a" 4M; done
} > "$SCRATCH/restart.ini"
timeout 40 "$BIN/iofleet" run "$SCRATCH/restart.ini" -q -o "$SCRATCH/restart" \
    > "$SCRATCH/restart.txt" 2> "$SCRATCH/restart.err" &
run=$!
PIDS+=("$run")
started a3 1
sleep 1
kill -KILL "${PIDS[2]}"
wait "${PIDS[2]}" 2>/dev/null || true
sleep 0.3
killed_at=$(date +%s.%N)
"$BIN/iofleet-agent" --bind "$E_a3" --name a3 --root "$SCRATCH/a3" 2>>"$SCRATCH/a3.log" &
PIDS[2]=$!
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/restart.err" "$SCRATCH/restart.txt"
[ "$rc" != 124 ] || fail "the run hung after an agent restarted on its endpoint"
[ "$rc" = 1 ] || fail "exit $rc with an agent restarted mid-test, expected 1"
grep -q 'agent=a3 event=lost test=held reason="agent lost: .* no longer holds our session' \
    "$SCRATCH/restart.err" || fail "the restarted agent was not lost for its session"
python3 - "$SCRATCH/restart/results.json" <<'PY' || fail "the restart's results are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
held, after = r["tests"]
lost = [st for st in held["streams"] if st["lost"]]
assert [st["agent"] for st in lost] == ["a3"], held["streams"]
assert "no longer holds our session" in lost[0]["error"], lost[0]
for st in held["streams"]:
    if st["agent"] != "a3":
        assert st["finished"] and st["bytes"] == 16 * 2**20, st
s = after["summary"]
assert s["streams"] == 3 and s["failed_streams"] == 0 and s["lost_streams"] == 0, s
print("restart: a3 lost for its session in 'held', whole again in 'after'")
PY
# The loss shows when a keepalive meets the new agent (a third of the
# lease), not after the whole lease of silence.
lost_at=$(date -d "$(stat -c %y "$SCRATCH/restart.err")" +%s.%N)
python3 -c "import sys; sys.exit(0 if float('$lost_at') - float('$killed_at') < 30 else 1)" ||
    fail "the run took too long after the restart"

# 2. a1 alone for 4 s with a 2 s lease, then a2: a2's session must hold.
{
    printf '[global]\nlease = 2s\ninterval = 100ms\nbs = 256K\nsettle = 0\n'
    agents
    job alone-a1 alone a1 12M 3M
    job next-a2 next a2 4M
} > "$SCRATCH/idle.ini"
"$BIN/iofleet" run "$SCRATCH/idle.ini" -q -o "$SCRATCH/idle" > "$SCRATCH/idle.txt" \
    2> "$SCRATCH/idle.err" || { cat "$SCRATCH/idle.err"; fail "an agent idle in one test lost its session"; }
grep -q "no-session" "$SCRATCH/idle.err" && fail "an idle agent's session ran out"

# 3. a3 killed for good during the first test: the second and third tests
# run on a1 and a2, whole, each held up at most by one hello's timeout.
{
    printf '[global]\nlease = 2s\nconnect_timeout = 2s\ninterval = 100ms\nbs = 256K\nsettle = 0\n'
    agents
    for a in a1 a2 a3; do job "first-$a" first "$a" 8M 4M; done
    for a in a1 a2 a3; do job "second-$a" second "$a" 4M; done
    for a in a1 a2 a3; do job "third-$a" third "$a" 4M; done
} > "$SCRATCH/dead.ini"
: > "$SCRATCH/a3.log"
"$BIN/iofleet" run "$SCRATCH/dead.ini" -q -o "$SCRATCH/dead" > "$SCRATCH/dead.txt" \
    2> "$SCRATCH/dead.err" &
run=$!
PIDS+=("$run")
started a3 1
sleep 0.5
kill -KILL "${PIDS[2]}"
wait "${PIDS[2]}" 2>/dev/null || true
# Its port goes to an agent of another name at once (as an ephemeral
# port can), which must not stand in for a3.
mkdir -p "$SCRATCH/impostor"
"$BIN/iofleet-agent" --bind "$E_a3" --name impostor --root "$SCRATCH/impostor" \
    2>"$SCRATCH/impostor.log" &
PIDS[2]=$!
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/dead.err" "$SCRATCH/dead.txt"
[ "$rc" = 1 ] || fail "exit $rc with an agent dead for good, expected 1"
grep -q "agent=a3 event=refused reason=\".* now answered by agent 'impostor' on host '.*', not by 'a3'" \
    "$SCRATCH/dead.err" || fail "the agent that took a3's endpoint was not refused"
[ -z "$(ls -A "$SCRATCH/impostor")" ] || fail "the impostor ran a3's jobs: $(ls -A "$SCRATCH/impostor")"
python3 - "$SCRATCH/dead/results.json" <<'PY' || fail "one lost agent broke the later tests"
import json, sys
r = json.load(open(sys.argv[1]))
names = [t["name"] for t in r["tests"]]
assert names == ["first", "second", "third"], names
for t in r["tests"][1:]:
    for st in t["streams"]:
        if st["agent"] == "a3":
            assert st["error"] and not st["finished"], st
        else:
            assert st["finished"] and not st["error"] and st["bytes"] == 4 * 2**20, st
# Each later test waits for a3's hello at most its timeout (2 s), plus
# the time the test itself takes.
walls = [t["announced_wall_ns"] for t in r["tests"]]
assert walls[2] - walls[1] < 4e9, (walls[2] - walls[1]) / 1e9
print("dead: a1 and a2 whole in 'second' and 'third', %.1f s apart" % ((walls[2] - walls[1]) / 1e9))
PY

# 4. lease = 1s over a 3 s test.
{
    printf '[global]\nlease = 1s\ninterval = 100ms\nbs = 256K\nsettle = 0\n'
    agents
    job short-a1 short a1 6M 2M
    job short-a2 short a2 6M 2M
} > "$SCRATCH/short.ini"
"$BIN/iofleet" run "$SCRATCH/short.ini" -q -o "$SCRATCH/short" > "$SCRATCH/short.txt" \
    2> "$SCRATCH/short.err" || { cat "$SCRATCH/short.err"; fail "lease = 1s did not hold"; }
echo "sessions: ok"
