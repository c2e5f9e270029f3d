#!/usr/bin/env bash
# A host cut off the network mid-test (its link down; the process runs on,
# its socket open): the coordinator declares it lost and finishes the test
# with the others, marked partial; the cut-off agent, hearing nothing from
# its coordinator, stops its stream within its lease and removes its file;
# with the link up again, the next run uses it.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"

netns_up
for i in 2 3 4; do
    netns_host "h$i" "$i"
    netns_agent "h$i" "$SCRATCH/h$i"
    eval "E_h$i=\$ENDPOINT"
done
scenario () {   # size rate
    printf '[global]\nlease = 2s\nconnect_timeout = 3s\ninterval = 100ms\nbs = 256K\nsettle = 0\n'
    for i in 2 3 4; do
        eval "printf '[agent h%s]\\nendpoint = %s\\n' $i \$E_h$i"
        printf '[job held-h%s]\ntest = held\nagent = h%s\npath = held\nsize = %s\n' "$i" "$i" "$1"
        [ -n "$2" ] && printf 'rate = %s\n' "$2"
    done
    return 0
}
scenario 24M 4M > "$SCRATCH/held.ini"
"$BIN/iofleet" run "$SCRATCH/held.ini" -o "$SCRATCH/cut" > "$SCRATCH/cut.txt" 2> "$SCRATCH/cut.err" &
run=$!
PIDS+=("$run")
for _ in $(seq 200); do
    grep -q "event=start " "$SCRATCH/h4.log" && break
    sleep 0.05
done
sleep 1
[ -e "$SCRATCH/h4/held" ] || fail "h4's stream was not writing"
ip link set "${NETNS_TAG}h4" down
cut_at=$(date +%s%N)
# The cut-off agent stops and cleans up within its lease (2 s), on its own,
# while the others go on.
for _ in $(seq 70); do
    grep -q "event=lease-expired" "$SCRATCH/h4.log" && [ ! -e "$SCRATCH/h4/held" ] && break
    sleep 0.05
done
waited_ms=$(( ($(date +%s%N) - cut_at) / 1000000 ))
grep -q "event=lease-expired" "$SCRATCH/h4.log" || fail "h4 did not give its coordinator up"
[ ! -e "$SCRATCH/h4/held" ] || fail "h4 left its file behind"
echo "h4 stopped and cleaned up $waited_ms ms after the cut (lease 2000 ms)"
[ "$waited_ms" -lt 3500 ] || fail "h4 took $waited_ms ms to stop"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/cut.err" "$SCRATCH/cut.txt"
[ "$rc" = 1 ] || fail "exit $rc with a host cut off, expected 1"
grep -q "agent=h4 event=lost" "$SCRATCH/cut.err" || fail "h4 was not declared lost"
python3 - "$SCRATCH/cut/results.json" <<'PY' || fail "the results with a host cut off are wrong"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
assert t["summary"]["lost_streams"] == 1 and t["summary"]["partial"], t["summary"]
for st in t["streams"]:
    if st["agent"] == "h4":
        assert st["lost"], st
    else:
        assert st["finished"] and not st["error"] and st["bytes"] == 24 * 2**20, st
PY
grep -Eq "^held +3 +.* partial" "$SCRATCH/cut.txt" || fail "the combined rate is not marked partial"

# Link up: the next run has all three hosts again.
ip link set "${NETNS_TAG}h4" up
scenario 2M "" > "$SCRATCH/again.ini"
"$BIN/iofleet" run "$SCRATCH/again.ini" -o "$SCRATCH/again" > "$SCRATCH/again.txt" 2>&1 ||
    { cat "$SCRATCH/again.txt"; fail "the host was not used again after the link came back"; }
echo "cut host: ok"
