#!/usr/bin/env bash
# net1 and mix3 across hosts that are apart on the network: network
# namespaces on a bridge, one NFS server host (rpcbind + ganesha bound to
# its address, and an agent whose root is the export), two client hosts
# with an agent each, the coordinator in the root namespace.
#
# The server's agent fills the source (untimed, before the start); both
# clients copy it over nfs:// at the same instant. Every destination must
# be byte-identical to the source; the report must show the disk/network
# split, the combined rate and the start skews; the second test must
# reuse the source instead of filling it again.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

netns_up
netns_host srv 2
netns_host c1 3
netns_host c2 4
nfs_start srv "$SCRATCH/srv"
netns_agent srv "$SCRATCH/srv"; E_SRV=$ENDPOINT
netns_agent c1 "$SCRATCH/c1" --allow-nfs "$NFS_ADDR"; E_C1=$ENDPOINT
netns_agent c2 "$SCRATCH/c2" --allow-nfs "$NFS_ADDR"; E_C2=$ENDPOINT

cat > "$SCRATCH/nfs.ini" <<INI
[global]
bs = 1M
interval = 250ms
keep = yes
settle = 1s            ; watch the disks briefly after each test: the data is small

[agent srv]
endpoint = $E_SRV
[agent c1]
endpoint = $E_C1
[agent c2]
endpoint = $E_C2

[job net1-fill]
test = net1
agent = srv
workload = fill
path = src
size = 24M
pattern = random

[job net1-c1]
test = net1
agent = c1
workload = copy
src = $NFS_URL/src
dst = net1

[job net1-c2]
test = net1
agent = c2
workload = copy
src = $NFS_URL/src
dst = net1

[job mix3-fill]
test = mix3
agent = srv
workload = fill
path = src
size = 24M
pattern = random

[job mix3-disk]
test = mix3
agent = c1
workload = write
path = mix3-disk
size = 16M

[job mix3-c1]
test = mix3
agent = c1
workload = copy
src = $NFS_URL/src
dst = mix3-net

[job mix3-c2]
test = mix3
agent = c2
workload = copy
src = $NFS_URL/src
dst = mix3-net
size = 8M
INI

RESULTS=$SCRATCH/r
rc=0
"$BIN/iofleet" run "$SCRATCH/nfs.ini" -o "$RESULTS" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
cat "$SCRATCH/out" "$SCRATCH/err"
[ "$rc" = 0 ] || fail "run exited $rc"

# The source was filled once, then reused, and shown apart from the test.
grep -q "agent=srv test=net1 job=net1-fill event=fill bytes=25165824" "$SCRATCH/err" ||
    fail "the coordinator did not show the fill"
grep -q "agent=srv test=mix3 job=mix3-fill event=fill bytes=0 .*reused=yes" "$SCRATCH/err" ||
    fail "the second fill did not reuse the source"
[ "$(stat -c %s "$SCRATCH/srv/src")" = 25165824 ] || fail "source has the wrong size"

# Every copy is the source, byte for byte (the last one its first 8M).
cmp "$SCRATCH/srv/src" "$SCRATCH/c1/net1" || fail "c1/net1 differs from the source"
cmp "$SCRATCH/srv/src" "$SCRATCH/c2/net1" || fail "c2/net1 differs from the source"
cmp "$SCRATCH/srv/src" "$SCRATCH/c1/mix3-net" || fail "c1/mix3-net differs from the source"
cmp -n 8388608 "$SCRATCH/srv/src" "$SCRATCH/c2/mix3-net" || fail "c2/mix3-net differs"
[ "$(stat -c %s "$SCRATCH/c2/mix3-net")" = 8388608 ] || fail "size = 8M not honoured"

# The results: no stream for the fills, classes as expected, both hosts
# started together.
[ "$(json 'len(r["tests"])')" = 2 ] || fail "expected two tests"
[ "$(json '[t["summary"]["streams"] for t in r["tests"]]')" = "[2, 3]" ] ||
    fail "stream counts: $(json '[t["summary"]["streams"] for t in r["tests"]]')"
[ "$(json 'sorted(s["class"] for s in r["tests"][1]["streams"])')" = "['disk', 'network', 'network']" ] ||
    fail "mix3 classes: $(json '[s["class"] for s in r["tests"][1]["streams"]]')"
[ "$(json 'r["tests"][0]["summary"]["bytes"]')" = 50331648 ] || fail "net1 bytes"
[ "$(json 'r["tests"][0]["summary"]["hosts"]')" = 2 ] || fail "net1 should span two hosts"
skew_ms=$(json 'r["tests"][0]["summary"]["host_skew_ns"] / 1e6')
python3 -c "import sys; sys.exit(0 if 0 <= $skew_ms < 100 else 1)" ||
    fail "net1 host skew $skew_ms ms"

# The report: a row per test, mix3 as disk/network, the combined rate and
# the skews.
grep -E '^ *net1 +2 ' "$SCRATCH/out" || fail "no net1 row"
grep -E '^ *mix3 +3 +[0-9.]+/[0-9.]+[x+][0-9.]+ +[0-9.]+ ' "$SCRATCH/out" ||
    fail "mix3 row lacks the disk/network split and the combined rate"
grep -q "host skew" "$SCRATCH/out" || fail "no skew column"
grep -q "event=fill-started" "$SCRATCH/srv.log" || fail "the server agent did not fill"
echo "nfs across hosts: ok"
