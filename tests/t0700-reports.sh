#!/usr/bin/env bash
# The reports people read, from one real run of two agents on loopback
# (three iterations of a mixed disk/network test and of a one-stream test):
#   - `iofleet report` renders the finished run again, byte for byte the
#     text the run printed, and the same JSON, CSV and HTML it wrote;
#   - report.csv opens with Python's csv module and its sums are the JSON's;
#   - report.html loads in headless Chromium, has a timeline per test of
#     5 intervals or more with one series per stream of 5 intervals or
#     more, and the polylines' points are the samples' rates (recomputed
#     here from samples.jsonl); its charts pass tests/page_charts.py, and
#     so does the page of a copy of the run whose monitor's last interval
#     is made short and 20 times the fastest whole one (the demo's mix3:
#     a monitor's last 28 ms at 5.7 GB/s): the axis stays set by the
#     whole intervals and the spike is marked, and the checker fails on
#     that page with the mark cut or the axis stretched to the spike;
#   - `iofleet compare` of three result files (copies of the real one with
#     rates set by hand, so that the spreads are known) prints the table
#     with the changes computed here, the first runs apart, marks a change
#     within the spread and not one outside it (weakly: two values a side),
#     and shows a missing test as missing.
. "$(dirname "$0")/lib.sh"

{
    echo "[global]"
    echo "bs = 1M"
    echo "interval = 10ms"
    echo "fsync = end"
    echo "iterations = 3"
    for a in a1 a2; do
        start_agent "$a"
        printf '[agent %s]\nendpoint = %s\n' "$a" "$ENDPOINT"
    done
    # mix paced to 12 intervals or more, for its chart whatever the disk's
    # speed; one unpaced, over in a few intervals on a fast host: no chart
    printf '[job mixdisk]\ntest = mix\nagent = a1\npath = m\nsize = 16M\nstreams = 2\nclass = disk\nrate = 128M\n'
    printf '[job mixnet]\ntest = mix\nagent = a2\npath = m\nsize = 16M\nclass = network\nrate = 128M\n'
    printf '[job mixwatch]\ntest = mix\nagent = a1\nworkload = monitor\n'
    printf '[job one]\ntest = one\nagent = a2\npath = o\nsize = 16M\n'
} > "$SCRATCH/reports.ini"

RESULTS=$SCRATCH/results
"$BIN/iofleet" run "$SCRATCH/reports.ini" -o "$RESULTS" > "$SCRATCH/stdout.txt" ||
    { cat "$SCRATCH/stdout.txt"; fail "iofleet run exited $?"; }
cat "$SCRATCH/stdout.txt"
for f in results.json report.txt report.csv report.html samples.jsonl; do
    [ -s "$RESULTS/$f" ] || fail "results directory lacks $f"
done

# Re-rendering: the text exactly as the run printed it, and the files as
# the run wrote them.
"$BIN/iofleet" report "$RESULTS/results.json" > "$SCRATCH/again.txt" || fail "iofleet report exited $?"
cmp "$SCRATCH/stdout.txt" "$SCRATCH/again.txt" || fail "re-rendered text differs from the run's"
cmp "$RESULTS/report.txt" "$SCRATCH/again.txt" || fail "re-rendered text differs from report.txt"
for format in json csv html; do
    case $format in json) file=results.json;; *) file=report.$format;; esac
    "$BIN/iofleet" report "$RESULTS/results.json" --format "$format" > "$SCRATCH/again.$format" ||
        fail "iofleet report --format $format exited $?"
    cmp "$RESULTS/$file" "$SCRATCH/again.$format" || fail "re-rendered $format differs from $file"
done

# A bad file gets a message that names it and what is wrong, and exit 1.
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["tests"][1]["streams"][0]["bytes"]="x"; json.dump(r,open(sys.argv[2],"w"))' \
    "$RESULTS/results.json" "$SCRATCH/bad.json"
rc=0
"$BIN/iofleet" report "$SCRATCH/bad.json" > /dev/null 2> "$SCRATCH/bad.err" || rc=$?
[ "$rc" = 1 ] || fail "a bad results file exited $rc, not 1"
grep -q 'bad.json: tests\[1\].streams\[0\].bytes: expected an integer' "$SCRATCH/bad.err" ||
    { cat "$SCRATCH/bad.err"; fail "the message does not say what is wrong where"; }

