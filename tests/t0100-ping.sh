#!/usr/bin/env bash
# iofleet ping: name, kernel, clock offset and round trip of live agents;
# a dead endpoint is named unreachable and the exit status says so.
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
"$BIN/iofleet" ping "$E1" "$E2" > "$SCRATCH/out" || { cat "$SCRATCH/out"; fail "ping failed"; }
cat "$SCRATCH/out"
kernel=$(uname -r)
version=$("$BIN/iofleet" --version | cut -d" " -f2)
grep -E "^$E1 +a1 +$version .*$kernel .* ms .* ms idle" "$SCRATCH/out" || fail "a1 line wrong"
grep -E "^$E2 +a2 .*$kernel" "$SCRATCH/out" || fail "a2 line wrong"

# A port where nothing listens: reported, exit 1, and quickly.
rc=0
timeout 20 "$BIN/iofleet" ping --timeout 500ms "$E1" tcp://127.0.0.1:1 > "$SCRATCH/out" || rc=$?
cat "$SCRATCH/out"
[ "$rc" = 1 ] || fail "ping of a dead endpoint exited $rc"
grep -q "^tcp://127.0.0.1:1 *unreachable: .*connection refused" "$SCRATCH/out" || fail "dead endpoint not named, with why"

# Bad usage.
rc=0; "$BIN/iofleet" ping 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "ping without endpoints exited $rc"
echo "ping: ok"
