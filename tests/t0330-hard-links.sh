#!/usr/bin/env bash
# A file under the root that is a hard link to a file outside it is not
# written through: write, copy (dst) and fill refuse it at prepare with
# an error naming the path and its links, and the outside file keeps its
# content and size.
. "$(dirname "$0")/lib.sh"

start_agent a1
root=$SCRATCH/a1
outside=$SCRATCH/outside
mkdir -p "$outside"
printf 'precious\n' > "$outside/file"
ln "$outside/file" "$root/hl"
head -c 1048576 /dev/urandom > "$root/src"

try () {    # workload keys...: expect a refusal naming hl and its links
    local workload=$1
    shift
    {
        printf '[global]\nsettle = 0\nsize = 1M\n[agent a1]\nendpoint = %s\n' "$ENDPOINT"
        printf '[job through-%s]\nagent = a1\nworkload = %s\n' "$workload" "$workload"
        printf '%s\n' "$@"
    } > "$SCRATCH/$workload.ini"
    local rc=0
    "$BIN/iofleet" run "$SCRATCH/$workload.ini" -o "$SCRATCH/res-$workload" \
        >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
    cat "$SCRATCH/out" "$SCRATCH/err"
    [ "$rc" = 1 ] || fail "$workload: exit $rc, expected 1"
    grep -q "$root/hl.*has 2 hard links; refusing to write through it" "$SCRATCH/err" ||
        fail "$workload: the error does not name the path and its links"
    [ "$(cat "$outside/file")" = "precious" ] || fail "$workload: the outside file was written"
    [ "$(stat -c %s "$outside/file")" = 9 ] || fail "$workload: the outside file changed size"
    [ "$(stat -c %h "$outside/file")" = 2 ] || fail "$workload: a link was removed"
}
try write "path = hl"
try copy "src = src" "dst = hl"
try fill "path = hl"
echo "hard links: ok"
