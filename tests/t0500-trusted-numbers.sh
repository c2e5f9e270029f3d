#!/usr/bin/env bash
# Numbers that can be trusted: the report raises the warnings an engineer
# would, and only then. A buffered write without fsync of a file far below
# the host's memory leaves data dirty when the window closes (warning a)
# and fits in the page cache (warning c); the same write with O_DIRECT or
# with the final fdatasync raises neither. System CPU per GB is higher with
# 4K writes than with 1M ones (O_DIRECT: buffered, the page cache's reclaim
# and dirty throttling could charge the 1M writer more on a loaded host). Three iterations give first-run and rest
# statistics that agree with the per-iteration figures.
# runs alone: its warnings come from the machine's CPU time and dirty pages
. "$(dirname "$0")/lib.sh"

start_agent a1
cat > "$SCRATCH/numbers.ini" <<INI
[global]
size = 128M
settle = 2s
interval = 100ms
[agent a1]
endpoint = $ENDPOINT

; The clean ones first: the buffered test leaves dirty data behind for the
; kernel to write some 30 s later, which must not land in their windows.
[job direct]
agent = a1
path = direct
direct = yes
fsync = none
[job fsync-end]
agent = a1
path = fsync-end
fsync = end
[job bs4k]
agent = a1
path = bs4k
bs = 4K
size = 32M
direct = yes            ; the calls' own cost, not the page cache's reclaim and throttling
[job bs1m]
agent = a1
path = bs1m
bs = 1M
size = 32M
direct = yes
[job buffered]
agent = a1
path = buffered
fsync = none
INI

RESULTS=$SCRATCH/results
"$BIN/iofleet" run "$SCRATCH/numbers.ini" -o "$RESULTS" > "$SCRATCH/report.txt" ||
    { cat "$SCRATCH/report.txt"; fail "run failed"; }
cat "$SCRATCH/report.txt"

python3 - "$RESULTS/results.json" <<'PY' || fail "warnings or CPU figures wrong"
import json, sys
r = json.load(open(sys.argv[1]))
tests = {t["name"]: t for t in r["tests"]}
def kinds(name):
    return sorted(w["kind"] for w in tests[name]["warnings"] if w["agent"] == "a1")
for name in ("direct", "fsync-end", "buffered"):
    t = tests[name]
    assert len(t["hosts"]) == 1 and t["hosts"][0]["received"], t["hosts"]
    h = t["hosts"][0]
    print("%-9s sys %.1f%% iowait %.1f%% dirty %d -> %d, settle writes %d: %s" % (
        name, h["sys_pct"], h["iowait_pct"], h["dirty_start_bytes"], h["dirty_end_bytes"],
        h["settle_written_bytes"], kinds(name)))
    assert 0 <= h["sys_pct"] <= 100 and 0 <= h["iowait_pct"] <= 100, h
    assert t["summary"]["sys_pct"] == h["sys_pct"], (t["summary"], h)
assert "cache" in kinds("buffered"), kinds("buffered")
# Whether the kernel still held the buffered data when the window closed
# is the kernel's choice (a host under memory pressure writes it at
# once); the warnings must say what the figures show: dirty data well past
# the bound warned of, none at all not warned of.
h = tests["buffered"]["hosts"][0]
written = tests["buffered"]["streams"][0]["bytes"]
left = h["dirty_end_bytes"] + h.get("writeback_end_bytes", 0) - h["dirty_start_bytes"]
later = h["settle_written_bytes"]
said = {"dirty", "writeback"} & set(kinds("buffered"))
if left > 0.5 * written or later > 0.5 * written:
    assert said, (left, later, kinds("buffered"))
elif left < 0.01 * written and later < 0.01 * written:
    assert not said, (left, later, kinds("buffered"))
    print("buffered: the kernel wrote the data inside the window; no dirty warning, rightly")
for name in ("direct", "fsync-end"):
    assert not set(kinds(name)) & {"cache", "dirty", "writeback"}, (name, kinds(name))

def sys_per_gb(name):
    s = tests[name]["streams"][0]
    return s["sys_s"] / (s["bytes"] / 1e9)
print("sys s per GB: 4K %.3f, 1M %.3f" % (sys_per_gb("bs4k"), sys_per_gb("bs1m")))
assert abs(tests["bs4k"]["streams"][0]["sys_s_per_gb"] - sys_per_gb("bs4k")) < 1e-3
assert sys_per_gb("bs4k") > sys_per_gb("bs1m"), "4K writes should cost more system CPU per GB"
PY

grep -q "^warnings" "$SCRATCH/report.txt" || fail "the text report prints no warnings"
grep -Eq "buffered.*a1.*the page cache can hold all of it" "$SCRATCH/report.txt" ||
    fail "the cache warning does not name the test, the host and the figure"
