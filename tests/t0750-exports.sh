#!/usr/bin/env bash
# Results in other tools' own formats, read by those tools, from one real
# run of two agents on loopback (a randrw test and a bonnie test, twice):
#   - `iofleet report --format fio-json` is read by fio's own
#     fio_jsonplus_clat2csv, which validates it; a job per host and
#     stream, its requests those of results.json; the percentiles the
#     tool computes from our bins are ours within one histogram bucket,
#     for every job and for "All clients", whose percentiles are the
#     test's own (results.json's summary);
#   - `iofleet report --format bonnie-csv` is read by bonnie++'s
#     bon_csv2txt and bon_csv2html without a complaint, a line per host
#     and run with the figures of the text report's bonnie++ lines, and
#     both print them.
. "$(dirname "$0")/lib.sh"

for tool in fio_jsonplus_clat2csv bon_csv2txt bon_csv2html; do
    command -v "$tool" > /dev/null || fail "$tool is not installed (make deps-test)"
done

{
    printf '[global]\nsettle = 0\niterations = 2\n'
    for a in a1 a2; do
        start_agent "$a"
        printf '[agent %s]\nendpoint = %s\n' "$a" "$ENDPOINT"
        printf '[job rnd-%s]\ntest = rnd\nagent = %s\nworkload = randrw\npath = set/f\n' "$a" "$a"
        printf 'size = 4M\nfiles = 4\nstreams = 2\nrequests = 3000\nfsync_every = 100\n'
        printf '[job bon-%s]\ntest = bon\nagent = %s\nworkload = bonnie\npath = bon\n' "$a" "$a"
        printf 'size = 4M\nseeks = 1000\n'
    done
} > "$SCRATCH/exports.ini"

RESULTS=$SCRATCH/results
rc=0
timeout 120 "$BIN/iofleet" run "$SCRATCH/exports.ini" -o "$RESULTS" > "$SCRATCH/stdout.txt" || rc=$?
[ "$rc" = 0 ] || { cat "$SCRATCH/stdout.txt"; fail "iofleet run exited $rc"; }

# fio's json+
"$BIN/iofleet" report "$RESULTS/results.json" --format fio-json > "$SCRATCH/fio.json" ||
    fail "iofleet report --format fio-json exited $?"
mkdir "$SCRATCH/csv" "$SCRATCH/all"
(cd "$SCRATCH/csv" && fio_jsonplus_clat2csv ../fio.json lat.csv > ../clat2csv.out) ||
    fail "fio_jsonplus_clat2csv does not read our json+"
(cd "$SCRATCH/csv" && fio_jsonplus_clat2csv ../fio.json lat.csv --validate > ../validate.out) ||
    fail "fio_jsonplus_clat2csv --validate refuses our json+"
# Its reader reads "jobs" only: the "All clients" entries are given to it
# as the jobs of a file of their own.
python3 - "$SCRATCH/fio.json" "$SCRATCH/all.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"] = [j for j in d["client_stats"] if j["jobname"] == "All clients"]
json.dump(d, open(sys.argv[2], "w"))
PY
(cd "$SCRATCH/all" && fio_jsonplus_clat2csv ../all.json lat.csv > /dev/null &&
    fio_jsonplus_clat2csv ../all.json lat.csv --validate > /dev/null) ||
    fail "fio_jsonplus_clat2csv does not read our All clients"

python3 - "$RESULTS/results.json" "$SCRATCH/fio.json" "$SCRATCH/csv" "$SCRATCH/all" <<'PY' ||
import csv, json, sys
results = json.load(open(sys.argv[1]))
fio = json.load(open(sys.argv[2]))

def bucket(v):          # proto/histogram.h, layout 1
    v = int(v)
    if v < 128:
        return max(v, 0)
    if v >= 1 << 37:
        return 2047
    shift = v.bit_length() - 1 - 6
    return (shift << 6) + (v >> shift)

def check_percentiles(job, rows, where):
    """fio's tool's cumulative share, at our percentiles, lands in our bucket."""
    checked = 0
    for ddir in ("read", "write"):
        clat = job[ddir]["clat_ns"]
        if clat["N"] == 0:
            continue
        column = ddir + "_clat_ns_percentile"
        points = [(int(r["nsec"]), float(r[column])) for r in rows if r[column].strip()]
        assert len(points) == len(clat["bins"]), (where, ddir, len(points), len(clat["bins"]))
        for key, ours in clat["percentile"].items():
            theirs = next(ns for ns, share in points if share >= float(key) / 100 - 1e-12)
            assert abs(bucket(theirs) - bucket(ours)) <= 1, (where, ddir, key, theirs, ours)
            checked += 1
    return checked

def rows_of(directory, nbr):
    lines = open("%s/lat_job%d.csv" % (directory, nbr)).read().splitlines()
    header = [c.strip() for c in lines[0].split(",")]
    return [dict(zip(header, [c.strip() for c in line.split(",")])) for line in lines[1:] if line]

tests = results["tests"]
streams = [(t, s) for t in tests for s in t["streams"]]
assert len(fio["jobs"]) == len(streams), (len(fio["jobs"]), len(streams))
checked = 0
for nbr, (job, (test, stream)) in enumerate(zip(fio["jobs"], streams)):
    assert job["hostname"] == stream["agent"] and job["jobname"] == stream["job"], job["jobname"]
    assert job["groupid"] == tests.index(test)
    assert job["read"]["total_ios"] == stream["reads"], (job["read"]["total_ios"], stream["reads"])
    assert job["write"]["total_ios"] == stream["writes"]
    assert job["sync"]["total_ios"] == stream["fsyncs"]
    assert job["error"] == 0
    if test["workload"] == "randrw":
        assert job["read"]["io_bytes"] + job["write"]["io_bytes"] == stream["bytes"]
    checked += check_percentiles(job, rows_of(sys.argv[3], nbr), "job %d" % nbr)

