#!/usr/bin/env bash
# The live status line, read off a terminal as a user sees it. In tmux, a
# 10 s time-bound write with a 2 s ramp on two agents, two streams each
# capped at 10 MiB/s (a steady fleet rate of 41.94 MB/s), then a 3 s
# randrw of four streams capped at 250 requests/s each. The pane is
# captured over and over: percent done only grows and the ETA only
# falls, the ramp shows as ramp, every rate shown after the ramp is the
# last interval's and within 5% of the steady rate (an average since the
# start, ramp included, would creep up to it), and the randrw shows
# requests/s beside its MB/s. Then --progress lines with an interval of
# 700 ms: one key=value line per interval, every field parseable.
# runs alone: the status line's rates are read against the paced fleet rate
. "$(dirname "$0")/lib.sh"

command -v tmux > /dev/null || fail "tmux is not installed (scripts/deps.sh test)"
start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
scenario () {       # scenario INTERVAL RUNTIME
    cat <<INI
[global]
settle = 0
interval = $1

[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[group both]
agents = a1, a2

[job w]
test = tb
agent = both
workload = write
path = w
size = 1G
bs = 64K
streams = 2
rate = 10M
fsync = none
runtime = $2
ramp = 2s

[job r]
test = rr
agent = both
workload = randrw
path = set/f
size = 8M
files = 2
streams = 2
bs = 4K
rate_iops = 250
runtime = 3s
INI
}
scenario 1s 10s > "$SCRATCH/status.ini"

# in_tmux WIDTH SCENARIO NAME: run SCENARIO in a pane WIDTH columns wide
# of a tmux server of its own, its stdout the pane (a terminal), its
# stderr $SCRATCH/NAME.err; capture the pane every 0.1 s into
# $SCRATCH/NAME.panes (each capture after a line "--") until it ends.
in_tmux () {
    local sock=$SCRATCH/$3.sock i
    tmux -S "$sock" new-session -d -x "$1" -y 12 \
        "'$BIN/iofleet' run --no-db '$2' -o '$SCRATCH/$3' 2> '$SCRATCH/$3.err'; \
         echo \$? > '$SCRATCH/$3.rc'; sleep 60"
    PIDS+=("$(tmux -S "$sock" display-message -p '#{pid}')")
    for i in $(seq 300); do
        [ -e "$SCRATCH/$3.rc" ] && break
        { echo --; tmux -S "$sock" capture-pane -p; } >> "$SCRATCH/$3.panes" || true
        sleep 0.1
    done
    tmux -S "$sock" kill-server 2>/dev/null || true
    [ -e "$SCRATCH/$3.rc" ] || fail "the $3 run did not end in 30 s"
    [ "$(cat "$SCRATCH/$3.rc")" = 0 ] ||
        { cat "$SCRATCH/$3.err"; fail "the $3 run exited $(cat "$SCRATCH/$3.rc")"; }
}
in_tmux 240 "$SCRATCH/status.ini" wide
grep -E '^(tb|rr) #1  ' "$SCRATCH/wide.panes" > "$SCRATCH/captured" || true

python3 - "$SCRATCH/captured" <<'PY' || { cat "$SCRATCH/captured"; fail "the status line is wrong"; }
import re, sys
LINE = re.compile(r"^(tb|rr) #1  (ramp|run|done)  ([0-9.]+)%  eta ([0-9.]+) s  ([0-9.]+) s"
                  r"(?:  ([0-9.]+|-) MB/s)?(?:  ([0-9.]+|-) req/s)?  hosts 2: ")
STEADY = 4 * 10 * 1048576 / 1e6          # MB/s: four streams at 10 MiB/s
RPS = 4 * 250
seen = {"tb": [], "rr": []}
for text in open(sys.argv[1]):
    m = LINE.match(text)
    assert m, "not a status line: %r" % text
    test, state, pct, eta, elapsed, mbps, rps = m.groups()
    figures = (float(elapsed), state, float(pct), float(eta),
               float(mbps) if mbps not in (None, "-") else mbps,
               float(rps) if rps not in (None, "-") else rps)
    if not seen[test] or seen[test][-1] != figures:
        seen[test].append(figures)
tb, rr = seen["tb"], seen["rr"]
assert len(tb) >= 12, "only %d distinct lines of tb" % len(tb)
for before, after in zip(tb, tb[1:]):
    assert after[0] >= before[0], ("elapsed went back", before, after)
    assert after[2] >= before[2], ("percent went back", before, after)
    assert after[3] <= before[3], ("ETA went up", before, after)
assert tb[0][2] < 25 and tb[-1][2] > 85, ("percent did not cover the run", tb[0], tb[-1])
assert tb[-1][3] < 1.5, ("the ETA did not come down", tb[-1])
ramp = [f for f in tb if f[1] == "ramp"]
assert ramp and all(f[0] < 2.1 for f in ramp), ("ramp shown wrong", ramp)
assert all(f[4] == "-" for f in ramp), ("a rate shown in the ramp, whose bytes count nowhere", ramp)
assert all(f[1] == "run" for f in tb if f[0] >= 2.1), "the ramp outlasts itself"
assert all(f[5] is None for f in tb), "a write shows requests/s"
steady = [f for f in tb if 3.5 <= f[0] <= 9.5]
assert len(steady) >= 8, ("too few lines after the ramp", steady)
for f in steady:
    assert abs(f[4] - STEADY) <= 0.05 * STEADY, ("rate %.1f MB/s, steady %.2f" % (f[4], STEADY), f)
runs = [f for f in rr if f[0] >= 1.2 and f[1] == "run"]
assert runs, ("no randrw line past its first interval", rr)
for f in runs:
    assert isinstance(f[5], float) and isinstance(f[4], float), ("randrw shows no requests/s or MB/s", f)
    assert abs(f[5] - RPS) <= 0.1 * RPS, ("randrw at %.0f req/s, capped at %d" % (f[5], RPS), f)
print("status line: tb %d lines, %.0f%% -> %.0f%%, eta %.1f -> %.1f s, %.1f MB/s after the ramp;"
      " rr %.0f req/s" % (len(tb), tb[0][2], tb[-1][2], tb[0][3], tb[-1][3],
                          sum(f[4] for f in steady) / len(steady), runs[-1][5]))
PY

# A terminal narrower than the line: the line is cut at its width rather
# than wrapped, so that rewriting it leaves no rows of it behind: while
# the status shows, one line of the pane holds it, and nothing else.
sed -n '/^\[job r\]/,$p' "$SCRATCH/status.ini" > "$SCRATCH/rr.ini"
sed -n '1,/^agents/p' "$SCRATCH/status.ini" | cat - "$SCRATCH/rr.ini" > "$SCRATCH/narrow.ini"
in_tmux 60 "$SCRATCH/narrow.ini" narrow
python3 - "$SCRATCH/narrow.panes" <<'PY' || fail "the status line wraps on a narrow terminal"
import sys
shown = 0
for pane in open(sys.argv[1]).read().split("--\n")[1:]:
    rows = [row for row in pane.split("\n") if row.strip()]
    status = [row for row in rows if row.startswith("rr #1  ")]
    if not status:
        continue
    shown += 1
    assert len(status[0]) <= 59, status[0]
    assert len(rows) == 1, rows
assert shown >= 5, "the status showed in %d captures" % shown
print("narrow: %d captures of one line, cut at 59 columns" % shown)
PY

# --progress lines: once per interval (700 ms), key=value.
scenario 700ms 4s > "$SCRATCH/lines.ini"
"$BIN/iofleet" run --no-db "$SCRATCH/lines.ini" -o "$SCRATCH/lines" --progress lines \
    > "$SCRATCH/lines.out" 2> "$SCRATCH/lines.err" || { cat "$SCRATCH/lines.err"; fail "lines run failed"; }
python3 - "$SCRATCH/lines.err" <<'PY' || { cat "$SCRATCH/lines.err"; fail "the status lines are wrong"; }
import sys
KEYS = ["test", "iteration", "phase", "state", "elapsed_s", "pct", "eta_s", "mbps", "iops",
        "hosts", "running", "slow", "lost", "done", "worst"]
by = {}
for text in open(sys.argv[1]):
    if not text.startswith("status "):
        continue
    fields = dict(word.split("=", 1) for word in text.split()[1:])
    assert list(fields) == KEYS, text
    for key in ("elapsed_s", "pct", "eta_s", "mbps"):
        if fields[key] != "-":
            float(fields[key])
    for key in ("iteration", "hosts", "running", "slow", "lost", "done"):
        int(fields[key])
    assert fields["state"] in ("ramp", "run", "done"), text
    assert fields["hosts"] == "2", text
    by.setdefault(fields["test"], []).append(fields)
tb, rr = by["tb"], by["rr"]
assert 4 <= len(tb) <= 6, "tb: %d lines in 4 s at 700 ms" % len(tb)
times = [float(f["elapsed_s"]) for f in tb]
for a, b in zip(times, times[1:]):
    assert 0.6 <= b - a <= 0.8, ("lines not once per interval", times)
assert all(f["iops"] == "-" for f in tb) and all(f["iops"] != "-" for f in rr), "iops= wrong"
assert tb[0]["state"] == "ramp" and tb[-1]["state"] == "run", [f["state"] for f in tb]
print("lines: tb at %s s, rr %s" % (times, [f["iops"] for f in rr]))
PY
