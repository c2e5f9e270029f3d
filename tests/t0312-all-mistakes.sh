#!/usr/bin/env bash
# A scenario with five mistakes gets all five in one run, `run --check`
# and `run` alike: each `file:line: key: reason`, in line order, exit 2,
# nothing started. Past the bound the rest are counted.
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT

cat > "$SCRATCH/five.ini" <<INI
[global]
iteratons = 2
[agent a1]
endpoint = $E1
[job dd1]
agent = a1
path = f
szie = 1M
[jbo dd2]
agent = a1
[job dd3]
agent = a1
path = g
workload = wirte
[job dd4]
path = h
size = 1M
INI

for check in --check ""; do
    rc=0
    "$BIN/iofleet" run $check "$SCRATCH/five.ini" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
    cat "$SCRATCH/err"
    [ "$rc" = 2 ] || fail "run $check: exit $rc, expected 2"
    [ ! -s "$SCRATCH/out" ] || fail "run $check: printed a plan or a report"
    sed 's/^iofleet: [^:]*five\.ini:\([0-9]*\): \([^:]*\): .*/\1 \2/' "$SCRATCH/err" \
        > "$SCRATCH/got"
    printf '%s\n' "2 iteratons" "8 szie" "9 [jbo dd2]" "14 workload" "15 agent" \
        > "$SCRATCH/want"
    diff "$SCRATCH/want" "$SCRATCH/got" || fail "run $check: not the five errors in line order"
done
grep -q "event=session" "$SCRATCH/a1.log" && fail "a bad scenario reached the agent"

# Forty unknown keys: the first 25 listed, the other 15 counted.
{ echo "[global]"; for i in $(seq 1 40); do echo "nokey$i = 1"; done; } > "$SCRATCH/many.ini"
rc=0
"$BIN/iofleet" run --check "$SCRATCH/many.ini" 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 2 ] || fail "forty mistakes: exit $rc, expected 2"
[ "$(grep -c ': unknown key' "$SCRATCH/err")" = 25 ] || fail "not 25 errors listed"
tail -1 "$SCRATCH/err" | grep -qx "iofleet: .*many.ini: ... and 15 more errors" ||
    fail "the rest are not counted: $(tail -1 "$SCRATCH/err")"
echo ok
