#!/usr/bin/env bash
# fio job files: `run --check JOB.fio` prints the translation, `run
# JOB.fio --hosts FILE` runs it on every agent of the file, and each agent
# makes as many requests and flushes as fio itself makes of the same
# file on this host (request-bound jobs: random, mixed, numjobs,
# sequential, a sequential mix on psync and io_uring, end_fsync, fsync and
# fdatasync every N writes, in two tests by a stonewall); a time-based
# job with a ramp runs its runtime.
# A mixed job's flush every N writes is the requests that hold N writes.
# Unsupported keys are refused at file:line, and so are the errors of the
# checks after the translation; values per direction (bs=4k,8k) are
# taken where they can be.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || fail "fio is not installed (scripts/deps.sh test)"
start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT
printf 'a1 %s\na2 %s\n' "$E1" "$E2" > "$SCRATCH/hosts"

cat > "$SCRATCH/mix.fio" <<'FIO'
; request-bound jobs of every kind the translation knows
[global]
ioengine=psync
bs=${BS}
size=2m
# one test: these three at once
[rr]
rw=randread
filename=rr.dat
numjobs=2
[rw]
rw=randrw
rwmixread=70
filename=rw.dat
# fio's sequential mix, on both engines
[sq]
rw=rw
rwmixread=60
filename=sq.dat
[squ]
readwrite=readwrite
ioengine=io_uring
iodepth=8
filename=squ.dat
[seqw]
rw=write
[seqr]
stonewall
rw=read
filename=seqw
[rn]
rw=randwrite
filename=rn.dat
number_ios=100
numjobs=3
[ef]
rw=randwrite
filename=ef.dat
number_ios=50
numjobs=2
end_fsync=1
# a flush after every 8 writes: 12 of 100, and 11 of 96 (none after the last)
[fs]
rw=randwrite
filename=fs.dat
number_ios=100
fsync=8
[fd]
rw=randwrite
filename=fd.dat
number_ios=96
numjobs=2
fdatasync=8
FIO
export BS=4k

# --check: the translation, nothing run.
"$BIN/iofleet" run --check "$SCRATCH/mix.fio" > "$SCRATCH/check.ini"
cat "$SCRATCH/check.ini"
grep -qx "mode = rndrd" "$SCRATCH/check.ini" || fail "--check: rw=randread not translated"
grep -qx "requests = 300" "$SCRATCH/check.ini" || fail "--check: number_ios times numjobs"
[ "$(grep -c '^test = rr$' "$SCRATCH/check.ini")" = 5 ] || fail "--check: not one test until the stonewall"
[ "$(grep -c '^access = sequential$' "$SCRATCH/check.ini")" = 2 ] || fail "--check: rw=rw is not sequential"
[ "$(grep -c '^test = seqr$' "$SCRATCH/check.ini")" = 5 ] || fail "--check: the stonewall makes no test"
[ "$(sed -n '/^\[job fd\]/,/^$/{/^fsync_/p}' "$SCRATCH/check.ini" | paste -sd' ')" = \
    "fsync_every = 8 fsync_call = fdatasync fsync_end = no" ] || fail "--check: fdatasync=8 not translated"
[ "$(sed -n '/^\[job fs\]/,/^$/{/^fsync_/p}' "$SCRATCH/check.ini" | paste -sd' ')" = \
    "fsync_every = 8 fsync_end = no" ] || fail "--check: fsync=8 not translated"
# end_fsync: a random job's last flush, which fio's default leaves out.
[ "$(sed -n '/^\[job ef\]/,/^$/{/^fsync_end = /p}' "$SCRATCH/check.ini")" = "fsync_end = yes" ] ||
    fail "--check: end_fsync=1 is not fsync_end = yes"
[ "$(sed -n '/^\[job rn\]/,/^$/{/^fsync_end = /p}' "$SCRATCH/check.ini")" = "fsync_end = no" ] ||
    fail "--check: fio's default end_fsync=0 is not fsync_end = no"
grep -q "event=session" "$SCRATCH/a1.log" && fail "--check reached an agent"

# The run on both agents, then fio itself on the same file.
job_file_beside_fio "$SCRATCH/mix.fio"

