#!/usr/bin/env bash
# Render every stored run of tests/corpus/runs/ the ways the programs can:
# each run as text (MB and MiB), JSON, CSV and HTML, and in bonnie++'s
# CSV (empty for a run without a bonnie test); the runs of their own
# kind in fio's json+ (not disk-again nor fleet: the same jobs again, on
# a scale a megabyte of bins would add nothing to); compare of runs side
# by side in every format and as a gate; the archive the runs make (its
# rows, as SQL values) and history over it. One file per rendering, and
# the exit status of each command in exit-status.txt; a results file
# rendered as JSON is its input again, and then only says so.
#
#   tests/corpus/render.sh BUILD OUTDIR
#
# The corpus test (t0705) renders into a scratch directory and compares
# it with tests/corpus/expected/; when a change of output is meant,
# `tests/corpus/render.sh build tests/corpus/expected` records it, and
# the diff of expected/ in the same commit shows what changed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$1" && pwd)
out=$2
runs=$top/tests/corpus/runs
work=$(mktemp -d "${TMPDIR:-/tmp}/iofleet-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
rm -rf "$out"
mkdir -p "$out"
status=$out/exit-status.txt

# render NAME COMMAND...: its stdout to NAME, its stderr to NAME.err
# (only when it wrote any), its exit status to the list.
render () {
    local name=$1 rc=0
    shift
    (cd "$work" && "$@") > "$out/$name" 2> "$out/$name.err" || rc=$?
    [ -s "$out/$name.err" ] || rm -f "$out/$name.err"
    echo "$name $rc" >> "$status"
}

# The runs are read from a copy, so that the paths a report prints of
# its input are the same wherever the checkout is.
cp -r "$runs" "$work/runs"
names=$(cd "$work/runs" && ls)

for run in $names; do
    file=runs/$run/results.json
    render "$run.txt" "$bin/iofleet" report "$file"
    render "$run.mib.txt" "$bin/iofleet" report "$file" --units MiB
    for format in json csv html bonnie-csv; do
        render "$run.$format" "$bin/iofleet" report "$file" --format "$format"
    done
    case $run in
        disk-again|fleet) ;;
        *) render "$run.fio-json" "$bin/iofleet" report "$file" --format fio-json ;;
    esac
    # The results file rendered again is its input: said in a line
    # rather than stored twice.
    if cmp -s "$out/$run.json" "$work/$file"; then
        echo "the results file rendered again is its input, byte for byte" > "$out/$run.json"
    fi
done

pair=(runs/disk/results.json runs/disk-again/results.json)
for format in text json csv html; do
    render "compare.$format" "$bin/iofleet" compare "${pair[@]}" --format "$format"
done
render compare.labels.txt "$bin/iofleet" compare "${pair[@]}" --labels one,two
render compare.test.txt "$bin/iofleet" compare "${pair[@]}" --test two --test iozone
render compare.gate.txt "$bin/iofleet" compare "${pair[@]}" --fail-on 'MB/s<-5%' --fail-on '%sys>+50%'
render compare.gate.blanks.txt "$bin/iofleet" compare "${pair[@]}" --fail-on 'MB/s < -5%'
render compare.three.txt "$bin/iofleet" compare "${pair[@]}" runs/random/results.json
render compare.partial.txt "$bin/iofleet" compare runs/faults/results.json runs/faults/results.json \
    --fail-on 'MB/s<-5%'

# The archive: every run imported, then its rows as values, each table
# in its own order; a results directory is named by its last part.
db=$work/archive.db
for run in $names; do
    render "import.$run.txt" "$bin/iofleet" db import --db "$db" "runs/$run/results.json"
done
python3 - "$db" > "$out/archive.txt" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = [r[0] for r in db.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
for table in tables:
    print("table", table)
    print(db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0])
    cursor = db.execute("SELECT * FROM %s ORDER BY rowid" % table)
    names = [d[0] for d in cursor.description]
    for row in cursor:
        cells = []
        for name, value in zip(names, row):
            if name == "results_dir" and isinstance(value, str):
                value = os.path.basename(value)
            cells.append("%s=%r" % (name, value))
        print("  " + " ".join(cells))
PY
echo "archive.txt 0" >> "$status"
render history.txt "$bin/iofleet" history --db "$db"
render history.test.txt "$bin/iofleet" history --db "$db" --test two
render history.label.txt "$bin/iofleet" history --db "$db" --label patched
render history.html "$bin/iofleet" history --db "$db" --test dd1 --format html
# A lost agent and a failed job: their figures marked, never plain.
render history.faults.txt "$bin/iofleet" history --db "$db" --test held
render history.failed.html "$bin/iofleet" history --db "$db" --test fails --format html
render compare.db.txt "$bin/iofleet" compare --db "$db" --by label
render compare.db.scenario.txt "$bin/iofleet" compare --db "$db" --by scenario

# Where the runs were read from is the scratch directory's name, which
# differs from one rendering to the next.
sed -i "s#$work#CORPUS#g" "$out"/*
