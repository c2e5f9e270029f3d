#!/usr/bin/env bash
# One model of a report: for every stored run of the corpus, rendered by
# `iofleet report` in MB/s and in MiB/s, every figure of the text report
# stands on the page (outside its pictures) as many times as in the text,
# and the key figures of the tests table and of each test's block are the
# results file's, and each test's percentile plot has a line per class
# whose p99 is the results' (tests/page_figures.py); and its pictures draw
# the run (tests/page_charts.py: every line of 5 points or more, a bar per
# test and phase in the unit the text counts it in, axes set by whole
# intervals). The checks fail on a page with a table left off: here the
# iterations table, a test's streams table and the percentile plots are
# cut from a page that passed, and it must fail on each; and on a page
# with a bar row cut, a line cut to 4 points, or the seeks' bars in
# seeks/s where the text counts them per second as requests.
. "$(dirname "$0")/lib.sh"

checked=0
for dir in "$TOP"/tests/corpus/runs/*/; do
    run=$(basename "$dir")
    file=$dir/results.json
    for units in MB MiB; do
        "$BIN/iofleet" report "$file" --units "$units" > "$SCRATCH/$run.$units.txt" ||
            fail "$run: report --units $units exited $?"
        "$BIN/iofleet" report "$file" --units "$units" --format html > "$SCRATCH/$run.$units.html" ||
            fail "$run: report --units $units --format html exited $?"
    done
    python3 "$TOP/tests/page_figures.py" "$SCRATCH/$run.MB.txt" "$SCRATCH/$run.MB.html" "$file" ||
        fail "$run: the page or the results lack figures of the text"
    for units in MB MiB; do
        python3 "$TOP/tests/page_charts.py" "$SCRATCH/$run.$units.txt" "$SCRATCH/$run.$units.html" \
            "$file" || fail "$run: the pictures of the $units/s page do not draw the run"
    done
    # In MiB/s the rates differ from the results' MB/s: the page only.
    python3 - "$TOP/tests/page_figures.py" "$SCRATCH/$run.MiB.txt" "$SCRATCH/$run.MiB.html" <<'PY' ||
import importlib.util, sys
spec = importlib.util.spec_from_file_location("page_figures", sys.argv[1])
pf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pf)
missing = pf.check_page(open(sys.argv[2]).read(), open(sys.argv[3]).read())
print("\n".join(missing))
sys.exit(1 if missing else 0)
PY
        fail "$run: the MiB/s page lacks figures of its text"
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
        "$TOP/tests/corpus/runs/disk/results.json" > "$SCRATCH/cut-$cut.out"; then
        fail "a page without its $cut table passed"
    fi
    head -3 "$SCRATCH/cut-$cut.out"
done
python3 "$TOP/tests/page_charts.py" --cuts bar,line,units "$SCRATCH/disk.MB.txt" "$page" \
    "$TOP/tests/corpus/runs/disk/results.json" || fail "page_charts passed a page cut"
echo "page figures: $checked corpus runs, every figure of the text on the page"
