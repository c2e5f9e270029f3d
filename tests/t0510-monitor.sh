#!/usr/bin/env bash
# A monitor job watches a host for the whole test: one agent writes, the
# other (as on an NFS server) records its host's CPU, disks and NFS
# counters every interval. Its series starts at the start instant, ends
# with the last stream, keeps to its grid (no gap of three intervals), and the
# report shows the host as a row of its own.
. "$(dirname "$0")/lib.sh"

start_agent writer; E1=$ENDPOINT
start_agent server; E2=$ENDPOINT
cat > "$SCRATCH/monitor.ini" <<INI
[global]
interval = 50ms
[agent writer]
endpoint = $E1
[agent server]
endpoint = $E2
[job write]
test = watched
agent = writer
path = big
size = 256M
rate = 256M             ; a second at least: intervals enough for the page's chart
[job watch]
test = watched
agent = server
workload = monitor
INI
RESULTS=$SCRATCH/results
"$BIN/iofleet" run "$SCRATCH/monitor.ini" -o "$RESULTS" > "$SCRATCH/report.txt" ||
    { cat "$SCRATCH/report.txt"; fail "run failed"; }
cat "$SCRATCH/report.txt"

python3 - "$RESULTS/results.json" <<'PY' || fail "the monitor's series does not cover the test"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["tests"][0]
interval = 50e6
assert t["summary"]["streams"] == 1, "the monitor is no stream of the test"
assert len(t["monitors"]) == 1
m = t["monitors"][0]
points = m["points"]
ts = [p["t_ns"] for p in points]
end = max(s["end_ns"] for s in t["streams"])
print("monitor: %d points from %.1f to %.1f ms, last stream ended at %.1f ms, max gap %.1f ms" % (
    len(points), ts[0] / 1e6, ts[-1] / 1e6, end / 1e6, m["max_gap_ns"] / 1e6))
assert ts == sorted(ts)
# The first sample is the start instant's, whether or not the stream's
# thread has seen the instant yet when the loop takes it.
assert abs(ts[0]) <= interval / 2, "the series starts late"
assert ts[-1] >= end, "the series ends before the test"
gaps = sorted(b - a for a, b in zip(ts, ts[1:]))
assert max(gaps) == m["max_gap_ns"], (gaps, m["max_gap_ns"])
# On the grid start + k * interval: the typical gap is one interval (a
# series every second instant would show two), and an instant the loop
# missed is skipped, not made up by a burst, so no gap reaches three
# (a stall of more than one interval, as a loaded host under a sanitizer
# gives, may cost one instant: two intervals and the stall's excess).
median = gaps[len(gaps) // 2]
assert 0.9 * interval <= median <= 1.1 * interval, ("median gap", median, gaps)
assert max(gaps) < 3 * interval, gaps
assert len(points) >= (ts[-1] - ts[0]) / interval - 1, ("points missing", len(points))
assert all(b["cpu_total_ticks"] >= a["cpu_total_ticks"] for a, b in zip(points, points[1:]))
assert m["usr_pct"] is not None and 0 <= m["sys_pct"] <= 100
# Its host sent its window figures too.
assert [h["agent"] for h in t["hosts"]] == ["writer", "server"] and all(h["received"] for h in t["hosts"])
PY
grep -Eq "^  server +watch +[0-9.]+ +[0-9.]+ +[0-9.]+ " "$SCRATCH/report.txt" ||
    fail "the report lacks the monitored host's row"

# The timeline page draws the monitor: its disk writes, a point per
# interval of its series, and its %sys, a point per interval in which the
# CPU counters moved (in one without a tick, %sys is not known: no point,
# rather than a made-up 0).
python3 - "$RESULTS/report.html" "$RESULTS/results.json" <<'PY' || fail "the page does not draw the monitor"
import json, re, sys
page = open(sys.argv[1]).read()
m = json.load(open(sys.argv[2]))["tests"][0]["monitors"][0]
pairs = list(zip(m["points"], m["points"][1:]))
want = {
    "monitor-disk": sum(1 for a, b in pairs
                        if b["t_ns"] > a["t_ns"] and b["disk_written_bytes"] >= a["disk_written_bytes"]),
    "monitor-sys": sum(1 for a, b in pairs
                       if b["cpu_total_ticks"] > a["cpu_total_ticks"]
                       and b["cpu_system_ticks"] >= a["cpu_system_ticks"]),
}
for kind, count in want.items():
    found = re.search(r'<polyline[^>]*data-kind="%s"[^>]*data-agent="server"[^>]*points="([^"]*)"' % kind, page)
    assert found, kind
    points = found.group(1).split()
    assert len(points) == count, (kind, len(points), count)
assert want["monitor-disk"] == len(pairs), "an interval of the monitor went backwards"
print("page: the monitor's disk series, one point per interval (%d), and %%sys, one per interval "
      "with CPU ticks (%d)" % (want["monitor-disk"], want["monitor-sys"]))
PY
echo "monitor: ok"
