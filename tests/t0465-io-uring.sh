#!/usr/bin/env bash
# randrw on engine = io_uring, iodepth = 32, with real agents. On a file
# system of its own (ext4 on a loop device, so that the device's
# counters are the test's alone), a request-bound O_DIRECT rndrd job
# does exactly the reads asked: the block layer saw as many (completed
# plus merged) as the agents counted. A request-bound rndrw job on two
# agents does exactly its requests, split among its streams, in the read
# share asked, and its fsyncs are those of psync (files x rounds + files
# a stream), with 32 requests in flight at most and more than one on the
# mean; the report and the JSON say so. A write job at iodepth 16
# writes its size whole, every block once, and a read job at iodepth 16
# reads it back so. A time-bound O_DIRECT rndrd job on both agents
# stops at one instant: no request issued at or after
# it, the requests in flight then counted and timed, and the streams of
# both agents end within 2 ms of each other beyond the time those
# requests took the disk (end skew in ns in the JSON): the stop is the
# protocol's, the drain the device's.
# runs alone: the end skew of two agents is held within 2 ms
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root for a loop device"; exit 125; }
command -v losetup > /dev/null && command -v mkfs.ext4 > /dev/null ||
    { echo "skip: losetup and mkfs.ext4 are needed"; exit 125; }

