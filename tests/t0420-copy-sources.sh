#!/usr/bin/env bash
# The same file copied from a path and over nfs:// (v3 and v4) gives the
# same bytes on disk; a copy without a size takes the whole source; a
# source size that is not a whole number of sectors still copies with
# direct = yes. The agent runs in the root namespace with two roots: its
# own and the exported directory, so it can fill the source and read it
# by path; the NFS server runs in its own namespace (tests/nfs.sh).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

nfs_server "$SCRATCH/export"
start_agent a1 --root "$SCRATCH/export" --allow-nfs "$NFS_ADDR"; E1=$ENDPOINT

# 5 MiB and 100 bytes: the last block is short and not sector-aligned.
size=$((5 * 1024 * 1024 + 100))
cat > "$SCRATCH/copy.ini" <<INI
[global]
bs = 1M
keep = yes
settle = 0

[agent a1]
endpoint = $E1

[job fill]
test = from-path
agent = a1
workload = fill
path = $SCRATCH/export/src
size = $size
pattern = random

[job from-path]
test = from-path
agent = a1
workload = copy
src = $SCRATCH/export/src
dst = from-path

[job from-nfs3]
test = from-nfs
agent = a1
workload = copy
src = $NFS_URL/src
dst = from-nfs3
streams = 2

[job from-nfs4]
test = from-nfs
agent = a1
workload = copy
src = nfs://$NFS_ADDR/export/src?version=4
dst = from-nfs4
direct = yes

INI

RESULTS=$SCRATCH/r
rc=0
"$BIN/iofleet" run "$SCRATCH/copy.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc"

src=$SCRATCH/export/src
[ "$(stat -c %s "$src")" = "$size" ] || fail "the fill wrote $(stat -c %s "$src") bytes"
for copy in from-path from-nfs3.1 from-nfs3.2 from-nfs4; do
    cmp "$src" "$SCRATCH/a1/$copy" || fail "$copy differs from the source"
done
sum=$(sha256sum < "$src")
[ "$(sha256sum < "$SCRATCH/a1/from-path")" = "$sum" ] || fail "checksums differ"
[ "$(json '[s["class"] for s in r["tests"][0]["streams"]]')" = "['disk']" ] ||
    fail "a local path source should be disk"
[ "$(json '[s["class"] for s in r["tests"][1]["streams"]]')" = "['network', 'network', 'network']" ] ||
    fail "nfs:// sources should be network"
[ "$(json '[s["bytes"] for s in r["tests"][1]["streams"]]')" = "[$size, $size, $size]" ] ||
    fail "bytes: $(json '[s["bytes"] for s in r["tests"][1]["streams"]]')"
# A second run: the same fill without refill would reuse the file; with
# refill = yes it is written again (zeros now) before the copy of the
# same test opens it through the server.
cat > "$SCRATCH/refill.ini" <<INI
[global]
keep = yes
settle = 0
[agent a1]
endpoint = $E1

[job refill]
test = refill
agent = a1
workload = fill
path = $SCRATCH/export/src
size = $size
refill = yes

[job after-refill]
test = refill
agent = a1
workload = copy
src = $NFS_URL/src
dst = after-refill
INI
"$BIN/iofleet" run "$SCRATCH/refill.ini" -o "$SCRATCH/r2" >"$SCRATCH/out2" 2>"$SCRATCH/err2" ||
    { cat "$SCRATCH/out2" "$SCRATCH/err2"; fail "the refill run failed"; }
grep -q "event=fill bytes=$size" "$SCRATCH/err2" || fail "refill = yes did not fill again"
cmp "$SCRATCH/a1/after-refill" <(head -c "$size" /dev/zero) || fail "the copy did not see the refilled source"
echo "copy sources: ok"
