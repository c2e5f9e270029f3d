#!/usr/bin/env bash
# An agent that cannot be reached says why within a second where the
# network says so, each reason its own, with a hint (iofleet ping):
# nothing listening, no route to the host (a network namespace whose
# routes say so), an unknown host name, a key the agent cannot read, a
# peer of the protocol version before ours (tests/tools/oldpeer.c).
. "$(dirname "$0")/lib.sh"

try () {    # name, endpoint, expected reason (grep -E), [run flags]; $IN runs the console
    local name=$1 endpoint=$2 expect=$3
    shift 3
    local began rc=0 took_ms
    began=$(date +%s%N)
    ${IN:-} "$BIN/iofleet" run "$SCRATCH/s.ini" --agent "a1=$endpoint" -o "$SCRATCH/res-$name" -q "$@" \
        > /dev/null 2> "$SCRATCH/$name.err" || rc=$?
    took_ms=$(( ($(date +%s%N) - began) / 1000000 ))
    cat "$SCRATCH/$name.err"
    [ "$rc" = 1 ] || fail "$name: exit $rc, expected 1"
    grep -Eq "$expect" "$SCRATCH/$name.err" || fail "$name: the reason is not given"
    grep -q "iofleet ping" "$SCRATCH/$name.err" || fail "$name: no hint"
    grep -q "no answer within" "$SCRATCH/$name.err" && fail "$name: only a timeout"
    [ "$took_ms" -lt 1500 ] || fail "$name: took $took_ms ms, expected under 1.5 s"
    echo "$name: ${took_ms} ms"
}

cat > "$SCRATCH/s.ini" <<INI
[global]
connect_timeout = 5s
[job j]
agent = a1
path = f
size = 1M
INI

# A port nothing listens on: take one, then let it go.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
try refused "tcp://127.0.0.1:$port" "connection refused \(nothing listens there\):"
try unknown "tcp://no-such-host.invalid:25001" "unknown host name no-such-host.invalid"

# No route: a network namespace of the console's own, with only its
# loopback, a route that says 10.99/16 is unreachable and none to 10.98.
cat > "$SCRATCH/noroute.sh" <<'SH'
ip link set lo up && ip route add unreachable 10.99.0.0/16 && exec "$@"
SH
IN="unshare -n sh $SCRATCH/noroute.sh" try hostunreach "tcp://10.99.0.1:7654" \
    "no route to the host \(No route to host\)"
IN="unshare -n sh $SCRATCH/noroute.sh" try netunreach "tcp://10.98.0.1:7654" \
    "no route to the host \(Network is unreachable\)"

# A peer that speaks the protocol version before ours, as an agent of
# the release before does.
cc -O2 -Wall -Wextra -Werror "$TOP/tests/tools/oldpeer.c" -o "$SCRATCH/oldpeer" \
    $(pkg-config --cflags --libs libzmq) || fail "oldpeer does not build"
"$SCRATCH/oldpeer" "$SCRATCH/oldpeer.port" 2> "$SCRATCH/oldpeer.log" &
PIDS+=($!)
for i in $(seq 100); do [ -s "$SCRATCH/oldpeer.port" ] && break; sleep 0.05; done
version=$(sed -n 's/^#define IOFLEET_PROTOCOL_VERSION \([0-9]*\)$/\1/p' "$TOP/proto/version.h")
try oldpeer "$(cat "$SCRATCH/oldpeer.port")" \
    "protocol version $((version - 1)), this side speaks $version: a version mismatch"

# A console holding a wrong public key for the agent: the agent cannot
# read its handshake and closes it.
K=$SCRATCH/keys
"$BIN/iofleet" keygen "$K/agent" a1 > /dev/null || fail "keygen a1"
"$BIN/iofleet" keygen "$K/console" console > /dev/null || fail "keygen console"
"$BIN/iofleet" keygen "$K/other" a1 > /dev/null || fail "keygen other"
cp "$K/console/console.key" "$K/agent/"
cp "$K/other/a1.key" "$K/console/"          # not the agent's key
start_agent a1 --keys "$K/agent"
try wrongkey "$ENDPOINT" "CURVE handshake.*key mismatch" --keys "$K/console"

r=$(cat "$SCRATCH"/{refused,hostunreach,netunreach,unknown,wrongkey,oldpeer}.err |
    grep -c "^iofleet: agent a1" || true)
[ "$r" -ge 6 ] || fail "the six reasons are not each said"
echo "unreachable: ok"
