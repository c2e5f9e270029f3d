#!/usr/bin/env bash
# What travels on the wire: with keys, a capture of the loopback traffic
# holds no scenario path in clear text; with --insecure it does. Both are
# asserted, so the test fails if encryption is off or if the capture
# caught nothing.
. "$(dirname "$0")/lib.sh"

command -v tcpdump >/dev/null || fail "tcpdump is missing (scripts/deps.sh installs it)"
K=$SCRATCH/keys
"$BIN/iofleet" keygen "$K/agent" a1 >/dev/null
"$BIN/iofleet" keygen "$K/console" console >/dev/null
cp "$K/console/console.key" "$K/agent/"
cp "$K/agent/a1.key" "$K/console/"

# capture NAME PORT: start tcpdump on the agent's port (immediate mode:
# buffered packets would be lost when it is stopped), wait until it
# listens; sets CAPTURE_PID.
capture () {
    tcpdump -i lo --immediate-mode -B 8192 -U -n -s 0 -w "$SCRATCH/$1.pcap" "tcp port $2" 2>"$SCRATCH/$1.tcpdump" &
    CAPTURE_PID=$!
    PIDS+=($CAPTURE_PID)
    local i
    for i in $(seq 100); do
        grep -q "listening on" "$SCRATCH/$1.tcpdump" && return 0
        sleep 0.05
    done
    cat "$SCRATCH/$1.tcpdump" >&2
    fail "tcpdump did not start"
}

# run_marked NAME FLAGS...: one job whose path carries a marker, captured.
run_marked () {
    local name=$1 port
    shift
    port=${ENDPOINT##*:}
    MARKER="iofleet-marker-$name-$$"
    cat > "$SCRATCH/$name.ini" <<INI
[agent $AGENT]
endpoint = $ENDPOINT
[job $name]
agent = $AGENT
path = $MARKER/file
size = 64K
bs = 4K
INI
    capture "$name" "$port"
    "$BIN/iofleet" run "$SCRATCH/$name.ini" -o "$SCRATCH/res-$name" -q "$@" \
        >/dev/null 2>"$SCRATCH/$name.err" || { cat "$SCRATCH/$name.err"; fail "$name run failed"; }
    sleep 0.3
    kill -INT "$CAPTURE_PID"
    wait "$CAPTURE_PID" 2>/dev/null || true
    [ -s "$SCRATCH/$name.pcap" ] || fail "$name: the capture is empty"
}

AGENT=a1
start_agent a1 --keys "$K/agent"
run_marked curve --keys "$K/console"
if grep -aqF "$MARKER" "$SCRATCH/curve.pcap"; then
    fail "with keys, the path $MARKER travels in clear text"
fi
grep -q "event=prepare .*$MARKER" "$SCRATCH/a1.log" || fail "with keys, the job did not reach the agent"

AGENT=a2
start_agent a2 --insecure
run_marked plain
grep -aqF "$MARKER" "$SCRATCH/plain.pcap" ||
    fail "with --insecure the path should be visible in the capture (did it capture anything?)"
echo "capture: ok"
