#!/usr/bin/env bash
# Results files no run wrote are refused by every reader alike, with the
# place and the reason: a rate past any fleet (1.797e308 MB/s), the same
# run of a test listed twice, an agent listed twice. compare refuses them
# before any table: exit 1, and with --fail-on 125, "cannot tell", never
# 0; db import says what is wrong instead of meeting the archive's
# UNIQUE constraint.
. "$(dirname "$0")/lib.sh"

python3 "$TOP/tests/resultset.py" "$SCRATCH/base.json" 6.1 "dd1=100,100"
# mutate NAME PYTHON: a copy of base.json changed by PYTHON (r: the document).
mutate () {
    python3 - "$SCRATCH/base.json" "$SCRATCH/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"), indent=1)
PY
}
mutate huge 'r["tests"][0]["summary"]["combined_mbps"] = 1.797e308'
mutate twice 'r["tests"].append(r["tests"][0])'
mutate agents 'r["agents"].append(r["agents"][0])'

expect () {   # NAME MESSAGE
    local rc=0 gate
    for gate in "" "--fail-on=MB/s>+5%"; do
        rc=0
        "$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/$1.json" ${gate:+"$gate"} \
            > "$SCRATCH/$1.out" 2> "$SCRATCH/$1.err" || rc=$?
        cat "$SCRATCH/$1.err"
        [ "$rc" = "$([ -n "$gate" ] && echo 125 || echo 1)" ] ||
            fail "compare $gate of $1: exit $rc"
        grep -qF "$SCRATCH/$1.json: $2" "$SCRATCH/$1.err" || fail "compare of $1: no clear message"
        [ ! -s "$SCRATCH/$1.out" ] || fail "compare of $1 printed a table"
    done
    rc=0
    "$BIN/iofleet" db import "$SCRATCH/$1.json" --db "$SCRATCH/$1.db" \
        > /dev/null 2> "$SCRATCH/$1.import.err" || rc=$?
    cat "$SCRATCH/$1.import.err"
    [ "$rc" != 0 ] || fail "db import of $1 succeeded"
    grep -qF "$SCRATCH/$1.json: $2" "$SCRATCH/$1.import.err" || fail "db import of $1: no clear message"
    ! grep -q "UNIQUE constraint" "$SCRATCH/$1.import.err" || fail "db import of $1: a raw SQL error"
}
expect huge 'tests[0].summary.combined_mbps: 1.797e+308 is out of range (0 to 1e+12)'
expect twice 'tests[2].name: test "dd1" iteration 1 is there twice (also tests[0])'
expect agents 'agents[1].name: agent '
# The file itself is fine.
"$BIN/iofleet" compare "$SCRATCH/base.json" "$SCRATCH/base.json" > /dev/null ||
    fail "compare of a good file with itself failed"
echo "absurd results: ok"