alls = [j for j in fio["client_stats"] if j["jobname"] == "All clients"]
assert len(alls) == len(tests), (len(alls), len(tests))
hosts = {j["hostname"] for j in fio["client_stats"] if j["jobname"] != "All clients"}
assert hosts == {"a1", "a2"}, hosts
for nbr, (job, test) in enumerate(zip(alls, tests)):
    summary = test["summary"]
    latency = summary.get("latency", {})
    for ddir in ("read", "write"):
        clat = job[ddir]["clat_ns"]
        assert job[ddir]["total_ios"] == sum(s[ddir + "s"] for s in test["streams"])
        if clat["N"]:
            mine = latency[ddir]
            assert clat["N"] == mine["count"] and clat["max"] == mine["max_ns"]
            for key, field in (("50.000000", "p50_ns"), ("99.000000", "p99_ns"),
                               ("99.900000", "p999_ns")):
                assert clat["percentile"][key] == mine[field], (test["name"], ddir, key)
    checked += check_percentiles(job, rows_of(sys.argv[4], nbr), "All clients %d" % nbr)
assert checked > 100, checked
print("fio-json: %d jobs, %d percentiles within a bucket of fio's tool's" % (len(fio["jobs"]), checked))
PY
    fail "fio-json does not match results.json or fio's tool's percentiles"

# bonnie++'s CSV
"$BIN/iofleet" report "$RESULTS/results.json" --format bonnie-csv > "$SCRATCH/bonnie.csv" ||
    fail "iofleet report --format bonnie-csv exited $?"
cat "$SCRATCH/bonnie.csv"
bon_csv2txt < "$SCRATCH/bonnie.csv" > "$SCRATCH/bonnie.txt" 2> "$SCRATCH/bonnie.txt.err" ||
    fail "bon_csv2txt exited $?"
bon_csv2html < "$SCRATCH/bonnie.csv" > "$SCRATCH/bonnie.html" 2> "$SCRATCH/bonnie.html.err" ||
    fail "bon_csv2html exited $?"
cat "$SCRATCH/bonnie.txt"
[ ! -s "$SCRATCH/bonnie.txt.err" ] || { cat "$SCRATCH/bonnie.txt.err"; fail "bon_csv2txt complains"; }
[ ! -s "$SCRATCH/bonnie.html.err" ] || { cat "$SCRATCH/bonnie.html.err"; fail "bon_csv2html complains"; }
python3 - "$SCRATCH/bonnie.csv" "$SCRATCH/stdout.txt" "$SCRATCH/bonnie.txt" "$SCRATCH/bonnie.html" <<'PY' ||
import re, sys
lines = [l.split(",") for l in open(sys.argv[1]).read().splitlines()]
assert len(lines) == 4, len(lines)              # 2 hosts x 2 runs
assert all(len(l) == 50 and l[0] == "1.98" for l in lines)
assert [l[2] for l in lines] == ["a1", "a2", "a1 #2", "a2 #2"], [l[2] for l in lines]
# The text report's bonnie++ lines: machine, size, then rate and %CP of
# output, rewrite, input, seeks.
# A row is the test (" #2" for its second run), then those.
text = [re.sub(r"^(\S+( #\d+)?)? +", "", l).split() for l in open(sys.argv[2]).read().splitlines()
        if re.match(r"^(\S+( #\d+)?)? +a[12] +4M:", l)]
assert len(text) == 4, text
txt = open(sys.argv[3]).read()
html = re.sub(r"<[^>]*>", " ", open(sys.argv[4]).read()).split()
for fields, row in zip(lines, text):
    fields[2] = fields[2].replace(" #2", "")     # the second run, as the text marks it
    assert fields[2] == row[0] and fields[5] + ":" + fields[6] == row[1], (fields[2:7], row[:2])
    ours = [fields[i] for i in (11, 12, 13, 14, 17, 18, 19, 20)]
    assert ours == row[2:10], (ours, row[2:10])
    # bon_csv2html gives K/sec in M/sec, rounded (a half up: 475648 is
    # 465, where Python's round() says 464), bon_csv2txt in its own
    # units; both print %CP and the seeks as they are, and the latencies.
    for k in (fields[11], fields[13], fields[17]):
        floor, ceiling = int(k) // 1024, -(-int(k) // 1024)
        assert str(floor) in html or str(ceiling) in html, (k, html)
    for figure in (fields[19], fields[20], fields[12], fields[39], fields[43]):
        assert figure and figure in txt and figure in html, (figure, txt)
    assert fields[9] == fields[10] == fields[15] == fields[16] == "", "per-char tests given"
print("bonnie-csv: %d lines read by bon_csv2txt and bon_csv2html with our figures" % len(lines))
PY
    fail "bonnie-csv's figures are not the report's, or its readers do not print them"

# The exports are of one run: compare has no such format.
rc=0
"$BIN/iofleet" compare "$RESULTS/results.json" "$RESULTS/results.json" --format fio-json \
    > /dev/null 2> "$SCRATCH/compare.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'a format of one run' "$SCRATCH/compare.err" ||
    { cat "$SCRATCH/compare.err"; fail "compare --format fio-json exited $rc"; }

echo "t0750 ok"