# CSV: one row per test x iteration x stream, and one per monitor job
# (its stream's fields empty); the streams' sums equal the JSON totals.
python3 - "$RESULTS" <<'PY' || fail "report.csv does not match results.json"
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
every = list(csv.DictReader(open(d + "/report.csv", newline="")))
rows = [row for row in every if row["stream"] != ""]
monitors = [row for row in every if row["monitor_job"] != ""]
assert len(rows) == sum(len(t["streams"]) for t in r["tests"]), len(rows)
assert len(monitors) == sum(len(t.get("monitors", [])) for t in r["tests"]), len(monitors)
assert len(rows) + len(monitors) == len(every), (len(rows), len(monitors), len(every))
for t in r["tests"]:
    mine = [row for row in rows if row["test"] == t["name"] and int(row["iteration"]) == t["iteration"]]
    s = t["summary"]
    assert len(mine) == s["streams"] == len(t["streams"]), (t["name"], len(mine))
    assert sum(int(row["bytes"]) for row in mine) == s["bytes"], t["name"]
    for cls in ("disk", "network"):
        got = sum(int(row["bytes"]) for row in mine if row["class"] == cls)
        assert got == s[cls]["bytes"], (t["name"], cls, got, s[cls]["bytes"])
    assert sum(int(row["sys_ns"]) for row in mine) == sum(st["sys_ns"] for st in t["streams"])
    for row, st in zip(mine, t["streams"]):
        assert (row["agent"], row["job"], int(row["stream"])) == (st["agent"], st["job"], st["index"])
        assert int(row["start_ns"]) == st["start_ns"] and int(row["end_ns"]) == st["end_ns"]
        assert abs(float(row["rate_mbps"]) - st["rate_mbps"]) < 1e-5, (row["rate_mbps"], st["rate_mbps"])
        assert abs(float(row["test_combined_mbps"]) - s["combined_mbps"]) < 1e-5
print("csv: %d rows, sums agree" % len(rows))
PY

# HTML in a real browser: the DOM Chromium built from the page.
dump_dom "$RESULTS/report.html" "$SCRATCH/dom.html"
python3 - "$RESULTS" "$SCRATCH/dom.html" <<'PY' || fail "the timelines do not match the samples"
import json, sys
from html.parser import HTMLParser
d, dom = sys.argv[1], sys.argv[2]
r = json.load(open(d + "/results.json"))
samples = {}
for line in open(d + "/samples.jsonl"):
    s = json.loads(line)
    samples.setdefault((s["test"], s["iteration"], s["agent"], s["job"], s["stream"]), []).append(s)

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svgs, self.lines, self.external = {}, [], []
        self.svg = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "link", "img", "iframe") or (tag != "svg" and a.get("src")):
            self.external.append((tag, a))
        if tag == "svg" and "timeline" in a.get("class", ""):
            self.svg = a
            self.svgs[a["data-test"]] = a
        if tag == "polyline" and a.get("data-kind") == "stream":
            self.lines.append((self.svg, a))
page = Page()
page.feed(open(dom).read())
assert not page.external, page.external
# A test has a chart when one of its streams has 5 intervals or more.
def intervals(t, st):
    ss = samples.get((t["name"], t["iteration"], st["agent"], st["job"], st["index"]), [])
    start = [{"t_ns": st["start_ns"]}] if ss and st["finished"] and st["start_ns"] < ss[0]["t_ns"] else []
    points = start + ss
    return sum(1 for b, a in zip(points, points[1:]) if a["t_ns"] > b["t_ns"])
names = []
for t in r["tests"]:
    if t["name"] not in names and any(intervals(u, st) >= 5 for u in r["tests"]
                                      if u["name"] == t["name"] for st in u["streams"]):
        names.append(t["name"])
assert names, "no test has intervals enough for a chart"
assert sorted(page.svgs) == sorted(names), (sorted(page.svgs), names)
# A stream of fewer than 5 intervals has no line of its own.
want = {(t["name"], t["iteration"], st["agent"], st["job"], st["index"])
        for t in r["tests"] if t["name"] in names for st in t["streams"] if intervals(t, st) >= 5}
