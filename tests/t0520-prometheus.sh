#!/usr/bin/env bash
# A real Prometheus scrapes --metrics. Four agents each write one stream
# capped at 20 MB/s for 10 s while Prometheus (its own config and TSDB in
# the scratch directory) scrapes the console every second; the figures
# stay up a few seconds after the run (--metrics-linger). Then, through
# Prometheus's HTTP API: rate() of the fleet's bytes over the run's
# all-running window is within 3% of the report's all-running figure;
# every host has its series; the hosts are all done; the fleet's p99
# from the histogram agrees with the report's. A scrape taken during the
# run passes `promtool check metrics`, and asks for OpenMetrics get it.
# Every query of the Grafana dashboard (configs/grafana/) finds series.
# Bad addresses and a port in use are bad usage (exit 2), said clearly.
# runs alone: Prometheus's rate is held within 3% of the report's
. "$(dirname "$0")/lib.sh"

command -v prometheus > /dev/null || fail "prometheus is not installed (scripts/deps.sh test)"
command -v promtool > /dev/null || fail "promtool is not installed (scripts/deps.sh test)"
command -v curl > /dev/null || fail "curl is not installed (scripts/deps.sh test)"

# A free loopback port: taken, then given back (below 32768 is not the
# ephemeral range, so nothing outgoing takes it meanwhile).
free_port () {
    python3 -c 'import random,socket
for _ in range(100):
    p = random.randint(20000, 32000); s = socket.socket()
    try: s.bind(("127.0.0.1", p)); s.close(); print(p); break
    except OSError: pass'
}
MPORT=$(free_port)
PPORT=$(free_port)
[ "$MPORT" != "$PPORT" ] || PPORT=$((PPORT + 1))

{
    echo "[global]"
    echo "bs = 1M"
    echo "runtime = 10s"
    echo "interval = 500ms"
    echo "rate = 20M"
    echo "fsync = none"
    echo "direct = yes"
    echo "settle = 0"
    for a in a1 a2 a3 a4; do
        start_agent "$a"
        printf '[agent %s]\nendpoint = %s\n' "$a" "$ENDPOINT"
    done
    echo "[group all]"
    echo "agents = a1, a2, a3, a4"
    printf '[job w]\ntest = paced\nagent = all\nworkload = write\npath = w\nsize = 1G\n'
} > "$SCRATCH/paced.ini"

# Bad usage first: nothing is started, and the message says what is wrong.
for bad in "nonsense" "127.0.0.1:" "127.0.0.1:99999" "no-such-host.invalid:9100"; do
    rc=0
    "$BIN/iofleet" run "$SCRATCH/paced.ini" --metrics "$bad" -o "$SCRATCH/bad" --no-db \
        > /dev/null 2> "$SCRATCH/bad.err" || rc=$?
    [ "$rc" = 2 ] || fail "--metrics $bad: exit $rc, expected 2"
    grep -q "metrics $bad" "$SCRATCH/bad.err" || { cat "$SCRATCH/bad.err"; fail "--metrics $bad: no clear message"; }
done
python3 -c 'import socket,time,sys
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(60)' "$MPORT" &
PIDS+=($!)
holder=$!
for i in $(seq 50); do
    python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$MPORT" 2>/dev/null && break
    sleep 0.1
done
rc=0
"$BIN/iofleet" run "$SCRATCH/paced.ini" --metrics "127.0.0.1:$MPORT" -o "$SCRATCH/bad" --no-db \
    > /dev/null 2> "$SCRATCH/bad.err" || rc=$?
[ "$rc" = 2 ] || fail "--metrics on a port in use: exit $rc, expected 2"
grep -q "Address already in use" "$SCRATCH/bad.err" || { cat "$SCRATCH/bad.err"; fail "port in use: not said"; }
[ ! -e "$SCRATCH/bad" ] || fail "a results directory was made for a run that never started"
kill "$holder"
wait "$holder" 2>/dev/null || true
grep -q -- "--metrics-linger" <("$BIN/iofleet" run --help) || fail "run --help lacks --metrics-linger"

