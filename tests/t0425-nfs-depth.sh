#!/usr/bin/env bash
# An nfs:// source read with READ calls in flight (iodepth), from the
# ganesha server of tests/nfs.sh. The read workload at iodepth 1 and 8
# (v3 on either engine value, v4) reads every byte once, a request a
# block, and at 8 has more than one call in flight (8 at most); on the
# clock it issues nothing at or after its stop instant; copies at
# iodepth 1 and 8 (two streams, and v4 with direct = yes) write files
# whose sha256 is the source's: the blocks read ahead come back in any
# order and are written in order. A depth on psync for a local source is
# still refused. Then the server is killed in the middle of a paced read
# at iodepth 8: the stream fails with a message naming the server and the
# path, and the run ends well within a deadline instead of hanging, the
# stream's thread idle meanwhile.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

nfs_server "$SCRATCH/export"
start_agent a1 --allow-nfs "$NFS_ADDR"; E1=$ENDPOINT

# 8 MiB and 100 bytes: 33 blocks of 256K, the last one short and not
# sector-aligned.
size=$((8 * 1024 * 1024 + 100))
blocks=33
head -c "$size" /dev/urandom > "$SCRATCH/export/src"
sum=$(sha256sum < "$SCRATCH/export/src")
V4=nfs://$NFS_ADDR/export/src?version=4

cat > "$SCRATCH/depth.ini" <<INI
[global]
bs = 256K
keep = yes
settle = 0

[agent a1]
endpoint = $E1

[job read1]
test = read1
agent = a1
workload = read
path = $NFS_URL/src

[job read8]
test = read8
agent = a1
workload = read
path = $NFS_URL/src
iodepth = 8

[job read8-uring]
test = read8-uring
agent = a1
workload = read
path = $NFS_URL/src
engine = io_uring
iodepth = 8

[job read8-v4]
test = read8-v4
agent = a1
workload = read
path = $V4
iodepth = 8

[job read8-timed]
test = read8-timed
agent = a1
workload = read
path = $NFS_URL/src
iodepth = 8
runtime = 1s

[job copy1]
test = copy1
agent = a1
workload = copy
src = $NFS_URL/src
dst = copy1

[job copy8]
test = copy8
agent = a1
workload = copy
src = $NFS_URL/src
dst = copy8
iodepth = 8
streams = 2

[job copy8-v4]
test = copy8-v4
agent = a1
workload = copy
src = $V4
dst = copy8-v4
iodepth = 8
direct = yes
INI

RESULTS=$SCRATCH/r
"$BIN/iofleet" run --no-db "$SCRATCH/depth.ini" -o "$RESULTS" > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "the run failed"; }
cat "$RESULTS/report.txt"

python3 - "$RESULTS/results.json" "$size" "$blocks" <<'PY' || fail "the figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
size, blocks = int(sys.argv[2]), int(sys.argv[3])
by = {t["name"]: t for t in r["tests"]}
for name in ("read1", "read8", "read8-uring", "read8-v4", "copy1", "copy8", "copy8-v4"):
    t = by[name]
    depth = 1 if name.endswith("1") else 8
    assert t["summary"]["failed_streams"] == 0, (name, t["summary"])
    for st in t["streams"]:
        assert st["error"] == "", (name, st["error"])
        assert st["class"] == "network", (name, st["class"])
        # Every byte once, a READ call a block (a copy: and a write).
        assert st["bytes"] == size and st["reads"] == blocks, (name, st["bytes"], st["reads"])
        assert name.startswith("read") or st["writes"] == blocks, (name, st["writes"])
        d = st["depth"]
        assert d["max"] == depth, (name, d)
        assert depth == 1 or d["mean"] > 1, (name, d)
        print("%-12s depth %d: %.1f in flight on the mean, %d at most, %.1f MB/s"
              % (name, depth, d["mean"], d["max"], st["rate_mbps"]))
# On the clock: round the file and again, nothing issued at or after the
# stop instant, what was in flight then counted.
t = by["read8-timed"]
assert t["bound"] == "time" and t["summary"]["failed_streams"] == 0, t["summary"]
for st in t["streams"]:
    assert st["error"] == "" and st["bytes"] > size, (st["error"], st["bytes"])
    assert st["last_issue_ns"] < st["stop_ns"] + st["clock_uncertainty_ns"], st
    assert st["depth"]["max"] == 8 and 0 <= st["depth"]["inflight_at_stop"] <= 8, st["depth"]
    print("read8-timed  %d bytes in %d reads, %d in flight at the stop"
          % (st["bytes"], st["reads"], st["depth"]["inflight_at_stop"]))
