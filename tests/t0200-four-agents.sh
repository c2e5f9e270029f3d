#!/usr/bin/env bash
# Four agents on loopback run dd1-, dd2-dir- and dd3-style tests, every test
# on all four at once. Checks: each file has exactly the requested size, the
# bytes in the results equal the files, no stream started before the
# announced instant (within the clock uncertainty), the skews are reported,
# and with four agents on two cores the host skews stay below 5 ms (two
# tests of three, none past 100 ms).
# runs alone: the host skews of four agents on two cores are held under 5 ms
. "$(dirname "$0")/lib.sh"

{
    echo "[global]"
    echo "bs = 1M"
    echo "keep = yes"
    echo "interval = 10ms"
    for a in a1 a2 a3 a4; do
        start_agent "$a"
        printf '[agent %s]\nendpoint = %s\n' "$a" "$ENDPOINT"
    done
    for a in a1 a2 a3 a4; do
        printf '[job dd1-%s]\ntest = dd1\nagent = %s\npath = dd1\nsize = 48M\n' "$a" "$a"
        printf '[job dd2-dir-%s]\ntest = dd2-dir\nagent = %s\npath = dd2dir\nsize = 16M\nstreams = 2\ndirect = yes\n' "$a" "$a"
        printf '[job dd3-%s]\ntest = dd3\nagent = %s\npath = dd3\nsize = 16M\nstreams = 3\nfsync = close\n' "$a" "$a"
    done
} > "$SCRATCH/fleet.ini"

RESULTS=$SCRATCH/results
"$BIN/iofleet" run "$SCRATCH/fleet.ini" -o "$RESULTS" > "$SCRATCH/report.txt" ||
    { cat "$SCRATCH/report.txt"; fail "iofleet run exited $?"; }
cat "$SCRATCH/report.txt"

# A test shorter than one sample interval has no samples: the interval
# is short enough for every test here to have some, however fast the
# disk takes 48M (dd1 took 92 ms once, under the 100 ms it had).
for f in results.json report.txt samples.jsonl scenario.ini; do
    [ -s "$RESULTS/$f" ] || fail "results directory lacks $f"
done
cmp -s "$SCRATCH/report.txt" "$RESULTS/report.txt" || fail "report.txt differs from stdout"

python3 - "$RESULTS/results.json" "$SCRATCH" <<'PY' || fail "results do not match the files"
import json, os, sys
r = json.load(open(sys.argv[1]))
scratch = sys.argv[2]
M = 1024 * 1024
want = {"dd1": (1, 48 * M, "dd1"), "dd2-dir": (2, 16 * M, "dd2dir"), "dd3": (3, 16 * M, "dd3")}
assert [t["name"] for t in r["tests"]] == ["dd1", "dd2-dir", "dd3"], [t["name"] for t in r["tests"]]
for t in r["tests"]:
    streams, size, base = want[t["name"]]
    s = t["summary"]
    assert s["streams"] == 4 * streams and s["hosts"] == 4 and s["failed_streams"] == 0, s
    assert s["bytes"] == 4 * streams * size, s
    assert "host_skew_ns" in s and "stream_skew_ns" in s and "clock_uncertainty_ns" in s
    for st in t["streams"]:
        name = base if streams == 1 else "%s.%d" % (base, st["index"] + 1)
        path = os.path.join(scratch, st["agent"], name)
        assert os.path.realpath(st["path"]) == os.path.realpath(path), (st["path"], path)
        assert os.path.getsize(path) == size, (path, os.path.getsize(path))
        assert st["bytes"] == size and st["finished"] and not st["error"], st
        # No stream may start before the announced instant, allowing for
        # the error of the clock mapping.
        assert st["start_ns"] >= -st["clock_uncertainty_ns"], st
        assert st["end_ns"] >= st["last_write_ns"] >= st["start_ns"], st
        assert st["rate_mbps"] > 0 and st["write_rate_mbps"] >= st["rate_mbps"], st
    print("%-8s host skew %.3f ms  stream skew %.3f ms  clock +- %.3f ms" % (
        t["name"], s["host_skew_ns"] / 1e6, s["stream_skew_ns"] / 1e6,
        s["clock_uncertainty_ns"] / 1e6))
# Every test starts on all four hosts at once. A stall of this shared VM
# (clock pings of several ms on loopback) can hold one test's start back
# by tens of ms, so two of the three must be within 5 ms and none past
# 100 ms; t0210 measures the skew itself, over many runs.
skews = sorted(t["summary"]["host_skew_ns"] for t in r["tests"])
# Four agents on one machine say so: one boot id, this kernel's, on every
# agent and on every host's figures.
boot_id = open("/proc/sys/kernel/random/boot_id").read().strip()
assert [a["boot_id"] for a in r["agents"]] == [boot_id] * 4, r["agents"]
assert all(h["boot_id"] == boot_id for t in r["tests"] for h in t["hosts"])
assert skews[1] < 5e6 and skews[2] < 100e6, "host skews %s ms with 4 agents" % (
    ", ".join("%.3f" % (k / 1e6) for k in skews))
PY

grep -q "^dd2-dir " "$SCRATCH/report.txt" || fail "no dd2-dir row in the report"
grep -Eq "^dd3 +12 +[0-9.x+]+" "$SCRATCH/report.txt" || fail "dd3 row lacks its stream rates"
echo "four agents: ok"
