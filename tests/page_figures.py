#!/usr/bin/env python3
"""Every figure of a text report is on its page, in its results file and
in its CSV.

    page_figures.py REPORT.txt REPORT.html RESULTS.json [REPORT.csv]

The page: each figure (a run of digits and points) of the text counted,
and the page's text outside its pictures (no <svg>, no <style>) must hold
each at least as many times, so that a table left off the page (its byte
counts, its rates) fails. The results file and the CSV: every figure of
the text, table by table, is the stored figure it prints
(tests/report_figures.py). Each test's percentile plot: a line per class
that measured requests, its p99 the results', every line of at least 5
points. Exit 1 with what is missing.
"""
import collections
import html
import json
import os
import re
import sys

sys.dont_write_bytecode = True     # the tests leave nothing in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_figures  # noqa: E402

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
    if len(sys.argv) not in (4, 5):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    text = open(sys.argv[1], encoding="utf-8").read()
    page = open(sys.argv[2], encoding="utf-8").read()
    results = json.load(open(sys.argv[3], encoding="utf-8"))
    csv_text = open(sys.argv[4], encoding="utf-8", newline="").read() if len(sys.argv) == 5 else None
    missing = ["page: " + m for m in check_page(text, page)]
    missing += report_figures.check(text, results, csv_text)
    missing += ["percentiles: " + m for m in check_percentiles(page, results)]
    for m in missing:
        print("%s: %s" % (sys.argv[1], m))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
