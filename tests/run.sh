#!/usr/bin/env bash
# Run every test against each build directory given (build, build-asan):
# the cmocka unit programs in DIR/tests/, then the integration scripts
# tests/t*.sh with the programs of DIR. Prints one line per test and, last,
# "N passed, N failed"; exits non-zero if anything failed.
#
#   tests/run.sh build [build-asan ...]      everything
#   T=t0200 tests/run.sh build               only scripts matching t0200*
#
# A script that does not use the build's programs (it builds what it
# tests itself: the fuzz targets, the packages), or whose checks a
# sanitizers' build adds nothing to (rates held against another tool's,
# on code other scripts run under the sanitizers), says so with a line
# "# runs once: REASON" and runs with the first build only.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

passed=0
failed=0
failures=()
logdir=$(mktemp -d "${TMPDIR:-/tmp}/iofleet-tests.XXXXXX")
trap 'rm -rf "$logdir"' EXIT

# ASan/UBSan: stop at the first error, report leaks.
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

run_unit () {   # build binary
    local build=$1 bin=$2 name log ok bad rc
    name="$build/$(basename "$bin")"
    log="$logdir/$(echo "$name" | tr / _).log"
    "$bin" >"$log" 2>&1
    rc=$?
    ok=$(grep -c '^\[       OK \]' "$log")
    # cmocka names a failed case twice: where it fails and in its summary.
    bad=$(grep '^\[  FAILED  \]' "$log" | grep -v 'test(s)' | sort -u | wc -l)
    if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
        bad=1       # crashed, or a sanitizer stopped it
    fi
    passed=$((passed + ok))
    failed=$((failed + bad))
    if [ "$bad" -gt 0 ]; then
        echo "FAIL $name ($ok passed, $bad failed)"
        sed 's/^/    /' "$log" | tail -40
        failures+=("$name")
    else
        echo "ok   $name ($ok cases)"
    fi
}

run_script () {   # build script
    local build=$1 script=$2 name log rc start
    name="$build/$(basename "$script" .sh)"
    log="$logdir/$(echo "$name" | tr / _).log"
    start=$(date +%s)
    IOFLEET_BIN="$top/$build" timeout 300 bash "$script" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok   $name ($(( $(date +%s) - start )) s)"
    else
        failed=$((failed + 1))
        echo "FAIL $name (exit $rc)"
        sed 's/^/    /' "$log" | tail -60
        failures+=("$name")
    fi
}

first=${1:-}
for build in "$@"; do
    for bin in "$build"/tests/*; do
        [ -x "$bin" ] && [ -f "$bin" ] && run_unit "$build" "$bin"
    done
    for script in tests/${T:-t}*.sh; do
        [ -f "$script" ] || continue
        [ "$build" != "$first" ] && grep -q '^# runs once: ' "$script" && continue
        run_script "$build" "$script"
    done
done

[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
