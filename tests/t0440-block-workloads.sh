#!/usr/bin/env bash
# The read, rewrite and bonnie workloads on a real agent, run by `iofleet
# run`: a read lays its files out and reads them, a rewrite's two phases
# and bonnie's four are rows of their own with the bytes each moved, and
# a read of nfs:// URLs (stream k reads file.k, the ?version=4 query kept
# last) is class network and reads what the server's files hold. Files
# the workloads made are gone afterwards; the share's files stay.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

nfs_server "$SCRATCH/export"
start_agent a1 --root "$SCRATCH/export" --allow-nfs "$NFS_ADDR"; E1=$ENDPOINT

cat > "$SCRATCH/block.ini" <<INI
[global]
settle = 0

[agent a1]
endpoint = $E1

[job rd]
agent = a1
workload = read
path = rd
size = 3M
streams = 2

[job rw]
agent = a1
workload = rewrite
path = rw
size = 2M
bs = 64K

[job bon]
agent = a1
workload = bonnie
path = bon
size = 2M
seeks = 2000

[job share]
test = nfs
agent = a1
workload = fill
path = $SCRATCH/export/src
size = 1M
streams = 2
pattern = random

[job nfs3]
test = nfs
agent = a1
workload = read
path = $NFS_URL/src
streams = 2

[job nfs4]
test = nfs
agent = a1
workload = read
path = nfs://$NFS_ADDR/export/src?version=4
size = 512K
streams = 2
INI

RESULTS=$SCRATCH/r
rc=0
"$BIN/iofleet" run "$SCRATCH/block.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc"

names=$(json '[t["name"] for t in r["tests"]]')
[ "$names" = "['rd', 'rw/write', 'rw/rewrite', 'bon/output', 'bon/rewrite', 'bon/input', 'bon/seeks', 'nfs']" ] ||
    fail "rows: $names"
bytes () {   # row: the bytes of its streams
    json "[s['bytes'] for t in r['tests'] if t['name'] == '$1' for s in t['streams']]"
}
M=1048576
[ "$(bytes rd)" = "[$((3 * M)), $((3 * M))]" ] || fail "rd: $(bytes rd)"
for row in rw/write rw/rewrite bon/output bon/rewrite bon/input; do
    [ "$(bytes "$row")" = "[$((2 * M))]" ] || fail "$row: $(bytes "$row")"
done
# The seeks read a chunk each and write about one in ten back; their bytes
# are the chunks read, one per seek, as their samples count them.
[ "$(bytes nfs)" = "[$M, $M, $((M / 2)), $((M / 2))]" ] || fail "nfs: $(bytes nfs)"
python3 - "$RESULTS/results.json" <<'PY' || fail "the seeks' figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
seeks = [t for t in r["tests"] if t["name"] == "bon/seeks"][0]["streams"][0]
print("seeks:", {k: seeks[k] for k in ("bytes", "reads", "writes") if k in seeks})
assert seeks["reads"] == 2000, seeks["reads"]
assert 100 <= seeks["writes"] <= 300, seeks["writes"]
assert seeks["bytes"] == seeks["reads"] * 8192, seeks["bytes"]
PY
[ "$(json '[s["class"] for t in r["tests"] if t["name"] == "nfs" for s in t["streams"]]')" = \
  "['network', 'network', 'network', 'network']" ] || fail "nfs:// reads should be network"

# What the workloads made is gone; the share stays.
[ -z "$(ls -A "$SCRATCH/a1")" ] || fail "left behind: $(ls -A "$SCRATCH/a1")"
[ "$(stat -c %s "$SCRATCH/export/src.1")" = $M ] || fail "the share's file is gone"
grep -q 'laid_out=6291456' "$SCRATCH/a1.log" || fail "the agent did not log the read's layout"
echo "block workloads: ok"
