#!/usr/bin/env bash
# fio job files at fio's rates, as a sanity bound: each job file of
# tests/fiorates.sh (sequential write and read, 4K random reads, a 70/30
# mix, 4 jobs, a time-based job with a ramp; all O_DIRECT) run by fio
# itself and by iofleet on one agent of this host, on the same files,
# alternating, 3 rounds each; the medians printed side by side.
#
# Paced here (rate=, rate_iops=), below what the disk does even when the
# other tests of make test load it: the rates unpaced, measured on this
# shared 2-core machine while other tests ran, moved between a third and
# three times fio's from one run of this script to the next (the disk is
# shared, and a run of a second meets whatever else runs then), so they
# are compared in `make bench` (bench/fiojobs.sh), longer, with their
# bands. A paced run makes the rate the job file asks for whoever runs
# it, within 15% both ways unless the disk falls below the pace: so this
# catches a translation that does another job (a cap per job and not
# per stream, a mixed job's caps, a ramp taken out of the runtime, 128
# files, an fsync every 100 requests).
# runs once: it checks what a job file asks for against fio's rates, which the sanitizers' build only slows; t0313 runs the same translation under them
# runs alone: it holds job files' paced rates against fio's
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench/lib.sh"

rounds=3
FIORATES_SEQ=32m
FIORATES_SEQ_CAP=rate=64m
FIORATES_RANDOM=32m
FIORATES_RANDOM_CAP=rate_iops=140,60
FIORATES_IOS=100
FIORATES_TIME=1
FIORATES_RAMP=500ms
. "$(dirname "$0")/fiorates.sh"

# The timed job's band is wider below: after a stall of the disk our
# pacer does not burst to catch up (rate_iops in iofleet-scenario(5)),
# where fio does, and the second it measures is short enough for one
# stall of the shared disk to take a quarter of it (measured: 0.75 of
# fio's, its runs otherwise within 1%).
fiorates_compare "seqwrite 0.85 1.15" "seqread 0.85 1.15" "randread 0.85 1.15" \
    "randrw 0.85 1.15" "numjobs 0.85 1.15" "timed 0.6 1.15"
echo ok
