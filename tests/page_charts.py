#!/usr/bin/env python3
"""The pictures of a page, read back from their SVG and held against the
run they draw.

    page_charts.py REPORT.txt REPORT.html RESULTS.json

RESULTS.json's samples.jsonl beside it gives the streams' intervals. What
is checked, from the charts' coordinates and attributes:

  - lines: every polyline of every chart (timelines, latency over time,
    percentile plots) has at least 5 points, and a heat map is drawn only
    for an iteration with 5 intervals or more, over 5 columns or more; a
    test has a timeline or heat map exactly when a stream or monitor of it
    has 5 intervals;
  - bars: one bar row per test and phase (the results' rows, but for a
    workload that moves no data), a dot per iteration at its figure, on a
    chart whose unit is the one the text's tests table counts the row in
    (N/s: requests/s, else the run's rate), its axis titled with it;
  - units: a timeline of a test counted in requests is in requests/s, any
    other in the run's units, both axes titled;
  - scale: the top of a timeline's rate axis is set by the whole
    intervals of the lines it draws (at least half their series' longest):
    every whole interval fits under it, the top is no higher than 5% over
    the highest of them (and of the hosts' totals) rounded up to a tick,
    and each interval above it (a short one) is drawn at the top with a
    clipped mark carrying its rate; a host's total starts from the first
    interval of its streams.

Exit 1 with what is wrong.

    page_charts.py --cuts bar,line,units,mark,axis REPORT.txt REPORT.html RESULTS.json

The checks can fail: each cut named is made on a page that passes (a bar
row taken out, a stream's line cut to 4 points, the requests/s bars said
in seeks/s, a clipped mark taken out, a timeline's rate axis stretched
ten times), and the page so cut must fail. Exit 1 if one passes or
cannot be made.
"""
import collections
import json
import math
import os
import re
import statistics
import sys
from html.parser import HTMLParser

POINTS_MIN = 5
CHART_TOP = 14          # timeline.c: y of the top of the rate axis


class Svg:
    def __init__(self, attrs):
        self.attrs = attrs
        self.cls = attrs.get("class", "")
        self.polylines, self.clipped, self.texts, self.paths = [], [], [], []
        self.rows = []          # bar chart: [attrs, [circles], [rects]]


class Page(HTMLParser):
    """The page's charts: each outer <svg> with what it holds."""

    def __init__(self):
        super().__init__()
        self.svgs, self.stack, self.text = [], [], None
        self.legend = ""
        self.in_legend = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figcaption":
            self.in_legend += 1
        if tag == "svg":
            if not self.stack and not self.in_legend:
                svg = Svg(a)
                self.svgs.append(svg)
                self.stack.append(svg)
            else:
                self.stack.append(None)
            return
        svg = next((s for s in reversed(self.stack) if s), None)
        if not svg or not self.stack:
            return
        if tag == "polyline":
            svg.polylines.append(a)
        elif tag == "path" and a.get("class") == "clipped":
            svg.clipped.append(a)
        elif tag == "path":
            svg.paths.append(a)
        elif tag == "text":
            self.text = [a, ""]
        elif tag == "g" and a.get("class") == "bar-row":
            svg.rows.append([a, [], []])
        elif tag == "circle" and svg.rows:
            svg.rows[-1][1].append(a)
        elif tag == "rect" and svg.rows:
            svg.rows[-1][2].append(a)

    def handle_endtag(self, tag):
        if tag == "figcaption":
            self.in_legend -= 1
        if tag == "svg" and self.stack:
            self.stack.pop()
        if tag == "text" and self.text is not None:
            svg = next((s for s in reversed(self.stack) if s), None)
            if svg:
                svg.texts.append(self.text[1])
            self.text = None

    def handle_data(self, data):
        if self.text is not None:
            self.text[1] += data


def points(polyline):
    return [tuple(map(float, p.split(","))) for p in polyline.get("points", "").split()]


def stream_intervals(stream, samples):
    """A stream's intervals as timeline.c draws them: (end_ns, length_ns,
    MB/s, whole), the first from its start with nothing done."""
    before = []
    if samples and stream["finished"] and stream["start_ns"] < samples[0]["t_ns"]:
        before = [{"t_ns": stream["start_ns"], "bytes": 0}]
    pts = before + samples
    out = []
    for a, b in zip(pts, pts[1:]):
        if b["t_ns"] > a["t_ns"]:
            moved = max(b["bytes"] - a["bytes"], 0)
            out.append([b["t_ns"], b["t_ns"] - a["t_ns"], moved * 1e3 / (b["t_ns"] - a["t_ns"])])
    longest = max((i[1] for i in out), default=0)
    return [(t, n, r, 2 * n >= longest) for t, n, r in out]


