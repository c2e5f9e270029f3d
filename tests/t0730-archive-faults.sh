#!/usr/bin/env bash
# A database that is locked, corrupt or cannot be opened costs the run
# nothing but the archive: every test runs, the results directory is
# complete, the message says what failed and how to record the run later,
# and the exit status is 3 (1 stays "a test failed", 0 "all is well").
# Then `db import` records the run once the database is usable, and
# --no-db records nothing and exits 0.
. "$(dirname "$0")/lib.sh"

start_agent a1
{
    echo "[global]"
    echo "bs = 1M"
    echo "iterations = 2"
    printf '[agent a1]\nendpoint = %s\n' "$ENDPOINT"
    printf '[job dd1]\nagent = a1\npath = d\nsize = 8M\n'
} > "$SCRATCH/faults.ini"

# run NAME [flags]: run the scenario into $SCRATCH/NAME; sets RC and
# checks that the results directory is complete whatever RC is.
run () {
    local name=$1
    shift
    RC=0
    "$BIN/iofleet" run "$SCRATCH/faults.ini" -o "$SCRATCH/$name" -q "$@" \
        > "$SCRATCH/$name.out" 2> "$SCRATCH/$name.err" || RC=$?
    cat "$SCRATCH/$name.err"
    for f in results.json report.txt report.csv report.html; do
        [ -s "$SCRATCH/$name/$f" ] || fail "$name: the results directory lacks $f"
    done
    [ -e "$SCRATCH/$name/samples.jsonl" ] || fail "$name: the results directory lacks samples.jsonl"
    [ "$(RESULTS=$SCRATCH/$name json 'len(r["tests"])')" = 2 ] || fail "$name: not every test ran"
    grep -q "^dd1 #2 " "$SCRATCH/$name.out" || fail "$name: no report on stdout"
}

# Locked: another process holds the write lock for the whole run.
mkdir "$SCRATCH/locked"
python3 "$TOP/tests/resultset.py" "$SCRATCH/locked/seed.json" 6.1 "dd1=1,2"
"$BIN/iofleet" db import "$SCRATCH/locked/seed.json" --db "$SCRATCH/locked/iofleet.db" > /dev/null ||
    fail "could not make an archive"
python3 - "$SCRATCH/locked/iofleet.db" "$SCRATCH/locked/held" <<'PY' &
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(120)
PY
PIDS+=($!)
for i in $(seq 100); do [ -e "$SCRATCH/locked/held" ] && break; sleep 0.05; done
run locked/run
[ "$RC" = 3 ] || fail "a locked archive: exit $RC, not 3"
grep -q "archive $SCRATCH/locked/iofleet.db: database is locked; the run goes on without the archive" \
    "$SCRATCH/locked/run.err" || fail "a locked archive: no clear message"
grep -qF "iofleet db import $SCRATCH/locked/run/results.json --db $SCRATCH/locked/iofleet.db" \
    "$SCRATCH/locked/run.err" || fail "a locked archive: the message does not say how to record the run"
kill "${PIDS[-1]}"
wait "${PIDS[-1]}" 2>/dev/null || true
# Unlocked, the import the message proposed records it.
"$BIN/iofleet" db import "$SCRATCH/locked/run/results.json" --db "$SCRATCH/locked/iofleet.db" > /dev/null ||
    fail "the import after the lock failed"
"$BIN/iofleet" history --db "$SCRATCH/locked/iofleet.db" > "$SCRATCH/locked/history.txt"
[ "$(wc -l < "$SCRATCH/locked/history.txt")" = 3 ] || fail "the run is not in the archive after import"
grep -qF "$SCRATCH/locked/run" "$SCRATCH/locked/history.txt" || fail "history lacks the imported run"

# Corrupt: a file that is not a database is left as it is.
mkdir "$SCRATCH/corrupt"
head -c 8192 /dev/urandom > "$SCRATCH/corrupt/iofleet.db"
cp "$SCRATCH/corrupt/iofleet.db" "$SCRATCH/corrupt.before"
run corrupt/run
[ "$RC" = 3 ] || fail "a corrupt archive: exit $RC, not 3"
grep -q "archive $SCRATCH/corrupt/iofleet.db: file is not a database; the run goes on" \
    "$SCRATCH/corrupt/run.err" || fail "a corrupt archive: no clear message"
cmp -s "$SCRATCH/corrupt/iofleet.db" "$SCRATCH/corrupt.before" || fail "the corrupt file was changed"
rc=0
"$BIN/iofleet" history --db "$SCRATCH/corrupt/iofleet.db" 2> "$SCRATCH/corrupt/history.err" || rc=$?
[ "$rc" = 1 ] && grep -q "file is not a database" "$SCRATCH/corrupt/history.err" ||
    fail "history of a corrupt archive exited $rc"

# Cannot be opened: --db in a directory that is not there.
run unopenable --db "$SCRATCH/nowhere/iofleet.db"
[ "$RC" = 3 ] || fail "an archive that cannot be opened: exit $RC, not 3"
grep -q "archive $SCRATCH/nowhere/iofleet.db: unable to open database file" "$SCRATCH/unopenable.err" ||
    fail "an archive that cannot be opened: no clear message"