if grep -q '"kind": *"dirty"' "$RESULTS/results.json"; then
    grep -Eq "buffered.*a1.*still dirty" "$SCRATCH/report.txt" ||
        fail "the dirty warning does not name the test, the host and the figure"
fi

# Three iterations: the first apart, the rest as min / median / max.
cat > "$SCRATCH/iter.ini" <<INI
[global]
iterations = 3
size = 32M
[agent a1]
endpoint = $ENDPOINT
[job rep]
agent = a1
path = rep
INI
"$BIN/iofleet" run "$SCRATCH/iter.ini" -o "$SCRATCH/iter" > "$SCRATCH/iter.txt" || fail "iterations run failed"
cat "$SCRATCH/iter.txt"
python3 - "$SCRATCH/iter/results.json" <<'PY' || fail "iteration statistics disagree with the iterations"
import json, statistics, sys
r = json.load(open(sys.argv[1]))
runs = [t for t in r["tests"] if t["name"] == "rep"]
assert [t["iteration"] for t in runs] == [1, 2, 3]
it = [i for i in r["iterations"] if i["test"] == "rep"][0]
assert abs(it["first_mbps"] - runs[0]["summary"]["combined_mbps"]) < 1e-9
rest = [t["summary"]["combined_mbps"] for t in runs[1:]]
assert it["rest"]["count"] == 2
assert abs(it["rest"]["min"] - min(rest)) < 1e-9 and abs(it["rest"]["max"] - max(rest)) < 1e-9
assert abs(it["rest"]["median"] - statistics.median(rest)) < 1e-9
assert abs(it["rest"]["stddev"] - statistics.stdev(rest)) < 1e-9
print("first %.1f, rest %s" % (it["first_mbps"], it["rest"]))
PY
grep -Eq "^rep +[0-9.]+ +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+" "$SCRATCH/iter.txt" || fail "the text report lacks the iterations line"
echo "trusted numbers: ok"

# drop_caches = yes: the page cache is dropped once before each run of a
# test (two jobs, one drop), and an agent that may not do it says so at
# prepare and nothing runs.
cat > "$SCRATCH/cold.ini" <<INI
[global]
drop_caches = yes
iterations = 2
size = 8M
[agent a1]
endpoint = $ENDPOINT
[job cold-1]
test = cold
agent = a1
path = cold1
[job cold-2]
test = cold
agent = a1
path = cold2
INI
"$BIN/iofleet" run "$SCRATCH/cold.ini" -o "$SCRATCH/cold" > /dev/null || fail "drop_caches run failed"
drops=$(grep -c "event=caches-dropped" "$SCRATCH/a1.log")
[ "$drops" = 2 ] || fail "caches dropped $drops times for two runs of one test"

if command -v setpriv >/dev/null; then
    mkdir -p "$SCRATCH/nobody"
    chmod 777 "$SCRATCH/nobody"
    chmod o+x "$SCRATCH"
    setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --name nobody --root "$SCRATCH/nobody" \
        2>"$SCRATCH/nobody.log" &
    PIDS+=($!)
    wait_bound nobody
    sed "s|endpoint = .*|endpoint = $ENDPOINT|; s/agent = a1/agent = nobody/; s/\[agent a1\]/[agent nobody]/" \
        "$SCRATCH/cold.ini" > "$SCRATCH/cold-nobody.ini"
    rc=0
    "$BIN/iofleet" run "$SCRATCH/cold-nobody.ini" -o "$SCRATCH/cold-nobody" > /dev/null 2> "$SCRATCH/err" || rc=$?
    cat "$SCRATCH/err"
    [ "$rc" = 1 ] || fail "drop_caches without root: exit $rc"
    grep -q "drop_caches = yes needs root on agent nobody" "$SCRATCH/err" ||
        fail "drop_caches without root: no clear message"
    # The fix it names is the drop-in the agent package ships as an
    # example (dh_installexamples: debian/iofleet-agent.examples).
    dropin=$(sed -n 's/.*(a packaged agent: install the drop-in \([^ )]*\)).*/\1/p' "$SCRATCH/err" | head -1)
    [ "${dropin%/*}" = /usr/share/doc/iofleet-agent/examples ] ||
        fail "drop_caches without root: the message names no packaged drop-in ('$dropin')"
    grep -qx "debian/${dropin##*/}" "$TOP/debian/iofleet-agent.examples" && [ -f "$TOP/debian/${dropin##*/}" ] ||
        fail "drop_caches without root: the agent package does not ship ${dropin##*/}"
    [ -z "$(ls -A "$SCRATCH/nobody")" ] || fail "a job ran although the caches could not be dropped"
fi
echo "drop_caches: ok"
