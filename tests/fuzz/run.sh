#!/usr/bin/env bash
# Run each fuzz target for a bounded time on its own corpus.
#
#   tests/fuzz/run.sh FUZZ_BUILD_DIR SECONDS
#
# Corpora live in FUZZ_BUILD_DIR/corpus/<target> and grow from run to
# run; the scenario corpus starts from the scenarios in configs/, the message corpus
# from the frames in tests/fuzz/msg.seeds, the histogram corpus from one
# packed histogram. Crashes are written to FUZZ_BUILD_DIR/crashes/.
# Prints, per target, the executions per second and the corpus size;
# exits non-zero if a target found anything.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?fuzz build directory}
seconds=${2:-60}
cd "$top" || exit 2
mkdir -p "$build/crashes" "$build/corpus/msg" "$build/corpus/scenario" \
         "$build/corpus/histogram"
cp -n configs/*.ini configs/seeds/*.ini "$build/corpus/scenario/" 2>/dev/null || true
# One value of 5 ns: {layout 1, count 1, min_ns 5, max_ns 5, sum_ns [0, 5],
# runs [[5, 1]]}.
seed="$build/corpus/histogram/one-value"
[ -e "$seed" ] || printf '%b' '\x86\xa6layout\x01\xa5count\x01\xa6min_ns\x05\xa6max_ns\x05' \
    '\xa6sum_ns\x92\x00\x05\xa4runs\x91\x92\x05\x01' >"$seed"
# The message corpus starts from tests/fuzz/msg.seeds (name, escaped bytes).
while read -r name bytes; do
    case $name in ''|'#'*) continue;; esac
    seed="$build/corpus/msg/seed-$name"
    [ -e "$seed" ] || printf '%b' "$bytes" > "$seed"
done < tests/fuzz/msg.seeds

status=0
for target in msg scenario histogram; do
    log="$build/fuzz_$target.log"
    "$build/fuzz_$target" "$build/corpus/$target" \
        -dict="tests/fuzz/$target.dict" -max_total_time="$seconds" \
        -max_len=4096 -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix="$build/crashes/$target-" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    files=$(find "$build/corpus/$target" -type f | wc -l)
    echo "fuzz_$target: ${seconds}s runs=${runs:-?} exec/s=${speed:-?} corpus=$files files rc=$rc"
    if [ "$rc" -ne 0 ]; then
        tail -40 "$log"
        status=1
    fi
done
exit $status
