#!/usr/bin/env bash
# Endpoint conflicts are scenario errors, refused before any agent is
# contacted (file:line: key: reason, exit 2), by --check and by run:
# 1. a member of two groups whose patterns place it at two endpoints
#    (neither may silently win);
# 2. two agents at one endpoint, named in [agent] sections, in a group
#    (a pattern without the member's number), or by --agent: one agent
#    process answers for one name, and the run would otherwise wait and
#    call the agent busy serving this very console.
# Then a real run with two agents at one endpoint exits 2 at once.
. "$(dirname "$0")/lib.sh"

# refused NAME EXPECTED [run flags...]: --check and run of $SCRATCH/NAME.ini
# both exit 2 at once with EXPECTED (grep -E) on stderr.
refused () {
    local name=$1 expected=$2 mode rc
    shift 2
    for mode in --check run; do
        rc=0
        if [ "$mode" = run ]; then
            timeout 20 "$BIN/iofleet" run "$SCRATCH/$name.ini" -o "$SCRATCH/out-$name" "$@" \
                > /dev/null 2> "$SCRATCH/$name.err" || rc=$?
        else
            timeout 20 "$BIN/iofleet" run --check "$SCRATCH/$name.ini" "$@" \
                > /dev/null 2> "$SCRATCH/$name.err" || rc=$?
        fi
        cat "$SCRATCH/$name.err"
        [ "$rc" = 2 ] || fail "$name ($mode): exit $rc, expected 2"
        grep -Eq "$expected" "$SCRATCH/$name.err" || fail "$name ($mode): no '$expected'"
    done
}

cat > "$SCRATCH/two-groups.ini" <<'INI'
[group left]
agents = c[1-2]
endpoint = tcp://127.0.0.1:{n+20000}
[group right]
agents = c[2-3]
endpoint = tcp://127.0.0.1:{n+21000}
[job w]
agent = right
path = w
size = 1M
INI
refused two-groups "two-groups.ini:6: endpoint: member c2 of \[group right\] is at tcp://127.0.0.1:21002 by this pattern, and at tcp://127.0.0.1:20002 by the pattern of \[group left\] \(line 3\)"

# Two groups that agree are fine: the same pattern.
sed 's/{n+21000}/{n+20000}/' "$SCRATCH/two-groups.ini" > "$SCRATCH/agree.ini"
"$BIN/iofleet" run --check "$SCRATCH/agree.ini" > /dev/null || fail "two groups that agree were refused"

cat > "$SCRATCH/one-endpoint.ini" <<'INI'
[agent a1]
endpoint = tcp://127.0.0.1:20001
[agent a2]
endpoint = tcp://127.0.0.1:20001
[job w]
agent = a1
path = w
size = 1M
INI
refused one-endpoint "one-endpoint.ini:3: endpoint: agents a1 and a2 \(line 1\) are both at tcp://127.0.0.1:20001"

sed "4s/20001/20002/" "$SCRATCH/one-endpoint.ini" > "$SCRATCH/override.ini"
refused override "agents a1 and a2 .* are both at tcp://127.0.0.1:20001" --agent a2=tcp://127.0.0.1:20001

# A real agent named twice: the run stops before the hello.
start_agent a1
sed "s#tcp://127.0.0.1:20001#$ENDPOINT#" "$SCRATCH/one-endpoint.ini" > "$SCRATCH/real.ini"
refused real "are both at"
grep -q "event=session" "$SCRATCH/a1.log" && fail "the agent was contacted"
echo "endpoint conflicts: ok"