def monitor_intervals(monitor):
    """A monitor's disk writes per interval: (end_ns, MB/s, whole)."""
    p = monitor.get("points", [])
    gaps = [b["t_ns"] - a["t_ns"] for a, b in zip(p, p[1:])]
    longest = max(gaps, default=0)
    out = []
    for a, b in zip(p, p[1:]):
        n = b["t_ns"] - a["t_ns"]
        if n > 0 and b["disk_written_bytes"] >= a["disk_written_bytes"]:
            out.append((b["t_ns"], (b["disk_written_bytes"] - a["disk_written_bytes"]) * 1e3 / n,
                        2 * n >= longest))
    return out


def bytes_at(stream, samples, t_ns):
    """A stream's bytes at an instant, its samples joined by straight
    lines from (start, 0) to (last write, all its bytes): aggregate_stream.c."""
    start, last, total = stream["start_ns"], stream["last_write_ns"], stream["bytes"]
    if t_ns <= start:
        return 0.0
    if t_ns >= last:
        return float(total)
    prev_t, prev_b = start, 0.0
    for s in samples:
        if s["t_ns"] <= prev_t or s["t_ns"] >= last or s["bytes"] < prev_b or s["bytes"] > total:
            continue
        if t_ns <= s["t_ns"]:
            return prev_b + (s["bytes"] - prev_b) * (t_ns - prev_t) / (s["t_ns"] - prev_t)
        prev_t, prev_b = s["t_ns"], float(s["bytes"])
    if last <= prev_t:
        return float(total)
    return prev_b + (total - prev_b) * (t_ns - prev_t) / (last - prev_t)


def host_total(streams):
    """A host's total as series.c computes it: [(t_ns, MB/s)] on a grid
    from its streams' first start to their last sample, the step their
    smallest sample interval (at most 2000 steps); streams is [(stream,
    samples)] of one host."""
    sampled = [(st, ss) for st, ss in streams if len(ss) >= 2]
    if not sampled:
        return []
    firsts = [st["start_ns"] if st["finished"] and st["start_ns"] < ss[0]["t_ns"] else ss[0]["t_ns"]
              for st, ss in sampled]
    lo, hi = min(firsts), max(ss[-1]["t_ns"] for st, ss in sampled)
    gaps = [b["t_ns"] - a["t_ns"] for st, ss in sampled for a, b in zip(ss, ss[1:])
            if b["t_ns"] > a["t_ns"]]
    if not gaps or hi <= lo:
        return []
    step = min(gaps)
    if (hi - lo) // step > 2000:
        step = (hi - lo) // 2000
    at = lambda t: sum(bytes_at(st, ss, t) for st, ss in streams if ss)
    out, t, before = [], lo + step, at(lo)
    while t <= hi:
        now = at(t)
        out.append((t, (now - before) * 1e3 / step))
        before, t = now, t + step
    return out


def tick_step(span, ticks):
    """html_kit.c's round step: 1, 2 or 5 times a power of ten."""
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    fraction = raw / power
    return power * (1 if fraction <= 1 else 2 if fraction <= 2 else 5 if fraction <= 5 else 10)


def text_units(text):
    m = re.search(r"^rates in (\S+)", text, re.M)
    return m.group(1) if m else "MB/s"


