#!/usr/bin/env bash
# An agent bound to tcp://127.0.0.1:* takes a free port at random, not
# the first free one: the port an agent just gave up is not the next
# agent's at once, so that a console still calling the old agent there
# (its run being stopped, its test over) does not reach the new one as
# if it were its own. Checked with a console that holds an agent, the
# agent stopped, and another started: the new agent has another port and
# serves nobody, and the console, stopped last, ends by itself.
. "$(dirname "$0")/lib.sh"

port_of () {   # endpoint
    echo "${1##*:}"
}

start_agent old
old_endpoint=$ENDPOINT
old_pid=${PIDS[-1]}
printf '[agent a1]\nendpoint = %s\n[job hold]\nagent = a1\npath = h\nsize = 64M\nbs = 64K\nrate = 1M\nsettle = 0\n' \
    "$old_endpoint" > "$SCRATCH/hold.ini"
"$BIN/iofleet" run "$SCRATCH/hold.ini" -o "$SCRATCH/hold" --no-db -q \
    > /dev/null 2> "$SCRATCH/hold.err" &
console=$!
PIDS+=($console)
wait_log "$SCRATCH/old.log" "event=start .*test=hold"

# The agent goes; another takes a port while the console still calls.
kill "$old_pid"
wait "$old_pid" 2>/dev/null || true
start_agent new
new_endpoint=$ENDPOINT
[ "$(port_of "$new_endpoint")" != "$(port_of "$old_endpoint")" ] ||
    fail "the new agent took the port the old one gave up ($new_endpoint)"
port=$(port_of "$new_endpoint")
[ "$port" -ge 49152 ] && [ "$port" -le 65535 ] || fail "port $port is outside 49152..65535"

# The new agent serves nobody: ping says it is idle.
sleep 1
"$BIN/iofleet" ping "$new_endpoint" > "$SCRATCH/ping.out" 2>&1 ||
    { cat "$SCRATCH/ping.out"; fail "ping of the new agent failed"; }
[ "$(awk 'NR == 2 { print $NF }' "$SCRATCH/ping.out")" = idle ] ||
    { cat "$SCRATCH/ping.out"; fail "the new agent serves the old agent's console"; }
! grep -q "event=session" "$SCRATCH/new.log" ||
    { cat "$SCRATCH/new.log"; fail "the old agent's console opened a session on the new agent"; }
kill "$console"
for _ in $(seq 100); do
    kill -0 "$console" 2>/dev/null || break
    sleep 0.1
done
! kill -0 "$console" 2>/dev/null || fail "the console did not end within 10 s of SIGTERM"
echo "ok: ports $(port_of "$old_endpoint") then $port"
