#!/usr/bin/env python3
"""Every figure of a text report is on its page and the key ones in its
results file.

    page_figures.py REPORT.txt REPORT.html RESULTS.json

The page: each figure (a run of digits and points) of the text counted,
and the page's text outside its pictures (no <svg>, no <style>) must hold
each at least as many times, so that a table left off the page (its byte
counts, its rates) fails. The results file: for each row of the tests
table, its streams, combined rate, %sys and %iowait, and each test's bytes
in its detail line, against the test's summary. Each test's percentile
plot: a line per class that measured requests, its p99 the results',
every line of at least 5 points. Exit 1 with what is missing.
"""
import collections
import html
import json
import re
import sys

FIGURE = re.compile(r"\d+(?:\.\d+)*")


def page_text(page):
    page = re.sub(r"<svg.*?</svg>", " ", page, flags=re.S)
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    page = re.sub(r"<title>.*?</title>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


def check_page(text, page):
    wanted = collections.Counter(FIGURE.findall(text))
    found = collections.Counter(FIGURE.findall(page_text(page)))
    missing = []
    for figure, count in wanted.items():
        if found[figure] < count:
            lines = [line.strip() for line in text.splitlines() if figure in FIGURE.findall(line)]
            missing.append("%s: %d in the text, %d on the page (%s)"
                           % (figure, count, found[figure], lines[0][:100]))
    return missing


def near(cell, value):
    """Whether the figure printed in cell is value as the text rounds it."""
    m = re.match(r"(\d+)(?:\.(\d+))?", cell)
    if not m or value is None:
        return cell.startswith("-") and value is None or bool(m) == (value is not None)
    decimals = len(m.group(2) or "")
    return abs(float(m.group(0)) - value) <= 0.5 * 10 ** -decimals + 1e-9 * abs(value)


def check_json(text, results):
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("test  "))
    columns = re.split(r"\s{2,}", lines[head].strip())
    rows = []
    for line in lines[head + 1:]:
        if not line.strip() or line.startswith("FAILED "):
            break
        rows.append(dict(zip(columns, re.split(r"\s{2,}", line.strip()))))
    tests = results["tests"]
    missing = []
    if len(rows) != len(tests):
        return ["%d rows in the tests table, %d tests in the results" % (len(rows), len(tests))]
    combined = next(c for c in columns if c.startswith("combined"))
    for row, test in zip(rows, tests):
        s = test["summary"]
        ops = row[combined].endswith("/s")
        checks = [("streams", row["streams"], s["streams"]),
                  (combined, row[combined], s["combined_ops_per_s" if ops else "combined_mbps"]),
                  ("%sys", row["%sys"], s.get("sys_pct")),
                  ("%iowait", row["%iowait"], s.get("iowait_pct"))]
        for name, cell, value in checks:
            if not near(cell, value):
                missing.append("%s %s: text %s, results %s" % (row["test"], name, cell, value))
    heads = re.findall(r"^(\S.*?): \d+ streams? on \d+ hosts?.*?, (?:≥ )?(\d+) bytes", text, re.M)
    if len(heads) != len(tests):
        missing.append("%d test blocks in the text, %d tests" % (len(heads), len(tests)))
    for (label, count), test in zip(heads, tests):
        if int(count) != test["summary"]["bytes"]:
            missing.append("%s bytes: text %s, results %s" % (label, count, test["summary"]["bytes"]))
    return missing


def check_percentiles(page, results):
    """Each test's percentile plot: a line per class that measured
    requests, its p99 the results' for the class, every line of at least
    5 points."""
    sections = page.split('<section class="detail">')[1:]
    tests = results["tests"]
    if len(sections) != len(tests):
        return ["%d test sections on the page, %d tests" % (len(sections), len(tests))]
    missing = []
    for section, test in zip(sections, tests):
        label = "%s #%d" % (test["name"], test["iteration"])
        lines = re.findall(r'<polyline class="series"[^>]*data-kind="(class|host)" '
                           r'data-(?:class|agent)="([^"]*)" data-p99-ms="([^"]*)" points="([^"]*)"',
                           section)
        classes = {name: float(p99) for kind, name, p99, _ in lines if kind == "class"}
        for kind, name, p99, points in lines:
            if len(points.split()) < 5:
                missing.append("%s: the %s line of %s has %d points" % (label, kind, name,
                                                                      len(points.split())))
        for name in ("disk", "network"):
            latency = (test["summary"].get(name) or {}).get("latency")
            if latency and latency["count"] > 0:
                if name not in classes:
                    missing.append("%s: no percentile line of the %s streams" % (label, name))
                elif abs(classes[name] - latency["p99_ns"] / 1e6) > 1e-6:
                    missing.append("%s: the %s line's p99 %s ms, the results' %s ns"
                                   % (label, name, classes[name], latency["p99_ns"]))
            elif name in classes:
                missing.append("%s: a %s line without its requests" % (label, name))
    return missing


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    page = open(sys.argv[2], encoding="utf-8").read()
    results = json.load(open(sys.argv[3], encoding="utf-8"))
    missing = ["page: " + m for m in check_page(text, page)]
    missing += ["results: " + m for m in check_json(text, results)]
    missing += ["percentiles: " + m for m in check_percentiles(page, results)]
    for m in missing:
        print("%s: %s" % (sys.argv[1], m))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
