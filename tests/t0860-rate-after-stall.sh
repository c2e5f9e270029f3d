#!/usr/bin/env bash
# `rate` after a stall: an agent stopped (SIGSTOP) for 2 s in the middle of
# a stream capped at 8M goes on at its rate when it resumes, instead of
# catching up on the time it lost. Checked on the results' samples: no
# interval of about 100 ms after the resume exceeds twice the rate, and
# the stream does run at about its rate again.
# runs alone: a paced rate must hold from second to second after a stall
. "$(dirname "$0")/lib.sh"

start_agent a1
agent_pid=${PIDS[-1]}
cat > "$SCRATCH/rate.ini" <<INI
[global]
settle = 0
interval = 100ms
bs = 64K
[agent a1]
endpoint = $ENDPOINT
[job capped]
agent = a1
path = capped
size = 24M
rate = 8M
INI
RESULTS=$SCRATCH/res
"$BIN/iofleet" run "$SCRATCH/rate.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/a1.log" "event=start "
sleep 1
kill -STOP "$agent_pid"
sleep 2
kill -CONT "$agent_pid"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc"
python3 - "$RESULTS/samples.jsonl" <<'PY' || fail "the stream did not keep to its rate after the stall"
import json, sys
rate = 8 * 2**20
points = sorted((s["t_ns"], s["bytes"]) for s in map(json.loads, open(sys.argv[1])))
gaps = [k for k in range(1, len(points)) if points[k][0] - points[k - 1][0] > 1.5e9]
assert len(gaps) == 1, "expected one stall among the samples, found %d" % len(gaps)
after = points[gaps[0]:]
# 16M at 8M/s is 2 s, some twenty samples; a stream that catches up on
# the time it lost is done within one or two.
assert len(after) >= 8, "only %d samples after the stall: it caught up at once" % len(after)
worst = 0
for k in range(1, len(after)):
    # the latest sample at least 90 ms before this one
    if after[k][0] - after[0][0] < 90e6:
        continue
    j = max(i for i in range(k) if after[k][0] - after[i][0] >= 90e6)
    mbps = (after[k][1] - after[j][1]) / ((after[k][0] - after[j][0]) / 1e9)
    worst = max(worst, mbps)
overall = (after[-1][1] - after[0][1]) / ((after[-1][0] - after[0][0]) / 1e9)
print("after the stall: worst interval %.1f MB/s, overall %.1f MB/s, cap %.1f MB/s"
      % (worst / 1e6, overall / 1e6, rate / 1e6))
assert worst <= 2 * rate, "an interval ran at %.1f MB/s, over twice the cap" % (worst / 1e6)
assert overall >= 0.7 * rate, "the stream crawled at %.1f MB/s after the stall" % (overall / 1e6)
PY
echo "rate after a stall: ok"
