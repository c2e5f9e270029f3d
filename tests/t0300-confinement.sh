#!/usr/bin/env bash
# Paths outside the agent's --root are refused with a message naming the
# path, and nothing is written: an absolute path elsewhere, a path
# climbing out with "..", and a symlink inside the root pointing out. The
# preflight before the first test refuses them (exit 2, nothing started);
# prepare itself refuses them too (t0855 runs a job the preflight let by).
. "$(dirname "$0")/lib.sh"

start_agent a1
outside=$SCRATCH/outside
mkdir -p "$outside"
ln -s "$outside" "$SCRATCH/a1/link"

try () {    # path: expect refusal naming it
    local path=$1
    cat > "$SCRATCH/bad.ini" <<INI
[agent a1]
endpoint = $ENDPOINT
[job escape]
agent = a1
path = $path
size = 1M
INI
    local rc=0
    rm -rf "$SCRATCH/res"       # a results directory takes one run
    "$BIN/iofleet" run "$SCRATCH/bad.ini" -o "$SCRATCH/res" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
    cat "$SCRATCH/err"
    [ "$rc" = 2 ] || fail "path $path: exit $rc, expected 2"
    grep -qF "$path" "$SCRATCH/err" || fail "path $path: the error does not name it"
    grep -q "^iofleet: preflight: 1\. .*(escape) on 1 agent (a1)" "$SCRATCH/err" ||
        fail "path $path: the preflight does not name the job and the agent"
}
try "$outside/abs"
try "../outside/dotdot"
try "link/through-symlink"
try "$SCRATCH/a1/link/absolute-through-symlink"

[ -z "$(ls -A "$outside")" ] || fail "something was written outside the root: $(ls "$outside")"
echo "confinement: ok"
