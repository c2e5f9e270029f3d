#!/usr/bin/env bash
# The results directory is the run's own and what cannot be written in it
# fails the run:
#   - on a file system that fills up, samples.jsonl goes back to the whole
#     tests before and the reports are still written; the run prints its
#     report, says what is missing and what is complete, and exits 1;
#   - on one too small for anything, every file is named, and exit 1;
#   - a --json copy into a missing directory: named, exit 1;
#   - two runs started at once with the default directory get one each;
#   - -o naming a directory with another run's results is refused before
#     any agent hears of the run (exit 2).
. "$(dirname "$0")/lib.sh"

start_agent a1; E1=$ENDPOINT
start_agent a2; E2=$ENDPOINT

# scenario AGENT ENDPOINT [small]: a short test with few samples, then
# (unless "small") one with many: 24 streams, samples 10 ms apart, for
# about four seconds.
scenario () {
    cat <<INI
[global]
interval = 10ms
bs = 64K
settle = 0
[agent $1]
endpoint = $2
[job small]
agent = $1
path = s
size = 2M
rate = 8M
INI
    # 1M requests: 16 a stream, so that the latency histograms in the
    # reports have few buckets whatever the spread (64K ones gave them
    # 110 to 280 kB, as the host was quiet or loaded).
    [ "${3:-}" = small ] ||
        printf '[job many]\nagent = %s\npath = m\nsize = 16M\nrate = 4M\nbs = 1M\nstreams = 24\n' "$1"
}
scenario a1 "$E1" > "$SCRATCH/fill.ini"
scenario a1 "$E1" small > "$SCRATCH/short.ini"

# A tmpfs that holds the reports but not the samples of the second test
# (written before the reports). Their sizes vary with the latency
# histograms (results.json keeps each 10 ms interval's), so a first run
# into a plain directory measures them: the reports, the first test's
# samples and some slack (the first test's own reports, replaced) must
# fit; those samples and the second test's must not. The tmpfs is sized
# half way.
"$BIN/iofleet" run "$SCRATCH/fill.ini" -o "$SCRATCH/sizes" -q --no-db > /dev/null 2>&1 ||
    fail "the run that measures the files failed"
size=$(python3 - "$SCRATCH/sizes" <<'PY'
import json, os, sys
d = sys.argv[1]
sizes = {f: os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)}
first = sum(len(line) for line in open(d + "/samples.jsonl", "rb")
            if json.loads(line)["test"] == "small")
reports = sum(v for f, v in sizes.items() if f != "samples.jsonl")
low = first + reports + 64 * 1024
high = sizes["samples.jsonl"]
assert low < high, "the reports (%d bytes) do not fit beside what the samples leave (%d)" % (low, high)
print((low + high) // 2 // 4096 * 4096)
PY
) || fail "the scenario cannot fill a file system on its samples alone"
echo "tmpfs for the full file system: $size bytes"
mkdir -p "$SCRATCH/small"
mount -t tmpfs -o size="$size" tmpfs "$SCRATCH/small" || fail "cannot mount a tmpfs (root needed)"
MOUNTS+=("$SCRATCH/small")
rc=0
"$BIN/iofleet" run "$SCRATCH/fill.ini" -o "$SCRATCH/small" -q > "$SCRATCH/fill.txt" \
    2> "$SCRATCH/fill.err" || rc=$?
cat "$SCRATCH/fill.err"
[ "$rc" = 1 ] || fail "results that could not be written: exit $rc, expected 1"
grep -q "^many " "$SCRATCH/fill.txt" || fail "the report is not on stdout"
grep -q "^iofleet: results: samples.jsonl could not be written: write(.*samples.jsonl): No space left on device; it holds the samples of 1 of 2 tests$" \
    "$SCRATCH/fill.err" || fail "the missing samples are not named with what the file holds"
grep -q "^iofleet: results: complete: scenario.ini, report.txt, results.json, report.csv, report.html$" \
    "$SCRATCH/fill.err" || fail "the complete files are not named"
