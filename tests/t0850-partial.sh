#!/usr/bin/env bash
# What the report says of a test that did not finish cleanly, from real
# runs:
#   - a stream whose agent is killed mid-test shows its last sample's
#     bytes as a lower bound ("≥ N", bytes_from_sample in the JSON), and
#     they count in the test's bytes and its partial combined figure;
#   - a stream that fails (a full disk) makes the combined figure partial
#     too, not only a lost one;
#   - streams that all failed write "-" in the per-stream column, not
#     "-+-".
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
A2_PID=${PIDS[-1]}

# 1. a2 killed a second into a test that holds its stream open for 4 s.
cat > "$SCRATCH/kill.ini" <<INI
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
size = 8M
rate = 4M
[job held-a2]
test = held
agent = a2
path = held
size = 16M
rate = 4M
INI
"$BIN/iofleet" run "$SCRATCH/kill.ini" -o "$SCRATCH/kill" > "$SCRATCH/kill.txt" 2> "$SCRATCH/kill.err" &
run=$!
PIDS+=("$run")
for _ in $(seq 100); do
    grep -q "event=start " "$SCRATCH/a2.log" && break
    sleep 0.05
done
sleep 1
kill -KILL "$A2_PID"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/kill.err" "$SCRATCH/kill.txt"
[ "$rc" = 1 ] || fail "exit $rc with an agent killed, expected 1"
python3 - "$SCRATCH/kill/results.json" "$SCRATCH/kill/samples.jsonl" <<'PY' || fail "the lost stream's bytes are not its last sample's"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
lost = [st for st in t["streams"] if st["agent"] == "a2"][0]
whole = [st for st in t["streams"] if st["agent"] == "a1"][0]
samples = [json.loads(l) for l in open(sys.argv[2])]
# The furthest sample, the later of two with the same bytes (a stalled
# stream), as the report takes it.
last = max((s for s in samples if s["agent"] == "a2"), key=lambda s: (s["bytes"], s["t_ns"]))
assert lost["lost"] and not lost["finished"] and lost["bytes_from_sample"], lost
assert lost["bytes"] == last["bytes"] > 0 and lost["sampled_ns"] == last["t_ns"], (lost, last)
assert not whole["bytes_from_sample"] and whole["bytes"] == 8 * 2**20, whole
s = t["summary"]
assert s["bytes"] == whole["bytes"] + lost["bytes"], s
assert s["partial"] and s["combined_mbps"] is not None, s
# The span runs from 0 to the later of a1's end and a2's last sample.
assert s["first_start_ns"] == 0 and s["last_end_ns"] == max(whole["end_ns"], last["t_ns"]), s
print("lost: a2's %d bytes at %.3f s counted, combined %.2f MB/s partial"
      % (lost["bytes"], lost["sampled_ns"] / 1e9, s["combined_mbps"]))
PY
bytes=$(python3 -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["tests"][0]["streams"] if s["agent"]=="a2"][0]["bytes"])' "$SCRATCH/kill/results.json")
grep -Eq "^  a2 +held-a2 +0 +≥ $bytes +- " "$SCRATCH/kill.txt" ||
    fail "the lost stream's row does not show ≥ $bytes"
grep -q "^held: 2 streams on 2 hosts (1 failed), ≥ [0-9]* bytes" "$SCRATCH/kill.txt" ||
    fail "the test's bytes are not marked as a lower bound"
grep -Eq "^held +2 +[0-9.]+\+- +[0-9.]+ partial " "$SCRATCH/kill.txt" ||
    fail "the combined figure is not marked partial"
"$BIN/iofleet" report "$SCRATCH/kill/results.json" | cmp - "$SCRATCH/kill.txt" ||
    fail "the re-rendered report differs"

# 2. A stream on a full file system, no agent lost: partial all the same.
mkdir -p "$SCRATCH/a1/small"
mount -t tmpfs -o size=1m tmpfs "$SCRATCH/a1/small" || fail "cannot mount a tmpfs (root needed)"
MOUNTS+=("$SCRATCH/a1/small")
cat > "$SCRATCH/full.ini" <<INI
[global]
settle = 0
[agent a1]
endpoint = $E1
[job fills]
test = full
agent = a1
path = small/f
size = 4M
; time-bound: the preflight cannot be sure it will not fit (t0325)
runtime = 30s
[job fine]
test = full
agent = a1
path = fine
size = 4M
[job nowhere]
test = refused
agent = a1
workload = copy
src = missing
dst = nowhere
size = 1M
streams = 2
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/full.ini" -o "$SCRATCH/full" > "$SCRATCH/full.txt" 2> "$SCRATCH/full.err" || rc=$?
cat "$SCRATCH/full.txt"
[ "$rc" = 1 ] || fail "exit $rc with a failed stream, expected 1"
grep -Eq "^full +2 +[0-9.+x]+ +[0-9.]+ partial " "$SCRATCH/full.txt" ||
    fail "a failed stream does not make the combined figure partial"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"][0]["summary"]["partial"])' "$SCRATCH/full/results.json")" = True ] ||
    fail "the JSON does not say partial for a failed stream"

# 3. Both streams of a job refused at prepare (a source that is not
# there, which only opening it tells): "-" per stream.
grep -Eq "^refused +2 +- +- " "$SCRATCH/full.txt" ||
    fail "streams that all failed are not written \"-\""
echo "partial: ok"