# Not a regular file: a FIFO is refused at once by every command that
# opens the archive (a reader's open of a FIFO would wait for a writer).
mkfifo "$SCRATCH/fifo.db"
for command in "history --db $SCRATCH/fifo.db" "compare --db $SCRATCH/fifo.db --by kernel"; do
    rc=0
    # shellcheck disable=SC2086
    timeout 10 "$BIN/iofleet" $command > /dev/null 2> "$SCRATCH/fifo.err" || rc=$?
    [ "$rc" = 1 ] && grep -q "archive $SCRATCH/fifo.db: not a regular file" "$SCRATCH/fifo.err" ||
        { cat "$SCRATCH/fifo.err"; fail "$command on a FIFO exited $rc"; }
done
run fifo --db "$SCRATCH/fifo.db"
[ "$RC" = 3 ] && grep -q "archive $SCRATCH/fifo.db: not a regular file; the run goes on" \
    "$SCRATCH/fifo.err" || fail "run --db on a FIFO: exit $RC"
[ -p "$SCRATCH/fifo.db" ] || fail "the FIFO was replaced"

# --no-db: no archive, exit 0; and the default archive sits beside the
# results directory.
mkdir "$SCRATCH/plain"
run plain/none --no-db
[ "$RC" = 0 ] || fail "--no-db exited $RC"
[ ! -e "$SCRATCH/plain/iofleet.db" ] || fail "--no-db made an archive"
run plain/beside
[ "$RC" = 0 ] || fail "a run with its archive exited $RC"
[ -s "$SCRATCH/plain/iofleet.db" ] || fail "no archive beside the results directory"
! grep -q archive "$SCRATCH/plain/beside.err" || fail "a good archive complained"
# Locked mid-run: another process takes the lock once the first of three
# tests is archived. Released while the run goes on, the archive is tried
# again at the end and holds the whole run (exit 0); held past the end,
# it holds the first test, marked cut short, and history says so (exit 3).
{
    echo "[global]"
    echo "bs = 64K"
    echo "rate = 4M"
    echo "settle = 0"
    printf '[agent a1]\nendpoint = %s\n' "$ENDPOINT"
    for t in t1 t2 t3; do printf '[job %s]\nagent = a1\npath = %s\nsize = 3M\n' $t $t; done
} > "$SCRATCH/midrun.ini"
# hold DB DIR: take the lock once a test is archived, touch DIR/held, and
# let go when DIR/release appears.
hold () {
    python3 - "$1" "$2" <<'PY' &
import os, sqlite3, sys, time
path, where = sys.argv[1], sys.argv[2]
deadline = time.time() + 60
while time.time() < deadline:
    try:
        if os.path.exists(path) and sqlite3.connect(path, timeout=5).execute(
                "SELECT count(*) FROM tests").fetchone()[0] >= 1:
            break
    except sqlite3.Error:
        pass
    time.sleep(0.02)
db = sqlite3.connect(path, isolation_level=None, timeout=5)
db.execute("BEGIN EXCLUSIVE")
open(os.path.join(where, "held"), "w").close()
while time.time() < deadline and not os.path.exists(os.path.join(where, "release")):
    time.sleep(0.02)
db.execute("ROLLBACK")
PY
    PIDS+=($!)
}
for case in released held; do
    dir=$SCRATCH/mid-$case
    mkdir "$dir"
    hold "$dir/iofleet.db" "$dir"
    rc=0
    "$BIN/iofleet" run "$SCRATCH/midrun.ini" -o "$dir/run" --db "$dir/iofleet.db" -q \
        > "$dir/run.out" 2> "$dir/run.err" &
    run_pid=$!
    PIDS+=($run_pid)
    wait_log "$dir/run.err" "database is locked; the run goes on"
    [ "$case" = released ] && touch "$dir/release"
    wait "$run_pid" || rc=$?
    touch "$dir/release"
    cat "$dir/run.err"
    [ "$(RESULTS=$dir/run json 'len(r["tests"])')" = 3 ] || fail "$case: not every test ran"
    tests=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(
        'SELECT count(*), max(cut_short) FROM tests JOIN runs ON runs.id = run_id').fetchone())" \
        "$dir/iofleet.db")
    "$BIN/iofleet" history --db "$dir/iofleet.db" > "$dir/history.txt"
    "$BIN/iofleet" history --db "$dir/iofleet.db" --test t1 > "$dir/history.t1.txt"
    if [ "$case" = released ]; then
        [ "$rc" = 0 ] || fail "a lock released mid-run: exit $rc, not 0"
        grep -q "the run is recorded after all" "$dir/run.err" || fail "released: no word of it"
        [ "$tests" = "(3, 0)" ] || fail "released: the archive holds $tests, not the whole run"
        ! grep -q "cut short" "$dir/history.txt" || fail "released: history says cut short"
    else
        [ "$rc" = 3 ] || fail "a lock held past the run: exit $rc, not 3"
        grep -q "the archive holds 1 of the run's 3 tests, marked cut short" "$dir/run.err" ||
            fail "held: the message does not say what the archive holds"
        [ "$tests" = "(1, 1)" ] || fail "held: the archive holds $tests"
        grep -q "t1 x1, cut short" "$dir/history.txt" || fail "held: history lists it as whole"
        grep -q "1, run cut short" "$dir/history.t1.txt" || fail "held: history --test says nothing"
        grep -qF "$(printf '%s' '*: over a partial run')" "$dir/history.t1.txt" ||
            fail "held: no note on the marked figures"
    fi
done
echo "archive faults: ok"