python3 - "$SCRATCH/small" <<'PY' || fail "samples.jsonl is not the first test's whole samples"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
assert [t["name"] for t in r["tests"]] == ["small", "many"], r["tests"]
lines = [json.loads(line) for line in open(d + "/samples.jsonl")]
assert lines and all(l["test"] == "small" for l in lines), "samples of another test"
assert len(lines) == r["tests"][0]["streams"][0]["samples"], (len(lines), r["tests"][0]["streams"][0]["samples"])
print("full: samples of 'small' kept whole (%d lines), results.json has both tests" % len(lines))
PY
ls -a "$SCRATCH/small" | grep -q '\.tmp$' && fail "a temporary file was left behind"
"$BIN/iofleet" report "$SCRATCH/small/results.json" > "$SCRATCH/again.txt" ||
    fail "the results written on a full file system do not read back"
umount "$SCRATCH/small"

# Too small for anything past the scenario: each file named.
mount -t tmpfs -o size=4k tmpfs "$SCRATCH/small" || fail "cannot mount a tmpfs"
rc=0
"$BIN/iofleet" run "$SCRATCH/short.ini" -o "$SCRATCH/small" -q > "$SCRATCH/tiny.txt" \
    2> "$SCRATCH/tiny.err" || rc=$?
cat "$SCRATCH/tiny.err"
[ "$rc" = 1 ] || fail "nothing written: exit $rc, expected 1"
grep -q "^small " "$SCRATCH/tiny.txt" || fail "nothing written: the report is not on stdout"
for f in report.txt results.json report.csv report.html; do
    grep -q "^iofleet: results: $f could not be written: .*No space left on device; it is missing$" \
        "$SCRATCH/tiny.err" || fail "$f is not said to be missing"
done
grep -q "^iofleet: results: complete: scenario.ini$" "$SCRATCH/tiny.err" ||
    fail "nothing written: the complete files are not named"
umount "$SCRATCH/small"
MOUNTS=()

# The archive beside results on a full disk: it never calls the results
# directory complete (the run says at its end what it could not write).
# Room for nothing past the scenario (the archive fails as it opens), and
# for the first test's results but not the second's (it fails recording
# the first).
archive_failed=0
for case in 4:short 128:fill; do
    size=${case%:*}
    mount -t tmpfs -o size=${size}k tmpfs "$SCRATCH/small" || fail "cannot mount a tmpfs"
    MOUNTS=("$SCRATCH/small")
    rc=0
    "$BIN/iofleet" run "$SCRATCH/${case#*:}.ini" -o "$SCRATCH/small/run" -q > /dev/null \
        2> "$SCRATCH/beside.err" || rc=$?
    if grep -q "could not be written" "$SCRATCH/beside.err"; then
        [ "$rc" = 1 ] || fail "${size}k: results incomplete, exit $rc"
        ! grep -q "results directory is complete" "$SCRATCH/beside.err" ||
            { cat "$SCRATCH/beside.err" >&2; fail "${size}k: the archive calls incomplete results complete"; }
        grep -q "the run goes on without the archive" "$SCRATCH/beside.err" && archive_failed=$((archive_failed + 1))
    fi
    umount "$SCRATCH/small"
    MOUNTS=()
done
[ "$archive_failed" = 2 ] || fail "the archive did not fail beside incomplete results in both cases"

# --json into a directory that does not exist.
rc=0
"$BIN/iofleet" run "$SCRATCH/short.ini" -o "$SCRATCH/withcopy" --json "$SCRATCH/missing/x.json" -q \
    > "$SCRATCH/copy.txt" 2> "$SCRATCH/copy.err" || rc=$?
cat "$SCRATCH/copy.err"
[ "$rc" = 1 ] || fail "--json into a missing directory: exit $rc, expected 1"
grep -q "^iofleet: results: $SCRATCH/missing/x.json could not be written: open($SCRATCH/missing/x.json.tmp): No such file or directory; it is missing$" \
    "$SCRATCH/copy.err" || fail "the --json copy is not named as missing"
grep -q "^iofleet: results: complete: scenario.ini, samples.jsonl, report.txt, results.json, report.csv, report.html$" \
    "$SCRATCH/copy.err" || fail "--json: the complete files are not named"

# -o naming another run's results: refused, and no agent hears of it.
sessions=$(grep -c "event=session " "$SCRATCH/a1.log")
rc=0
"$BIN/iofleet" run "$SCRATCH/fill.ini" -o "$SCRATCH/withcopy" -q > /dev/null 2> "$SCRATCH/again.err" || rc=$?
cat "$SCRATCH/again.err"
[ "$rc" = 2 ] || fail "-o with another run's results: exit $rc, expected 2"
grep -q "^iofleet: -o $SCRATCH/withcopy: holds the results of another run" "$SCRATCH/again.err" ||
    fail "-o with another run's results: no reason given"
