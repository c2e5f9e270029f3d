#!/usr/bin/env bash
# A copy that cannot be done fails before it starts, not in the middle of a
# run. What the agent knows without the network (an nfs:// server it may
# not read, a local source outside its roots or behind a symbolic link)
# its preflight refuses: every one at once, grouped, nothing started,
# exit 2. What only the NFS server can say (a server that does not exist,
# an export it does not have, a missing source, one smaller than size)
# fails at prepare. Each failure names the server and the path, that run
# exits 1, and no destination is left behind, not even an empty one; an
# existing file under the destination's name is not truncated.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

nfs_server "$SCRATCH/export"
head -c 1048576 /dev/urandom > "$SCRATCH/export/small"
start_agent a1 --allow-nfs '*'; E1=$ENDPOINT
# a2 may read nfs:// from nowhere, a3 only from another server.
start_agent a2; E2=$ENDPOINT
start_agent a3 --allow-nfs 192.0.2.1; E3=$ENDPOINT
# Nobody answers at .99 of the server's subnet: connecting fails.
GHOST=${NFS_ADDR%.*}.99
echo "keep me" > "$SCRATCH/a1/small-copy"
ln -s small-copy "$SCRATCH/a1/link"

head="[global]
settle = 0
[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[agent a3]
endpoint = $E3"
cat > "$SCRATCH/refused.ini" <<INI
$head
[job not-allowed]
agent = a2
workload = copy
src = $NFS_URL/small
dst = not-allowed
[job other-server]
agent = a3
workload = copy
src = $NFS_URL/small
dst = other-server
[job outside]
agent = a1
workload = copy
src = $SCRATCH/export/small
dst = outside
[job symlink]
agent = a1
workload = copy
src = link
dst = symlink
INI
rc=0
"$BIN/iofleet" run "$SCRATCH/refused.ini" -o "$SCRATCH/refused" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 2 ] || fail "the preflight's run exited $rc, expected 2"
grep -q "preflight: the agents would refuse 4 jobs; nothing was started" "$SCRATCH/err" ||
    fail "no preflight summary of 4 jobs"
grep -Eq "nfs servers the agent may not read: 2 jobs \(not-allowed, other-server\) on 2 agents \(a2, a3\)" \
    "$SCRATCH/err" || fail "the two nfs refusals are not one group"
grep -q "nfs server $NFS_ADDR is not allowed on this agent: start it with --allow-nfs $NFS_ADDR" \
    "$SCRATCH/err" || fail "the nfs refusal lacks its fix"
grep -q "path $SCRATCH/export/small is outside the agent's roots" "$SCRATCH/err" ||
    fail "the source outside the roots is not named"
grep -q "path link: is a symbolic link" "$SCRATCH/err" || fail "the symbolic link is not named"
[ ! -e "$SCRATCH/refused" ] || fail "a refused run wrote a results directory"
for a in a1 a2 a3; do
    grep -q "event=start\|event=prepare " "$SCRATCH/$a.log" && fail "$a prepared or started a refused job"
done
for a in a2 a3; do
    [ -z "$(ls -A "$SCRATCH/$a")" ] || fail "$a wrote although its nfs:// source was not allowed"
done

cat > "$SCRATCH/bad.ini" <<INI
$head
[job unreachable]
agent = a1
workload = copy
src = nfs://$GHOST/srv/data/file
dst = unreachable
[job no-export]
agent = a1
workload = copy
src = nfs://$NFS_ADDR/no/such/export/file
dst = no-export
[job no-file]
agent = a1
workload = copy
src = $NFS_URL/missing
dst = no-file
[job too-small]
agent = a1
workload = copy
src = $NFS_URL/small
dst = small-copy
size = 2M
INI
RESULTS=$SCRATCH/r
rc=0
start=$(date +%s)
"$BIN/iofleet" run "$SCRATCH/bad.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 1 ] || fail "run exited $rc, expected 1"
expect_error () {   # test pattern: on stderr and in the report
    grep -E "test=$1 error=\"prepare: .*$2" "$SCRATCH/err" || fail "stderr lacks $1: /$2/"
    grep -E "FAILED +test $1 .*$2" "$SCRATCH/out" || fail "report lacks $1: /$2/"
}
expect_error unreachable "server $GHOST, export /srv/data\): the server cannot be reached"
expect_error no-export "server $NFS_ADDR, export /no/such/export"
expect_error no-file "server $NFS_ADDR, export $SCRATCH/export, file /missing"
expect_error too-small "source $NFS_URL/small: has 1048576 bytes, fewer than size = 2097152"
# Failed at prepare: the agent started nothing and left nothing.
[ "$(grep -c "event=prepare-failed" "$SCRATCH/a1.log")" = 4 ] || fail "expected 4 prepare failures"
grep -q "event=start" "$SCRATCH/a1.log" && fail "a test with a failed prepare was started"
for f in unreachable no-export no-file; do
    [ ! -e "$SCRATCH/a1/$f" ] || fail "$f was left behind"
done
[ "$(cat "$SCRATCH/a1/small-copy")" = "keep me" ] || fail "a failed copy truncated its destination"
[ "$(json 'sum(t["summary"]["failed_streams"] for t in r["tests"])')" = 4 ] ||
    fail "the results do not count 4 failed streams"
# The unreachable server costs the connect timeout, not more.
[ $(( $(date +%s) - start )) -lt 30 ] || fail "the failures took too long"
echo "copy bad input: ok"
