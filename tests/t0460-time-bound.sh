#!/usr/bin/env bash
# Time-bound runs that end together, and many tasks. With runtime = 2s
# and ramp = 500ms, write and randrw streams on two agents all stop at
# the announced instant plus the runtime: the report says time-bound and
# how far apart the streams ended (the coordinator's end skew, small),
# and every stream's end is at the runtime within that; their figures
# start at the ramp's end and count only what came after it. Then one
# agent runs 512 randrw streams over a small set: every stream reports,
# the agent answers ping all along, and the report gives ops/min beside
# %sys.
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
cat > "$SCRATCH/time.ini" <<INI
[global]
settle = 0
runtime = 2s
ramp = 500ms

[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2

; O_DIRECT writes, and no flush at the end: a stream's end is its stop.
[job w1]
test = write
agent = a1
workload = write
path = w
size = 32M
bs = 256K
direct = yes
fsync = none
streams = 2
[job w2]
test = write
agent = a2
workload = write
path = w
size = 32M
bs = 256K
direct = yes
fsync = none
streams = 2

; O_DIRECT too: the last fsync of each file finds nothing to write.
[job r1]
test = randrw
agent = a1
workload = randrw
path = set/f
size = 16M
files = 4
streams = 4
bs = 16K
direct = yes
[job r2]
test = randrw
agent = a2
workload = randrw
path = set/f
size = 16M
files = 4
streams = 4
bs = 16K
direct = yes
INI
RESULTS=$SCRATCH/r
"$BIN/iofleet" run --no-db "$SCRATCH/time.ini" -o "$RESULTS" > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "time-bound run failed"; }
cat "$SCRATCH/out"

python3 - "$RESULTS/results.json" <<'PY' || fail "time-bound figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
by = {t["name"]: t for t in r["tests"]}
RUNTIME, RAMP, SKEW = 2_000_000_000, 500_000_000, 20_000_000
for name, streams in (("write", 4), ("randrw", 8)):
    t = by[name]
    s = t["summary"]
    assert t["bound"] == "time", (name, t["bound"])
    assert len(t["streams"]) == streams and s["failed_streams"] == 0, (name, s)
    skew = s["end_skew_ns"]
    print("%s: end skew %.3f ms (host skew %.3f ms)" % (name, skew / 1e6, s["host_skew_ns"] / 1e6))
    assert 0 <= skew < SKEW, (name, skew)
    for st in t["streams"]:
        assert st["error"] == "", st["error"]
        # On the coordinator's timeline, 0 is the announced instant: each
        # stream's figures start at the ramp's end and end at the runtime,
        # within the end skew and the clocks' error.
        # The request (or randrw's fsync round) that crosses the stop
        # instant is the last, then randrw's last round: the end is just
        # past the instant.
        u = st["clock_uncertainty_ns"]
        who = (name, st["agent"], st["index"])
        assert abs(st["start_ns"] - RAMP) <= u + 1_000, (who, st["start_ns"])
        assert -u <= st["end_ns"] - RUNTIME < SKEW, (who, st["end_ns"])
        assert RAMP < st["last_write_ns"] <= st["end_ns"], (who, st["last_write_ns"])
        # What the window holds and no more: 1.5 s of requests, each
        # timed after the ramp (none longer than the window).
        window = st["end_ns"] - st["start_ns"]
        ops = st["reads"] + st["writes"]
        assert ops > 0 and st["bytes"] == ops * st["bs_bytes"], (name, st)
        for kind in ("read", "write"):
            if kind in st["latency"] and st["latency"][kind]["count"]:
                assert st["latency"][kind]["max_ns"] < window, (name, kind, st["latency"][kind])
        # The thread's CPU is the window's, not the ramp's too.
        assert st["usr_ns"] + st["sys_ns"] <= window + 1_000_000, (name, st)
PY
grep -Eq "^  time-bound, streams ended [0-9.]+ ms apart$" "$SCRATCH/out" ||
    fail "the report does not say time-bound with the end skew"
