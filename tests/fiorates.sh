# Shared by t0314-fio-rates.sh (make test: short runs, a loose bound) and
# bench/fiojobs.sh (make bench: longer runs, the bands): fio job files run
# by fio itself and by `iofleet run JOB.fio` on one agent, on the same
# files of this host, in alternating rounds (fio, then iofleet, then fio
# ...), and the medians of their rates compared.
#
# Source it after tests/lib.sh and tests/bench/lib.sh, with
#   FIORATES_SEQ     size of the sequential file (fio's size=, e.g. 256m)
#   FIORATES_RANDOM  size of the file of the random jobs
#   FIORATES_IOS     requests of a random job's stream (fio's number_ios)
#   FIORATES_TIME    seconds of the time-based job, after its ramp
#   FIORATES_RAMP    that ramp (fio's ramp_time=, default 1)
#   rounds           rounds (bench/lib.sh's BENCH_ROUNDS)
# then call fiorates_compare with one "JOB LOW HIGH" argument a job: our
# median must be within LOW and HIGH times fio's.
#
# The rate of a run is what each tool says of it: fio's bw_bytes of reads
# and writes (its bytes over its runtime, which leaves out its file
# layout and its ramp; with group_reporting, of the group: its
# job_runtime is then the sum of the jobs'); ours the test's bytes over
# its window (first start to last end, after the ramp), in MB/s (10^6
# B/s). Every job is O_DIRECT, so that
# neither tool measures the page cache's moods: a buffered write is as
# fast as memory until the kernel pushes back, at a moment of its own.

command -v fio > /dev/null || fail "fio missing: scripts/deps.sh test"
start_agent fiorates
FIORATES_ENDPOINT=$ENDPOINT
FIORATES_ROOT=$SCRATCH/fiorates
FIORATES_JOBS="seqwrite seqread randread randrw numjobs timed"

# The job files, one a job, in the agent's root: the files they name are
# relative to it, where fio runs too. FIORATES_SEQ_CAP and
# FIORATES_RANDOM_CAP, if set, are lines added to the sequential and to
# the random jobs (a rate= or rate_iops=).
fiorates_write_jobs () {
    local seq random
    seq="ioengine=psync
direct=1
bs=1m
size=$FIORATES_SEQ
filename=seq.dat
${FIORATES_SEQ_CAP:-}"
    random="ioengine=psync
direct=1
bs=4k
size=$FIORATES_RANDOM
filename=rand.dat
${FIORATES_RANDOM_CAP:-}"
    printf '[seqwrite]\n%s\nrw=write\nfallocate=none\n' "$seq" > "$FIORATES_ROOT/seqwrite.fio"
    printf '[seqread]\n%s\nrw=read\n' "$seq" > "$FIORATES_ROOT/seqread.fio"
    printf '[randread]\n%s\nrw=randread\nnumber_ios=%s\n' "$random" "$FIORATES_IOS" \
        > "$FIORATES_ROOT/randread.fio"
    printf '[randrw]\n%s\nrw=randrw\nrwmixread=70\nnumber_ios=%s\n' "$random" "$FIORATES_IOS" \
        > "$FIORATES_ROOT/randrw.fio"
    printf '[numjobs]\n%s\nrw=randread\nnumber_ios=%s\nnumjobs=4\ngroup_reporting\n' "$random" \
        "$FIORATES_IOS" > "$FIORATES_ROOT/numjobs.fio"
    printf '[timed]\n%s\nrw=randread\ntime_based\nruntime=%s\nramp_time=%s\n' "$random" \
        "$FIORATES_TIME" "${FIORATES_RAMP:-1}" > "$FIORATES_ROOT/timed.fio"
}

# Before a sequential write, its file goes: our write workload empties
# the file it writes (its blocks are allocated as it writes, as dd's
# are), where fio writes over a file in place. On a new file with
# fallocate=none (what is done here, and accepted in a job file) fio
# allocates as it writes too; its default preallocates it, and O_DIRECT
# writes into preallocated blocks ran at a fifth of the rate here.
fiorates_fresh () {
    [ "$1" != seqwrite ] || rm -f "$FIORATES_ROOT/seq.dat"
}

# run_fio JOB, run_iofleet JOB: the MB/s of one run of JOB.fio.
run_fio () {
    fiorates_fresh "$1"
    (cd "$FIORATES_ROOT" && fio --output-format=json "$1.fio" 2>/dev/null) |
        python3 -c 'import json, sys
print("%.3f" % (sum(j["read"]["bw_bytes"] + j["write"]["bw_bytes"]
                  for j in json.load(sys.stdin)["jobs"]) / 1e6))' ||
        fail "fio could not run $1.fio"
}
run_iofleet () {
    fiorates_fresh "$1"
    rm -rf "$SCRATCH/fiorates-res"
    "$BIN/iofleet" run -q --no-db "$FIORATES_ROOT/$1.fio" --agent "fiorates=$FIORATES_ENDPOINT" \
        -o "$SCRATCH/fiorates-res" > /dev/null 2> "$SCRATCH/fiorates.err" ||
        { cat "$SCRATCH/fiorates.err" >&2; fail "iofleet could not run $1.fio"; }
    python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["tests"][0]["summary"]
print("%.3f" % (s["bytes"] / ((s["last_end_ns"] - s["first_start_ns"]) / 1e9) / 1e6))' \
        "$SCRATCH/fiorates-res/results.json"
}

# fiorates_compare "JOB LOW HIGH"...: lay the files out (untimed, by fio),
# run every job's rounds, print each run, then per job both medians, our
# ratio and its band; fails if a ratio is outside its band.
fiorates_compare () {
    local spec job low high round tool rate bad=0
    fiorates_write_jobs
    (cd "$FIORATES_ROOT" &&
        fio --name=layout --rw=write --bs=1m --size="$FIORATES_SEQ" --filename=seq.dat &&
        fio --name=layout --rw=write --bs=1m --size="$FIORATES_RANDOM" --filename=rand.dat) \
        > /dev/null 2>&1 || fail "fio could not lay out the files"
    for spec in "$@"; do
        job=${spec%% *}
        for round in $(seq "$rounds"); do
            for tool in fio iofleet; do
                rate=$("run_$tool" "$job")
                RATES[$job.$tool]="${RATES[$job.$tool]:-} $rate"
                printf 'round %d  %-8s  %-7s  %10s MB/s\n' "$round" "$job" "$tool" "$rate"
            done
        done
    done
    printf '\n%-8s %10s %10s %7s %7s  %s\n' job fio iofleet ratio paired band
    for spec in "$@"; do
        read -r job low high <<< "$spec"
        awk -v j="$job" -v f="$(median "$job" fio)" -v i="$(median "$job" iofleet)" \
            -v p="$(paired "$job" iofleet fio)" -v lo="$low" -v hi="$high" 'BEGIN {
            r = i / f
            printf "%-8s %10.3f %10.3f %7.3f %7.3f  %s-%s %s\n", j, f, i, r, p, lo, hi,
                   (r >= lo && r <= hi)? "ok": "OUTSIDE"
            exit (r >= lo && r <= hi)? 0: 1 }' || bad=$((bad + 1))
    done
    echo "(medians of $rounds rounds of each tool, MB/s; ratio iofleet/fio of the medians,"
    echo " held to the band; paired: the median of each round's ratio, beside)"
    [ "$bad" = 0 ] || fail "$bad rates outside their bands of fio's"
}
