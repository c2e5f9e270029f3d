#!/usr/bin/env bash
# randrw on two agents, beside sysbench fileio on the same disk in the
# same run. A request-bound job does exactly its requests, split among
# its streams, in the read share asked (rwratio, or read_pct), and an
# fsync round over the set after every fsync_every requests of a stream
# that another follows (none after its last), plus a last one over the
# files the stream wrote; the system calls the agent made (strace) are
# those it counted, fdatasync where fsync_call says so. rndrd reads only
# and flushes nothing, rndwr writes only. Reads/s and writes/s are of
# sysbench's order on the same file set shape (the ratio is printed; the
# bound is broad, the machine is shared). Every latency percentile is there, in
# order, and counts every request. A set is laid out once, used again by
# the next test that asks for it, and removed when the run is over,
# unless keep. rwratio and read_pct together are refused with
# file:line: key, and nothing starts. A test whose streams spent most of
# their windows outside their requests is warned of with the share
# measured (recomputed here from each stream's busy time and window) and
# the reason: writes with an fsync round after each (fsync_every = 1)
# are the fsyncs' time, and no other test here is warned of so.
# runs alone: it runs beside sysbench on the same disk and holds the rates against its
. "$(dirname "$0")/lib.sh"

command -v sysbench > /dev/null || fail "sysbench is not installed (scripts/deps.sh installs it)"
command -v strace > /dev/null || fail "strace is not installed (scripts/deps.sh installs it)"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT; A2_PID=${PIDS[-1]}
REQUESTS=32000

# sysbench on a set of the same shape, before and after iofleet's.
mkdir "$SCRATCH/sb"
sysbench_run () {   # output file
    (cd "$SCRATCH/sb" && sysbench fileio --file-total-size=64M --file-num=16 \
        --file-test-mode=rndrw --threads=16 --events=$REQUESTS --time=0 run) > "$1" 2>&1 ||
        { cat "$1"; fail "sysbench fileio run failed"; }
}
(cd "$SCRATCH/sb" && sysbench fileio --file-total-size=64M --file-num=16 prepare) \
    > "$SCRATCH/sb-prepare.txt" 2>&1 || { cat "$SCRATCH/sb-prepare.txt"; fail "sysbench prepare failed"; }
sysbench_run "$SCRATCH/sb-before.txt"

# Every read, write, fsync and fdatasync call of a2, counted by the
# kernel's side.
strace -f -c -e trace=pread64,pwrite64,fsync,fdatasync -o "$SCRATCH/strace.txt" -p "$A2_PID" \
    2> "$SCRATCH/strace.log" &
STRACE_PID=$!
PIDS+=($STRACE_PID)
wait_log "$SCRATCH/strace.log" "attached"

cat > "$SCRATCH/randrw.ini" <<INI
[global]
settle = 0

[agent a1]
endpoint = $E1
[agent a2]
endpoint = $E2

; sysbench's test: 16 threads over 16 files of 4M, 16K blocks, 1.5 reads
; per write, fsync every 100 requests of a thread and at the end.
[job rr]
agent = a1
workload = randrw
path = set/f
size = 64M
files = 16
streams = 16
requests = $REQUESTS
; The same set again: laid out already.
[job again]
agent = a1
workload = randrw
path = set/f
size = 64M
files = 16
streams = 16
requests = 8000

; Both hosts at once, other ratios; a2's counted by strace.
[job pair1]
test = pair
agent = a1
workload = randrw
path = p/f
size = 16M
files = 8
streams = 8
requests = 4003
rwratio = 3
fsync_every = 50
[job pair2]
test = pair
agent = a2
workload = randrw
path = p/f
size = 16M
files = 8
streams = 8
requests = 4003
read_pct = 30
fsync_every = 50

[job rd]
agent = a2
workload = randrw
path = m/f
size = 16M
files = 8
streams = 4
requests = 2000
mode = rndrd
[job wr]
agent = a2
workload = randrw
path = m/f
size = 16M
files = 8
streams = 4
requests = 2000
mode = rndwr
fsync_every = 64
fsync_call = fdatasync

; A write, then an fsync round over the set, 200 times a stream: the
; fsyncs take the window.
[job fsyncs]
agent = a2
workload = randrw
path = fs/f
size = 1M
files = 2
streams = 2
requests = 400
mode = rndwr
fsync_every = 1

