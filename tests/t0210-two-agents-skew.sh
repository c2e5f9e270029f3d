#!/usr/bin/env bash
# Two agents, one stream each: no more runnable streams than this
# machine's two cores, so the host skew is what the protocol and the
# clocks make it. The host skew must stay below 0.2 ms. This machine is a
# virtual one whose CPUs the hypervisor takes away now and then (steal
# time in /proc/stat), which can hold one stream back by a millisecond or
# two in any run whatever the protocol does; so the test runs seven times
# and asks the median below 0.2 ms and every run below 5 ms.
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
cat > "$SCRATCH/skew.ini" <<INI
[global]
iterations = 7
size = 8M
[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[job one]
test = pair
agent = a1
path = f
[job two]
test = pair
agent = a2
path = f
INI
RESULTS=$SCRATCH/results
"$BIN/iofleet" run "$SCRATCH/skew.ini" -o "$RESULTS" || fail "run failed"
python3 - "$RESULTS/results.json" <<'PY' || fail "host skew too large"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["tests"]) == 7
skews = []
for t in r["tests"]:
    s = t["summary"]
    assert s["hosts"] == 2 and s["failed_streams"] == 0, s
    print("run %d: host skew %.1f us, clock +- %.1f us" % (
        t["iteration"], s["host_skew_ns"] / 1e3, s["clock_uncertainty_ns"] / 1e3))
    skews.append(s["host_skew_ns"])
skews.sort()
assert skews[3] < 200e3, "median host skew %.1f us" % (skews[3] / 1e3)
assert skews[-1] < 5e6, "worst host skew %.1f us" % (skews[-1] / 1e3)
PY
