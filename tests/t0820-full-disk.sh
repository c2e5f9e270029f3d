#!/usr/bin/env bash
# A stream on a small file system that fills stops with the error and the
# bytes it wrote; the other streams of the test go on and their results
# are complete; the report names the failure; the exit status is 1.
. "$(dirname "$0")/lib.sh"

start_agent a1
mkdir -p "$SCRATCH/a1/small"
mount -t tmpfs -o size=4m tmpfs "$SCRATCH/a1/small" || fail "cannot mount a tmpfs (root needed)"
MOUNTS+=("$SCRATCH/a1/small")
cat > "$SCRATCH/full.ini" <<INI
[global]
bs = 256K
size = 8M
settle = 0
[agent a1]
endpoint = $ENDPOINT
[job fills]
test = full
agent = a1
path = small/f
; time-bound, so that the preflight cannot be sure its 8M will not fit
; the 4M (it refuses only certain failures, t0325): the disk fills
; mid-test
runtime = 30s
[job fine]
test = full
agent = a1
path = big
streams = 2
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/full.ini" -o "$SCRATCH/res" > "$SCRATCH/report.txt" 2>&1 || rc=$?
cat "$SCRATCH/report.txt"
[ "$rc" = 1 ] || fail "exit $rc with a full file system, expected 1"
python3 - "$SCRATCH/res/results.json" <<'PY' || fail "the full disk is not reported right"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
by_job = {}
for st in t["streams"]:
    by_job.setdefault(st["job"], []).append(st)
full = by_job["fills"][0]
assert "No space left on device" in full["error"] and "small/f" in full["error"], full
assert 0 < full["bytes"] <= 4 * 2**20, full["bytes"]
assert full["finished"] and not full["lost"], full
for st in by_job["fine"]:
    assert st["finished"] and not st["error"] and st["bytes"] == 8 * 2**20, st
assert t["summary"]["failed_streams"] == 1 and t["summary"]["lost_streams"] == 0
print("full: %d bytes written before ENOSPC; the other two streams whole" % full["bytes"])
PY
grep -q "FAILED  test full agent a1 job fills stream 0: write(.*small/f): No space left on device (bytes [0-9]" \
    "$SCRATCH/report.txt" || fail "the report does not name the failure with its bytes"
echo "full disk: ok"