python3 - "$RESULTS/results.json" "$SCRATCH/fio.json" <<'PY' || fail "request counts differ from fio's"
import json, sys
ours = json.load(open(sys.argv[1]))
fio = json.load(open(sys.argv[2]))
# Jobs whose streams flush once more at their end: fio's json leaves
# end_fsync's flush out of its sync count (strace sees it), ours counts it.
# fio counts its fdatasyncs in the sync latency's N alone (total_ios
# stays 0), its fsyncs in both.
end_flush = {"ef"}
want = {}
for job in fio["jobs"]:
    name = job["jobname"]
    reads, writes, syncs = want.get(name, (0, 0, 0))
    syncs += job["sync"]["lat_ns"]["N"] + (1 if name in end_flush else 0)
    want[name] = (reads + job["read"]["total_ios"], writes + job["write"]["total_ios"], syncs)
bad = 0
for agent in ("a1", "a2"):
    got = {}
    for test in ours["tests"]:
        for stream in test["streams"]:
            if stream["agent"] != agent:
                continue
            name = stream["job"].rsplit(".", 1)[0]
            reads, writes, syncs = got.get(name, (0, 0, 0))
            got[name] = (reads + stream["reads"], writes + stream["writes"],
                         syncs + stream["fsyncs"])
    for name, counts in sorted(want.items()):
        mine = got.get(name, (0, 0, 0))
        # A mix: fio draws each request's direction, so its split is
        # within noise of the ratio; the total is exact.
        if counts[0] and counts[1]:
            same = sum(mine[:2]) == sum(counts[:2]) and mine[2] == counts[2] \
                   and abs(mine[0] - counts[0]) <= 0.05 * sum(counts[:2])
        else:
            same = mine == counts
        mark = "ok" if same else "DIFFERS"
        bad += mark != "ok"
        print(agent, name, "fio (reads, writes, syncs)", counts, "iofleet", mine, mark)
sys.exit(1 if bad else 0)
PY

# A time-based job with a ramp runs on both agents for its runtime.
cat > "$SCRATCH/timed.fio" <<'FIO'
[timed]
rw=randread
filename=timed.dat
size=1m
runtime=2
ramp_time=1
time_based
FIO
RESULTS=$SCRATCH/timed
start=$(date +%s%N)
"$BIN/iofleet" run "$SCRATCH/timed.fio" --hosts "$SCRATCH/hosts" -o "$RESULTS" -q --no-db \
    > /dev/null 2> "$SCRATCH/timed.err" || { cat "$SCRATCH/timed.err"; fail "the timed run failed"; }
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$elapsed_ms" -ge 2000 ] || fail "a 2 s time-based job took $elapsed_ms ms"
[ "$(json 'sorted(set(s["agent"] for s in r["tests"][0]["streams"] if s["reads"] > 0))')" = "['a1', 'a2']" ] ||
    fail "the timed job did not read on both agents"

# Unsupported keys: refused at their lines, all of them, exit 2.
printf '[j]\nrw=randread\nverify=md5\nioengine=mmap\nsize=1m\n' > "$SCRATCH/bad.fio"
rc=0
"$BIN/iofleet" run "$SCRATCH/bad.fio" --hosts "$SCRATCH/hosts" 2> "$SCRATCH/bad.err" || rc=$?
cat "$SCRATCH/bad.err"
[ "$rc" = 2 ] || fail "unsupported keys: exit $rc, expected 2"
grep -q "bad.fio:3: verify: not supported in a fio job file here" "$SCRATCH/bad.err" || fail "verify not refused at its line"
grep -q "bad.fio:4: ioengine: ioengine = mmap is not supported here; use engine = psync or io_uring" \
    "$SCRATCH/bad.err" || fail "ioengine=mmap not refused at its line"

# fio's values per direction: each job takes its direction's; a mixed job
# with two block sizes is refused with what to do.
printf '[global]\nsize=1m\nbs=4k,8k\nrate_iops=100,50\n[w]\nrw=randwrite\n[r]\nrw=read\n' \
    > "$SCRATCH/dirs.fio"
"$BIN/iofleet" run --check "$SCRATCH/dirs.fio" > "$SCRATCH/dirs.ini"
[ "$(sed -n '/^\[job w\]/,/^$/{/^bs = /p;/^rate_iops = /p}' "$SCRATCH/dirs.ini" | paste -sd' ')" = \
    "bs = 8k rate_iops = 50" ] || fail "a writing job does not take the writes' values"