PY
# The text says the depth each read at 8 reached, in its test's block.
for name in read8 copy8; do
    sed -n "/^$name: /,/^\$/p" "$RESULTS/report.txt" |
        grep -Eq "^  requests in flight per stream: [0-9.]+ on the mean, 8 at most$" ||
        fail "the text does not say how many READ calls $name kept in flight"
done
python3 "$TOP/tests/page_figures.py" "$RESULTS/report.txt" "$RESULTS/report.html" \
    "$RESULTS/results.json" "$RESULTS/report.csv" || fail "the page, the results or the CSV lack figures of the text"
for copy in copy1 copy8.1 copy8.2 copy8-v4; do
    [ "$(sha256sum < "$SCRATCH/a1/$copy")" = "$sum" ] || fail "$copy differs from the source"
done

# A depth on psync is READ calls in flight for an nfs:// source only.
cat > "$SCRATCH/local.ini" <<INI
[agent a1]
endpoint = $E1
[job local8]
agent = a1
workload = copy
src = $SCRATCH/a1/copy1
dst = local8
iodepth = 8
INI
rc=0
"$BIN/iofleet" run --no-db "$SCRATCH/local.ini" -o "$SCRATCH/local" > "$SCRATCH/local.out" 2>&1 ||
    rc=$?
[ "$rc" = 2 ] && grep -q "iodepth.*needs engine = io_uring" "$SCRATCH/local.out" ||
    { cat "$SCRATCH/local.out"; fail "a local source at iodepth 8 on psync was not refused (exit $rc)"; }

# The server dies in the middle of a read paced to last 16 s: the stream
# fails naming the server and the file, within libnfs's timeout of a call
# (10 s) and its slack, not at the end of a hang.
head -c $((64 * 1024 * 1024)) /dev/zero > "$SCRATCH/export/big"
cat > "$SCRATCH/dies.ini" <<INI
[global]
settle = 0
[agent a1]
endpoint = $E1
[job dies]
agent = a1
workload = read
path = $NFS_URL/big
bs = 256K
iodepth = 8
rate = 4M
INI
RESULTS=$SCRATCH/dies
"$BIN/iofleet" run --no-db "$SCRATCH/dies.ini" -o "$RESULTS" > "$SCRATCH/dies.out" 2>&1 &
run=$!
PIDS+=("$run")
wait_log "$SCRATCH/a1.log" "event=start .*test=dies"
sleep 1
kill -9 "$(cat "$SCRATCH/ganesha-nfs.pid")"
killed=$(date +%s%N)
rc=0
for _ in $(seq 400); do
    kill -0 "$run" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$run" 2>/dev/null && { cat "$SCRATCH/dies.out"; fail "the run still waits 40 s after the server died"; }
wait "$run" || rc=$?
took_ms=$(( ($(date +%s%N) - killed) / 1000000 ))
cat "$SCRATCH/dies.out"
echo "the run ended ${took_ms} ms after the server was killed, exit $rc"
[ "$rc" = 1 ] || fail "the run exited $rc, not 1"
error=$(json 'r["tests"][0]["streams"][0]["error"]')
echo "error: $error"
case $error in
    *"nfs://$NFS_ADDR$SCRATCH/export/big"*"connection to the server was lost"*) ;;
    *"nfs://$NFS_ADDR$SCRATCH/export/big"*"no reply from the server"*) ;;
    *"nfs://$NFS_ADDR$SCRATCH/export/big"*"connection to the server failed"*) ;;
    *) fail "the error does not say the server of $NFS_URL/big stopped answering" ;;
esac
[ "$took_ms" -lt 25000 ] || fail "the stream took ${took_ms} ms to fail"
# Waiting for a server that is gone costs no CPU: the broken connection
# is looked at once a slice, not spun on.
cpu=$(json 'r["tests"][0]["streams"][0]["usr_s"] + r["tests"][0]["streams"][0]["sys_s"]')
echo "the stream's thread used $cpu s of CPU"
python3 -c "import sys; sys.exit(0 if $cpu < 1.5 else 1)" ||
    fail "the stream spun on the broken connection ($cpu s of CPU)"
echo "nfs depth: ok"
