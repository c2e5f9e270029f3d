#!/usr/bin/env bash
# `iofleet compare` on result sets built by hand (tests/resultset.py),
# six iterations each, so that the verdicts are known:
#   - the first run is a row of its own and the rest is iterations 2..6;
#   - a 5% shift inside the noise is marked "~" with its interval, and a
#     50% fall is real, with its interval;
#   - the gate (--fail-on) exits 0 for the first, 1 for the second, and
#     125 for a partial run, a failed one, a set lacking a test and a
#     file that cannot be read;
#   - a number written as a string, or -1e308, is refused by compare with
#     the words report refuses it with.
. "$(dirname "$0")/lib.sh"

make_set () {   # NAME KERNEL TEST...
    local name=$1 kernel=$2
    shift 2
    python3 "$TOP/tests/resultset.py" "$SCRATCH/$name.json" "$kernel" "$@" ||
        fail "could not build $name.json"
}
# dd1: first run 40, then 100 110 90 105 95; the others scaled. dd2 is the
# same everywhere, with a little noise.
make_set base 6.1 "dd1=40,100,110,90,105,95@20" "dd2=300,301,299,300,302,298@10"
make_set noisy 6.2 "dd1=42,105,115.5,94.5,110.25,99.75@20" "dd2=300,300,301,299,302,298@10"
make_set slower 6.3 "dd1=40,50,55,45,52.5,47.5@30" "dd2=300,301,299,300,302,298@10"
make_set partial 6.3 "dd1=40,50,55,45,52.5,47.5@30!lost" "dd2=300,301,299,300,302,298@10"
make_set failed 6.3 "dd1=40,100,110,90,105,95@20" "dd2=300,301,299,300,302,298@10!failed"
make_set lacking 6.3 "dd1=42,105,115.5,94.5,110.25,99.75@20"

"$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/noisy.json" "$SCRATCH/slower.json" \
    > "$SCRATCH/table.txt" || fail "compare exited $?"
cat "$SCRATCH/table.txt"
row () {    # TEST FIGURE: the cells of that line of the table
    python3 - "$SCRATCH/table.txt" "$1" "$2" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    cells = re.split(r"  +", line.rstrip("\n"))
    if cells[:2] == sys.argv[2:4]:
        print(" | ".join(cells[2:]))
        break
else:
    sys.exit("no row %s %s" % tuple(sys.argv[2:4]))
PY
}
# 5 vs 5 at 90%: the 5th smallest and largest of the 25 ratios, as
# changes: 99.75 / 105 .. 110.25 / 95, and 47.5 / 105 .. 52.5 / 95.
[ "$(row dd1 MB/s)" = "100 | 105 +5.0%~ [-5.0, +16.1] | 50 -50.0% [-54.8, -44.7]" ] ||
    fail "dd1 MB/s: $(row dd1 MB/s)"
[ "$(row 'dd1 first run' MB/s)" = "40 | 42 +5.0% | 40 +0.0%" ] ||
    fail "dd1 first run: $(row 'dd1 first run' MB/s)"
[ "$(row dd1 '%sys')" = "20.0 | 20.0 +0.0%~ [+0.0, +0.0] | 30.0 +50.0% [+50.0, +50.0]" ] ||
    fail "dd1 %sys: $(row dd1 '%sys')"
# dd2 moved by less than the noise: never real.
row dd2 MB/s | grep -q '+0.0%~ \[.*\] | 300 +0.0%~ \[' || fail "dd2 MB/s: $(row dd2 MB/s)"
# The spread is a figure of its own: the slower set varies half as much.
[ "$(row dd1 'MB/s stddev')" = "7.91 | 8.3 +5.0% | 3.95 -50.0%" ] ||
    fail "dd1 MB/s stddev: $(row dd1 'MB/s stddev')"

