#!/usr/bin/env bash
# The scenarios in configs/ are checked as they stand (iofleet run
# --check: no agent contacted), and the seeds run on a real agent with
# only their paths and sizes made local: --agent NAME=ENDPOINT is all the
# rest they need.
. "$(dirname "$0")/lib.sh"

# --check: every scenario shipped parses and checks, names each of its
# tests, and contacts no agent (the endpoints in the files are
# documentation addresses where nothing answers).
for scenario in "$TOP"/configs/*.ini "$TOP"/configs/seeds/*.ini; do
    timeout 10 "$BIN/iofleet" run --check "$scenario" > "$SCRATCH/plan" \
        || { cat "$SCRATCH/plan"; fail "$scenario does not check"; }
    for test in $(sed -n 's/^test *= *\([^ ;]*\).*/\1/p' "$scenario" | sort -u); do
        grep -q "^$test " "$SCRATCH/plan" || { cat "$SCRATCH/plan"; fail "$scenario: no $test in plan"; }
    done
done
"$BIN/iofleet" run --check "$TOP/configs/seeds/bonnie.ini" > "$SCRATCH/plan"
cat "$SCRATCH/plan"
grep -Eq "^bonnie +bonnie +output, rewrite, input, seeks +1 +1 +1 +2G" "$SCRATCH/plan" \
    || fail "bonnie plan wrong"
grep -q "5 iterations each" "$SCRATCH/plan" || fail "bonnie plan lacks its five runs"
"$BIN/iofleet" run --check --iterations 2 "$TOP/configs/seeds/bonnie.ini" | grep -q "2 iterations each" \
    || fail "--iterations not in the plan"

# A bad scenario fails --check as it would fail run: file:line: key.
printf '[agent a]\nendpoint = tcp://127.0.0.1:1\n[job j]\nagent = a\npath = /x\nsize = 1M\nbs = 1000\ndirect = yes\n' \
    > "$SCRATCH/bad.ini"
rc=0; "$BIN/iofleet" run --check "$SCRATCH/bad.ini" 2> "$SCRATCH/err" || rc=$?
cat "$SCRATCH/err"
[ "$rc" = 2 ] || fail "--check of a bad scenario exited $rc"
grep -q "bad.ini:7: bs: " "$SCRATCH/err" || fail "--check did not name file:line: key"

# The dd table as it stands, on a real agent: only the directory and the
# size are made local (5000M per stream is the thread's, not a test's).
start_agent client; E=$ENDPOINT
sed -e "s#/data/iofleet#$SCRATCH/client#" -e 's/^size = .*/size = 4M/' \
    "$TOP/configs/seeds/dd.ini" > "$SCRATCH/dd.ini"
"$BIN/iofleet" run "$SCRATCH/dd.ini" --agent "client=$E" --iterations 1 -q --no-db \
    -o "$SCRATCH/dd" > "$SCRATCH/out" 2>&1 || { cat "$SCRATCH/out"; fail "dd seeds did not run"; }
for test in dd1 dd1-dir dd2 dd2-dir dd3 dd3-dir; do
    grep -q "^$test " "$SCRATCH/out" || { cat "$SCRATCH/out"; fail "no $test row"; }
done
echo "seed scenarios: ok"
