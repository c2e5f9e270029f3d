#!/usr/bin/env bash
# Four agents read 4K direct from a FUSE file system (tests/bench/delayfs.c)
# at a fixed request rate, 500 ms intervals; the file system of one of them
# (a3) holds every request 50 ms, but only from 2 s after its first request
# for 1 s. Checks: the agents' INTERVALs make the fleet's timeline in
# results.json, one interval per 500 ms with every request of the test in
# one of them; the fleet's p99 over time is high in intervals 4 and 5 (the
# slow second) and low away from them; a3's own timeline shows the same;
# the tail attribution names a3 first and as the cause, in the JSON, the
# text report and the page.
# runs alone: it reads a tail of latency that another script's load would make
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/delayfs.sh"

delayfs_build
delayfs_tail_scenario > "$SCRATCH/tail.ini"

RESULTS=$SCRATCH/results
"$BIN/iofleet" run --no-db "$SCRATCH/tail.ini" -o "$RESULTS" > "$SCRATCH/report.txt" 2> "$SCRATCH/run.err" ||
    { cat "$SCRATCH/report.txt" "$SCRATCH/run.err"; fail "iofleet run exited $?"; }
cat "$SCRATCH/report.txt"

python3 - "$RESULTS/results.json" <<'PY' || fail "the timeline or the tail is wrong"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
tl = t["latency_timeline"]
assert tl["interval_ns"] == 500000000 and tl["set"] == "requests", tl["interval_ns"]
iv = {i["index"]: i for i in tl["intervals"]}
# Every request of the test is in one interval: the histograms add up.
total = sum(i["latency"]["count"] for i in tl["intervals"])
req = t["summary"]["latency"]["read"]["count"]
assert total == req, (total, req)
assert all(sum(c for _, c in i["histogram"]["buckets"]) == i["latency"]["count"]
           for i in tl["intervals"])
p99 = {k: i["latency"]["p99_ns"] / 1e6 for k, i in iv.items()}
print("fleet p99 per interval (ms):", " ".join("%d:%.2f" % (k, p99[k]) for k in sorted(p99)))
for k in (4, 5):
    assert p99[k] > 40, ("no spike in interval", k, p99)
# Away from the window (whose edges move with the first request) the
# fleet is fast, if the machine is loaded by some 10 ms; it may stall
# one interval, not more.
calm = sorted(p99[k] for k in p99 if k not in (3, 4, 5, 6))
assert len(calm) >= 6 and calm[len(calm) // 2] < 20, ("no calm intervals", p99)
assert sum(1 for v in calm if v > 40) <= 1, ("spikes where there are none", p99)
hosts = {h["agent"]: h for h in tl["hosts"]}
assert tl["hosts"][0]["agent"] == "a3", [h["agent"] for h in tl["hosts"]]
a3 = {p[0]: p[3] / 1e6 for p in hosts["a3"]["points"]}
assert a3[4] > 40 and a3[5] > 40, a3
tail = t["latency_tail"]
first = tail["hosts"][0]
assert first["agent"] == "a3" and first["cause"], tail
assert [h["agent"] for h in tail["hosts"] if h["cause"]] == ["a3"], tail
assert first["p99_share"] > 3 * first["requests_share"], first
print("tail: a3 sent %.1f%% of the requests and %.1f%% of those over p99" %
      (100 * first["requests_share"], 100 * first["p99_share"]))
PY

grep -q "the cause is a3" "$SCRATCH/report.txt" || fail "the text report does not name a3"
grep -A2 "^tail of requests" "$SCRATCH/report.txt" | grep -q "@a3 " ||
    fail "a3 is not first in the text's tail"
html=$RESULTS/report.html
grep -q '<h2>Latency over time</h2>' "$html" || fail "the page has no latency timeline"
grep -q 'data-kind="fleet" data-percentile="p99"' "$html" || fail "no fleet p99 line"
grep -q 'data-kind="host" data-percentile="p99" data-agent="a3"' "$html" || fail "no line of a3"
echo "ok: a3's slow second is in intervals 4 and 5 and a3 is named the cause"
