#!/usr/bin/env python3
"""Every figure of a text report is on its page and the key ones in its
results file.

    page_figures.py REPORT.txt REPORT.html RESULTS.json

The page: each figure (a run of digits and points) of the text counted,
and the page's text outside its pictures (no <svg>, no <style>) must hold
each at least as many times, so that a table left off the page (its byte
counts, its rates) fails. The results file: for each row of the tests
table, its streams, combined rate, %sys and %iowait, and each test's bytes
in its detail line, against the test's summary. Exit 1 with what is
missing.
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


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    page = open(sys.argv[2], encoding="utf-8").read()
    results = json.load(open(sys.argv[3], encoding="utf-8"))
    missing = ["page: " + m for m in check_page(text, page)]
    missing += ["results: " + m for m in check_json(text, results)]
    for m in missing:
        print("%s: %s" % (sys.argv[1], m))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