[ "$(sed -n '/^\[job r\]/,${/^bs = /p;/^rate_iops = /p}' "$SCRATCH/dirs.ini" | paste -sd' ')" = \
    "bs = 4k rate_iops = 100" ] || fail "a reading job does not take the reads' values"
printf '[m]\nrw=randrw\nsize=1m\nbs=4k,8k\n' > "$SCRATCH/mixed.fio"
rc=0
"$BIN/iofleet" run --check "$SCRATCH/mixed.fio" 2> "$SCRATCH/mixed.err" || rc=$?
[ "$rc" = 2 ] && grep -q "mixed.fio:4: bs: 4k,8k: a mixed job here reads and writes blocks of one size" \
    "$SCRATCH/mixed.err" || fail "two block sizes of a mixed job: exit $rc, $(cat "$SCRATCH/mixed.err")"

# A flush every N writes: a mixed job's is the requests that hold N
# writes (10 at 30% writes: 33); a sequential write has none but its
# last, and fsync with fdatasync is one flush too many.
printf '[m]
rw=randrw
rwmixread=70
size=1m
fsync=10
' > "$SCRATCH/mixsync.fio"
"$BIN/iofleet" run --check "$SCRATCH/mixsync.fio" > "$SCRATCH/mixsync.ini"
grep -qx "fsync_every = 33" "$SCRATCH/mixsync.ini" || fail "a mixed job's fsync=10 is not 33 requests"
printf '[w]
rw=write
size=1m
fdatasync=4
[r]
rw=randwrite
size=1m
fsync=4
fdatasync=4
' \
    > "$SCRATCH/badsync.fio"
rc=0
"$BIN/iofleet" run --check "$SCRATCH/badsync.fio" 2> "$SCRATCH/badsync.err" || rc=$?
cat "$SCRATCH/badsync.err"
[ "$rc" = 2 ] || fail "bad flushes: exit $rc, expected 2"
grep -q "badsync.fio:4: fdatasync: 4: a sequential write here flushes only at its end (end_fsync=1)" \
    "$SCRATCH/badsync.err" || fail "a sequential write's fdatasync=4 not refused at its line"
grep -q "badsync.fio:9: fdatasync: give fsync or fdatasync, not both" "$SCRATCH/badsync.err" ||
    fail "fsync with fdatasync not refused"

# What the checks after the translation find is told at the fio file's
# line and key: a block larger than the file (blocksize's line, in an
# include), fio's default block size (the job's header).
printf '; the sizes\nblocksize=8k\n' > "$SCRATCH/sizes.inc"
printf '[global]\nsize=2k\ninclude sizes.inc\n\n[big]\nrw=randread\n[small]\nrw=randwrite\nsize=1k\nblocksize=4k\n' \
    > "$SCRATCH/late.fio"
rc=0
"$BIN/iofleet" run "$SCRATCH/late.fio" --hosts "$SCRATCH/hosts" 2> "$SCRATCH/late.err" || rc=$?
cat "$SCRATCH/late.err"
[ "$rc" = 2 ] || fail "errors of the later checks: exit $rc, expected 2"
grep -q "sizes.inc:2: blocksize: a file of the set holds 2048 bytes" "$SCRATCH/late.err" ||
    fail "the block larger than its file is not told at the include's line"
grep -q "late.fio:10: blocksize: a file of the set holds 1024 bytes" "$SCRATCH/late.err" ||
    fail "the block larger than its file is not told at the job's line"
grep -q "late.fio:[0-9]*: \(workload\|mode\|files\|agent\|test\)" "$SCRATCH/late.err" &&
    fail "an error names a key of the translation"
grep -Eq "late.fio:(1[1-9]|[2-9][0-9])" "$SCRATCH/late.err" && fail "an error points past the file's lines"

# Without agents a fio job file says where they come from.
rc=0
"$BIN/iofleet" run "$SCRATCH/mix.fio" 2> "$SCRATCH/none.err" || rc=$?
[ "$rc" = 2 ] && grep -q "runs on the agents of --hosts FILE" "$SCRATCH/none.err" ||
    fail "a fio job file without agents: exit $rc, $(cat "$SCRATCH/none.err")"
echo ok
