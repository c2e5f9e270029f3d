#!/usr/bin/env bash
# make bench: fio job files (sequential write and read, 4K random reads,
# a 70/30 random mix, 4 jobs, a time-based job with a ramp), each run by
# fio itself and by `iofleet run JOB.fio` on one agent of this host, on
# the same files, alternating, several rounds (tests/fiorates.sh). Prints
# every run, then the medians and our ratio to fio; fails if a ratio is
# outside its band.
#
#   BENCH_FIO_SEQ   sequential file (default 1g)   BENCH_FIO_IOS (default 20000)
#   BENCH_FIO_TIME  seconds of the timed job (default 5)  BENCH_ROUNDS (default 3)
#   TMPDIR          where the files go (the file system measured)
#
# The bands, from 5 runs of this script on a shared 2-core virtual
# machine while other tests ran beside it (load averages from 5 to over
# 100; the first 3 with BENCH_FIO_SEQ=512m BENCH_FIO_IOS=10000
# BENCH_FIO_TIME=2), ratio of our median to fio's:
#   seqwrite  0.73 0.82 with fio writing over the file in place (ours
#             empties it first), 0.90 0.83 on a fresh file with
#             fallocate=none as here: ours is the slower by 10-20%, and
#             the band says so rather than hide it
#   seqread   1.20 0.95 1.10 1.81 0.92 (1.81 with the load over 100)
#   randread  1.64 0.97 0.99 1.20 0.98; randrw 1.14 0.84 1.15 1.30 1.03
#   numjobs   0.93 0.86 1.11 0.98 (the first run's is left out: it took
#             fio's job_runtime, which group_reporting sums); timed 0.93
#             1.38 1.17 0.90 1.08
# So: sequential reads within 15% both ways, writes 0.75-1.15, the
# random jobs (4K requests, where each tool's few us per request and the
# other tests' CPU show) 0.8-1.25, the timed job 0.8-1.4. Runs on a
# loaded machine fell outside (1.81, 1.64, 1.30): rerun before believing
# one.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/lib.sh"

FIORATES_SEQ=${BENCH_FIO_SEQ:-1g}
FIORATES_RANDOM=256m
FIORATES_IOS=${BENCH_FIO_IOS:-20000}
FIORATES_TIME=${BENCH_FIO_TIME:-5}
. "$top/tests/fiorates.sh"

echo "bench: fio job files, fio and iofleet alternating, $rounds rounds, on $(df --output=source,fstype "$SCRATCH" | tail -1)"
fiorates_compare "seqwrite 0.75 1.15" "seqread 0.85 1.15" "randread 0.8 1.25" \
    "randrw 0.8 1.25" "numjobs 0.8 1.25" "timed 0.8 1.4"