got = [(a["data-test"], int(a["data-iteration"]), a["data-agent"], a["data-job"], int(a["data-stream"]))
       for svg, a in page.lines]
assert len(got) == len(set(got)) and set(got) == want, (sorted(got), sorted(want))
streams = {(t["name"], t["iteration"], st["agent"], st["job"], st["index"]): st
           for t in r["tests"] for st in t["streams"]}
checked = 0
for svg, a in page.lines:
    key = (a["data-test"], int(a["data-iteration"]), a["data-agent"], a["data-job"], int(a["data-stream"]))
    x0, ppx = float(svg["data-x-origin-px"]), float(svg["data-px-per-s"])
    y0, ppy = float(svg["data-y-origin-px"]), float(svg["data-px-per-mbps"])
    top = (y0 - 14) / ppy       # the axis's top (CHART_TOP): a rate above it is drawn there
    pts = [tuple(map(float, p.split(","))) for p in a.get("points", "").split()]
    ss = samples.get(key, [])
    # The first interval runs from the stream's start, with nothing done.
    st = streams[key]
    if ss and st["finished"] and st["start_ns"] < ss[0]["t_ns"]:
        ss = [{"t_ns": st["start_ns"], "bytes": 0}] + ss
    expected = []
    for before, after in zip(ss, ss[1:]):
        if after["t_ns"] > before["t_ns"]:
            rate = (after["bytes"] - before["bytes"]) * 1e3 / (after["t_ns"] - before["t_ns"])
            expected.append((after["t_ns"] / 1e9, rate))
    assert len(pts) == len(expected), (key, len(pts), len(expected))
    for (x, y), (t_s, mbps) in zip(pts, expected):
        # Points are printed to 0.1 unit: allow a unit either way.
        assert abs((x - x0) / ppx - t_s) <= 1 / ppx, (key, x, t_s)
        assert abs((y0 - y) / ppy - min(mbps, top)) <= 1 / ppy, (key, y, mbps, top)
        checked += 1
assert checked > 0, "no point was checked: the test wrote no samples"
print("html: %d timelines, %d stream series, %d points match the samples"
      % (len(page.svgs), len(page.lines), checked))
PY
python3 "$TOP/tests/page_charts.py" "$RESULTS/report.txt" "$RESULTS/report.html" "$RESULTS/results.json" ||
    fail "the page's charts do not draw the run as they should"

# The demo's mix3: a monitor's last, short interval far above every
# whole one. A copy of the run with the mix test's monitor's last point
# moved to a quarter of an interval after the one before, its disks
# having written 20 times as fast as the fastest whole interval of any
# line there; rendered, the axis is the whole intervals' and the spike a
# mark at the top.
SPIKE=$SCRATCH/spike
mkdir "$SPIKE"
cp "$RESULTS/samples.jsonl" "$SPIKE/"
python3 - "$RESULTS/results.json" "$SPIKE/results.json" "$TOP/tests/page_charts.py" <<'PY' ||
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("page_charts", sys.argv[3])
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)
r = json.load(open(sys.argv[1]))
samples = pc.load_samples(sys.argv[1])
# The fastest whole interval of any line of the chart, in any iteration.
fastest = 0
for t in r["tests"]:
    if t["name"] != "mix":
        continue
    mine = [(st, samples[("mix", t["iteration"], st["agent"], st["job"], st["index"])])
            for st in t["streams"]]
    fastest = max([fastest] + [mbps for st, ss in mine
                               for _, _, mbps, full in pc.stream_intervals(st, ss) if full] +
                  [mbps for m in t["monitors"] for _, mbps, full in pc.monitor_intervals(m) if full] +
                  [mbps for a in {st["agent"] for st, _ in mine}
                   for _, mbps in pc.host_total([x for x in mine if x[0]["agent"] == a])])
