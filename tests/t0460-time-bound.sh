#!/usr/bin/env bash
# Time-bound runs that end together, and many tasks. With runtime = 2s
# and ramp = 500ms, write, randrw and random-read streams on two agents
# all stop at the announced instant plus the runtime: no stream issues a
# request at or after it, so each one's lateness past it is the request
# it had in flight, and its end comes after that by its fsync and close.
# The report says so (how late, the request in flight, the flush after)
# with the figures the streams give, and the end skew is within those;
# where the requests in flight and the flushes were short, the streams
# of both agents end within a millisecond of each other (and the clocks'
# uncertainty). Their figures start at the ramp's end and count only
# what came after it. Then one agent runs 512 randrw streams over a
# small set: every stream reports, the agent answers ping all along, and
# the report gives ops/min beside %sys.
# runs alone: the streams of two agents must end within a few ms of one instant
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
; Every job runs on both agents.
[group both]
agents = a1, a2

; O_DIRECT writes, and no flush at the end: a stream's end is its stop.
[job w]
test = write
agent = both
workload = write
path = w
size = 32M
bs = 256K
direct = yes
fsync = none
streams = 2

; O_DIRECT too, but a stream fsyncs every file it wrote at the end (and
; every 100 requests): that flush is its tail.
[job r]
test = randrw
agent = both
workload = randrw
path = set/f
size = 16M
files = 4
streams = 4
bs = 16K
direct = yes

; Random reads alone: nothing to flush, the end is the last request's.
[job q]
test = rndrd
agent = both
workload = randrw
mode = rndrd
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
RUNTIME, RAMP, MS = 2_000_000_000, 500_000_000, 1_000_000
NOTICE = MS             # how late a stream may notice the instant, the clocks aside
ms = lambda ns: ns / 1e6
for name, streams in (("write", 4), ("randrw", 8), ("rndrd", 8)):
    t = by[name]
    s = t["summary"]
    assert t["bound"] == "time", (name, t["bound"])
    assert len(t["streams"]) == streams and s["failed_streams"] == 0, (name, s)
    late, issue_late, in_flight, tail = [], [], [], []
    for st in t["streams"]:
        assert st["error"] == "", st["error"]
        # On the coordinator's timeline, 0 is the announced instant: each
        # stream's figures start at the ramp's end, and it was to stop at
        # the runtime; each of its times is good to its clock's error.
        u = st["clock_uncertainty_ns"]
        who = (name, st["agent"], st["index"])
        assert st["stop_ns"] == RUNTIME, (who, st["stop_ns"])
        assert abs(st["start_ns"] - RAMP) <= u + 1_000, (who, st["start_ns"])
        # No request was issued at or after the instant: the last one
        # before it is the one in flight then (or one that ended before
        # it, an fsync round crossing the instant). Its end past the
        # instant is then that request's time in flight and how late the
        # stream noticed, which is never more than a little.
        assert RAMP < st["last_issue_ns"] <= st["last_write_ns"] <= st["end_ns"], who
        assert st["last_issue_ns"] <= RUNTIME + u, (who, st["last_issue_ns"] - RUNTIME)
        st_late = st["last_write_ns"] - RUNTIME
        st_in_flight = st["last_write_ns"] - st["last_issue_ns"]
        assert st_late <= st_in_flight + NOTICE, (who, st_late, st_in_flight)
        # A stream ends after it stopped: never before the instant.
        assert st["end_ns"] >= RUNTIME - u, (who, st["end_ns"] - RUNTIME)
        late.append(st_late)
        issue_late.append(st["last_issue_ns"] - RUNTIME)
        in_flight += [st_in_flight] if st_late >= 0 else []
        tail.append(st["end_ns"] - st["last_write_ns"])
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
    # The report's figures are the streams'.
    stop = s["stop"]
    assert stop == {"streams": streams, "instant_ns": RUNTIME, "late_ns": max(late),
                    "issue_late_ns": max(issue_late), "in_flight_ns": max(in_flight + [0]),
                    "tail_ns": max(tail)}, (name, stop)
    skew, u = s["end_skew_ns"], s["clock_uncertainty_ns"]
    print("%s: end skew %.3f ms (host skew %.3f ms, clocks ± %.3f ms): stopped within %.3f ms, "
          "in flight up to %.3f ms, last issued %.3f ms before the instant, fsync and close "
          "up to %.3f ms" % (name, ms(skew), ms(s["host_skew_ns"]), ms(u), ms(stop["late_ns"]),
          ms(stop["in_flight_ns"]), -ms(stop["issue_late_ns"]), ms(stop["tail_ns"])))
    # Every stream ended between the instant and its lateness plus its
    # tail past it: the end skew is within those.
    assert 0 <= skew <= stop["in_flight_ns"] + stop["tail_ns"] + NOTICE + u, (name, skew, stop)
    # And so the streams of both agents end within a millisecond of each
    # other whenever their requests in flight and flushes were short.
    if stop["in_flight_ns"] + stop["tail_ns"] < MS:
        assert skew <= MS + u, (name, skew, u)
        print("%s: the streams of both agents ended within 1 ms (+ %.3f ms)" % (name, ms(u)))
    else:
        print("%s: in flight and flush %.3f ms: no 1 ms bound on the end skew" %
              (name, ms(stop["in_flight_ns"] + stop["tail_ns"])))
PY
grep -Eq "^  time-bound, streams ended [0-9.]+ ms apart$" "$SCRATCH/out" ||
    fail "the report does not say time-bound with the end skew"
[ "$(grep -c "time-bound, streams ended" "$SCRATCH/out")" = 3 ] ||
    fail "not every test said time-bound"
# (Should every last request have ended before the instant, the line
# says "by" it, with none in flight; one issued after it would be named.)
stopped="^  every stream stopped (within [0-9.]+ ms of|by) the stop instant, 2 s after the start"
why="\((the request in flight then: up to [0-9.]+ ms|no request in flight then)\)"
[ "$(grep -Ec "$stopped $why; fsync and close after it: up to [0-9.]+ ms more$" "$SCRATCH/out")" = 3 ] ||
    fail "the report does not say how late the streams stopped, and why"

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