def text_counted_in_requests(text):
    """The tests table's rows: name (with its #N) to whether its combined
    figure is counted per second (N/s) rather than a rate."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("test  "))
    columns = re.split(r"\s{2,}", lines[head].strip())
    combined = columns.index("combined")
    rows = {}
    for line in lines[head + 1:]:
        if not line.strip() or line.startswith("FAILED "):
            break
        cells = re.split(r"\s{2,}", line.strip())
        name = re.sub(r" #\d+$", "", cells[0])
        if cells[combined] != "-":
            rows.setdefault(name, set()).add(cells[combined].split()[0].endswith("/s"))
    return rows


def check(text, page, results, samples):
    problems = []
    units = text_units(text)
    per_mb = 1e6 / 2 ** 20 if units == "MiB/s" else 1.0
    tests = results["tests"]
    by_name = collections.OrderedDict()
    for t in tests:
        by_name.setdefault(t["name"], []).append(t)
    parsed = Page()
    parsed.feed(page)
    svgs = parsed.svgs
    stats = collections.Counter()

    def intervals_of(t, st):
        return stream_intervals(st, samples.get((t["name"], t["iteration"], st["agent"],
                                                 st["job"], st["index"]), []))

    def most_intervals(runs):
        most = 0
        for t in runs:
            for st in t["streams"]:
                most = max(most, len(intervals_of(t, st)))
            for m in t.get("monitors", []):
                most = max(most, len(monitor_intervals(m)))
        return most

    # Lines: no chart draws a line of fewer than 5 points.
    for svg in svgs:
        if svg.cls not in ("timeline", "latency", "percentiles"):
            continue
        for line in svg.polylines:
            n = len(points(line))
            stats["lines"] += 1
            if n < POINTS_MIN:
                problems.append("%s %s: a %s line of %d points (%s %s #%s)"
                                % (svg.cls, svg.attrs.get("data-test", ""), line.get("data-kind"),
                                   n, line.get("data-agent", ""), line.get("data-job", ""),
                                   line.get("data-iteration", "")))
    for svg in svgs:
        if svg.cls != "heatmap":
            continue
        stats["heat maps"] += 1
        name, iteration = svg.attrs["data-test"], int(svg.attrs["data-iteration"])
        runs = [t for t in by_name.get(name, []) if t["iteration"] == iteration]
        if most_intervals(runs) < POINTS_MIN:
            problems.append("heat map %s #%d: drawn with fewer than %d intervals"
                            % (name, iteration, POINTS_MIN))
        columns = set()
        for path in svg.paths:
            for c, run in re.findall(r"M(\d+) \d+h(\d+)", path.get("d", "")):
                columns.update(range(int(c), int(c) + int(run)))
        if len(columns) < POINTS_MIN:
            problems.append("heat map %s #%d: %d columns drawn" % (name, iteration, len(columns)))
    charted = {s.attrs.get("data-test") for s in svgs if s.cls in ("timeline", "heatmap")}
    for name, runs in by_name.items():
        want = most_intervals(runs) >= POINTS_MIN
        if want != (name in charted):
            problems.append("%s: %d intervals at most, %s" % (
                name, most_intervals(runs), "and no chart" if want else "and a chart of its own"))

    # Bars: one row per test and phase, each dot its iteration's figure,
    # in the unit the text counts the row in.
    counted = text_counted_in_requests(text)
    rows = {}
    for svg in svgs:
        if svg.cls != "bars":
            continue
        stats["bar charts"] += 1
        chart_units = svg.attrs.get("data-units")
        if not any(t.startswith(chart_units + " ") or t.startswith(chart_units + ",")
                   for t in svg.texts):
            problems.append("bars in %s: no axis title in it" % chart_units)
        for a, circles, rects in svg.rows:
            name = a["data-test"]
            if name in rows:
                problems.append("bars: %s has two rows" % name)
            rows[name] = (chart_units, circles, rects)
    for name, runs in by_name.items():
        if all(t.get("workload") == "null" for t in runs):
            if name in rows:
                problems.append("bars: %s moves no data and has a bar" % name)
            continue
        in_requests = runs[0].get("rate", "bytes") != "bytes"
        figures = {}
        for t in runs:
            s = t["summary"]
            v = s.get("combined_ops_per_s") if in_requests else s.get("combined_mbps")
            if v is not None:
                figures[t["iteration"]] = v if in_requests else v * per_mb
        if not figures:
            continue
        if name not in rows:
            problems.append("bars: no row for %s" % name)
            continue
        stats["bar rows"] += 1
        chart_units, circles, rects = rows[name]
        want = "requests/s" if in_requests else units
        if chart_units != want:
            problems.append("bars: %s in %s, not %s" % (name, chart_units, want))
        if counted.get(name) and counted[name] != {in_requests}:
            problems.append("bars: %s in %s where the text's tests table counts it %s"
                            % (name, chart_units, "per second (N/s)" if True in counted[name]
                               else "as a rate"))
        dots = {int(c["data-iteration"]): float(c["data-value"]) for c in circles}
        if sorted(dots) != sorted(figures):
            problems.append("bars: %s has dots of iterations %s, not %s"
                            % (name, sorted(dots), sorted(figures)))
        for i, v in figures.items():
            if i in dots and abs(dots[i] - v) > 1e-5 * max(1, abs(v)):
                problems.append("bars: %s #%d at %g, not %g" % (name, i, dots[i], v))
        bar = {float(r["data-value"]) for r in rects}
        median = statistics.median(figures.values())
        if len(bar) != 1 or abs(bar.pop() - median) > 1e-5 * max(1, median):
            problems.append("bars: %s's bar is not at the median %g" % (name, median))
    stray = set(rows) - set(by_name)
    if stray:
        problems.append("bars: rows of no test: %s" % sorted(stray))

    # Timelines: units, axes, scale, clipped marks, host totals.
    for svg in svgs:
        if svg.cls != "timeline":
            continue
        stats["timelines"] += 1
        name = svg.attrs["data-test"]
        runs = by_name.get(name, [])
        chart_units = svg.attrs.get("data-units")
        sizes = {st["bs_bytes"] for t in runs for st in t["streams"]}
        in_requests = bool(runs) and runs[0].get("rate", "bytes") != "bytes" \
            and len(sizes) == 1 and 0 not in sizes
        want = "requests/s" if in_requests else units
        if chart_units != want:
            problems.append("timeline %s: in %s, not %s" % (name, chart_units, want))
        if not any(t.startswith("seconds since") for t in svg.texts):
            problems.append("timeline %s: no time axis title" % name)
        if "%s per interval" % chart_units not in svg.texts:
            problems.append("timeline %s: no rate axis title in %s" % (name, chart_units))
        x0, ppx = float(svg.attrs["data-x-origin-px"]), float(svg.attrs["data-px-per-s"])
        y0, ppy = float(svg.attrs["data-y-origin-px"]), float(svg.attrs["data-px-per-mbps"])
        top = (y0 - CHART_TOP) / ppy
        drawn = {}
        for line in svg.polylines:
            key = (int(line["data-iteration"]), line.get("data-agent"), line.get("data-job"),
                   line.get("data-stream"), line["data-kind"])
            drawn[key] = points(line)
        whole, spikes, totals = [], [], []
        first_x = collections.defaultdict(lambda: float("inf"))
        for t in runs:
            for agent in {st["agent"] for st in t["streams"]}:
                key = (t["iteration"], agent, None, None, "host")
                mine = [(st, samples.get((t["name"], t["iteration"], agent, st["job"],
                                          st["index"]), []))
                        for st in t["streams"] if st["agent"] == agent]
                if key in drawn:
                    totals.append((key, host_total(mine)))
            for st in t["streams"]:
                key = (t["iteration"], st["agent"], st["job"], str(st["index"]), "stream")
                if key not in drawn:
                    continue
                iv = intervals_of(t, st)
                if drawn[key]:
                    first_x[(t["iteration"], st["agent"])] = min(
                        first_x[(t["iteration"], st["agent"])], drawn[key][0][0])
                for t_ns, n, mbps, full in iv:
                    (whole if full else spikes).append((t_ns, mbps, "%s %s" % (st["agent"], st["job"])))
            for m in t.get("monitors", []):
                if (t["iteration"], m["agent"], m["job"], None, "monitor-disk") not in drawn:
                    continue
                for t_ns, mbps, full in monitor_intervals(m):
                    (whole if full else spikes).append((t_ns, mbps, "%s monitor" % m["agent"]))
        tolerance = 1.0 / ppy          # points are printed to 0.1 unit
        for t_ns, mbps, what in whole:
            if mbps > top + tolerance:
                problems.append("timeline %s: the whole interval of %s at %.3f s (%.1f MB/s) is "
                                "above the axis's top %.1f" % (name, what, t_ns / 1e9, mbps, top))
        marks = [(float(c["d"].split(",")[0][1:]), float(c["data-rate-mbps"]))
                 for c in svg.clipped]
        for t_ns, mbps, what in whole + spikes:
            if mbps <= top + tolerance:
                continue
            x = x0 + t_ns / 1e9 * ppx
            if not any(abs(mx - x) <= 0.1 and abs(mr - mbps) <= 1e-5 * mbps for mx, mr in marks):
                problems.append("timeline %s: %s's %.1f MB/s at %.3f s is above the axis and "
                                "not marked" % (name, what, mbps, t_ns / 1e9))
            stats["clipped"] += 1
        # A host's total: the one computed here from its streams' samples.
        for key, expected in totals:
            got = drawn[key]
            stats["host totals"] += 1
            if len(got) != len(expected):
                problems.append("timeline %s: %s's total #%d has %d points, not %d"
                                % (name, key[1], key[0], len(got), len(expected)))
                continue
            for (x, y), (t_ns, mbps) in zip(got, expected):
                if abs((x - x0) / ppx - t_ns / 1e9) > 1 / ppx \
                        or abs((y0 - y) / ppy - min(mbps, top)) > 1 / ppy:
                    problems.append("timeline %s: %s's total #%d at (%.1f, %.1f), not %.1f MB/s "
                                    "at %.3f s" % (name, key[1], key[0], x, y, mbps, t_ns / 1e9))
                    break
        # The top is the whole intervals' highest (and the host totals',
        # which are of whole grid steps), 5% over, rounded up to a tick in
        # the units shown: timeline.c's rule.
        highest = max([r for _, r, _ in whole] + [r for _, pts in totals for _, r in pts],
                      default=0)
        if highest > 0:
            per_unit = 1e6 / next(iter(sizes)) if in_requests else per_mb
            shown = highest * per_unit * 1.05 * (1 + 1e-6)
            step = tick_step(shown, 6)
            ceiling = math.ceil(shown / step) * step / per_unit
            if top > ceiling * (1 + 1e-6):
                problems.append("timeline %s: the axis's top %.1f MB/s is above what the whole "
                                "intervals need (%.1f MB/s at most: %.1f): a short one set it"
                                % (name, top, highest, ceiling))
        stats["whole intervals"] += len(whole)
        # A host's total: from the first interval of its streams on.
        for key, pts in drawn.items():
            if key[4] != "host" or len(pts) < 2:
                continue
            start = first_x[(key[0], key[1])]
            step_px = pts[1][0] - pts[0][0]
            if pts[0][0] > start + step_px + 0.2:
                problems.append("timeline %s: %s's total starts at %.3f s, its streams' first "
                                "interval ends at %.3f s" % (name, key[1], (pts[0][0] - x0) / ppx,
                                                            (start - x0) / ppx))
    return problems, stats


def load_samples(results_path):
    samples = collections.defaultdict(list)
    path = os.path.join(os.path.dirname(results_path), "samples.jsonl")
    if os.path.exists(path):
        for line in open(path):
            s = json.loads(line)
            samples[(s["test"], s["iteration"], s["agent"], s["job"], s["stream"])].append(s)
    for v in samples.values():
        v.sort(key=lambda s: s["t_ns"])
    return samples


def cut(page, name):
    """The page with one thing of kind name made wrong, or None."""
    if name == "bar":
        return re.sub(r'<g class="bar-row".*?</g>\n', "", page, count=1, flags=re.S)
    if name == "line":
        m = re.search(r'<polyline class="series stream"[^>]*points="((?:\S+ ){4}\S+[^"]*)"', page)
        return m and page.replace(m.group(1), " ".join(m.group(1).split()[:4]), 1)
    if name == "units":
        m = re.search(r'<svg class="bars"[^>]*data-units="requests/s"[^>]*>', page)
        return m and page.replace(m.group(0), m.group(0).replace("requests/s", "seeks/s"), 1)
    if name == "mark":
        return re.sub(r'<path class="clipped"[^>]*>.*?</path>\n', "", page, count=1, flags=re.S)
    if name == "axis":
        m = re.search(r'(<svg class="timeline"[^>]*data-px-per-mbps=")([0-9.]+)"', page)
        return m and page.replace(m.group(0), '%s%.9f"' % (m.group(1), float(m.group(2)) / 10), 1)
    raise ValueError(name)


def main():
    cuts = []
    if sys.argv[1] == "--cuts":
        cuts = sys.argv[2].split(",")
        del sys.argv[1:3]
    text_path, page_path, results_path = sys.argv[1:4]
    results = json.load(open(results_path))
    text, page = open(text_path).read(), open(page_path).read()
    samples = load_samples(results_path)
    if cuts:
        passed = []
        for name in cuts:
            wrong = cut(page, name)
            problems = check(text, wrong, results, samples)[0] if wrong and wrong != page else None
            print("cut %s: %s" % (name, problems[0] if problems else
                                  "could not be made" if problems is None else "passed"))
            if not problems:
                passed.append(name)
        sys.exit(1 if passed else 0)
    problems, stats = check(text, page, results, samples)
    for p in problems:
        print(p)
    print("charts: " + ", ".join("%d %s" % (n, k) for k, n in sorted(stats.items())))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
