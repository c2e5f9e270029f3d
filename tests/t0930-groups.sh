#!/usr/bin/env bash
# A fleet in a few lines: [group] sections on loopback.
#
# 1. 64 agents that share one file system, their endpoints from a
#    pattern: one [job] on the group writes 64 files, each under its
#    agent's name, and every stream is reported in one test row.
# 2. 32 agents whose endpoints come from a hosts file (--hosts), one of
#    them overridden by --agent.
# 3. Bad ranges, patterns and hosts files are refused at file:line:
#    key, with exit 2 and nothing started.
# runs alone: 64 agents on two cores
. "$(dirname "$0")/lib.sh"

# start_many PREFIX COUNT ROOT BIND: COUNT agents PREFIX01..., all at once,
# each bound where BIND says (a printf format of its name), on ROOT.
start_many () {
    local prefix=$1 count=$2 root=$3 bind=$4 i name
    mkdir -p "$root"
    for i in $(seq -w 1 "$count"); do
        name=$prefix$i
        # shellcheck disable=SC2059
        "$BIN/iofleet-agent" --bind "$(printf "$bind" "$name")" --name "$name" --root "$root" \
            2>"$SCRATCH/$name.log" &
        PIDS+=($!)
    done
    for i in $(seq -w 1 "$count"); do
        for _ in $(seq 400); do
            grep -q "event=bound" "$SCRATCH/$prefix$i.log" 2>/dev/null && break
            sleep 0.05
        done
        grep -q "event=bound" "$SCRATCH/$prefix$i.log" ||
            { cat "$SCRATCH/$prefix$i.log"; fail "agent $prefix$i did not start"; }
    done
}

# 1. 64 agents on one shared root, endpoints from a pattern.
mkdir -p "$SCRATCH/sock"
start_many c 64 "$SCRATCH/shared" "ipc://$SCRATCH/sock/%s"
cat > "$SCRATCH/group.ini" <<INI
[global]
settle = 0
[group clients]
agents = c[01-64]
endpoint = ipc://$SCRATCH/sock/{name}
[job dd]
agent = clients
path = dd-{agent}
size = 1M
keep = yes
INI
"$BIN/iofleet" run "$SCRATCH/group.ini" -q -o "$SCRATCH/res1" > "$SCRATCH/out1" 2> "$SCRATCH/err1" ||
    { cat "$SCRATCH/err1" "$SCRATCH/out1"; fail "the group run failed"; }
for i in $(seq -w 1 64); do
    [ "$(stat -c %s "$SCRATCH/shared/dd-c$i" 2>/dev/null)" = 1048576 ] ||
        { cat "$SCRATCH/err1"; ls "$SCRATCH/shared"; fail "member c$i did not write dd-c$i"; }
done
[ "$(find "$SCRATCH/shared" -name 'dd-*' | wc -l)" = 64 ] || fail "not 64 files"
python3 - "$SCRATCH/res1/results.json" <<'PY' || fail "the group's results are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["tests"]) == 1, [t["name"] for t in r["tests"]]
test = r["tests"][0]
assert test["name"] == "dd", test["name"]
streams = test["streams"]
assert len(streams) == 64, len(streams)
assert sorted(s["agent"] for s in streams) == ["c%02d" % i for i in range(1, 65)]
assert sorted(s["job"] for s in streams) == ["dd.c%02d" % i for i in range(1, 65)]
for s in streams:
    assert s["finished"] and not s["error"] and s["bytes"] == 2**20, s
    assert s["path"].endswith("/dd-" + s["agent"]), s["path"]
assert test["summary"]["streams"] == 64 and test["summary"]["failed_streams"] == 0
print("group: 64 members, 64 files, one row")
PY
grep -q "event=connected agents=64 " "$SCRATCH/err1" || { cat "$SCRATCH/err1"; fail "no connected line"; }

# 2. 32 agents on tcp, their endpoints from --hosts; h07 from --agent.
for i in $(seq -w 1 32); do
    start_agent "h$i"
    echo "h$i $ENDPOINT   # member $i" >> "$SCRATCH/hosts"
    [ "$i" != 07 ] || E7=$ENDPOINT