[ "$(grep -c "event=session " "$SCRATCH/a1.log")" = "$sessions" ] ||
    fail "-o with another run's results: the agent was contacted"

# -o that cannot be made (an empty path, /proc/self/x, a file on the way,
# a read-only directory): refused before any agent hears of the run.
mkdir "$SCRATCH/readonly"
if [ "$(id -u)" = 0 ]; then
    mount -t tmpfs -o ro,size=1m tmpfs "$SCRATCH/readonly" || fail "cannot mount a read-only tmpfs"
    MOUNTS+=("$SCRATCH/readonly")
else
    chmod 555 "$SCRATCH/readonly"
fi
touch "$SCRATCH/plainfile"
for out in "" /proc/self/x "$SCRATCH/plainfile/x" "$SCRATCH/readonly/x/y"; do
    rc=0
    "$BIN/iofleet" run "$SCRATCH/fill.ini" -o "$out" -q > /dev/null 2> "$SCRATCH/unmakeable.err" || rc=$?
    [ "$rc" = 2 ] && grep -q "^iofleet: -o " "$SCRATCH/unmakeable.err" ||
        { cat "$SCRATCH/unmakeable.err"; fail "-o '$out': exit $rc, expected 2 and a reason"; }
    [ "$(grep -c "event=session " "$SCRATCH/a1.log")" = "$sessions" ] ||
        fail "-o '$out': the agent was contacted"
done
grep -Eq "cannot make a directory in $SCRATCH/readonly: (Read-only file system|Permission denied)" \
    "$SCRATCH/unmakeable.err" || fail "a read-only parent: no reason given"
[ ! -e "$SCRATCH/readonly/x" ] || fail "a refused -o left a directory"

# Two runs at once, each on its own agent, with the default directory and
# scenarios of one name: two directories, each with its own scenario. A
# second may tick between the two: then try again, until both fell in one.
mkdir -p "$SCRATCH/cwd" "$SCRATCH/one" "$SCRATCH/two"
printf '[agent a1]\nendpoint = %s\n[job one]\nagent = a1\npath = one\nsize = 1M\n' "$E1" > "$SCRATCH/one/same.ini"
printf '[agent a2]\nendpoint = %s\n[job two]\nagent = a2\npath = two\nsize = 1M\n' "$E2" > "$SCRATCH/two/same.ini"
cd "$SCRATCH/cwd"
for try in 1 2 3 4 5; do
    rm -rf results
    "$BIN/iofleet" run "$SCRATCH/one/same.ini" -q > /dev/null 2> "$SCRATCH/one.err" &
    one=$!
    "$BIN/iofleet" run "$SCRATCH/two/same.ini" -q > /dev/null 2> "$SCRATCH/two.err" &
    two=$!
    PIDS+=("$one" "$two")
    wait "$one" || fail "the first of two runs failed: $(cat "$SCRATCH/one.err")"
    wait "$two" || fail "the second of two runs failed: $(cat "$SCRATCH/two.err")"
    dir_one=$(sed -n 's/^iofleet: results in //p' "$SCRATCH/one.err")
    dir_two=$(sed -n 's/^iofleet: results in //p' "$SCRATCH/two.err")
    [ "${dir_one:0:28}" = "${dir_two:0:28}" ] && break
done
echo "two runs: $dir_one and $dir_two"
[ "${dir_one:0:28}" = "${dir_two:0:28}" ] || fail "five pairs of runs never started in one second"
[ "$dir_one" != "$dir_two" ] || fail "two runs share the results directory $dir_one"
[ "$(ls -d results/same-* | wc -l)" = 2 ] || fail "not two directories: $(ls results)"
grep -q "^\[job one\]" "$dir_one/scenario.ini" && ! grep -q "^\[job two\]" "$dir_one/scenario.ini" ||
    fail "$dir_one does not hold the first run's scenario alone"
grep -q "^\[job two\]" "$dir_two/scenario.ini" && ! grep -q "^\[job one\]" "$dir_two/scenario.ini" ||
    fail "$dir_two does not hold the second run's scenario alone"
python3 - "$dir_one/results.json" "$dir_two/results.json" <<'PY' || fail "the two runs' results are mixed"
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:])
assert [t["name"] for t in one["tests"]] == ["one"], one["tests"]
assert [t["name"] for t in two["tests"]] == ["two"], two["tests"]
PY
echo "results directory: ok"
