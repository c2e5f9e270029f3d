#!/usr/bin/env bash
# Directories a test's prepare made are removed with its files at the end
# of the test, deepest first, each only if empty: a/b/c/file leaves no a/
# behind; with keep = yes they stay with the file; a directory that was
# there before stays, and only what the test added below it goes. A job
# refused at prepare (a copy from a source too small) takes back the
# directories it made for its destination at once.
. "$(dirname "$0")/lib.sh"

start_agent a1
root=$SCRATCH/a1
mkdir -p "$root/pre"
head -c 65536 /dev/zero > "$root/small"
cat > "$SCRATCH/dirs.ini" <<INI
[global]
settle = 0
size = 256K
bs = 64K
[agent a1]
endpoint = $ENDPOINT
[job deep]
agent = a1
test = made
path = a/b/c/file
[job under-pre]
agent = a1
test = made
path = pre/x/y/file
streams = 2
[job kept]
agent = a1
test = kept
path = k/l/file
keep = yes
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/dirs.ini" -o "$SCRATCH/res" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc"
wait_log "$SCRATCH/a1.log" "event=test-over .*test=kept"
[ ! -e "$root/a" ] || fail "a/ was left behind: $(find "$root/a")"
[ -d "$root/pre" ] || fail "pre/, which was there before, was removed"
[ ! -e "$root/pre/x" ] || fail "pre/x was left behind"
[ -f "$root/k/l/file" ] || fail "keep = yes: the file or its directories are gone"

cat > "$SCRATCH/refused.ini" <<INI
[global]
settle = 0
size = 1M
[agent a1]
endpoint = $ENDPOINT
[job short]
agent = a1
workload = copy
src = small
dst = cp/x/out
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/refused.ini" -o "$SCRATCH/res2" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 1 ] || fail "a copy from a source too small: exit $rc, expected 1"
grep -q "fewer than size" "$SCRATCH/err" || fail "the refusal does not say why"
[ ! -e "$root/cp" ] || fail "the refused job left cp/ behind"
echo "made directories: ok"