[job kept]
agent = a2
workload = randrw
path = k/f
size = 4M
files = 4
streams = 2
requests = 400
keep = yes
INI
RESULTS=$SCRATCH/r
"$BIN/iofleet" run -q --no-db "$SCRATCH/randrw.ini" -o "$RESULTS" > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "run failed"; }
cat "$SCRATCH/out"
kill -INT "$STRACE_PID"
wait "$STRACE_PID" || true
cat "$SCRATCH/strace.txt"
sysbench_run "$SCRATCH/sb-after.txt"
grep -E "reads/s|writes/s|fsyncs/s|total time|events:" "$SCRATCH/sb-before.txt" "$SCRATCH/sb-after.txt"

python3 - "$RESULTS/results.json" "$SCRATCH" <<'PY' || fail "randrw figures are wrong"
import json, re, sys
r = json.load(open(sys.argv[1]))
scratch = sys.argv[2]
by = {t["name"]: t for t in r["tests"]}
assert sorted(by) == ["again", "fsyncs", "kept", "pair", "rd", "rr", "wr"], sorted(by)
ONE = 1000000

def reads_of(n, ratio):   # round (n r / (1 + r)), r in millionths, halves up
    period = ONE + ratio
    return (n * ratio + period // 2) // period

def check_job(t, job, requests, streams, files, ratio, fsync_every, mode="rndrw"):
    ss = sorted((s for s in t["streams"] if s["job"] == job), key=lambda s: s["index"])
    assert len(ss) == streams, (job, len(ss))
    total = 0
    for s in ss:
        assert s["error"] == "" and s["finished"], (job, s["error"])
        n = s["reads"] + s["writes"]
        share = requests // streams + (1 if s["index"] < requests % streams else 0)
        assert n == share, (job, s["index"], n, share)
        total += n
        if mode == "rndrd":
            assert (s["writes"], s["fsyncs"]) == (0, 0), (job, s)
        elif mode == "rndwr":
            assert s["reads"] == 0, (job, s)
        else:
            assert s["reads"] == reads_of(n, ratio), (job, s["index"], s["reads"], n, ratio)
        if mode != "rndrd":
            # A round of every file after every fsync_every requests that
            # another follows, and one more of every file the stream
            # wrote: some hundred writes over a few files leave none
            # unwritten.
            rounds = (n - 1) // fsync_every if fsync_every else 0
            assert s["fsyncs"] == files * rounds + files, (job, s["index"], s["fsyncs"], rounds)
        assert s["bytes"] == n * s["bs_bytes"], (job, s)
        lat = s["latency"]
        for kind, count in (("read", s["reads"]), ("write", s["writes"]), ("fsync", s["fsyncs"])):
            got = lat[kind]["count"] if kind in lat else 0
            assert got == count, (job, s["index"], kind, got, count)
    assert total == requests, (job, total, requests)
    return ss

check_job(by["rr"], "rr", 32000, 16, 16, 1500000, 100)
check_job(by["again"], "again", 8000, 16, 16, 1500000, 100)
check_job(by["pair"], "pair1", 4003, 8, 8, 3000000, 50)
# read_pct = 30: 30 / 70 reads per write, in millionths, rounded.
check_job(by["pair"], "pair2", 4003, 8, 8, (30 * ONE + 35) // 70, 50)
check_job(by["rd"], "rd", 2000, 4, 8, 0, 0, "rndrd")
check_job(by["wr"], "wr", 2000, 4, 8, 0, 64, "rndwr")
check_job(by["kept"], "kept", 400, 2, 4, 1500000, 100)
check_job(by["fsyncs"], "fsyncs", 400, 2, 2, 0, 1, "rndwr")
for t in by.values():
    assert t["bound"] == "requests", (t["name"], t["bound"])
assert sorted(s["agent"] for s in by["pair"]["streams"]).count("a2") == 8

# Laid out once: the second test asking for the set writes nothing.
M = 1 << 20
laid = {n: by[n]["laid_out_bytes"] for n in by}
assert laid == {"rr": 64 * M, "again": 0, "pair": 2 * 16 * M, "rd": 16 * M, "wr": 0,
                "kept": 4 * M, "fsyncs": 1 * M}, laid

# Time outside the requests: each stream's busy time (its reads' and
# writes' latencies summed, from their histograms; at most its window)
# over its window, summed; under half is warned of, with the share, and
# the fsyncs named when they took most of the rest.
def busy_ns(s):
    return sum((k["sum_ns"][0] << 64) + k["sum_ns"][1]
               for kind, k in s["latency"].items() if kind in ("read", "write"))
for t in by.values():
    ss = t["streams"]
    window = sum(s["end_ns"] - s["start_ns"] for s in ss)
    busy = sum(min(busy_ns(s), s["end_ns"] - s["start_ns"]) for s in ss)
    assert all(busy_ns(s) > 0 for s in ss), t["name"]
    share = 100.0 * busy / window
    fsync = t["summary"]["latency"].get("fsync", {"count": 0, "mean_ns": 0})
    fsync_share = 100.0 * fsync["count"] * fsync["mean_ns"] / window
    said = [w for w in t["warnings"] if w["kind"] == "outside"]
    print("%s: %.1f%% of the windows in requests, %.1f%% in fsyncs; %s"
          % (t["name"], share, fsync_share, said[0]["text"] if said else "no warning"))
    if t["name"] == "fsyncs":
        assert share < 50 and fsync_share > 50, (share, fsync_share)
    if share >= 50:
        assert not said, (t["name"], said)
        continue
    assert len(said) == 1, (t["name"], t["warnings"])
    if fsync_share >= (100 - share) / 2:
        m = re.match(r"its streams spent ([0-9.]+)% of their windows in their requests and "
                     r"([0-9]+)% in their fsyncs \((\d+) streams\): the requests/s counts the "
                     r"fsyncs' time", said[0]["text"])
    else:
        m = re.match(r"its streams spent ([0-9.]+)% of their windows in their requests "
                     r"\((\d+) streams; ([0-9]+)% in fsyncs\): the rest went between requests",
                     said[0]["text"])
        m = m and type("m", (), {"group": lambda self, k, g=m.group: g({1: 1, 2: 3, 3: 2}[k])})()
    assert m, (t["name"], share, fsync_share, said[0]["text"])
    decimals = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    assert abs(float(m.group(1)) - share) <= 0.5 * 10 ** -decimals + 1e-9, (m.group(1), share)
    assert abs(int(m.group(2)) - min(fsync_share, 100)) <= 0.5 + 1e-9, (m.group(2), fsync_share)
    assert int(m.group(3)) == len(ss), (m.group(3), len(ss))

# Every set here is buffered and far below twice the memory: the page
# cache can hold it, and each machine of each test is told so, once, in
# the name of its first agent (agents of one boot id share one cache).
for t in by.values():
    machines = {}
    for h in t["hosts"]:
        if any(s["agent"] == h["agent"] for s in t["streams"]):
            machines.setdefault(h["boot_id"] or h["agent"], h["agent"])
    said = sorted(w["agent"] for w in t["warnings"]
                  if w["kind"] == "cache" and "a file set of" in w["text"])
    assert said == sorted(machines.values()), (t["name"], said, machines)

# Latency: every percentile there, in order, counting every request.
for t in by.values():
    lat = t["summary"]["latency"]
    ss = t["streams"]
    want = {"read": sum(s["reads"] for s in ss), "write": sum(s["writes"] for s in ss),
            "fsync": sum(s["fsyncs"] for s in ss)}
    want["requests"] = want["read"] + want["write"]
    for kind, count in want.items():
        if count == 0:
            assert kind not in lat or lat[kind]["count"] == 0, (t["name"], kind)
            continue
        l = lat[kind]
        order = [l[k] for k in ("min_ns", "p50_ns", "p95_ns", "p99_ns", "p999_ns", "max_ns")]
        assert l["count"] == count, (t["name"], kind, l["count"], count)
        assert 0 < order[0] and order == sorted(order), (t["name"], kind, order)
        assert l["min_ns"] <= l["mean_ns"] <= l["max_ns"], (t["name"], kind, l)
    assert t["summary"]["latency_p99_ns"] == lat["requests"]["p99_ns"], t["name"]

# a2's system calls are those it counted, and the layouts' (bs at a time).
calls = {}
for line in open(scratch + "/strace.txt"):
    f = line.split()
    if len(f) >= 5 and f[-1] in ("pread64", "pwrite64", "fsync", "fdatasync"):
        calls[f[-1]] = int(f[3])
a2 = [s for t in by.values() for s in t["streams"] if s["agent"] == "a2"]
layout_writes = sum(by[n]["laid_out_bytes"] // (16 * 1024) for n in ("rd", "kept", "fsyncs")) \
              + 16 * M // (16 * 1024)
# A file laid out is fdatasync'd once: pair2's 8, rd's 8 (wr's too),
# kept's 4, fsyncs' 2. wr flushes with fdatasync (fsync_call), the
# others fsync.
layout_syncs = 8 + 8 + 4 + 2
counted = {"pread64": sum(s["reads"] for s in a2),
           "pwrite64": sum(s["writes"] for s in a2) + layout_writes,
           "fsync": sum(s["fsyncs"] for s in a2 if s["job"] != "wr"),
           "fdatasync": sum(s["fsyncs"] for s in a2 if s["job"] == "wr") + layout_syncs}
print("a2 system calls (strace):", calls, "counted:", counted)
assert calls == counted, (calls, counted)

# Beside sysbench, on the coordinator's window as sysbench's total time.
def ours(t, field):
    ss = t["streams"]
    window = (max(s["end_ns"] for s in ss) - min(s["start_ns"] for s in ss)) / 1e9
    return sum(s[field] for s in ss) / window
def sysbench(field):
    vals = []
    for name in ("before", "after"):
        text = open("%s/sb-%s.txt" % (scratch, name)).read()
        vals.append(float(re.search(r"%s/s:\s+([0-9.]+)" % field, text).group(1)))
    return sum(vals) / len(vals)
for field, ours_field in (("reads", "reads"), ("writes", "writes")):
    a, b = ours(by["rr"], ours_field), sysbench(field)
    print("rr %s/s: iofleet %.0f, sysbench %.0f, ratio %.2f" % (field, a, b, a / b))
    assert 0.2 < a / b < 5, (field, a, b)
PY

# The run is over: its sets are gone, the kept one stays.
for f in "$SCRATCH"/a1/set/f.1 "$SCRATCH"/a1/p/f.1 "$SCRATCH"/a2/p/f.1 "$SCRATCH"/a2/m/f.1; do
    [ ! -e "$f" ] || fail "$f is still there after the run"
done
for i in 1 2 3 4; do
    [ "$(stat -c %s "$SCRATCH/a2/k/f.$i")" = 1048576 ] || fail "kept file k/f.$i is not 1M"
done

# report.csv, as Python's csv module reads it: every column named, and a
# randrw row carries its requests per second and its latency, the same
# figures as results.json.
python3 - "$RESULTS" <<'PY' || fail "report.csv lacks randrw's figures"
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
rows = list(csv.DictReader(open(d + "/report.csv", newline="")))
assert rows and all(name for name in rows[0]), "a column without a name"
streams = {(t["name"], t["iteration"], s["agent"], s["job"], s["index"]): s
           for t in r["tests"] for s in t["streams"]}
checked = 0
for row in rows:
    s = streams[(row["name"], int(row["iteration"]), row["agent"], row["job"], int(row["stream"]))]
    if row["workload"] != "randrw" or not s["finished"] or s["error"]:
        continue
    window = (s["end_ns"] - s["start_ns"]) / 1e9
    for kind in ("reads", "writes", "fsyncs"):
        assert abs(float(row[kind + "_per_s"]) - s[kind] / window) <= 1e-6 * max(1, s[kind] / window), kind
    assert int(row["requests_latency_count"]) == s["reads"] + s["writes"], row["requests_latency_count"]
    assert 0 < int(row["requests_latency_p50_ns"]) <= int(row["requests_latency_p99_ns"]) \
           <= int(row["requests_latency_max_ns"])
    assert row["agent_kernel"] and row["agent_hostname"], "no kernel or host on the row"
    checked += 1
assert checked, "no randrw row was checked"
print("csv: %d randrw rows carry reads/s, writes/s, fsyncs/s and their latency" % checked)
PY

# rwratio and read_pct together: refused at parse, file:line: key.
cat > "$SCRATCH/bad.ini" <<INI
[agent a1]
endpoint = $E1
[job both]
agent = a1
workload = randrw
path = bad/f
size = 1M
files = 4
rwratio = 2
read_pct = 60
INI
rc=0
"$BIN/iofleet" run -q --no-db "$SCRATCH/bad.ini" -o "$SCRATCH/bad" > "$SCRATCH/bad.txt" 2>&1 || rc=$?
cat "$SCRATCH/bad.txt"
[ "$rc" = 2 ] || fail "rwratio with read_pct: exit $rc, not 2"
grep -q "bad.ini:10: read_pct: give rwratio (reads per write, as sysbench) or read_pct" \
    "$SCRATCH/bad.txt" || fail "rwratio with read_pct: no file:line: key message"
[ ! -e "$SCRATCH/a1/bad" ] || fail "a refused scenario created files"
echo "t0450 ok"
