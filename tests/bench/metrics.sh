#!/usr/bin/env bash
# Scrapes cost a run nothing: the start skew and the fixed cost of a test
# with and without a scraper hammering --metrics.
#
# METRICS_AGENTS agents (default 32) on loopback run a null test and a
# 1 MB write, METRICS_ITERATIONS (default 5) iterations each, in rounds
# that alternate plain and scraped (ABBA, BENCH_ROUNDS pairs, default 3):
# plain has no --metrics; scraped serves it and a scraper fetches it
# every METRICS_SCRAPE_MS (default 100, ten times Prometheus's usual
# 1 s) for the whole run. Per mode it prints the medians over the runs
# of: the null test's fixed cost (start instant to the next iteration's,
# less its window), the write test's round trip, and the worst host
# skew (clock uncertainty included); then the scrapes' count, median and
# longest time and size. Targets: the scraped fixed cost within 10% (or
# 20 ms) of the plain one, the scraped skew < 5 ms. Exits 1 if one is
# missed. Every process it starts is stopped by pid.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

count=${METRICS_AGENTS:-32}
iterations=${METRICS_ITERATIONS:-5}
scrape_ms=${METRICS_SCRAPE_MS:-100}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

{
    printf '[global]\niterations = %d\nsettle = 0\ninterval = 100ms\n' "$iterations"
    for i in $(seq "$count"); do
        start_agent "m$i"
        printf '[agent m%d]\nendpoint = %s\n' "$i" "$ENDPOINT"
    done
    printf '[group fleet]\nagents = m[1-%d]\n' "$count"
    printf '[job null]\nagent = fleet\nworkload = null\nsize = 1M\n'
    printf '[job w]\nagent = fleet\npath = w\nsize = 1M\n'
} > "$SCRATCH/bench.ini"

# run_mode MODE N: one run, plain or scraped; its figures appended to
# $SCRATCH/MODE.figures ("null_s write_s skew_ms"), its scrapes' to
# $SCRATCH/scrapes ("seconds bytes").
run_mode () {
    local mode=$1 n=$2 out=$SCRATCH/run.$1.$2 flags=() scraper= run
    [ "$mode" = plain ] || flags=(--metrics "127.0.0.1:$port")
    "$BIN/iofleet" run "$SCRATCH/bench.ini" -q --no-db -o "$out" "${flags[@]}" \
        > /dev/null 2> "$out.err" &
    PIDS+=($!)
    run=$!
    if [ "$mode" = scraped ]; then
        wait_log "$out.err" "event=metrics "
        while kill -0 "$run" 2>/dev/null; do
            curl -s -o /dev/null -w '%{time_total} %{size_download}\n' \
                "http://127.0.0.1:$port/metrics" >> "$SCRATCH/scrapes" || true
            sleep "$(echo "$scrape_ms / 1000" | bc -l)"
        done &
        PIDS+=($!)
        scraper=$!
    fi
    wait "$run" || { tail "$out.err"; fail "the $mode run failed"; }
    [ -z "$scraper" ] || wait "$scraper" || true
    python3 - "$out/results.json" >> "$SCRATCH/$mode.figures" <<'PY'
import json, statistics, sys
tests = json.load(open(sys.argv[1]))["tests"]
assert all(t["summary"]["failed_streams"] == 0 for t in tests), "a stream failed"
def between(name):
    runs = [t for t in tests if t["name"] == name]
    return statistics.median(
        (b["announced_wall_ns"] - a["announced_wall_ns"]
         - max(a["summary"]["last_end_ns"] - min(0, a["summary"]["first_start_ns"]), 0)) / 1e9
        for a, b in zip(runs, runs[1:]))
skew_ms = max(t["summary"]["host_skew_ns"] + t["summary"]["clock_uncertainty_ns"] for t in tests) / 1e6
print("%.4f %.4f %.3f" % (between("null"), between("w"), skew_ms))
PY
    printf '%-8s %d  %s\n' "$mode" "$n" "$(tail -1 "$SCRATCH/$mode.figures")"
}

: > "$SCRATCH/scrapes"
echo "$count agents, $iterations iterations a run, a scrape every $scrape_ms ms in scraped runs"
echo "mode     n  null_s  write_s  skew_ms"
for round in $(seq "$rounds"); do
    if [ $((round % 2)) = 1 ]; then order="plain scraped"; else order="scraped plain"; fi
    for mode in $order; do
        run_mode "$mode" "$round"
    done
done

python3 - "$SCRATCH/plain.figures" "$SCRATCH/scraped.figures" "$SCRATCH/scrapes" <<'PY'
import statistics, sys
def figures(path):
    rows = [list(map(float, line.split())) for line in open(path) if line.strip()]
    return [statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows),
            max(r[2] for r in rows)]
plain, scraped = figures(sys.argv[1]), figures(sys.argv[2])
scrapes = [list(map(float, line.split())) for line in open(sys.argv[3]) if line.strip()]
print()
print("           fixed cost (null)  write round trip  worst host skew")
for name, f in (("plain", plain), ("scraped", scraped)):
    print("%-10s %10.1f ms      %10.1f ms     %8.3f ms" % (name, f[0] * 1e3, f[1] * 1e3, f[2]))
if scrapes:
    times = sorted(s[0] for s in scrapes)
    print("scrapes    %d, median %.2f ms, longest %.2f ms, median %.0f kB" % (
        len(scrapes), statistics.median(times) * 1e3, times[-1] * 1e3,
        statistics.median(s[1] for s in scrapes) / 1e3))
over = []
if scraped[0] - plain[0] > max(0.02, 0.1 * plain[0]):
    over.append("scraped fixed cost %.1f ms against %.1f ms plain" % (scraped[0] * 1e3, plain[0] * 1e3))
if scraped[2] >= 5:
    over.append("scraped host skew %.3f ms (target < 5)" % scraped[2])
if not scrapes:
    over.append("no scrape was answered")
for line in over:
    print("over:", line)
sys.exit(1 if over else 0)
PY
