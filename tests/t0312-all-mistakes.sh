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
grep -q "five.ini:8: szie: unknown key: did you mean size?$" "$SCRATCH/err" ||
    fail "szie does not suggest size"
grep -q "five.ini:14: workload: 'wirte' is not one of .*: did you mean write?$" "$SCRATCH/err" ||
    fail "wirte does not suggest write"

# A fio user's keys get their translation, all in one run.
cat > "$SCRATCH/fio.ini" <<INI
[agent a1]
endpoint = $E1
[job r]
agent = a1
filename = f
rw = randread
numjobs = 4
ramp_time = 2
INI
rc=0
"$BIN/iofleet" run --check "$SCRATCH/fio.ini" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/err"
[ "$rc" = 2 ] || fail "fio's keys: exit $rc, expected 2"
for want in "5: filename: filename is fio's; here: path = f" \
            "6: rw: rw is fio's; here: workload = randrw, mode = rndrd" \
            "7: numjobs: numjobs is fio's; here: streams = 4" \
            "8: ramp_time: ramp_time is fio's; here: ramp = 2"; do
    grep -qx "iofleet: .*fio.ini:$want" "$SCRATCH/err" || fail "no '$want'"
done

# Forty unknown keys: the first 25 listed, the other 15 counted.
{ echo "[global]"; for i in $(seq 1 40); do echo "nokey$i = 1"; done; } > "$SCRATCH/many.ini"
rc=0
"$BIN/iofleet" run --check "$SCRATCH/many.ini" 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 2 ] || fail "forty mistakes: exit $rc, expected 2"
[ "$(grep -c ': unknown key' "$SCRATCH/err")" = 25 ] || fail "not 25 errors listed"
tail -1 "$SCRATCH/err" | grep -qx "iofleet: .*many.ini: ... and 15 more errors" ||
    fail "the rest are not counted: $(tail -1 "$SCRATCH/err")"
echo ok
