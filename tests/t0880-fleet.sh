#!/usr/bin/env bash
# 64 agents on loopback as a fleet: 32 of a group whose endpoints come
# from a pattern ({n+K} on fixed ports), 32 of a group whose endpoints
# come from a hosts file. One job per group, three tests; one agent is
# killed in the first.
#
# 1. Every host is in results.json, every other stream whole, and the
#    text report stays readable: a summary where the per-stream list was,
#    the slowest hosts, not 64 rows.
# 2. No dead time: the lost agent costs the tests after it no hello
#    timeout (connect_timeout = 5s here; each later test starts within
#    about a second of the one before).
# 3. The live status is one line of counts with the worst hosts named.
# runs alone: 64 agents on two cores
. "$(dirname "$0")/lib.sh"

# Fixed ports below the ephemeral range, for the pattern's members.
base=31000
[ -z "$(ss -Htln "sport > :$base and sport <= :$((base + 32))" 2>/dev/null)" ] ||
    base=31500
for i in $(seq -w 1 32); do
    mkdir -p "$SCRATCH/p$i"
    "$BIN/iofleet-agent" --bind "tcp://127.0.0.1:$((base + 10#$i))" --name "p$i" \
        --root "$SCRATCH/p$i" 2>"$SCRATCH/p$i.log" &
    PIDS+=($!)
    [ "$i" != 07 ] || victim=$!
done
for i in $(seq -w 1 32); do
    start_agent "h$i"
    echo "h$i $ENDPOINT" >> "$SCRATCH/hosts"
    wait_log "$SCRATCH/p$i.log" "event=bound"
done
sed -i '1i # NAME ENDPOINT, one agent a line' "$SCRATCH/hosts"

cat > "$SCRATCH/fleet.ini" <<INI
[global]
settle = 0
lease = 2s
connect_timeout = 5s
interval = 200ms
bs = 64K
[group pat]
agents = p[01-32]
endpoint = tcp://127.0.0.1:{n+$base}
[group listed]
agents = h[01-32]
[job held]
agent = pat
test = held
path = held-{agent}
size = 3M
rate = 1M
[job held-h]
agent = listed
test = held
path = held-{agent}
size = 3M
rate = 1M
[job after]
agent = pat
test = after
path = after
size = 256K
[job after-h]
agent = listed
test = after
path = after
size = 256K
[job last]
agent = pat
test = last
path = last
size = 256K
[job last-h]
agent = listed
test = last
path = last
size = 256K
INI
"$BIN/iofleet" run "$SCRATCH/fleet.ini" --hosts "$SCRATCH/hosts" --progress lines \
    -o "$SCRATCH/res" > "$SCRATCH/out" 2> "$SCRATCH/err" &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/p07.log" "event=start "
sleep 0.5
kill -KILL "$victim"
rc=0; wait "$run" || rc=$?
[ "$rc" = 1 ] || { cat "$SCRATCH/err" "$SCRATCH/out"; fail "exit $rc with an agent lost, expected 1"; }
grep -q "agent=p07 event=lost test=held" "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "p07 not lost"; }

# 1. Every host in the results, the others whole.
python3 - "$SCRATCH/res/results.json" <<'PY' || fail "the fleet's results are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
names = sorted(["p%02d" % i for i in range(1, 33)] + ["h%02d" % i for i in range(1, 33)])
assert sorted(a["name"] for a in r["agents"]) == names, [a["name"] for a in r["agents"]]
assert [t["name"] for t in r["tests"]] == ["held", "after", "last"], [t["name"] for t in r["tests"]]
for t in r["tests"]:
    assert sorted(h["agent"] for h in t["hosts"]) == names, t["name"]
    assert len(t["streams"]) == 64, len(t["streams"])
    for s in t["streams"]:
        if s["agent"] == "p07":
            assert s["error"] and not s["finished"], s
        else:
            assert s["finished"] and not s["error"], s
            assert s["path"].endswith("held-" + s["agent"]) or t["name"] != "held", s["path"]
# 2. No dead time: a test after the loss does not wait out a hello
# timeout for p07 (5 s); the 3 s test itself and the lease (2 s) are all
# the first one may take.
walls = [t["announced_wall_ns"] / 1e9 for t in r["tests"]]
assert walls[1] - walls[0] < 6.5, walls[1] - walls[0]
assert walls[2] - walls[1] < 1.5, walls[2] - walls[1]
print("fleet: 64 hosts in every test, p07 lost, tests %.1f s and %.1f s apart"
      % (walls[1] - walls[0], walls[2] - walls[1]))
PY
grep -q "agent=p07 test=after event=absent reason=\"agent lost: " "$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "the absent agent's reason is not why it was lost"; }

# 1. The text report: a summary, not 64 figures; the slowest hosts.
cat "$SCRATCH/out"
row=$(grep -E "^held +64 " "$SCRATCH/out") || fail "no row for held"
echo "$row" | grep -Eq " 6[34](x|: )" || fail "the per-stream column is not summarized: $row"
grep -q "slowest hosts" "$SCRATCH/out" || fail "no slowest hosts"
grep -E "^ +p07 " "$SCRATCH/out" | head -1 | grep -q . || fail "the lost host is not among the slowest"
[ "$(wc -l < "$SCRATCH/out")" -lt 120 ] || fail "the report is $(wc -l < "$SCRATCH/out") lines"
# The latency of a fleet: its slowest hosts by p99 and a count of the
# rest, in the text and on the page; results.json keeps them all.
grep -Eq "^ +5[56] more hosts, by p99 below these" "$SCRATCH/out" ||
    fail "the text's latency does not fold the fleet's hosts"
# (8 slowest per test, and the first of the tail of requests: 27 of 192)
[ "$(grep -o '<td>@[a-z0-9]*</td>' "$SCRATCH/res/report.html" | wc -l)" -le 32 ] ||
    fail "the page's latency lists every host"
grep -q "more hosts, by p99 below these" "$SCRATCH/res/report.html" ||
    fail "the page's latency does not say how many hosts it folded"

# 3. The status: counts and the worst named, one line each interval.
grep -Eq "^status test=held .* hosts=64 running=[0-9]+ slow=[0-9]+ lost=[1-9][0-9]* done=[0-9]+ worst=p07(,|$)" \
    "$SCRATCH/err" || { grep "hosts=64" "$SCRATCH/err" | tail -3; fail "no status line with p07 lost"; }
echo "fleet: ok"
