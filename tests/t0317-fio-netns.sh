#!/usr/bin/env bash
# A fio job file on a fleet of hosts that are apart on the network: two
# network namespaces, an agent in each, `run JOB.fio --hosts FILE` from
# this one. Every host makes the requests fio itself makes of the file
# (request-bound random reads, numjobs of them), the stonewalled
# time-based write runs its runtime on both, and each test starts on both
# hosts at one instant and the time-bound one ends at one: the host skew
# and the end skew are the protocol's, not one host greeted after the
# other.
# runs alone: the host skew of two hosts is held under 5 ms
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/netns.sh"

command -v fio >/dev/null || fail "fio is not installed (scripts/deps.sh test)"
netns_up
: > "$SCRATCH/hosts"
for i in 2 3; do
    netns_host "h$i" "$i"
    netns_agent "h$i" "$SCRATCH/h$i"
    echo "h$i $ENDPOINT" >> "$SCRATCH/hosts"
done

cat > "$SCRATCH/fleet.fio" <<'FIO'
; what a fio user would hand to `fio --client` on two hosts
[global]
ioengine=psync
bs=4k
size=2m
[rand]
rw=randread
filename=rand.dat
numjobs=2
number_ios=500
[seq]
stonewall
rw=write
filename=seq.dat
bs=64k
rate=8m
runtime=1
time_based
FIO

# The run, then fio itself on the same file, for the request counts.
job_file_beside_fio "$SCRATCH/fleet.fio"

python3 - "$RESULTS/results.json" "$SCRATCH/fio.json" <<'PY' || fail "the fleet's run is not fio's"
import json, sys
ours = json.load(open(sys.argv[1]))
fio = json.load(open(sys.argv[2]))
reads = sum(job["read"]["total_ios"] for job in fio["jobs"] if job["jobname"] == "rand")
assert reads == 1000, "fio read %d times" % reads
tests = {t["name"]: t for t in ours["tests"]}
assert sorted(tests) == ["rand", "seq"], sorted(tests)
for name, t in tests.items():
    s = t["summary"]
    assert s["hosts"] == 2 and s["failed_streams"] == 0, (name, s)
    for host in ("h2", "h3"):
        mine = [st for st in t["streams"] if st["agent"] == host]
        assert mine and all(st["finished"] and not st["error"] for st in mine), (name, host, mine)
        if name == "rand":
            got = sum(st["reads"] for st in mine)
            assert len(mine) == 2 and got == reads, "%s on %s: %d reads in %d streams, fio %d" % (
                name, host, got, len(mine), reads)
        else:
            assert sum(st["bytes"] for st in mine) > 0, (name, host)
    print("%-5s host skew %.3f ms  end skew %s ms  clock +- %.3f ms" % (
        name, s["host_skew_ns"] / 1e6,
        "-" if s.get("end_skew_ns") is None else "%.3f" % (s["end_skew_ns"] / 1e6),
        s["clock_uncertainty_ns"] / 1e6))
# The time-bound test ran its second on both hosts and ended together.
seq = tests["seq"]
for st in seq["streams"]:
    window = (st["end_ns"] - st["start_ns"]) / 1e9
    assert 0.9 <= window <= 1.5, "a 1 s time-based stream of %s ran %.3f s" % (st["agent"], window)
# Both tests start at one instant on both hosts. A stall of this shared
# machine can hold one start back by tens of ms, so one of the two must
# be within 5 ms and neither past 100 ms (t0210 measures the skew itself).
skews = sorted(t["summary"]["host_skew_ns"] for t in tests.values())
assert skews[0] < 5e6 and skews[1] < 100e6, "host skews %s ms on two hosts" % (
    ", ".join("%.3f" % (k / 1e6) for k in skews))
end_skew = seq["summary"].get("end_skew_ns")
assert end_skew is not None and end_skew < 100e6, "end skew %s of the time-bound test" % end_skew
PY
echo "fio job file on two hosts: ok"
