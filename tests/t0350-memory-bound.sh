#!/usr/bin/env bash
# --max-memory bounds the memory one test may hold on an agent (streams
# x their buffers and figures, over its jobs): a test beyond it is
# refused before the run by the preflight (the admission prepare makes),
# exit 2, with an error that names the job, what it asks and the bound,
# and nothing is created; a test within it runs. The flag takes sizes as job options do, and a bad
# one is a usage error.
. "$(dirname "$0")/lib.sh"

start_agent a1 --max-memory 5M
grep -q "event=memory-bound test_bytes=5242880 from=--max-memory" "$SCRATCH/a1.log" ||
    fail "the agent does not log its bound"
cat > "$SCRATCH/mem.ini" <<INI
[global]
settle = 0
size = 1M
bs = 1M
[agent a1]
endpoint = $ENDPOINT
[job within]
agent = a1
test = within
path = w
streams = 4
[job first]
agent = a1
test = beyond
path = f
streams = 3
[job second]
agent = a1
test = beyond
path = s
streams = 2
INI
rc=0
RESULTS=$SCRATCH/res
"$BIN/iofleet" run "$SCRATCH/mem.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 2 ] || fail "exit $rc with a test beyond the bound, expected 2 (the preflight's)"
grep -q "job second: its streams need 2176K (2 streams of 1M of buffers and 64K of figures), and the test holds 3264K already, over this agent's bound of 5M per test (--max-memory)" \
    "$SCRATCH/err" || fail "the refusal does not name the job, its figure and the bound"
grep -q "more memory than the agent's bound per test: 1 job (second) on 1 agent (a1)" \
    "$SCRATCH/err" || fail "the preflight does not group the refusal"
grep -q "fix: .*--max-memory" "$SCRATCH/err" || fail "the preflight gives no fix"
# The test within the bound alone runs whole.
sed '/^\[job first\]/,$d' "$SCRATCH/mem.ini" > "$SCRATCH/within.ini"
"$BIN/iofleet" run "$SCRATCH/within.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "the test within the bound failed"; }
[ "$(json '[s["bytes"] for s in r["tests"][0]["streams"]]')" = "[1048576, 1048576, 1048576, 1048576]" ] ||
    fail "the test within the bound did not run whole"
wait_log "$SCRATCH/a1.log" "event=(test-over|discard) .*test=within"
[ -z "$(ls "$SCRATCH/a1")" ] || fail "files were left: $(ls "$SCRATCH/a1")"

for bad in 12Q 100K; do
    rc=0
    "$BIN/iofleet-agent" --root "$SCRATCH" --max-memory "$bad" 2>"$SCRATCH/usage" || rc=$?
    [ "$rc" = 2 ] || fail "--max-memory $bad: exit $rc, expected 2"
    grep -q "^iofleet-agent: --max-memory: '$bad'" "$SCRATCH/usage" || fail "--max-memory $bad: $(cat "$SCRATCH/usage")"
done
echo "memory bound: ok"
