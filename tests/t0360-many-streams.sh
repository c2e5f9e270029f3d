#!/usr/bin/env bash
# Every stream holds its file and that file's directory open. Under a soft
# limit of 512 descriptors (the hard one higher), an agent still runs a
# test of 512 streams: it raises its soft limit to the hard one.
. "$(dirname "$0")/lib.sh"

[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 2048 ] || {
    echo "skipped: the hard limit on descriptors is $(ulimit -Hn)"; exit 0; }
ulimit -Sn 512
start_agent a1
grep -q "event=fd-limit soft=.* was=512" "$SCRATCH/a1.log" || fail "the agent kept the soft limit"
{
    printf '[global]\nsettle = 0\nfsync = none\nsize = 64K\nbs = 64K\nstreams = 256\n'
    printf '[agent a1]\nendpoint = %s\n' "$ENDPOINT"
    printf '[job one]\nagent = a1\ntest = many\npath = one/f\n'
    printf '[job two]\nagent = a1\ntest = many\npath = two/f\n'
} > "$SCRATCH/many.ini"
RESULTS=$SCRATCH/res
rc=0
"$BIN/iofleet" run "$SCRATCH/many.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
tail -5 "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc: $(grep -m1 error "$SCRATCH/err")"
[ "$(json 'sum(s["bytes"] for s in r["tests"][0]["streams"])')" = $((512 * 65536)) ] ||
    fail "not every stream wrote its 64K"
echo "many streams: ok"
