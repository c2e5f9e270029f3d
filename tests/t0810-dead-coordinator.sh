#!/usr/bin/env bash
# Two hosts (network namespaces), the coordinator in the root namespace.
# A coordinator that dies mid-test (SIGKILL) leaves no agent writing: each
# stops within its lease (its file stops growing), removes what the test
# created and takes the next coordinator, whose run succeeds. Ctrl-C
# (SIGINT) aborts cleanly: agents stop and clean up, the report of what was
# measured is written, the exit status is 1.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"

netns_up
netns_host a1 2
netns_agent a1 "$SCRATCH/a1"; E1=$ENDPOINT
netns_host a2 3
netns_agent a2 "$SCRATCH/a2"; E2=$ENDPOINT
cat > "$SCRATCH/held.ini" <<INI
[global]
lease = 2s
interval = 100ms
bs = 256K
settle = 0
[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[job held-a1]
test = held
agent = a1
path = held
size = 40M
rate = 4M
[job held-a2]
test = held
agent = a2
path = held
size = 40M
rate = 4M
INI
wait_log () {   # file pattern
    for _ in $(seq 200); do
        grep -q "$2" "$1" && return 0
        sleep 0.05
    done
    fail "no '$2' in $1"
}
size_of () { stat -c %s "$1" 2>/dev/null || echo gone; }

# 1. SIGKILL the coordinator one second into the test.
"$BIN/iofleet" run "$SCRATCH/held.ini" -o "$SCRATCH/killed" > /dev/null 2>&1 &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/a1.log" "event=start "
wait_log "$SCRATCH/a2.log" "event=start "
sleep 1
kill -KILL "$run"
wait "$run" 2>/dev/null || true
for a in a1 a2; do
    [ "$(size_of "$SCRATCH/$a/held")" != gone ] || fail "$a had no file while its test ran"
done

sleep 3                                 # the lease (2 s) and a second to spare
for a in a1 a2; do
    before=$(size_of "$SCRATCH/$a/held")
    sleep 0.5
    after=$(size_of "$SCRATCH/$a/held")
    echo "$a: $before then $after bytes"
    [ "$before" = "$after" ] || fail "$a still writes after its lease: $before then $after"
    [ "$after" = gone ] || fail "$a left the test's file behind ($after bytes)"
    grep -q "event=lease-expired" "$SCRATCH/$a.log" || fail "$a did not log why it stopped"
done

# The agents take a new coordinator.
sed 's/size = 40M/size = 2M/; /rate = /d' "$SCRATCH/held.ini" > "$SCRATCH/quick.ini"
"$BIN/iofleet" run "$SCRATCH/quick.ini" -o "$SCRATCH/quick" > /dev/null ||
    fail "the agents did not serve the next coordinator"

# 2. Ctrl-C on the console.
"$BIN/iofleet" run "$SCRATCH/held.ini" -o "$SCRATCH/interrupted" > "$SCRATCH/int.txt" 2> "$SCRATCH/int.err" &
run=$!
PIDS+=("$run")
for _ in $(seq 200); do
    [ "$(grep -c "event=start " "$SCRATCH/a2.log")" -ge 3 ] && break
    sleep 0.05
done
sleep 1
kill -INT "$run"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/int.err"
[ "$rc" = 1 ] || fail "Ctrl-C: exit $rc, expected 1"
[ -s "$SCRATCH/interrupted/results.json" ] && [ -s "$SCRATCH/interrupted/report.txt" ] ||
    fail "Ctrl-C: no report written"
grep -q "aborted: interrupted" "$SCRATCH/interrupted/report.txt" ||
    fail "Ctrl-C: the report does not say the streams were aborted"
sleep 0.5
for a in a1 a2; do
    [ ! -e "$SCRATCH/$a/held" ] || fail "Ctrl-C: $a left its file behind"
    kill -0 "${PIDS[$([ $a = a1 ] && echo 0 || echo 1)]}" || fail "Ctrl-C: agent $a died"
done
"$BIN/iofleet" run "$SCRATCH/quick.ini" -o "$SCRATCH/quick2" > /dev/null ||
    fail "the agents did not serve the coordinator after Ctrl-C"
echo "dead coordinator: ok"
