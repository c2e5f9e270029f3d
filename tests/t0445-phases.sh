#!/usr/bin/env bash
# Phases across hosts: rewrite and bonnie on two agents give one row per
# phase; every phase starts at or after its announced instant on every
# host, and only once every host finished the phase before; each phase
# has its own host skew; the bytes are what the files hold, and what the
# disks wrote. A read of a file the page cache holds is warned about; the
# same read with direct = yes is not. An agent laying out a file for
# longer than its lease stays in the run and answers ping meanwhile.
# runs alone: every phase's host skew is held under 50 ms
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
M=1048576
cat > "$SCRATCH/phases.ini" <<INI
[global]
settle = 0
keep = yes

[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2

[job iz1]
test = iozone
agent = a1
workload = rewrite
path = iz
size = 8M
bs = 4K
[job iz2]
test = iozone
agent = a2
workload = rewrite
path = iz
size = 8M
bs = 4K

[job b1]
test = bon
agent = a1
workload = bonnie
path = b
size = 8M
bs = 64K
seeks = 500
[job b2]
test = bon
agent = a2
workload = bonnie
path = b
size = 8M
bs = 64K
seeks = 500

[job cached]
agent = a1
workload = read
path = r
size = 16M
[job direct]
agent = a1
workload = read
path = r
size = 16M
direct = yes
INI
RESULTS=$SCRATCH/r
"$BIN/iofleet" run -q --no-db "$SCRATCH/phases.ini" -o "$RESULTS" > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "run failed"; }
cat "$SCRATCH/out"

python3 - "$RESULTS/results.json" "$SCRATCH" <<'PY' || fail "phases are wrong"
import json, os, sys
r = json.load(open(sys.argv[1]))
scratch = sys.argv[2]
M = 1 << 20
rows = [t["name"] for t in r["tests"]]
assert rows == ["iozone/write", "iozone/rewrite", "bon/output", "bon/rewrite", "bon/input",
                "bon/seeks", "cached", "direct"], rows
by = {t["name"]: t for t in r["tests"]}

for test, phases in (("iozone", ["write", "rewrite"]),
                     ("bon", ["output", "rewrite", "input", "seeks"])):
    before = None
    for phase in phases:
        t = by[test + "/" + phase]
        assert t["phase"] == phase and t["test"] == test, (t["phase"], t["test"])
        assert sorted(s["agent"] for s in t["streams"]) == ["a1", "a2"], t["name"]
        for s in t["streams"]:
            # At or after the announced instant, on the coordinator's
            # timeline (0 = the instant), within the clocks' error.
            assert s["start_ns"] >= -s["clock_uncertainty_ns"], (t["name"], s["agent"], s["start_ns"])
            assert s["error"] == "", s["error"]
        skew = t["summary"]["host_skew_ns"]
        assert isinstance(skew, int) and 0 <= skew < 50_000_000, (t["name"], skew)
        # Announced once every host finished the phase before.
        if before:
            end_wall = before["announced_wall_ns"] + before["summary"]["last_end_ns"]
            assert t["announced_wall_ns"] >= end_wall, (t["name"], t["announced_wall_ns"], end_wall)
        before = t
        print("%-15s host skew %.3f ms, announced %d" % (t["name"], skew / 1e6, t["announced_wall_ns"]))

# Bytes: every write-type phase moved the file once per host.
for name in ("iozone/write", "iozone/rewrite", "bon/output", "bon/rewrite", "bon/input"):
    assert [s["bytes"] for s in by[name]["streams"]] == [8 * M, 8 * M], (name, by[name]["streams"])
seeks = by["bon/seeks"]["streams"]
assert [s["reads"] for s in seeks] == [500, 500], [s["reads"] for s in seeks]
for s in seeks:
    assert s["bytes"] == s["reads"] * 65536, s        # the seeks' chunks; write-backs are writes
# The files hold what was written, and stay (keep = yes).
for agent in ("a1", "a2"):
    for f in ("iz", "b"):
        size = os.stat(os.path.join(scratch, agent, f)).st_size
        assert size == 8 * M, (agent, f, size)
# The disks wrote at least what bonnie's output phase wrote: its fsync
# is inside the window (both agents share this machine's disk, so each
# host sees both).
for h in by["bon/output"]["hosts"]:
    assert h["received"], h["agent"]
    assert h["disk_written_bytes"] >= 8 * M, (h["agent"], h["disk_written_bytes"])

# The page cache answered the buffered read, not the direct one.
kinds = lambda name: [(w["kind"], w["agent"]) for w in by[name]["warnings"]]
assert ("cached-read", "a1") in kinds("cached"), kinds("cached")
assert not [k for k in kinds("direct") if k[0] in ("cached-read", "cache")], kinds("direct")
PY
grep -q "^bonnie++ block tests" "$SCRATCH/out" || fail "no bonnie++ lines"
grep -Eq "^([a-z]+( #[0-9]+)?)? +a2 +8M:64k +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+" "$SCRATCH/out" ||
    fail "no bonnie++ line for a2"
grep -Eq "^  iozone: [0-9]+-[0-9]+ MB/s write, [0-9]+-[0-9]+ MB/s rewrite" "$SCRATCH/out" ||
    fail "no iozone range"

# A layout longer than the lease: lease = 1s, a file of 1 GiB that the
# agent writes and syncs at prepare. Pings are answered all along, and
# the agent is not given up.
cat > "$SCRATCH/layout.ini" <<INI
[global]
lease = 1s
settle = 0
[agent a1]
endpoint = $E1
[job big]
agent = a1
workload = read
path = big
size = 1G
bs = 4M
direct = yes
INI
"$BIN/iofleet" run -q --no-db "$SCRATCH/layout.ini" -o "$SCRATCH/l" > "$SCRATCH/lout" 2>&1 &
run_pid=$!
PIDS+=("$run_pid")
answered=0
while kill -0 "$run_pid" 2>/dev/null; do
    # Answered, and busy with the run (not idle): during its prepare.
    if "$BIN/iofleet" ping --timeout 500ms "$E1" 2>&1 | grep -E "^$E1 +a1 " | grep -vq " idle$"; then
        answered=$((answered + 1))
    fi
    sleep 0.2
done
rc=0; wait "$run_pid" || rc=$?
cat "$SCRATCH/lout"
[ "$rc" = 0 ] || fail "the run with a long layout exited $rc"
seconds=$(sed -n 's/.*event=layout .*seconds=\([0-9.]*\).*/\1/p' "$SCRATCH/lout" | head -1)
echo "layout took $seconds s; $answered pings answered while serving"
python3 -c "import sys; sys.exit(0 if float('$seconds') > 1.0 else 1)" ||
    fail "the layout took $seconds s, not longer than the lease: the test proves nothing"
[ "$answered" -ge 3 ] || fail "only $answered pings answered during the layout"
grep -q "lost" "$SCRATCH/lout" && fail "an agent was given up during the layout"
rm -f "$SCRATCH/a1/big"
echo "phases: ok"
