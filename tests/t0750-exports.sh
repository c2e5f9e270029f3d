#!/usr/bin/env bash
# Results in other tools' own formats, read by those tools, from one real
# run of two agents on loopback (a randrw test and a bonnie test, twice):
#   - `iofleet report --format bonnie-csv` is read by bonnie++'s
#     bon_csv2txt and bon_csv2html without a complaint, a line per host
#     and run with the figures of the text report's bonnie++ lines, and
#     both print them.
. "$(dirname "$0")/lib.sh"

for tool in bon_csv2txt bon_csv2html; do
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
text = [l.split() for l in open(sys.argv[2]).read().splitlines()
        if re.match(r"^  a[12] +4M:", l)]
assert len(text) == 4, text
txt = open(sys.argv[3]).read()
html = re.sub(r"<[^>]*>", " ", open(sys.argv[4]).read()).split()
for fields, row in zip(lines, text):
    fields[2] = fields[2].replace(" #2", "")     # the second run, as the text marks it
    assert fields[2] == row[0] and fields[5] + ":" + fields[6] == row[1], (fields[2:7], row[:2])
    ours = [fields[i] for i in (11, 12, 13, 14, 17, 18, 19, 20)]
    assert ours == row[2:10], (ours, row[2:10])
    # bon_csv2html gives K/sec in M/sec, bon_csv2txt in its own units; both
    # print %CP and the seeks as they are, and the latencies.
    for k in (fields[11], fields[13], fields[17]):
        assert str(int(k) // 1024) in html or str(round(int(k) / 1024)) in html, (k, html)
    for figure in (fields[19], fields[20], fields[12], fields[39], fields[43]):
        assert figure and figure in txt and figure in html, (figure, txt)
    assert fields[9] == fields[10] == fields[15] == fields[16] == "", "per-char tests given"
print("bonnie-csv: %d lines read by bon_csv2txt and bon_csv2html with our figures" % len(lines))
PY
    fail "bonnie-csv's figures are not the report's, or its readers do not print them"

echo "t0750 ok"
