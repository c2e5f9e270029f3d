#!/usr/bin/env bash
# engine = io_uring against a file system whose every request takes 1 ms
# (tests/bench/delayfs.c over FUSE, sleeping its whole time), with a
# real agent; the file system counts what it is asked and how many
# requests it holds at once. Checks:
#  - one rndrd stream at iodepth 32 over one file, O_DIRECT, 1 s: the
#    file system holds 32 requests at its peak and never more, the
#    agent's depth is 32, and every read the agent counted reached the
#    file system and no other;
#  - a request-bound rndrw (2 streams, 4001 requests, fsync_every = 100,
#    4 files) at iodepth 16: the file system got exactly the reads,
#    writes and fsyncs of the report, fsyncs = files x rounds + files a
#    stream, and a psync run of the same job does and counts the same.
# The rate these reach (>= 0.8 x 32000 requests/s at iodepth 32, and
# io_uring at iodepth 1 beside psync) is a goal of speed: make bench
# measures it (tests/bench/fusedepth.sh), beside fio's.
#
# What the file system is given, and why (tests/delayfs.sh,
# delayfs_depth_mount): the kernel keeps at most max_background
# asynchronous requests of a FUSE mount with the file system (12 by
# default), and io_uring's O_DIRECT reads are such requests; libfuse
# 3.14 answers with 10 worker threads unless max_threads says. Both are
# twice the depth here, so that a 33rd request in flight would be seen
# and fail the test.
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/delayfs.sh"

DEPTH=32
DELAY_US=1000

delayfs_build
delayfs_depth_mount d "$DELAY_US" "$DEPTH"
MNT=$SCRATCH/mnt-d
start_agent a --root "$MNT"
E=$ENDPOINT

# run NAME KEYS: one job of the agent on the file system, its counts
# reset first; the results in $SCRATCH/NAME (RESULTS), the file system's
# counts after it in $SCRATCH/NAME.fs.
run () {
    cat > "$SCRATCH/$1.ini" <<INI
[global]
settle = 0
[agent a]
endpoint = $E
[job $1]
agent = a
workload = randrw
bs = 4K
$2
INI
    delayfs_reset d
    RESULTS=$SCRATCH/$1
    rm -rf "$RESULTS"
    "$BIN/iofleet" run --no-db "$SCRATCH/$1.ini" -o "$RESULTS" > "$SCRATCH/$1.out" 2>&1 ||
        { cat "$SCRATCH/$1.out"; fail "run $1 failed"; }
    delayfs_stats d > "$SCRATCH/$1.fs"
    echo "$1: file system: $(cat "$SCRATCH/$1.fs")"
}

# check_run NAME DEPTH: what the file system counted is what the agent
# did, it held DEPTH at its peak and nothing is left with it; prints the
# run's requests a second.
check_run () {
    python3 - "$SCRATCH/$1/results.json" "$SCRATCH/$1.fs" "$2" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
fs = dict(kv.split("=") for kv in open(sys.argv[2]).read().split())
fs = {k: int(v) for k, v in fs.items()}
depth = int(sys.argv[3])
s = t["summary"]
assert s["failed_streams"] == 0, s
reads = sum(st["reads"] for st in t["streams"])
assert fs["reads"] == reads and fs["writes"] == 0, ("agent", reads, "file system", fs)
assert fs["peak"] == depth, ("peak in flight at the file system", fs["peak"], "not", depth)
assert fs["in_flight"] == 0, fs
assert s["depth"]["max"] == depth, s["depth"]
rate = s["combined_ops_per_s"]
print("%s: %d reads, %.0f/s, %.0f us p50, depth %.2f on the mean, %d at most, file system peak %d"
      % (t["name"], reads, rate, s["latency"]["read"]["p50_ns"] / 1e3, s["depth"]["mean"],
         s["depth"]["max"], fs["peak"]), file=sys.stderr)
print("%.0f" % rate)
PY
}

rndrd () {   # ENGINE DEPTH SECONDS
    printf 'mode = rndrd\npath = %s/one\nsize = 32M\nfiles = 1\ndirect = yes\n' "$MNT"
    printf 'engine = %s\niodepth = %s\nruntime = %ss\n' "$1" "$2" "$3"
}

# One stream at iodepth 32.
run deep "$(rndrd io_uring $DEPTH 1)"
check_run deep $DEPTH > /dev/null || fail "the depth-$DEPTH run is wrong"

# Exact counts, request-bound, with writes and fsyncs.
counted () {   # ENGINE DEPTH
    printf 'mode = rndrw\npath = %s/f\nsize = 16M\nfiles = 4\nfsync_every = 100\n' "$MNT"
    printf 'streams = 2\nrequests = 4001\nengine = %s\niodepth = %s\n' "$1" "$2"
}
run curing "$(counted io_uring 16)"
run cpsync "$(counted psync 1)"
python3 - "$SCRATCH" <<'PY' || fail "the requests counted are wrong"
import json, sys
def load(name):
    t = json.load(open("%s/%s/results.json" % (sys.argv[1], name)))["tests"][0]
    fs = dict(kv.split("=") for kv in open("%s/%s.fs" % (sys.argv[1], name)).read().split())
    return t, {k: int(v) for k, v in fs.items()}
FILES, EVERY = 4, 100
for name, depth in (("curing", 16), ("cpsync", 1)):
    t, fs = load(name)
    assert t["summary"]["failed_streams"] == 0, t["summary"]
    streams = sorted(t["streams"], key=lambda st: st["index"])
    total = {k: sum(st[k] for st in streams) for k in ("reads", "writes", "fsyncs")}
    print("%s: report %s, file system %s" % (name, total, fs))
    assert total["reads"] + total["writes"] == 4001, total
    for k in ("reads", "writes", "fsyncs"):
        assert fs[k] == total[k], (name, k, "file system", fs[k], "report", total[k])
    for st in streams:
        n = st["reads"] + st["writes"]
        assert n == (2001 if st["index"] == 0 else 2000), (name, st["index"], n)
        # A round after every EVERY requests but the last, and one at the end.
        assert st["fsyncs"] == FILES * ((n - 1) // EVERY) + FILES, (name, n, st["fsyncs"])
        assert st["depth"]["max"] == depth, (name, st["depth"])
    assert fs["peak"] <= 2 * depth and fs["in_flight"] == 0, (name, fs)
uring, _ = load("curing")
psync, _ = load("cpsync")
for a, b in zip(sorted(uring["streams"], key=lambda st: st["index"]),
                sorted(psync["streams"], key=lambda st: st["index"])):
    assert (a["reads"], a["writes"], a["fsyncs"]) == (b["reads"], b["writes"], b["fsyncs"]), (a, b)
PY
echo "ok: $DEPTH requests in flight at the file system and never more; exact counts"
