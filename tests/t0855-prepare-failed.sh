#!/usr/bin/env bash
# One agent's job fails to prepare: the test is aborted before it starts,
# and the healthy agent's stream says it never started and why (the job
# that failed, on which agent), not "no result from the agent", which
# would blame an agent that answered everything. The next test runs on
# both.
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
mkdir "$SCRATCH/a2/w"             # a directory where the job would write a file
cat > "$SCRATCH/two.ini" <<EOF2
[global]
settle = 0
size = 1M
[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[job good]
test = t
agent = a1
path = g
[job bad]
test = t
agent = a2
path = w
[job next1]
test = next
agent = a1
path = n
[job next2]
test = next
agent = a2
path = n
EOF2
RESULTS=$SCRATCH/r
rc=0
"$BIN/iofleet" run --no-db "$SCRATCH/two.ini" -o "$RESULTS" > "$SCRATCH/out" 2> "$SCRATCH/err" || rc=$?
[ "$rc" = 1 ] || { cat "$SCRATCH/err"; fail "exit $rc, not 1"; }
grep -q "^FAILED  test t agent a1 job good stream 0: not started: job bad on agent a2 failed to prepare" \
    "$SCRATCH/out" || { cat "$SCRATCH/out"; fail "the healthy stream does not say why it did not start"; }
grep -q "^FAILED  test t agent a2 job bad stream 0: prepare: open(.*): Is a directory" "$SCRATCH/out" ||
    fail "the failed job does not say why"
! grep -q "no result from the agent" "$SCRATCH/out" || fail "an agent is blamed for a result it owed nobody"
[ "$(json 'r["tests"][0]["streams"][0]["error"]')" = "not started: job bad on agent a2 failed to prepare" ] ||
    fail "results.json lacks the reason"
[ "$(json 'r["tests"][1]["summary"]["failed_streams"]')" = 0 ] || fail "the next test did not run on both"
"$BIN/iofleet" report "$RESULTS/results.json" | cmp -s - "$RESULTS/report.txt" ||
    fail "the report rendered again differs"
echo "prepare failed: ok"