[ "$(grep -c "time-bound, streams ended" "$SCRATCH/out")" = 2 ] ||
    fail "not every test said time-bound"

# Many tasks: 512 streams of one agent over a set of 128 files, then 256
# on each of two agents.
cat > "$SCRATCH/many.ini" <<INI
[global]
settle = 0
[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[job dbase]
agent = a1
workload = randrw
path = db/f
size = 64M
files = 128
streams = 512
bs = 8K
rwratio = 2
fsync_every = 20
runtime = 2s
; And 2 x 256 on two agents, one test.
[job half1]
test = halves
agent = a1
workload = randrw
path = h1/f
size = 32M
files = 64
streams = 256
bs = 8K
runtime = 2s
[job half2]
test = halves
agent = a2
workload = randrw
path = h2/f
size = 32M
files = 64
streams = 256
bs = 8K
runtime = 2s
INI
"$BIN/iofleet" run --no-db "$SCRATCH/many.ini" -o "$SCRATCH/m" > "$SCRATCH/mout" 2>&1 &
run_pid=$!
PIDS+=("$run_pid")
asked=0 answered=0
while kill -0 "$run_pid" 2>/dev/null; do
    asked=$((asked + 1))
    if "$BIN/iofleet" ping --timeout 1s "$E1" 2>&1 | grep -Eq "^$E1 +a1 "; then
        answered=$((answered + 1))
    fi
    sleep 0.2
done
rc=0; wait "$run_pid" || rc=$?
sed -n '1,/^random I\/O/p' "$SCRATCH/mout" | head -30
grep -E "^dbase +all " "$SCRATCH/mout" || true
[ "$rc" = 0 ] || { cat "$SCRATCH/mout"; fail "512 streams: run exited $rc"; }
echo "512 streams: $answered of $asked pings answered during the run"
[ "$answered" -ge 3 ] && [ "$answered" = "$asked" ] || fail "the agent stopped answering"
grep -q "lost" "$SCRATCH/mout" && fail "an agent was given up under 512 streams"
RESULTS=$SCRATCH/m
python3 - "$RESULTS/results.json" <<'PY' || fail "512 streams: figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["tests"][0]
ss = t["streams"]
assert len(ss) == 512 and sorted(s["index"] for s in ss) == list(range(512)), len(ss)
for s in ss:
    assert s["finished"] and not s["lost"] and s["error"] == "", s
    assert s["reads"] + s["writes"] > 0, s
assert t["bound"] == "time" and t["summary"]["failed_streams"] == 0, t["summary"]
assert t["summary"]["sys_pct"] is not None and t["summary"]["sys_pct"] > 0, t["summary"]
print("512 streams: end skew %.3f ms, %d requests" %
      (t["summary"]["end_skew_ns"] / 1e6, sum(s["reads"] + s["writes"] for s in ss)))
t = r["tests"][1]
assert t["name"] == "halves" and t["summary"]["hosts"] == 2, t["name"]
ss = t["streams"]
for agent in ("a1", "a2"):
    mine = sorted(s["index"] for s in ss if s["agent"] == agent)
    assert mine == list(range(256)), (agent, len(mine))
assert all(s["finished"] and not s["lost"] and s["error"] == "" for s in ss)
assert t["bound"] == "time" and t["summary"]["failed_streams"] == 0, t["summary"]
print("2 x 256 streams: end skew %.3f ms" % (t["summary"]["end_skew_ns"] / 1e6))
PY
# ops/min beside %sys, a number in each.
grep -Eq "ops/min +%sys$" "$SCRATCH/mout" || fail "no ops/min and %sys columns"
grep -Eq "^dbase +all( +[0-9.]+){6} +[0-9]+ +[0-9.]+$" "$SCRATCH/mout" ||
    fail "no ops/min and %sys figures for the test"
echo "t0460 ok"