mkdir -p "$SCRATCH/prom"
cat > "$SCRATCH/prom/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: iofleet
    static_configs:
      - targets: ['127.0.0.1:$MPORT']
YML
promtool check config "$SCRATCH/prom/prometheus.yml" > /dev/null || fail "our Prometheus config is bad"
prometheus --config.file="$SCRATCH/prom/prometheus.yml" --storage.tsdb.path="$SCRATCH/prom/tsdb" \
    --web.listen-address="127.0.0.1:$PPORT" 2> "$SCRATCH/prom/log" &
PIDS+=($!)
API="http://127.0.0.1:$PPORT"
for i in $(seq 200); do
    curl -sf "$API/-/ready" > /dev/null 2>&1 && break
    kill -0 "${PIDS[-1]}" 2>/dev/null || { tail "$SCRATCH/prom/log"; fail "prometheus did not start"; }
    sleep 0.1
done
curl -sf "$API/-/ready" > /dev/null || fail "prometheus not ready"
# Prometheus hands new targets to its scrapers some seconds after it
# starts: the run begins once it has tried ours (down, until the run).
for i in $(seq 200); do
    curl -sf "$API/api/v1/targets" | python3 -c 'import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
sys.exit(0 if t and t[0]["health"] != "unknown" else 1)' && break
    sleep 0.1
done

RESULTS=$SCRATCH/results
"$BIN/iofleet" run "$SCRATCH/paced.ini" --metrics "127.0.0.1:$MPORT" --metrics-linger 4s \
    -o "$RESULTS" --no-db -q > "$SCRATCH/report.txt" 2> "$SCRATCH/run.err" &
PIDS+=($!)
run=$!
wait_log "$SCRATCH/run.err" "event=metrics url=http://127.0.0.1:$MPORT/metrics"
# Mid-run: one scrape in each format.
sleep 6
curl -sf "http://127.0.0.1:$MPORT/metrics" -D "$SCRATCH/text.headers" > "$SCRATCH/text.scrape" ||
    fail "no scrape during the run"
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' -D "$SCRATCH/om.headers" \
    "http://127.0.0.1:$MPORT/metrics" > "$SCRATCH/om.scrape" || fail "no OpenMetrics scrape"
rc=0
wait "$run" || rc=$?
cat "$SCRATCH/report.txt"
[ "$rc" = 0 ] || { cat "$SCRATCH/run.err"; fail "iofleet run exited $rc"; }
grep -q "event=metrics-linger" "$SCRATCH/run.err" || fail "the figures did not linger"

promtool check metrics < "$SCRATCH/text.scrape" > "$SCRATCH/promtool.out" 2>&1 ||
    { cat "$SCRATCH/promtool.out"; fail "promtool check metrics found problems"; }
[ ! -s "$SCRATCH/promtool.out" ] || { cat "$SCRATCH/promtool.out"; fail "promtool check metrics complains"; }
grep -qi '^content-type: text/plain; version=0.0.4' "$SCRATCH/text.headers" || fail "text scrape's type"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$SCRATCH/om.headers" ||
    fail "OpenMetrics scrape's type"
tail -1 "$SCRATCH/om.scrape" | grep -qx '# EOF' || fail "OpenMetrics scrape lacks # EOF"
grep -q '^iofleet_host_bytes_total{test="paced",phase="",iteration="1",host="a3"} [0-9]' \
    "$SCRATCH/text.scrape" || fail "no series of host a3 mid-run"

# Prometheus has stored everything it scraped by the time the linger is
# over; ask it over the run's all-running window.
python3 - "$RESULTS/results.json" "$API" "$TOP/configs/grafana/iofleet.json" <<'PY' || fail "Prometheus's figures do not match the report's"
import json, sys, urllib.parse, urllib.request
r = json.load(open(sys.argv[1]))
api = sys.argv[2]
t = r["tests"][0]
s = t["summary"]
wall0 = t["announced_wall_ns"] / 1e9
start = max(x["start_ns"] for x in t["streams"]) / 1e9
end = min(x["end_ns"] for x in t["streams"]) / 1e9
def query(q, at):
    url = api + "/api/v1/query?" + urllib.parse.urlencode({"query": q, "time": "%.3f" % at})
    answer = json.load(urllib.request.urlopen(url, timeout=10))
    assert answer["status"] == "success", answer
    return answer["data"]["result"]
