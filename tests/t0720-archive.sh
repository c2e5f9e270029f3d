#!/usr/bin/env bash
# The archive, from two real runs on a loopback agent (labelled "base" and
# "patched": one machine has one kernel, so the label is what tells them
# apart):
#   - each run lands in iofleet.db beside its results directory, test by
#     test, every figure as results.json has it;
#   - `history` lists both, and with --test the figure of each run as
#     computed here from results.json;
#   - `compare --db --by kernel` takes the newest run of the kernel,
#     `--by label` one column per label, the same table as compare of the
#     two results files;
#   - the database deleted and the two results files imported gives the
#     same history, byte for byte, and the same database, row for row;
#   - `history --format html` loads in headless Chromium, self-contained,
#     with one mark per run carrying its median.
. "$(dirname "$0")/lib.sh"

start_agent a1
{
    echo "[global]"
    echo "bs = 1M"
    echo "interval = 50ms"
    echo "iterations = 4"
    printf '[agent a1]\nendpoint = %s\n' "$ENDPOINT"
    printf '[job dd1]\nagent = a1\npath = d\nsize = 16M\n'
    printf '[job two]\ntest = two\nagent = a1\npath = t\nsize = 8M\nstreams = 2\n'
} > "$SCRATCH/archive.ini"

DB=$SCRATCH/iofleet.db
for label in base patched; do
    "$BIN/iofleet" run "$SCRATCH/archive.ini" -o "$SCRATCH/$label" --label "$label" -q \
        > /dev/null 2> "$SCRATCH/$label.err" || { cat "$SCRATCH/$label.err"; fail "run $label exited $?"; }
    grep -q "archive" "$SCRATCH/$label.err" && { cat "$SCRATCH/$label.err"; fail "the archive complained"; }
done
[ -s "$DB" ] || fail "no iofleet.db beside the results directories"

# The database holds what the results files hold.
python3 - "$DB" "$SCRATCH" <<'PY' || fail "the archive does not hold the runs' figures"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for label in ("base", "patched"):
    r = json.load(open("%s/%s/results.json" % (sys.argv[2], label)))
    (run_id, results_dir), = db.execute(
        "SELECT id, results_dir FROM runs WHERE label = ? AND started_wall_ns = ?",
        (label, r["started_wall_ns"])).fetchall()
    assert results_dir == "%s/%s" % (sys.argv[2], label), results_dir
    rows = db.execute("SELECT name, iteration, combined_mbps, sys_pct, bytes FROM tests "
                      "WHERE run_id = ? ORDER BY ordinal", (run_id,)).fetchall()
    want = [(t["name"], t["iteration"], t["summary"]["combined_mbps"], t["summary"]["sys_pct"],
             t["summary"]["bytes"]) for t in r["tests"]]
    assert rows == want, (rows, want)
    streams = db.execute("SELECT count(*), sum(streams.bytes) FROM streams JOIN tests "
                         "ON streams.test_id = tests.id WHERE run_id = ?", (run_id,)).fetchone()
    assert streams == (sum(len(t["streams"]) for t in r["tests"]),
                       sum(s["bytes"] for t in r["tests"] for s in t["streams"])), streams
    (kernel,), = db.execute("SELECT kernel FROM agents WHERE run_id = ?", (run_id,)).fetchall()
    assert kernel == r["agents"][0]["kernel"]
print("archive: both runs, every test and stream")
PY

history () {    # the history outputs into $1.*
    "$BIN/iofleet" history --db "$DB" > "$1.runs" || fail "history exited $?"
    "$BIN/iofleet" history --db "$DB" --test dd1 > "$1.dd1" || fail "history --test exited $?"
    "$BIN/iofleet" history --db "$DB" --test two --figure '%sys' > "$1.sys" ||
        fail "history --figure exited $?"
    "$BIN/iofleet" history --db "$DB" --test dd1 --format html > "$1.html" ||
        fail "history --format html exited $?"
}
history "$SCRATCH/first"
cat "$SCRATCH/first.runs" "$SCRATCH/first.dd1"
python3 - "$SCRATCH" <<'PY' || fail "history does not say what the runs measured"
import json, re, statistics, sys
d = sys.argv[1]
runs = open(d + "/first.runs").read().splitlines()
assert re.match(r"started \(UTC\) +scenario +label +kernel +hosts +tests +results$", runs[0]), runs[0]
assert [re.split(r"  +", l)[2] for l in runs[1:]] == ["base", "patched"], runs
assert all(l.endswith(" dd1 x4, two x4  %s/%s" % (d, label)) for l, label in zip(runs[1:], ("base", "patched"))), runs
lines = open(d + "/first.dd1").read().splitlines()
assert lines[0] == "dd1, MB/s: first run, then iterations 2..N: median, min..max, stddev", lines[0]
def rate(v):
    return ("%.0f" if v >= 100 else "%.3g") % v
for line, label in zip(lines[2:], ("base", "patched")):
    r = json.load(open("%s/%s/results.json" % (d, label)))
    rates = [t["summary"]["combined_mbps"] for t in r["tests"] if t["name"] == "dd1"]
    cells = re.split(r"  +", line)
    assert cells[1] == label and cells[4] == "4", cells
    assert cells[5] == rate(rates[0]), (cells, rates)
    assert cells[6] == rate(statistics.median(rates[1:])), (cells, rates)
    assert cells[7] == "%s..%s" % (rate(min(rates[1:])), rate(max(rates[1:]))), (cells, rates)
print("history: both runs, medians of iterations 2..4 as computed here")
PY