# The gate.
gate () {   # NEW.json: the exit status of compare base against it
    local rc=0
    "$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/$1" --fail-on 'MB/s<-5%' \
        --fail-on '%sys>+5%' --fail-on 'p99>+10%' > /dev/null 2> "$SCRATCH/gate.err" || rc=$?
    echo "$rc"
}
[ "$(gate noisy.json)" = 0 ] || { cat "$SCRATCH/gate.err"; fail "5% within the noise failed the gate"; }
grep -q "p99>+10%: no test has p99 figures; the bound checks nothing" "$SCRATCH/gate.err" ||
    fail "a bound on an absent figure is not noted"
[ "$(gate slower.json)" = 1 ] || { cat "$SCRATCH/gate.err"; fail "a real 50% fall passed"; }
grep -q "fail: dd1 MB/s 6.3: -50.0% \[-54.8, -44.7\], past MB/s<-5%" "$SCRATCH/gate.err" ||
    { cat "$SCRATCH/gate.err"; fail "the failure does not say what fell"; }
grep -q "fail: dd1 %sys 6.3: +50.0%" "$SCRATCH/gate.err" || fail "%sys rise not reported"
for set in partial failed lacking; do
    [ "$(gate $set.json)" = 125 ] || { cat "$SCRATCH/gate.err"; fail "$set: not 125"; }
    grep -q "cannot judge: 6.3 ($SCRATCH/$set.json)" "$SCRATCH/gate.err" ||
        { cat "$SCRATCH/gate.err"; fail "$set: no reason given"; }
done
[ "$(gate none.json)" = 125 ] || fail "an unreadable file is not 125 under a gate"
# A bound on the better side of a real change does not fail; a bad bound
# is bad usage.
"$BIN/iofleet" compare "$SCRATCH/slower.json" "$SCRATCH/base.json" --fail-on 'MB/s<-5%' \
    > /dev/null 2>&1 || fail "a real rise failed a bound on falls"
rc=0
"$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/noisy.json" --fail-on 'IOPS<-5%' \
    > /dev/null 2> "$SCRATCH/usage.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'no figure "IOPS"' "$SCRATCH/usage.err" || fail "a bad bound exited $rc"
# Without a gate, compare exits 0 whatever it finds.
"$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/partial.json" > /dev/null ||
    fail "compare without --fail-on did not exit 0"

# One reader: what report refuses, compare refuses with the same words.
python3 - "$SCRATCH" <<'PY'
import json, sys
d = sys.argv[1]
for name, value in (("string", "100"), ("huge", -1e308)):
    r = json.load(open(d + "/base.json"))
    r["tests"][2]["summary"]["combined_mbps"] = value
    json.dump(r, open("%s/%s.json" % (d, name), "w"))
PY
for bad in string huge; do
    rc=0
    "$BIN/iofleet" report "$SCRATCH/$bad.json" > /dev/null 2> "$SCRATCH/report.err" || rc=$?
    [ "$rc" = 1 ] || fail "report of $bad.json exited $rc"
    rc=0
    "$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/$bad.json" > /dev/null \
        2> "$SCRATCH/compare.err" || rc=$?
    [ "$rc" = 1 ] || fail "compare of $bad.json exited $rc"
    sed 's/^iofleet report: //' "$SCRATCH/report.err" > "$SCRATCH/report.why"
    sed 's/^iofleet compare: //' "$SCRATCH/compare.err" > "$SCRATCH/compare.why"
    cat "$SCRATCH/compare.err"
    cmp -s "$SCRATCH/report.why" "$SCRATCH/compare.why" ||
        fail "$bad.json: compare says $(cat "$SCRATCH/compare.why"), report $(cat "$SCRATCH/report.why")"
done
grep -q "tests\[2\].summary.combined_mbps: -1e+308 is out of range (0 to 1e+12)" "$SCRATCH/compare.err" ||
    fail "-1e308 is not named"

# The HTML page of the same table: the verdicts as classes, nothing external.
"$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/slower.json" --format html > "$SCRATCH/table.html" ||
    fail "compare --format html exited $?"
grep -q '<td class="worse">50 -50.0% \[-54.8, -44.7\]</td>' "$SCRATCH/table.html" ||
    fail "the fall is not marked worse in HTML"
! grep -qE '<(script|link|img)' "$SCRATCH/table.html" || fail "the page loads something"
echo "compare verdicts: ok"
