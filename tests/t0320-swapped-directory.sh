#!/usr/bin/env bash
# A directory swapped for a symlink while a stream writes cannot redirect
# the removal at the end of the test. The job writes d/vname slowly;
# meanwhile d is moved to d.old and a symlink d -> elsewhere takes its
# place, elsewhere holding a vname of its own. The agent removes what it
# created through the directory it created it in, once it has checked
# that the name there is still that file: d.old/vname goes, and
# elsewhere/vname stays as it was.
. "$(dirname "$0")/lib.sh"

start_agent a1
root=$SCRATCH/a1
elsewhere=$SCRATCH/elsewhere
mkdir -p "$root/d" "$elsewhere"
echo "not the agent's" > "$elsewhere/vname"
cat > "$SCRATCH/swap.ini" <<INI
[global]
settle = 0
bs = 64K
[agent a1]
endpoint = $ENDPOINT
[job slow]
agent = a1
path = d/vname
size = 3M
rate = 1M
INI
"$BIN/iofleet" run "$SCRATCH/swap.ini" -o "$SCRATCH/res" >"$SCRATCH/out" 2>"$SCRATCH/err" &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/a1.log" "event=start "
[ -f "$root/d/vname" ] || fail "the stream's file is not where the job put it"
mv "$root/d" "$root/d.old"
ln -s "$elsewhere" "$root/d"
rc=0; wait "$run" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc"
# The agent removes the test's files when the test is over.
wait_log "$SCRATCH/a1.log" "event=test-over"
[ -f "$elsewhere/vname" ] || fail "the removal followed the swapped-in symlink: $elsewhere/vname is gone"
[ "$(cat "$elsewhere/vname")" = "not the agent's" ] || fail "$elsewhere/vname was changed"
[ ! -e "$root/d.old/vname" ] || fail "the file the test wrote was left behind in d.old"
echo "swapped directory: ok"
