#!/usr/bin/env bash
# An agent grants a lease of at most its max-lease (60 s unless its
# config says more): a HELLO that asks for an hour, which would keep the
# agent busy for every other console an hour after its own fell silent,
# is refused with what the agent grants, and the agent stays free. A
# lease within the bound, or an agent that grants more, runs.
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
scenario () {   # LEASE FILE
    printf '[global]\nlease = %s\nsettle = 0\n[agent a1]\nendpoint = %s\n[job w]\nagent = a1\npath = w\nsize = 1M\n' \
        "$1" "$E1" > "$2"
}
scenario 1h "$SCRATCH/hour.ini"
rc=0
timeout 30 "$BIN/iofleet" run -q --no-db "$SCRATCH/hour.ini" -o "$SCRATCH/hour" \
    > "$SCRATCH/hour.out" 2> "$SCRATCH/hour.err" || rc=$?
[ "$rc" = 1 ] || { cat "$SCRATCH/hour.err"; fail "a lease of an hour: exit $rc, not 1"; }
grep -q "refused: lease: agent a1 grants a lease of at most 60.0 s (its max-lease), and 3600.0 s was asked for" \
    "$SCRATCH/hour.err" || { cat "$SCRATCH/hour.err"; fail "the refusal does not say what the agent grants"; }
grep -q "event=refused reason=lease .*lease_ms=3600000 max_lease_ms=60000" "$SCRATCH/a1.log" ||
    fail "the agent did not log the refusal"
# It holds no session: a console with a lease it grants runs at once.
scenario 60s "$SCRATCH/minute.ini"
"$BIN/iofleet" run -q --no-db "$SCRATCH/minute.ini" -o "$SCRATCH/minute" > /dev/null 2> "$SCRATCH/minute.err" ||
    { cat "$SCRATCH/minute.err"; fail "a lease of 60 s was not granted"; }
# An agent whose config grants more grants the hour.
mkdir -p "$SCRATCH/a2"
printf 'max-lease = 1h\n' > "$SCRATCH/a2.conf"
start_agent a2 --config "$SCRATCH/a2.conf"; E1=$ENDPOINT
scenario 1h "$SCRATCH/granted.ini"
"$BIN/iofleet" run -q --no-db "$SCRATCH/granted.ini" -o "$SCRATCH/granted" > /dev/null 2> "$SCRATCH/granted.err" ||
    { cat "$SCRATCH/granted.err"; fail "max-lease = 1h did not grant an hour"; }
grep -q "event=session .*lease_ms=3600000" "$SCRATCH/a2.log" || fail "the agent did not take the hour"
echo "lease bound: ok"
