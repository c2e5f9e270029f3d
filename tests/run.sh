#!/usr/bin/env bash
# Run every test against each build directory given (build, build-asan):
# the cmocka unit programs in DIR/tests/, then the integration scripts
# tests/t*.sh with the programs of DIR. Prints one line per test and, last,
# "N passed, N failed"; exits non-zero if anything failed.
#
#   tests/run.sh build [build-asan ...]      everything
#   T=t0200 tests/run.sh build               only scripts matching t0200*
#   TEST_JOBS=1 tests/run.sh build           one script at a time
#
# A script that does not use the build's programs (it builds what it
# tests itself: the fuzz targets, the packages), or whose checks a
# sanitizers' build adds nothing to (rates held against another tool's,
# on code other scripts run under the sanitizers), says so with a line
# "# runs once: REASON" and runs with the first build only.
#
# Tests run TEST_JOBS (2) at a time: most of a script's time is spent
# waiting (for a lease to run out, a time-bound test to end, a server to
# answer), and its checks are of files, messages and counts, which the
# script beside it cannot move. A script whose checks are of time or of
# rates (skews, paced rates, figures held against another tool's, tails
# of latency) or of the machine as a whole (its CPUs, its dirty pages)
# says so with a line "# runs alone: REASON" and runs with nothing
# beside it. The unit programs share the slots like scripts. A line is
# printed when a test ends, so they come in the order the tests end.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

jobs=${TEST_JOBS:-2}
case $jobs in
    ''|*[!0-9]*|0) echo "TEST_JOBS=$jobs: how many tests at a time, 1 or more" >&2; exit 2 ;;
esac
passed=0
failed=0
failures=()
logdir=$(mktemp -d "${TMPDIR:-/tmp}/iofleet-tests.XXXXXX")
declare -A running=()       # pid of a test's run -> its name
declare -A started=()       # pid -> when it started (s)
declare -A scripts=()       # pid -> 1 where it is a script's, not a unit program's
cleanup () {
    local pid
    for pid in "${!running[@]}"; do
        kill -- "$pid" 2>/dev/null
    done
    wait
    rm -rf "$logdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ASan/UBSan: stop at the first error, report leaks.
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

log_of () {   # name
    echo "$logdir/$(echo "$1" | tr / _).log"
}

# A cmocka program's cases, from its log: passed and failed.
unit_counts () {   # name rc
    local log ok bad
    log=$(log_of "$1")
    ok=$(grep -c '^\[       OK \]' "$log")
    # cmocka names a failed case twice: where it fails and in its summary.
    bad=$(grep '^\[  FAILED  \]' "$log" | grep -v 'test(s)' | sort -u | wc -l)
    if [ "$2" -ne 0 ] && [ "$bad" -eq 0 ]; then
        bad=1       # crashed, or a sanitizer stopped it
    fi
    passed=$((passed + ok))
    failed=$((failed + bad))
    if [ "$bad" -gt 0 ]; then
        echo "FAIL $1 ($ok passed, $bad failed)"
        sed 's/^/    /' "$log" | tail -40
        failures+=("$1")
    else
        echo "ok   $1 ($ok cases)"
    fi
}

# A script: one test, passed if it exits 0.
script_counts () {   # name rc seconds
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok   $1 ($3 s)"
    else
        failed=$((failed + 1))
        echo "FAIL $1 (exit $2)"
        sed 's/^/    /' "$(log_of "$1")" | tail -60
        failures+=("$1")
    fi
}

# Wait for one running test to end, and say how it went.
reap () {
    local pid rc name
    wait -n -p pid "${!running[@]}"
    rc=$?
    name=${running[$pid]}
    if [ -n "${scripts[$pid]:-}" ]; then
        script_counts "$name" "$rc" "$(( $(date +%s) - started[$pid] ))"
    else
        unit_counts "$name" "$rc"
    fi
    unset "running[$pid]" "started[$pid]" "scripts[$pid]"
}

# Start a test once a slot is free (every slot, if it runs alone): a unit
# program, or a script with the programs of a build.
start () {   # build path [alone]
    local build=$1 path=$2 name width=1
    name="$build/$(basename "$path" .sh)"
    [ -z "${3:-}" ] || width=$jobs
    while [ ${#running[@]} -gt 0 ] && [ ${#running[@]} -gt $((jobs - width)) ]; do
        reap
    done
    if [ "$path" = "${path%.sh}" ]; then
        "$path" >"$(log_of "$name")" 2>&1 &
    else
        IOFLEET_BIN="$top/$build" timeout 300 bash "$path" >"$(log_of "$name")" 2>&1 &
        scripts[$!]=1
    fi
    running[$!]=$name
    started[$!]=$(date +%s)
    # Nothing starts beside a script that runs alone.
    [ "$width" -eq "$jobs" ] && reap
}

# What to run, "build path [alone]" each: the scripts that run alone first,
# one after another (the slots are emptied once for all of them, not
# once for each), then everything else, TEST_JOBS at a time.
first=${1:-}
alone=()
shared=()
for build in "$@"; do
    for bin in "$build"/tests/*; do
        [ -x "$bin" ] && [ -f "$bin" ] && shared+=("$build $bin")
    done
    for script in tests/${T:-t}*.sh; do
        [ -f "$script" ] || continue
        [ "$build" != "$first" ] && grep -q '^# runs once: ' "$script" && continue
        if grep -q '^# runs alone: ' "$script"; then
            alone+=("$build $script alone")
        else
            shared+=("$build $script")
        fi
    done
done
for item in "${alone[@]}" "${shared[@]}"; do
    # shellcheck disable=SC2086  # the build, the path, and "alone" for those
    start $item
done
while [ ${#running[@]} -gt 0 ]; do
    reap
done

[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
