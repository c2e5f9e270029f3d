#!/usr/bin/env bash
# `git bisect run scripts/bisect-example.sh` finds the commit that made a
# test slower, on a real agent: a scratch repository whose scenario caps
# a stream at 400 MB/s for three commits and at 100 MB/s from the fourth
# on. The base is measured on the first commit; bisect must name the
# fourth, and every step it took must be in the archive, labelled with
# its commit.
. "$(dirname "$0")/lib.sh"

start_agent a1
repo=$SCRATCH/repo
mkdir "$repo"
git -C "$repo" init -q
commits=()
for nbr in 1 2 3 4 5 6; do
    rate=400M
    [ "$nbr" -ge 4 ] && rate=100M
    {
        echo "[global]"
        echo "bs = 1M"
        echo "fsync = none"         # paced writes to the page cache: steady
        echo "iterations = 4"
        printf '[agent a1]\nendpoint = %s\n' "$ENDPOINT"
        printf '[job dd1]\nagent = a1\npath = d\nsize = 24M\nrate = %s\n' "$rate"
    } > "$repo/scenario.ini"
    echo "change $nbr" > "$repo/change.txt"
    git -C "$repo" add scenario.ini change.txt
    git -C "$repo" -c user.name=iofleet -c user.email=iofleet@example.invalid \
        commit -q -m "change $nbr"
    commits+=("$(git -C "$repo" rev-parse HEAD)")
done

git -C "$repo" checkout -q "${commits[0]}"
(cd "$repo" && "$BIN/iofleet" run scenario.ini -o "$SCRATCH/base" -q --no-db > /dev/null) ||
    fail "the base run exited $?"
git -C "$repo" checkout -q "${commits[5]}"
git -C "$repo" bisect start "${commits[5]}" "${commits[0]}" > /dev/null
# Throughput only: %sys over a window this short is a few clock ticks.
(cd "$repo" && IOFLEET=$BIN/iofleet BUILD=true RESULTS_ROOT=$SCRATCH/steps FAIL_ON='MB/s<-5%' \
    git bisect run "$TOP/scripts/bisect-example.sh" "$SCRATCH/base/results.json" scenario.ini) \
    > "$SCRATCH/bisect.log" 2>&1 || { cat "$SCRATCH/bisect.log"; fail "git bisect run failed"; }
grep -E "^bisect: |first bad commit|fail: " "$SCRATCH/bisect.log"
grep -q "^${commits[3]} is the first bad commit" "$SCRATCH/bisect.log" ||
    { cat "$SCRATCH/bisect.log"; fail "bisect did not name the fourth commit"; }
git -C "$repo" bisect reset -q 2>/dev/null || git -C "$repo" bisect reset > /dev/null

# Every step is in the archive, labelled with its commit.
steps=$(grep -c '^bisect: [0-9a-f]*: \(good\|bad\)$' "$SCRATCH/bisect.log")
[ "$steps" -ge 2 ] || fail "bisect judged $steps commits"
"$BIN/iofleet" history --db "$SCRATCH/steps/iofleet.db" > "$SCRATCH/history.txt" ||
    fail "history of the steps exited $?"
cat "$SCRATCH/history.txt"
[ "$(($(wc -l < "$SCRATCH/history.txt") - 1))" = "$steps" ] || fail "the archive lacks steps"
short=$(git -C "$repo" rev-parse --short "${commits[3]}")
grep -q "  $short  " "$SCRATCH/history.txt" || fail "the first bad commit's run is not labelled"

# A step that cannot be judged is skipped: the driver says 125.
rc=0
(cd "$repo" && IOFLEET=$BIN/iofleet BUILD=false RESULTS_ROOT=$SCRATCH/steps \
    "$TOP/scripts/bisect-example.sh" "$SCRATCH/base/results.json" scenario.ini) \
    > /dev/null 2>&1 || rc=$?
[ "$rc" = 125 ] || fail "a failed build was not skipped (exit $rc)"
echo "bisect: ok"