# The window of rate() is the all-running one as Prometheus stored it:
# from its first scrape inside to its last. Over the whole window instead,
# rate() extrapolates from the scrapes nearest its ends, and a scrape the
# first second missed (a loaded machine) was alone worth 10%.
stored = query('iofleet_fleet_bytes_total{test="paced"}[30s]', wall0 + end + 5)[0]["values"]
inside = [p[0] for p in stored if wall0 + start < p[0] <= wall0 + end + 0.001]
assert len(inside) >= 2 and inside[-1] - inside[0] >= 5, ("too few scrapes in the window", stored)
window = inside[-1] - inside[0]
at = inside[-1]
got = query('rate(iofleet_fleet_bytes_total{test="paced"}[%dms])' % (int(window * 1000) + 1), at)
assert len(got) == 1, got
rate_mbps = float(got[0]["value"][1]) / 1e6
report = s["all_running_mbps"]
print("all-running window %.3f s (scraped %.3f s of it): prometheus %.2f MB/s, report %.2f MB/s"
      % (end - start, window, rate_mbps, report))
if abs(rate_mbps - report) > 0.03 * report:
    for point in stored:
        print("  stored %.3f (run +%.3f s): %s" % (point[0], point[0] - wall0, point[1]))
    raise SystemExit("more than 3% apart")
# Every host has its series, and the class of their streams.
hosts = query('count by (host) (iofleet_host_bytes_total{test="paced"})', at)
assert sorted(h["metric"]["host"] for h in hosts) == ["a1", "a2", "a3", "a4"], hosts
per_host = query('rate(iofleet_host_bytes_total{test="paced"}[%dms])' % (int(window * 1000) + 1), at)
for h in per_host:
    assert abs(float(h["value"][1]) / 1e6 - report / 4) <= 0.05 * report / 4, h
disk = query('iofleet_class_bytes_total{test="paced",class="disk"}', at)
assert len(disk) == 1, disk
# After the run: every host done, the histogram's p99 near the report's
# (the boundaries are 1-2-5 apart: within the bucket it falls in).
late = wall0 + s["last_end_ns"] / 1e9 + 2
done = query('iofleet_agents{test="paced",state="done"}', late)
assert done and float(done[0]["value"][1]) == 4, done
p99 = query('histogram_quantile(0.99, iofleet_fleet_latency_seconds_bucket{test="paced"})', late)
count = query('iofleet_fleet_latency_seconds_count{test="paced"}', late)
writes = sum(x["writes"] for x in t["streams"])
assert count and float(count[0]["value"][1]) == writes, (count, writes)
report_p99 = t["summary"]["latency"]["requests"]["p99_ns"] / 1e9 if "requests" in t["summary"]["latency"] else None
print("p99: prometheus %s s, report %s s" % (p99[0]["value"][1] if p99 else None, report_p99))
assert p99 and float(p99[0]["value"][1]) > 0
if report_p99:
    ratio = float(p99[0]["value"][1]) / report_p99
    assert 0.4 <= ratio <= 2.5, ratio
# Every query of the Grafana dashboard runs, and finds series, at the end
# of the run (its rates over the last seconds of the run), its host
# figures in.
dashboard = json.load(open(sys.argv[3]))
for panel in dashboard["panels"]:
    for target in panel["targets"]:
        expr = target["expr"].replace("$__rate_interval", "4s").replace("$test", "paced")
        got = query(expr, late)
        assert got, "dashboard panel %r: %s finds nothing" % (panel["title"], expr)
print("dashboard: %d panels, every query answered" % len(dashboard["panels"]))
PY
grep -q "same timestamp\|out-of-order\|out of bounds" "$SCRATCH/prom/log" && { grep "same timestamp\|out-of-order\|out of bounds" "$SCRATCH/prom/log" | head; fail "Prometheus refused samples"; }
echo "ok: Prometheus's rate and histogram agree with the report"
