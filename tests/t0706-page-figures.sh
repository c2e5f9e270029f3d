#!/usr/bin/env bash
# One model of a report: for every stored run of the corpus (results files
# written by older versions among them), rendered by `iofleet report` as
# text in MB/s and in MiB/s, as a page, as JSON and as CSV, every figure
# of the text stands on the page (outside its pictures) as many times as
# in the text, each test's percentile plot has a line per class whose p99
# is the results', and every figure of the text, table by table, is the
# one the JSON and the CSV hold (tests/page_figures.py and
# tests/report_figures.py); the CSV's columns carry their units; and its
# pictures draw the run (tests/page_charts.py: every line of 5 points or
# more, a bar per test and phase in the unit the text counts it in, axes
# set by whole intervals).
#
# The checks must be able to fail: a page with a table cut out (the
# iterations, a test's streams, the percentile plots), a CSV without a
# column of the text's figures (each test's fsync latency, the hosts'
# dirty pages, the iterations' medians) and a results file without one
# (a host's settle period, the tests' requests) must each fail, and so
# must a CSV column named without its unit; and a page with a bar row
# cut, a line cut to 4 points, or the seeks' bars in seeks/s where the
# text counts them per second as requests.
. "$(dirname "$0")/lib.sh"

checked=0
for dir in "$TOP"/tests/corpus/runs/*/; do
    run=$(basename "$dir")
    file=$dir/results.json
    r=$SCRATCH/$run
    for units in MB MiB; do
        "$BIN/iofleet" report "$file" --units "$units" > "$r.$units.txt" ||
            fail "$run: report --units $units exited $?"
        "$BIN/iofleet" report "$file" --units "$units" --format html > "$r.$units.html" ||
            fail "$run: report --units $units --format html exited $?"
    done
    for format in json csv; do
        "$BIN/iofleet" report "$file" --format "$format" > "$r.$format" ||
            fail "$run: report --format $format exited $?"
    done
    python3 "$TOP/tests/page_figures.py" "$r.MB.txt" "$r.MB.html" "$r.json" "$r.csv" ||
        fail "$run: the page, the results or the CSV lack figures of the text"
    for units in MB MiB; do
        python3 "$TOP/tests/page_charts.py" "$r.$units.txt" "$r.$units.html" "$file" ||
            fail "$run: the pictures of the $units/s page do not draw the run"
    done
    # In MiB/s the rates are the results' MB/s scaled, and the page has
    # the MiB/s text's figures.
    python3 - "$TOP/tests" "$r.MiB.txt" "$r.MiB.html" "$r.json" "$r.csv" <<'PY' ||
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import page_figures, report_figures
text = open(sys.argv[2]).read()
missing = page_figures.check_page(text, open(sys.argv[3]).read())
missing += report_figures.check(text, json.load(open(sys.argv[4])), open(sys.argv[5]).read())
print("\n".join(missing))
sys.exit(1 if missing else 0)
PY
        fail "$run: the MiB/s text's figures are not the page's, the results' or the CSV's"
    checked=$((checked + 1))
done
[ "$checked" -ge 7 ] || fail "only $checked corpus runs"

# A page with a table cut out fails the check.
page=$SCRATCH/disk.MB.html
grep -q '<h2>Iterations</h2>' "$page" || fail "the disk page has no iterations table"
python3 - "$page" "$SCRATCH/cut-iterations.html" "$SCRATCH/cut-streams.html" \
    "$SCRATCH/cut-percentiles.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
cut = re.sub(r"(<h2>Iterations</h2>.*?)<table>.*?</table>", r"\1", page, count=1, flags=re.S)
assert cut != page
open(sys.argv[2], "w").write(cut)
streams = re.search(r'<section class="detail">.*?(<table>\n<tr><th>agent</th><th>job</th>.*?</table>)',
                    page, re.S)
assert streams
open(sys.argv[3], "w").write(page.replace(streams.group(1), "", 1))
plots = re.sub(r'<figure><svg class="percentiles".*?</figure>', "", page, flags=re.S)
assert plots != page
open(sys.argv[4], "w").write(plots)
PY
for cut in iterations streams percentiles; do
    if python3 "$TOP/tests/page_figures.py" "$SCRATCH/disk.MB.txt" "$SCRATCH/cut-$cut.html" \
        "$SCRATCH/disk.json" "$SCRATCH/disk.csv" > "$SCRATCH/cut-$cut.out"; then
        fail "a page without its $cut table passed"
    fi
    head -3 "$SCRATCH/cut-$cut.out"
done
python3 "$TOP/tests/page_charts.py" --cuts bar,line,units "$SCRATCH/disk.MB.txt" "$page" \
    "$TOP/tests/corpus/runs/disk/results.json" || fail "page_charts passed a page cut"

# A CSV without a column, or with one named without its unit, and a
# results file without a figure, fail the check, naming what is missing.
python3 - "$TOP/tests" "$SCRATCH" <<'PY' || fail "a cut CSV or results file passed"
import csv, io, json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import report_figures
d = sys.argv[2]

def cut_csv(name, column, rename=None):
    rows = list(csv.reader(open("%s/%s.csv" % (d, name), newline="")))
    at = rows[0].index(column)
    out = io.StringIO()
    for row in rows:
        if rename:
            row[at] = rename if row is rows[0] else row[at]
        else:
            del row[at]
        csv.writer(out).writerow(row)
    return out.getvalue()

cuts = [("disk", "CSV without test_latency_fsync_p99_ns", None,
         cut_csv("disk", "test_latency_fsync_p99_ns"), "test_latency_fsync_p99_ns"),
        ("disk", "CSV without host_dirty_writeback_end_bytes", None,
         cut_csv("disk", "host_dirty_writeback_end_bytes"), "host_dirty_writeback_end_bytes"),
        ("disk", "CSV without test_iterations_rest_median_mbps", None,
         cut_csv("disk", "test_iterations_rest_median_mbps"), "test_iterations_rest_median_mbps"),
        ("disk", "CSV with a column named without its unit", None,
         cut_csv("disk", "host_settle_s", "host_settle"), "host_settle: no unit")]
for name, key in (("disk", "settle_s"), ("random", "requests")):
    results = json.load(open("%s/%s.json" % (d, name)))
    where = "hosts" if key == "settle_s" else "summary"
    for test in results["tests"]:
        for row in test["hosts"] if where == "hosts" else [test["summary"]]:
            row.pop(key, None)
    cuts.append((name, "results without %s.%s" % (where, key), results, None, key))
for name, what, results, csv_text, expected in cuts:
    failures = report_figures.check(open("%s/%s.MB.txt" % (d, name)).read(), results, csv_text)
    if not failures or not any(expected in f for f in failures):
        print("%s: a %s passed the check" % (name, what))
        sys.exit(1)
    print("%s: a %s: %d failures, the first: %s" % (name, what, len(failures),
                                                   failures[0].splitlines()[0]))
PY
echo "page figures: $checked corpus runs, every figure of the text on the page, in the JSON and the CSV"