mix = [t for t in r["tests"] if t["name"] == "mix" and t["iteration"] == 1][0]
p = mix["monitors"][0]["points"]
assert len(p) >= 7, len(p)
gap = min(b["t_ns"] - a["t_ns"] for a, b in zip(p[:-2], p[1:-1]))
p[-1]["t_ns"] = p[-2]["t_ns"] + gap // 4
p[-1]["disk_written_bytes"] = p[-2]["disk_written_bytes"] + int(20 * fastest * (gap // 4) / 1e3)
json.dump(r, open(sys.argv[2], "w"))
print("spike: the monitor's last interval of %.1f ms at %.0f MB/s; the fastest whole one %.1f MB/s"
      % (gap / 4e6, 20 * fastest, fastest))
PY
    fail "could not make the run with a spike"
"$BIN/iofleet" report "$SPIKE/results.json" > "$SPIKE/report.txt" || fail "report of the spike exited $?"
"$BIN/iofleet" report "$SPIKE/results.json" --format html > "$SPIKE/report.html" ||
    fail "report --format html of the spike exited $?"
python3 "$TOP/tests/page_charts.py" "$SPIKE/report.txt" "$SPIKE/report.html" "$SPIKE/results.json" \
    > "$SPIKE/charts.out" || { cat "$SPIKE/charts.out"; fail "the spike set the axis or is not marked"; }
cat "$SPIKE/charts.out"
grep -q "[1-9][0-9]* clipped" "$SPIKE/charts.out" || fail "no interval was found above the axis"
# The checker fails on the page with the spike's mark cut, and on one
# whose axis the spike stretched (ten times the top).
python3 "$TOP/tests/page_charts.py" --cuts mark,axis "$SPIKE/report.txt" "$SPIKE/report.html" \
    "$SPIKE/results.json" || fail "page_charts passed a page cut"

# The page in MiB/s, as the text report: its tests table holds the text
# report's figures, the charts' labels are in MiB/s, and no "MB/s" is
# left on it.
"$BIN/iofleet" report "$RESULTS/results.json" --units MiB > "$SCRATCH/mib.txt" ||
    fail "iofleet report --units MiB exited $?"
"$BIN/iofleet" report "$RESULTS/results.json" --units MiB --format html > "$SCRATCH/mib.html" ||
    fail "iofleet report --units MiB --format html exited $?"
python3 - "$SCRATCH/mib.txt" "$SCRATCH/mib.html" <<'PY' || fail "the page does not show the run's units"
import re, sys
from html.parser import HTMLParser
text, page = open(sys.argv[1]).read(), open(sys.argv[2]).read()
class Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.row, self.cell, self.svg_units = [], None, None, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr":
            self.row = []
        if tag in ("td", "th"):
            self.cell = ""
        if tag == "svg" and "data-units" in a:
            self.svg_units.append((a["class"], a["data-units"]))
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.row is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        if tag == "tr":
            self.rows.append(self.row)
            self.row = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
html = Cells()
html.feed(page)
header = [r for r in html.rows if r and r[0] == "test"][0]
# The text's own table: its columns say what they hold (a rate, or
# requests per second for seeks), the unit stands above it.
assert header[3] == "combined" and header[4] == "all-running", header
assert "rates in MiB/s" in re.sub(r"<[^>]*>", "", page), "the page does not say its units"
assert "MB/s" not in re.sub(r"<[^>]*>", "", page), "MB/s is left on the page"
assert html.svg_units and set(u for c, u in html.svg_units) == {"MiB/s"}, html.svg_units
assert page.count("MiB/s per interval") == sum(c == "timeline" for c, u in html.svg_units)
assert sum(c == "bars" for c, u in html.svg_units) == 1, html.svg_units
# The tests table: per stream, combined and all-running as the text says.
lines = text.split("\n")
start = [i for i, l in enumerate(lines) if l.startswith("test ")][0]
compared = 0
for l in lines[start + 1:]:
    if not l.strip() or l.startswith("FAILED"):
        break
    cells = re.split(r"  +", l.strip())
    row = [r for r in html.rows if r and r[0] == cells[0]][0]
    assert row[2:5] == cells[2:5], (row[2:5], cells[2:5])
    compared += 1
assert compared >= 6, compared
print("mib: %d rows of the page as the text report's, charts in MiB/s" % compared)
PY

# Compare: three copies of the real results with rates set by hand. Three
# iterations each: the first run apart, two values a side for the rest,
# so every verdict is the weak min..max one.
#   one: A 100 | 110,90  (median 100, spread 90..110)   B 104 | 105,106 (+5.5%, inside A's)
#        C has no "one" at all                                          (missing)
#   mix: A 200 | 200,200 (no spread)                    B 290 | 300,310 (+52.5%, outside both)
#        C 190 | 200,210 (+2.5%, A's median inside C's spread)
#        per class: disk = 3/4 and network = 1/4 of the combined rate
python3 - "$RESULTS/results.json" "$SCRATCH" <<'PY' || fail "could not build the compare inputs"
import copy, json, sys
r = json.load(open(sys.argv[1]))
rates = {
    "A": {"one": [100, 110, 90], "mix": [200, 200, 200]},
    "B": {"one": [104, 105, 106], "mix": [290, 300, 310]},
    "C": {"mix": [190, 200, 210]},
}
for name, table in rates.items():
    out = copy.deepcopy(r)
    out["tests"] = [t for t in out["tests"] if t["name"] in table]
    for t in out["tests"]:
        rate = table[t["name"]][t["iteration"] - 1]
        s = t["summary"]
        s["combined_mbps"] = rate
        if s["network"]["streams"]:
            s["disk"]["combined_mbps"] = rate * 0.75
            s["network"]["combined_mbps"] = rate * 0.25
    json.dump(out, open("%s/%s.json" % (sys.argv[2], name), "w"), indent=1)
PY
"$BIN/iofleet" compare "$SCRATCH/A.json" "$SCRATCH/B.json" "$SCRATCH/C.json" --labels k1,k2,k3 \
    > "$SCRATCH/compare.txt" || fail "iofleet compare exited $?"
cat "$SCRATCH/compare.txt"
"$BIN/iofleet" compare "$SCRATCH/A.json" "$SCRATCH/B.json" "$SCRATCH/C.json" --labels k1,k2,k3 \
    --format json > "$SCRATCH/compare.json" || fail "iofleet compare --format json exited $?"
python3 - "$SCRATCH" <<'PY' || fail "compare figures are wrong"
import json, re, statistics, sys
d = sys.argv[1]
sets = [json.load(open("%s/%s.json" % (d, n))) for n in "ABC"]
figures = {
    "MB/s": lambda s: s["combined_mbps"],
    "disk MB/s": lambda s: s["disk"]["combined_mbps"] if s["network"]["streams"] else None,
    "network MB/s": lambda s: s["network"]["combined_mbps"] if s["network"]["streams"] else None,
    "%sys": lambda s: s["sys_pct"],
    "p99": lambda s: s.get("latency_p99_ns"),
}
def values(r, test, get, kind):
    runs = [t for t in r["tests"] if t["name"] == test]
    if kind == "first run":
        runs = [t for t in runs if t["iteration"] == 1]
    elif any(t["iteration"] > 1 for s in sets for t in s["tests"] if t["name"] == test):
        runs = [t for t in runs if t["iteration"] > 1]
    return [v for v in (get(t["summary"]) for t in runs) if v is not None]
def within(vs, value):
    return len(vs) > 1 and min(vs) <= value <= max(vs)
cmp = json.load(open(d + "/compare.json"))
assert [s["label"] for s in cmp["sets"]] == ["k1", "k2", "k3"]
assert cmp["test"]["alpha"] == 0.1 and cmp["test"]["min_values"] == 3, cmp["test"]
seen = set()
for row in cmp["rows"]:
    get = figures[row["figure"]]
    base = values(sets[0], row["test"], get, row["kind"])
    for n, cell in enumerate(row["cells"]):
        vs = values(sets[n], row["test"], get, row["kind"])
        if row["kind"] == "spread":
            vs = vs if len(vs) > 1 else []
        if not vs:
            assert cell["missing"], (row, n)
            continue
        value = statistics.stdev(vs) if row["kind"] == "spread" else statistics.median(vs)
        assert abs(cell["median"] - value) < 1e-9 and cell["values"] == len(vs), (row, n, cell)
        if n == 0 or not base:
            continue
        b = statistics.stdev(base) if row["kind"] == "spread" else statistics.median(base)
        if b == 0:
            # No change in percent from nothing (a %sys of 0.0 over a
            # window of a few clock ticks), unless it is nothing still.
            assert cell["change_pct"] == (0 if value == 0 else None), (row, n, cell)
            continue
        change = (value - b) / b * 100
        assert abs(cell["change_pct"] - change) < 1e-9, (row["test"], n, cell, change)
        if row["kind"] != "main":
            assert cell["verdict"] is None, (row, cell)
            continue
        # Two values a side: the weak verdict, min..max.
        noise = within(base, value) or within(vs, b)
        assert cell["strong"] is False and cell["verdict"] == ("noise" if noise else "real"), \
            (row["test"], n, cell, noise)
        seen.add((row["test"], row["figure"], n, round(change, 1), noise))
# The cases the fixture was built for.
assert ("one", "MB/s", 1, 5.5, True) in seen, seen
assert ("mix", "MB/s", 1, 52.5, False) in seen, seen
assert ("mix", "MB/s", 2, 2.5, True) in seen, seen
assert ("mix", "disk MB/s", 1, 52.5, False) in seen, seen

# The text table: header, marks, missing, first runs apart, the mixed
# row as disk/network.
text = open(d + "/compare.txt").read().splitlines()
assert re.match(r"^test +figure +k1 +k2 +k3$", text[0]), text[0]
rows = {tuple(re.split(r"  +", line.strip())[:2]): re.split(r"  +", line.strip())[2:]
        for line in text[1:] if line and not line.startswith(" ") and ":" not in line}
assert rows[("one", "MB/s")] == ["100", "106 +5.5%~ weak", "missing"], rows[("one", "MB/s")]
assert rows[("one first run", "MB/s")] == ["100", "104 +4.0%", "missing"], rows[("one first run", "MB/s")]
assert rows[("one", "MB/s stddev")] == ["14.1", "0.707 -95.0%", "missing"], rows[("one", "MB/s stddev")]
assert rows[("mix", "MB/s")] == ["200", "305 +52.5% weak", "205 +2.5%~ weak"], rows[("mix", "MB/s")]
assert rows[("mix first run", "MB/s")] == ["200", "290 +45.0%", "190 -5.0%"], rows[("mix first run", "MB/s")]
assert rows[("mix", "disk/network")] == ["150/50", "229/76.2 +52.5% weak/+52.5% weak",
                                         "154/51.2 +2.5%~ weak/+2.5%~ weak"], rows[("mix", "disk/network")]
assert rows[("mix", "disk/network stddev")] == ["0/0", "5.3/1.77 (from 0)/(from 0)",
                                                "5.3/1.77 (from 0)/(from 0)"], rows[("mix", "disk/network stddev")]
assert any(line.startswith("values: the median of iterations 2..N") for line in text), text
print("compare: changes, first runs and marks as computed by hand")
PY

# Without labels the columns are the kernels; the same kernel twice is #2.
kernel=$(json 'r["agents"][0]["kernel"]')
"$BIN/iofleet" compare "$SCRATCH/A.json" "$SCRATCH/B.json" | head -1 > "$SCRATCH/header.txt"
grep -qF "$kernel  $kernel #2" "$SCRATCH/header.txt" ||
    { cat "$SCRATCH/header.txt"; fail "columns are not labelled by kernel"; }
"$BIN/iofleet" compare "$SCRATCH/A.json" "$SCRATCH/B.json" --format csv |
    python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
main = [x for x in rows if x["kind"] == "main" and x["figure"] == "MB/s"]
assert sorted((x["test"], x["set"]) for x in main) == [("mix", "1"), ("mix", "2"), ("one", "1"), ("one", "2")], main
assert {x["kind"] for x in rows} == {"main", "spread", "first run"}, rows
assert rows[0]["figure"] == "MB/s" and rows[0]["verdict"] == "" and rows[1]["verdict"] == "real", rows[:2]' ||
    fail "compare --format csv"
"$BIN/iofleet" compare "$SCRATCH/A.json" "$SCRATCH/B.json" --labels x > /dev/null 2>&1 &&
    fail "one label for two files was accepted"
echo "reports: ok"
