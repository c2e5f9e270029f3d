#!/usr/bin/env bash
# Pacing and access patterns of randrw, with a real agent. rate_iops =
# 500 for 4 s gives 2000 requests a stream, within 2%, and no second of
# the samples holds more than 550 (at a queue depth of 8 on io_uring as
# on psync). zipf:1.2 over a file of 1000 blocks sends at least half of
# the requests to the hottest tenth of the blocks; two runs with one
# randseed issue the same offsets, stream by stream, and another seed
# other ones: the offsets are the pread64 calls the kernel saw (strace).
# access = sequential walks the blocks in order, a stream's reads and its
# writes each from the first block, round again after the last.
# runs alone: paced rates are held to 2% a stream and to a bound a second
. "$(dirname "$0")/lib.sh"

command -v strace > /dev/null || fail "strace is not installed (scripts/deps.sh installs it)"
start_agent a1; A1_PID=${PIDS[-1]}

# job_ini FILE KEYS: one randrw job over one file of 1000 blocks, rndrd
# unless MODE says.
job_ini () {
    cat > "$1" <<INI
[global]
settle = 0
[agent a1]
endpoint = $ENDPOINT
[job j]
agent = a1
workload = randrw
mode = ${MODE:-rndrd}
path = set/f
size = 4000K
files = 1
bs = 4K
keep = yes
$2
INI
}

for engine in "psync
iodepth = 1" "io_uring
iodepth = 8"; do
    job_ini "$SCRATCH/rate.ini" "runtime = 4s
rate_iops = 500
streams = 2
engine = $engine"
    RESULTS=$SCRATCH/rate
    rm -rf "$RESULTS"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/rate.ini" -o "$RESULTS" > "$SCRATCH/rate.out" 2>&1 ||
        { cat "$SCRATCH/rate.out"; fail "paced run failed"; }
    python3 - "$RESULTS" "${engine%%$'\n'*}" <<'PY' || fail "rate_iops = 500 was not kept"
import json, sys
d, engine = sys.argv[1], sys.argv[2]
t = json.load(open(d + "/results.json"))["tests"][0]
reads = [s["reads"] for s in t["streams"]]
peaks = []
for index in range(2):
    points = [json.loads(l) for l in open(d + "/samples.jsonl")]
    points = [p for p in points if p["stream"] == index]
    last, peak = 0, 0
    for p in points:
        peak = max(peak, (p["bytes"] - last) // 4096)
        last = p["bytes"]
    peaks.append(peak)
print("%s: %s requests a stream in 4 s at rate_iops = 500, at most %s in one second"
      % (engine, reads, peaks))
assert all(1960 <= r <= 2040 for r in reads), reads
assert all(p <= 550 for p in peaks), peaks
PY
done

# offsets RUN KEYS: a traced run of 4000 requests over 2 streams; every
# stream's pread64 offsets, one line per stream, in $SCRATCH/RUN.offsets
offsets () {
    local run=$1 out=$SCRATCH/$1.strace
    job_ini "$SCRATCH/$run.ini" "requests = 4000
streams = 2
$2"
    # A file per thread (-ff): no call is split by another's.
    strace -ff -s 0 -e trace=pread64 -o "$out" -p "$A1_PID" 2> "$SCRATCH/$run.log" &
    local strace_pid=$!
    PIDS+=($strace_pid)
    wait_log "$SCRATCH/$run.log" "attached"
    "$BIN/iofleet" run -q --no-db "$SCRATCH/$run.ini" -o "$SCRATCH/r-$run" \
        > "$SCRATCH/$run.out" 2>&1 || { cat "$SCRATCH/$run.out"; fail "run $run failed"; }
    kill -INT "$strace_pid"
    wait "$strace_pid" || true
    python3 - "$out" > "$SCRATCH/$run.offsets" <<'PY'
import glob, re, sys
seqs = []
for name in glob.glob(sys.argv[1] + ".*"):
    seq = [int(m.group(1)) // 4096 for m in
           (re.match(r"pread64\(\d+, .*, 4096, (\d+)\)\s+= 4096", l) for l in open(name)) if m]
    if seq:
        seqs.append(seq)
for seq in sorted(seqs):
    print(" ".join(map(str, seq)))
PY
    [ "$(wc -l < "$SCRATCH/$run.offsets")" = 2 ] || fail "run $run: not two streams traced"
}

offsets zipf "random_distribution = zipf:1.2"
python3 - "$SCRATCH/zipf.offsets" <<'PY' || fail "zipf:1.2 is not skewed enough"
import collections, sys
blocks = [int(b) for line in open(sys.argv[1]) for b in line.split()]
assert len(blocks) == 4000, len(blocks)
counts = sorted(collections.Counter(blocks).values(), reverse=True)
share = sum(counts[:100]) / len(blocks)
print("zipf:1.2: %.1f%% of %d requests on the hottest 100 of 1000 blocks" % (100 * share, len(blocks)))
assert share >= 0.5, share
PY

offsets seed1 "randseed = 7"
offsets seed2 "randseed = 7"
offsets seed3 "randseed = 8"
cmp -s "$SCRATCH/seed1.offsets" "$SCRATCH/seed2.offsets" ||
    fail "two runs with randseed = 7 issued other offsets"
cmp -s "$SCRATCH/seed1.offsets" "$SCRATCH/seed3.offsets" &&
    fail "randseed = 8 issued the offsets of randseed = 7"
[ "$(sed -n 1p "$SCRATCH/seed1.offsets")" != "$(sed -n 2p "$SCRATCH/seed1.offsets")" ] ||
    fail "the two streams of one seed drew the same offsets"
echo "randseed: the same 4000 offsets twice with 7, others with 8"

# access = sequential (fio's rw=rw): 3000 requests a stream, half reads,
# over the 1000 blocks: each stream's reads are blocks 0, 1, 2 ... in
# order, going round after the last, and so are its writes.
MODE=rndrw job_ini "$SCRATCH/seq.ini" "requests = 6000
streams = 2
rwratio = 1
access = sequential"
strace -ff -s 0 -e trace=pread64,pwrite64 -o "$SCRATCH/seq.strace" -p "$A1_PID" \
    2> "$SCRATCH/seq.log" &
strace_pid=$!
PIDS+=($strace_pid)
wait_log "$SCRATCH/seq.log" "attached"
"$BIN/iofleet" run -q --no-db "$SCRATCH/seq.ini" -o "$SCRATCH/r-seq" > "$SCRATCH/seq.out" 2>&1 ||
    { cat "$SCRATCH/seq.out"; fail "the sequential run failed"; }
kill -INT "$strace_pid"
wait "$strace_pid" || true
python3 - "$SCRATCH/seq.strace" <<'PY' || fail "access = sequential did not walk the blocks in order"
import glob, re, sys
walks = 0
for name in glob.glob(sys.argv[1] + ".*"):
    seen = {"pread64": [], "pwrite64": []}
    for line in open(name):
        m = re.match(r"(pread64|pwrite64)\(\d+, .*, 4096, (\d+)\)\s+= 4096", line)
        if m:
            seen[m.group(1)].append(int(m.group(2)) // 4096)
    if not seen["pread64"] and not seen["pwrite64"]:
        continue
    walks += 1
    for call, blocks in seen.items():
        assert len(blocks) == 1500, (name, call, len(blocks))
        assert blocks == [i % 1000 for i in range(1500)], (name, call, blocks[:20])
print("access = sequential: %d streams, 1500 reads and 1500 writes each, blocks in order "
      "from 0, round again after 999" % walks)
assert walks == 2, walks
PY
