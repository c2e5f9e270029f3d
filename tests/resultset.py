#!/usr/bin/env python3
"""Write a results.json by hand, for the compare tests: every key the
reader checks, with the figures given and plausible ones elsewhere.

    resultset.py OUT.json KERNEL [--label L] [--start SECONDS] TEST...

TEST is NAME=RATES[@SYS][!STATE]: the MB/s of each iteration, the first
run first ("dd1=40,100,110,90"); the %sys of every iteration (default
20); and "!lost" or "!failed" for a last iteration whose stream was lost
or failed.
"""
import argparse
import json
import re

MB = 1000 * 1000


def summary(rate, sys_pct, state):
    """A test's summary of one stream moving 100 MB at rate."""
    end_ns = int(100 * MB / rate * 1000) if rate else 0
    cls = {"streams": 1, "bytes": 100 * MB, "combined_mbps": rate, "notation": "%g" % rate}
    return {
        "streams": 1, "hosts": 1, "failed_streams": 1 if state else 0,
        "lost_streams": 1 if state == "lost" else 0, "partial": state == "lost",
        "bytes": 100 * MB, "first_start_ns": 0, "last_end_ns": end_ns,
        "combined_mbps": rate, "all_running_mbps": rate, "all_running_ns": end_ns,
        "host_skew_ns": 0, "stream_skew_ns": 0, "clock_uncertainty_ns": 0,
        "disk": cls, "network": {"streams": 0, "bytes": 0, "combined_mbps": None, "notation": "-"},
        "hosts_measured": 1, "usr_pct": 10.0, "sys_pct": sys_pct, "iowait_pct": 5.0,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("kernel")
    parser.add_argument("tests", nargs="+")
    parser.add_argument("--label", default="")
    parser.add_argument("--start", type=int, default=1796000000)
    args = parser.parse_args()
    start_ns = args.start * 10**9
    tests = []
    for spec in args.tests:
        m = re.fullmatch(r"([^=]+)=([0-9.,]+)(?:@([0-9.]+))?(?:!(lost|failed))?", spec)
        if not m:
            parser.error("bad test %r" % spec)
        name, rates, sys_pct, state = m.groups()
        rates = [float(r) for r in rates.split(",")]
        for it, rate in enumerate(rates, 1):
            last = it == len(rates)
            tests.append({
                "name": name, "iteration": it,
                "announced_wall_ns": start_ns + len(tests) * 10**9,
                "summary": summary(rate, float(sys_pct or 20), state if last else None),
                "streams": [], "hosts": [], "warnings": [], "monitors": [],
            })
    results = {
        "scenario": "configs/seeds.ini", "label": args.label,
        "started_wall_ns": start_ns, "units": "MB/s = 10^6 bytes/s", "display_units": "MB/s",
        "agents": [{
            "name": "client", "endpoint": "tcp://192.0.2.10:7654", "hostname": "client1",
            "kernel": args.kernel, "cpus": 2, "mem_bytes": 24 * 2**30, "version": "0.1.0",
            "insecure": False, "clock_offset_ns": 0, "clock_rtt_ns": 100000,
        }],
        "tests": tests,
    }
    with open(args.out, "w") as out:
        json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