# compare --db: by kernel, the newest run of the one kernel there is.
"$BIN/iofleet" compare --db "$DB" --by kernel --test dd1 > "$SCRATCH/by-kernel.txt" ||
    fail "compare --by kernel exited $?"
cat "$SCRATCH/by-kernel.txt"
kernel=$(RESULTS=$SCRATCH/patched json 'r["agents"][0]["kernel"]')
head -1 "$SCRATCH/by-kernel.txt" | grep -qE "^test +figure +$kernel\$" ||
    fail "compare --by kernel is not one column for $kernel"
median=$(RESULTS=$SCRATCH/patched python3 -c 'import json,os,statistics; r=json.load(open(os.environ["RESULTS"]+"/results.json")); v=statistics.median([t["summary"]["combined_mbps"] for t in r["tests"] if t["name"]=="dd1" and t["iteration"]>1]); print(("%.0f" if v>=100 else "%.3g") % v)')
grep -qE "^dd1 +MB/s +$median\$" "$SCRATCH/by-kernel.txt" || fail "--by kernel is not the newest run ($median)"
# By label: two columns, the same table as the two files give.
"$BIN/iofleet" compare --db "$DB" --by label --test dd1 > "$SCRATCH/by-label.txt" ||
    fail "compare --by label exited $?"
cat "$SCRATCH/by-label.txt"
"$BIN/iofleet" compare "$SCRATCH/base/results.json" "$SCRATCH/patched/results.json" \
    --labels base,patched --test dd1 > "$SCRATCH/files.txt" || fail "compare of the files exited $?"
cmp "$SCRATCH/by-label.txt" "$SCRATCH/files.txt" || fail "compare --db differs from compare of the files"
"$BIN/iofleet" compare --db "$DB" --by hostname > /dev/null 2>&1 && fail "--by hostname was accepted"

# Filters.
[ "$("$BIN/iofleet" history --db "$DB" --label base | wc -l)" = 2 ] || fail "--label base"
[ "$("$BIN/iofleet" history --db "$DB" --kernel "$kernel" --scenario archive.ini | wc -l)" = 3 ] ||
    fail "--kernel and --scenario"
[ "$("$BIN/iofleet" history --db "$DB" --since 2200-01-01 | wc -l)" = 1 ] || fail "--since"
"$BIN/iofleet" history --db "$DB" --since 2999-01-01 > /dev/null 2>&1 && fail "a date past 2262 was accepted"
[ "$("$BIN/iofleet" history --db "$DB" --host nowhere | wc -l)" = 1 ] || fail "--host"

# Rebuilt from the results directories: the same history, the same rows.
dump () { python3 -c 'import sqlite3,sys; print("\n".join(sqlite3.connect(sys.argv[1]).iterdump()))' "$DB"; }
dump > "$SCRATCH/first.sql"
rm "$DB"
"$BIN/iofleet" db import "$SCRATCH/base/results.json" "$SCRATCH/patched/results.json" --db "$DB" ||
    fail "db import exited $?"
history "$SCRATCH/again"
for part in runs dd1 sys html; do
    cmp "$SCRATCH/first.$part" "$SCRATCH/again.$part" || fail "history ($part) differs after import"
done
dump > "$SCRATCH/again.sql"
cmp "$SCRATCH/first.sql" "$SCRATCH/again.sql" || fail "the imported database differs from the recorded one"
# Importing again replaces: nothing doubles.
"$BIN/iofleet" db import "$SCRATCH/patched/results.json" --db "$DB" > /dev/null || fail "import again"
"$BIN/iofleet" history --db "$DB" > "$SCRATCH/thrice.runs"
cmp "$SCRATCH/first.runs" "$SCRATCH/thrice.runs" || fail "a second import added a run"
# A file the reader refuses is not imported, and says why.
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["tests"][0]["summary"]["combined_mbps"]="9"; json.dump(r,open(sys.argv[2],"w"))' \
    "$SCRATCH/base/results.json" "$SCRATCH/bad.json"
rc=0
"$BIN/iofleet" db import "$SCRATCH/bad.json" --db "$DB" 2> "$SCRATCH/import.err" || rc=$?
[ "$rc" = 1 ] && grep -q "bad.json: tests\[0\].summary.combined_mbps: expected a number" "$SCRATCH/import.err" ||
    fail "a bad file was imported (exit $rc)"

# The page, as Chromium builds it.
dump_dom "$SCRATCH/first.html" "$SCRATCH/dom.html"
python3 - "$SCRATCH" <<'PY' || fail "the history page does not show the runs"
import json, statistics, sys
from html.parser import HTMLParser
d = sys.argv[1]
class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.runs, self.external, self.svgs = [], [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "link", "img", "iframe") or a.get("src"):
            self.external.append((tag, a))
        if tag == "svg" and a.get("class") == "history":
            self.svgs.append(a["data-test"])
        if tag == "g" and a.get("class") == "run":
            self.runs.append(a)
page = Page()
page.feed(open(d + "/dom.html").read())
assert not page.external, page.external
assert page.svgs == ["dd1"], page.svgs
assert len(page.runs) == 2, page.runs
for mark, label in zip(page.runs, ("base", "patched")):
    r = json.load(open("%s/%s/results.json" % (d, label)))
    median = statistics.median([t["summary"]["combined_mbps"] for t in r["tests"]
                                if t["name"] == "dd1" and t["iteration"] > 1])
    assert abs(float(mark["data-median"]) - median) <= 1e-5 * median, (mark, median)
    assert mark["data-kernel"] == r["agents"][0]["kernel"], mark
print("history page: one figure, a mark per run at its median, nothing external")
PY
echo "archive: ok"