LOOP=""
detach () {
    cleanup
    [ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null || true
}
trap detach EXIT

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT

truncate -s 384M "$SCRATCH/disk.img"
LOOP=$(losetup --find --show "$SCRATCH/disk.img") || fail "no loop device"
mkfs.ext4 -q -F "$LOOP" || fail "mkfs.ext4 $LOOP failed"
mkdir -p "$SCRATCH/a1/loop"
mount "$LOOP" "$SCRATCH/a1/loop" || fail "mount $LOOP failed"
MOUNTS+=("$SCRATCH/a1/loop")
DEV=$(basename "$LOOP")
# Reads the block layer was asked for on the loop device: completed and
# merged into others.
disk_reads () {
    awk -v dev="$DEV" '$3 == dev { print $4 + $5 }' /proc/diskstats
}

# set_ini FILE JOB KEYS: a rndrd job over the set on the loop device, kept.
set_ini () {
    cat > "$1" <<INI
[global]
settle = 0
[agent a1]
endpoint = $E1
[job $2]
agent = a1
workload = randrw
path = loop/set/f
size = 256M
files = 4
bs = 4K
mode = rndrd
keep = yes
$3
INI
}
# Lays the set out, for the counted run.
set_ini "$SCRATCH/lay.ini" lay "requests = 1"
"$BIN/iofleet" run --no-db "$SCRATCH/lay.ini" -o "$SCRATCH/lay" > "$SCRATCH/lay.out" 2>&1 ||
    { cat "$SCRATCH/lay.out"; fail "layout run failed"; }
sync

REQUESTS=40000
set_ini "$SCRATCH/count.ini" count "direct = yes
engine = io_uring
iodepth = 32
streams = 2
requests = $REQUESTS"
before=$(disk_reads)
RESULTS=$SCRATCH/count
"$BIN/iofleet" run --no-db "$SCRATCH/count.ini" -o "$RESULTS" > "$SCRATCH/count.out" 2>&1 ||
    { cat "$SCRATCH/count.out"; fail "counted run failed"; }
after=$(disk_reads)
reads=$(json 'sum(s["reads"] for s in r["tests"][0]["streams"])')
echo "count: the agents counted $reads reads, the loop device saw $((after - before))"
[ "$reads" = $REQUESTS ] || fail "the agents counted $reads reads of $REQUESTS"
[ $((after - before)) = $REQUESTS ] ||
    fail "the loop device saw $((after - before)) reads for $REQUESTS requests"
json 'r["tests"][0]["summary"]["depth"]'
grep -E "in flight per stream: [0-9.]+ on the mean, 32 at most" "$RESULTS/report.txt" ||
    { cat "$RESULTS/report.txt"; fail "the report gives no depth"; }
rm -rf "$SCRATCH/a1/loop/set"

cat > "$SCRATCH/uring.ini" <<INI
[global]
settle = 0
engine = io_uring
iodepth = 32
[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2
[group both]
agents = a1, a2

; sysbench's shape at a depth: 1.5 reads per write, fsync every 100.
[job mixed]
test = mixed
agent = both
workload = randrw
path = set/f
size = 32M
files = 8
bs = 4K
streams = 2
requests = 32003

; Sequential O_DIRECT writes, 16 blocks in flight.
[job w]
test = write
agent = both
workload = write
path = w
size = 32M
bs = 128K
direct = yes
iodepth = 16

; And read back, 16 blocks in flight.
[job r]
test = read
agent = both
workload = read
path = w
size = 32M
bs = 128K
direct = yes
iodepth = 16

; A time-bound O_DIRECT reader on both: nothing to flush after it.
[job timed]
test = timed
agent = both
workload = randrw
mode = rndrd
path = set/q
size = 32M
files = 2
bs = 4K
direct = yes
runtime = 2s
INI
RESULTS=$SCRATCH/r
"$BIN/iofleet" run --no-db "$SCRATCH/uring.ini" -o "$RESULTS" > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "io_uring run failed"; }
cat "$RESULTS/report.txt"

python3 - "$RESULTS/results.json" <<'PY' || fail "io_uring figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
by = {t["name"]: t for t in r["tests"]}
MS = 1_000_000
t = by["mixed"]
streams = t["streams"]
assert len(streams) == 4 and t["summary"]["failed_streams"] == 0, t["summary"]
for st in streams:
    assert st["error"] == "", st["error"]
    n = st["reads"] + st["writes"]
    # 32003 requests per job, on each agent: 16002 and 16001.
    assert n == (16002 if st["index"] == 0 else 16001), (st["agent"], st["index"], n)
    period = 1 + 1.5
    assert st["reads"] == int(n * 1.5 / period + 0.5), (n, st["reads"])
    # Every file of the set after every 100 requests that another
    # follows, then once more.
    assert st["fsyncs"] == 8 * ((n - 1) // 100) + 8, (n, st["fsyncs"])
    d = st["depth"]
    assert d["max"] == 32 and 1 < d["mean"] <= 32, d
    assert st["bytes"] == n * 4096
d = t["summary"]["depth"]
assert d["max"] == 32 and 1 < d["mean"] <= 32, d

t = by["write"]
for st in t["streams"]:
    assert st["error"] == "" and st["bytes"] == 32 << 20, st
    assert st["writes"] == 256 and st["fsyncs"] == 1, st
    assert st["depth"]["max"] == 16, st["depth"]

t = by["read"]
for st in t["streams"]:
    assert st["error"] == "" and st["bytes"] == 32 << 20 and st["reads"] == 256, st
    assert st["depth"]["max"] == 16, st["depth"]

t = by["timed"]
s = t["summary"]
assert t["bound"] == "time" and s["failed_streams"] == 0, s
for st in t["streams"]:
    assert st["last_issue_ns"] < st["stop_ns"] + st["clock_uncertainty_ns"], st
    assert 1 <= st["depth"]["inflight_at_stop"] <= 32, st["depth"]
assert s["depth"]["inflight_at_stop"] == sum(st["depth"]["inflight_at_stop"] for st in t["streams"])
skew = s["end_skew_ns"]
print("timed: end skew %.3f ms, %d requests in flight at the stop, drained within %.3f ms"
      % (skew / 1e6, s["depth"]["inflight_at_stop"], s["stop"]["in_flight_ns"] / 1e6))
# Two agents that stop issuing at one instant end apart by at most the
# longest drain of the requests then in flight, which this virtual disk
# stretches to several ms now and then.
drain = s["stop"]["in_flight_ns"]
assert 0 < drain, s["stop"]
assert skew <= 2 * MS + drain + s["clock_uncertainty_ns"], (skew, drain)
PY
grep -E "[0-9]+ requests in flight then" "$RESULTS/report.txt" > /dev/null ||
    fail "the report does not count the requests in flight at the stop"
