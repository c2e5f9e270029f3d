#!/usr/bin/env bash
# A test that mixes a stream workload (write, 1 MiB calls) with a request
# workload (randrw, 4 KiB requests) on one agent: every figure is of one
# kind. The write stream's rate is MB/s and the randrw streams' rates
# requests/s ("609 & 2x24600/s"), the combined figure is MB/s of all the
# bytes and, beside it, the requests/s of the randrw streams alone (never
# the write's calls added to the requests), and the random I/O table
# holds the randrw streams only, each named by agent, job and index. The
# results file says which streams count requests, and `iofleet report`
# renders the same text again.
. "$(dirname "$0")/lib.sh"

start_agent a1
cat > "$SCRATCH/mix.ini" <<EOF
[global]
settle = 0
[agent a1]
endpoint = $ENDPOINT
[job w]
test = mix
agent = a1
path = w
size = 16M
bs = 1M
[job r]
test = mix
agent = a1
workload = randrw
path = set/f
size = 8M
files = 4
bs = 4K
streams = 2
requests = 4000
EOF
RESULTS=$SCRATCH/r
"$BIN/iofleet" run -q --no-db "$SCRATCH/mix.ini" -o "$RESULTS" > "$SCRATCH/out" 2> "$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "the run failed"; }
cat "$SCRATCH/out"
row=$(grep -E '^mix +3 ' "$SCRATCH/out") || fail "no row for the test"
# per stream: the write in MB/s, the randrw streams in requests/s.
per_stream=$(echo "$row" | awk '{print $3, $4, $5}')
echo "$per_stream" | grep -Eq '^[0-9.]+ & [0-9.x+]+/s$' ||
    fail "per stream is not 'MB/s & requests/s': $per_stream"
# combined: MB/s of every byte, then the requests/s of the randrw streams.
python3 - "$RESULTS/results.json" "$row" <<'PY' || fail "the figures are of mixed kinds"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["tests"][0]
assert t["rate"] == "bytes", t["rate"]
kinds = {(s["job"], s.get("rate", "")) for s in t["streams"]}
assert kinds == {("w", ""), ("r", "requests")}, kinds
s = t["summary"]
requests = [x for x in t["streams"] if x["job"] == "r"]
ops = sum(x["reads"] + x["writes"] for x in requests)
start = min(x["start_ns"] for x in requests)
end = max(x["end_ns"] for x in requests)
expected = ops / ((end - start) / 1e9)
assert abs(s["combined_ops_per_s"] - expected) <= 1e-6 * expected, (s["combined_ops_per_s"], expected)
all_bytes = sum(x["bytes"] for x in t["streams"])
assert all_bytes == s["bytes"]
cells = sys.argv[2].split()
combined = "%s %s %s" % (cells[5], cells[6], cells[7])
ops_cell = float(cells[7].rstrip("/s"))
assert cells[6] == "&" and cells[7].endswith("/s"), combined
assert abs(ops_cell - expected) <= 0.01 * expected, (combined, expected)
PY
# The random I/O table: the randrw streams only, named apart.
sed -n '/^random I\/O/,/^$/p' "$SCRATCH/out" > "$SCRATCH/requests.txt"
grep -Eq '^ +a1 r\.0 ' "$SCRATCH/requests.txt" && grep -Eq '^ +a1 r\.1 ' "$SCRATCH/requests.txt" ||
    fail "the random I/O table does not name the randrw streams"
[ "$(grep -c '^   ' "$SCRATCH/requests.txt")" = 2 ] || fail "the random I/O table holds the write stream"
all=$(grep -E '^mix +all ' "$SCRATCH/requests.txt") || fail "no 'all' line"
# Its written MB/s is its writes/s of 4 KiB requests, nothing more: the
# write stream's 16 MiB would add hundreds of MB/s over a window this short.
writes_per_s=$(echo "$all" | awk '{print $4}')
writes_mb=$(echo "$all" | awk '{print $7}')
python3 -c "import sys; w, mb = map(float, sys.argv[1:]); sys.exit(0 if abs(mb - w * 4096 / 1e6) <= 0.01 * mb + 0.01 else 1)" \
    "$writes_per_s" "$writes_mb" ||
    fail "the written MB/s of requests is not their writes' 4 KiB each: $writes_mb MB/s at $writes_per_s writes/s"
"$BIN/iofleet" report "$RESULTS/results.json" | cmp -s - "$RESULTS/report.txt" ||
    fail "the report rendered again differs"
echo "mixed kinds: ok"
