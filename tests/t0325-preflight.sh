#!/usr/bin/env bash
# Preflight: before the first test the console asks every agent about
# every job. The dd seed against an agent rooted elsewhere gives one
# grouped message with the fix, exit 2, no test started, in under 2 s;
# `run --check --agents` says the same without running, and says so
# when every job would be accepted. A job on a file system too small for
# it is refused by size, with the space it lacks.
. "$(dirname "$0")/lib.sh"

start_agent client
SEED="$(dirname "$0")/../configs/seeds/dd.ini"

began=$(date +%s%N)
rc=0
"$BIN/iofleet" run "$SEED" --agent "client=$ENDPOINT" -o "$SCRATCH/res" -q \
    > "$SCRATCH/out.txt" 2> "$SCRATCH/err.txt" || rc=$?
took_ms=$(( ($(date +%s%N) - began) / 1000000 ))
cat "$SCRATCH/err.txt"
[ "$rc" = 2 ] || fail "exit $rc with every path outside the roots, expected 2"
[ "$took_ms" -lt 2000 ] || fail "the preflight took $took_ms ms, expected under 2 s"
groups=$(grep -c '^iofleet: preflight: [0-9]*\. ' "$SCRATCH/err.txt" || true)
[ "$groups" = 1 ] || fail "$groups groups of problems, expected one"
grep -q "paths outside the agent's roots: 6 jobs (dd1, dd1-dir, dd2, dd2-dir, dd3, dd3-dir) on 1 agent (client)" \
    "$SCRATCH/err.txt" || fail "the group does not name the jobs and the agent"
grep -q "fix: start the agent with --root /data/iofleet (the packaged agent: add /data/iofleet to the root key of /etc/iofleet/agent.conf and to ReadWritePaths=" \
    "$SCRATCH/err.txt" || fail "the fix is not given"
grep -q "FAILED\|event=start\|test=" "$SCRATCH/err.txt" "$SCRATCH/out.txt" && fail "a test was started"
[ -e "$SCRATCH/res" ] && fail "a results directory was made"
grep -q "event=start\|event=prepare" "$SCRATCH/client.log" && fail "the agent prepared or started something"
[ "$(find "$SCRATCH/client" -mindepth 1 | wc -l)" = 0 ] || fail "the preflight created files"
echo "dd seed outside the roots: one group, exit 2, ${took_ms} ms"

# The same without running: --check --agents prints the plan, then the
# problems; and on an agent that has the root, that all is well.
rc=0
"$BIN/iofleet" run "$SEED" --agent "client=$ENDPOINT" --check --agents \
    > "$SCRATCH/check.txt" 2> "$SCRATCH/check.err" || rc=$?
[ "$rc" = 2 ] || { cat "$SCRATCH/check.err"; fail "--check --agents exit $rc, expected 2"; }
grep -q "fix: start the agent with --root /data/iofleet" "$SCRATCH/check.err" \
    || fail "--check --agents does not give the fix"
grep -q "dd3" "$SCRATCH/check.txt" || fail "--check --agents does not print the plan"
rc=0
"$BIN/iofleet" run "$SEED" --agents > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--agents without --check: exit $rc, expected 2"

sed "s|/data/iofleet/|sub/dir/|; s|^size = .*|size = 64M|" "$SEED" > "$SCRATCH/inside.ini"
rc=0
"$BIN/iofleet" run "$SCRATCH/inside.ini" --agent "client=$ENDPOINT" --check --agents \
    > /dev/null 2> "$SCRATCH/inside.err" || rc=$?
cat "$SCRATCH/inside.err"
[ "$rc" = 0 ] || fail "--check --agents on paths inside the root (not made yet): exit $rc"
grep -q "every agent would accept every job" "$SCRATCH/inside.err" || fail "no word that all is well"
[ -e "$SCRATCH/client/sub" ] && fail "--check --agents made a directory"
echo "--check --agents: the fix, or all well, and nothing made"

# Every problem at once: the same one on two agents is one group naming
# both; another problem is a group of its own, with its own fix.
E1=$ENDPOINT
start_agent other
cat > "$SCRATCH/two.ini" <<INI
[global]
size = 1M
[agent client]
endpoint = $E1
[agent other]
endpoint = $ENDPOINT
[job x]
agent = client
path = /data/iofleet/x
[job y]
agent = other
path = /data/iofleet/y
[job z]
agent = other
workload = copy
src = nfs://192.0.2.7/export/src
dst = z
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/two.ini" -o "$SCRATCH/res-two" -q > /dev/null 2> "$SCRATCH/two.err" || rc=$?
cat "$SCRATCH/two.err"
[ "$rc" = 2 ] || fail "two problems on two agents: exit $rc, expected 2"
grep -q "^iofleet: preflight: the agents would refuse 3 jobs" "$SCRATCH/two.err" || fail "not 3 jobs refused"
grep -q "^iofleet: preflight: 1\. paths outside the agent's roots: 2 jobs (x, y) on 2 agents (client, other)" \
    "$SCRATCH/two.err" || fail "the same problem on two agents is not one group naming both"
grep -q "^iofleet: preflight: 2\. nfs servers the agent may not read: 1 job (z) on 1 agent (other)" \
    "$SCRATCH/two.err" || fail "the second problem is not a group of its own"
grep -q "fix: start the agent with --allow-nfs 192.0.2.7" "$SCRATCH/two.err" || fail "no fix for nfs"
ENDPOINT=$E1
echo "two problems, two agents: two groups"

# Space: 8M per stream on a 4M file system cannot fit; a time-bound job
# of the same size may stop early and is not refused.
mkdir -p "$SCRATCH/client/small"
mount -t tmpfs -o size=4m tmpfs "$SCRATCH/client/small" || fail "cannot mount a tmpfs (root needed)"
MOUNTS+=("$SCRATCH/client/small")
cat > "$SCRATCH/space.ini" <<INI
[global]
size = 8M
[agent client]
endpoint = $ENDPOINT
[job big]
test = big
agent = client
path = small/f
[job timed]
test = timed
agent = client
path = small/g
runtime = 1s
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/space.ini" --check --agents > /dev/null 2> "$SCRATCH/space.err" || rc=$?
cat "$SCRATCH/space.err"
[ "$rc" = 2 ] || fail "a job that cannot fit: exit $rc, expected 2"
grep -q "less free space than the jobs write: 1 job (big)" "$SCRATCH/space.err" \
    || fail "the job that cannot fit is not named (or the time-bound one is)"
grep -q "fix: free space under .*small, or a smaller size" "$SCRATCH/space.err" \
    || fail "no fix for the space"
echo "preflight: ok"