done
sed -i 's|^h07 .*|h07 tcp://127.0.0.1:1|' "$SCRATCH/hosts"      # wrong: --agent mends it
sed -i '1i # NAME ENDPOINT\n' "$SCRATCH/hosts"
cat > "$SCRATCH/hosts.ini" <<INI
[global]
settle = 0
[group hosts]
agents = h[01-32]
[job w]
agent = hosts
path = w
size = 256K
keep = yes
INI
"$BIN/iofleet" run "$SCRATCH/hosts.ini" --hosts "$SCRATCH/hosts" --agent "h07=$E7" -q \
    -o "$SCRATCH/res2" > "$SCRATCH/out2" 2> "$SCRATCH/err2" ||
    { cat "$SCRATCH/err2"; fail "the hosts-file run failed"; }
python3 - "$SCRATCH/res2/results.json" <<'PY' || fail "the hosts-file results are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
streams = r["tests"][0]["streams"]
assert len(streams) == 32 and all(s["finished"] and not s["error"] for s in streams), streams
assert len(r["agents"]) == 32
print("hosts: 32 agents from a hosts file")
PY
for i in $(seq -w 1 32); do
    [ -f "$SCRATCH/h$i/w" ] || fail "h$i wrote nothing"
done

# 3. Mistakes, at file:line: key, exit 2, and nobody contacted.
bad () {        # expected-message scenario-lines... (the file is bad.ini)
    local expected=$1 rc=0
    shift
    printf '%s\n' "$@" > "$SCRATCH/bad.ini"
    "$BIN/iofleet" run "$SCRATCH/bad.ini" -q -o "$SCRATCH/bad" > /dev/null 2> "$SCRATCH/bad.err" || rc=$?
    [ "$rc" = 2 ] || { cat "$SCRATCH/bad.err"; fail "exit $rc for: $expected"; }
    grep -qF "$expected" "$SCRATCH/bad.err" || { cat "$SCRATCH/bad.err"; fail "no '$expected'"; }
    [ ! -e "$SCRATCH/bad" ] || fail "a results directory for a bad scenario"
}
job=("[job j]" "agent = g" "path = p" "size = 1M")
bad "bad.ini:3: agents: '9-1' goes down" "[global]" "[group g]" "agents = c[9-1]" "${job[@]}"
bad "bad.ini:2: agents: 'c[1-2]x[1-2]': one range per name" "[group g]" "agents = c[1-2]x[1-2]" "${job[@]}"
bad "bad.ini:2: agents: 'c[1-5000]' makes the group more than 4096 members" \
    "[group g]" "agents = c[1-5000]" "${job[@]}"
bad "bad.ini:3: endpoint: '{num}' is not a placeholder" \
    "[group g]" "agents = c[1-2]" "endpoint = tcp://{num}:1" "${job[@]}"
bad "bad.ini:3: endpoint: holds no {name} and no {n}" \
    "[group g]" "agents = c[1-2]" "endpoint = tcp://c:1" "${job[@]}"
bad "bad.ini:3: endpoint: member c65536: 'tcp://h:65536': the port" \
    "[group g]" "agents = c[65535-65536]" "endpoint = tcp://h:{n}" "${job[@]}"
bad "bad.ini:2: agents: member c2 of [group g] has no endpoint" \
    "[group g]" "agents = c[1-2]" "[agent c1]" "endpoint = tcp://127.0.0.1:1" "${job[@]}"
printf 'c1 tcp://127.0.0.1:1\nc2\n' > "$SCRATCH/badhosts"
printf '[group g]\nagents = c[1-2]\n[job j]\nagent = g\npath = p\nsize = 1M\n' > "$SCRATCH/ok.ini"
rc=0
"$BIN/iofleet" run "$SCRATCH/ok.ini" --hosts "$SCRATCH/badhosts" -q -o "$SCRATCH/bad" \
    > /dev/null 2> "$SCRATCH/bad.err" || rc=$?
[ "$rc" = 2 ] && grep -qF "iofleet run: --hosts: $SCRATCH/badhosts:2: expected NAME ENDPOINT" \
    "$SCRATCH/bad.err" || { cat "$SCRATCH/bad.err"; fail "a bad hosts file: exit $rc"; }
echo "groups: ok"
