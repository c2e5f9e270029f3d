#!/usr/bin/env bash
# scripts/bisect-example.sh: a `git bisect run` driver around the gate of
# `iofleet compare`. Measure the good commit once, then let git find the
# first commit that made it slower:
#
#   iofleet run seeds/dd.ini -o results/base           # on the good commit
#   git bisect start BAD GOOD
#   git bisect run scripts/bisect-example.sh results/base/results.json \
#       seeds/dd.ini [iofleet run flags: --agent NAME=ENDPOINT, --keys DIR ...]
#
# Each step builds what is bisected ($BUILD, default `make`), prepares the
# hosts ($PREPARE, a shell command, default none: install and boot the
# kernel under test on the agents' hosts, restart a daemon, ...), runs the
# scenario into $RESULTS_ROOT/<commit> (default results/bisect; the runs
# are kept, and recorded in the archive beside them labelled with their
# commit, so `iofleet history --db results/bisect/iofleet.db` shows the
# bisection afterwards), and compares it with the base under the bounds
# of $FAIL_ON (default 'MB/s<-5% %sys>+5% p99>+10%'). What it exits with
# is what `git bisect run` reads:
#
#   0    no real change past a bound: good
#   1    a real change past a bound: bad
#   125  this commit cannot be judged (its build failed, the hosts could
#        not be prepared, the run did not complete, or compare could not
#        judge a set: partial, failed, a test missing): skip it
#   128  a mistake in the setup (bad usage, a bad scenario): stop bisecting
#
# IOFLEET names the iofleet program (default: iofleet on the PATH).
set -u
set -f          # the bounds hold '%', '<' and '>', never globs

if [ $# -lt 2 ]; then
    echo "usage: $0 BASE.json SCENARIO.ini [iofleet run flags ...]" >&2
    exit 128
fi
base=$1
scenario=$2
shift 2
iofleet=${IOFLEET:-iofleet}
root=${RESULTS_ROOT:-results/bisect}
commit=$(git rev-parse --short HEAD) || exit 128

echo "bisect: $commit: building" >&2
if ! sh -c "${BUILD:-make}" >&2; then
    echo "bisect: $commit: the build failed: skip" >&2
    exit 125
fi
if [ -n "${PREPARE:-}" ] && ! sh -c "$PREPARE" >&2; then
    echo "bisect: $commit: preparing the hosts failed: skip" >&2
    exit 125
fi

dir=$root/$commit
rm -rf "$dir"
mkdir -p "$root"
rc=0
"$iofleet" run "$scenario" -o "$dir" --label "$commit" -q "$@" >&2 || rc=$?
case $rc in
    0|3) ;;     # 3: every test ran and the results are there; the archive failed
    2)  echo "bisect: $commit: iofleet run refused the scenario or the flags: stop" >&2
        exit 128 ;;
    *)  echo "bisect: $commit: the run did not complete (exit $rc): skip" >&2
        exit 125 ;;
esac

gates=()
for bound in ${FAIL_ON:-MB/s<-5% %sys>+5% p99>+10%}; do
    gates+=(--fail-on "$bound")
done
rc=0
"$iofleet" compare "$base" "$dir/results.json" --labels "base,$commit" "${gates[@]}" || rc=$?
case $rc in
    0)   echo "bisect: $commit: good" >&2 ;;
    1)   echo "bisect: $commit: bad" >&2 ;;
    125) echo "bisect: $commit: cannot be judged: skip" >&2 ;;
    *)   echo "bisect: $commit: iofleet compare exited $rc: stop" >&2
         exit 128 ;;
esac
exit "$rc"
