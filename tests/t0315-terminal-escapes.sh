#!/usr/bin/env bash
# Text from peers and files never reaches the terminal raw. A corpus of
# terminal escapes (ESC, a CSI that clears the screen, an OSC ended by
# BEL, CR, a line break followed by a fake log line, invalid UTF-8, an
# 8-bit CSI) is put in every string a peer or a file supplies:
#
# - an agent whose host name (and so its name) is the corpus, in a UTS
#   namespace of its own: `iofleet ping`, and `iofleet run` with the
#   corpus as --label, its report, and history and compare --by over the
#   archive it wrote;
# - a console whose host name is the corpus holds that agent busy, so
#   that the coordinator name the agent quotes is the corpus: ping's
#   "serving" column and the busy refusal another run gets;
# - results files whose test names, kernels and labels are the corpus
#   (as JSON escapes), and files holding NUL or invalid UTF-8: compare in
#   every format, its gate's messages, db import, history and compare
#   --by.
#
# Every output must be valid UTF-8 without a control byte but the line
# break (C0, DEL, C1), and no line may begin with the fake log line.
. "$(dirname "$0")/lib.sh"

command -v unshare > /dev/null || fail "unshare is missing (util-linux)"
CORPUS=$'h\e[2J\e]0;t\a\r\xff\xfe\xc2\x9b\nagent=s1 event=fake'
# JSON holds only valid UTF-8 and no NUL: those two come as files of
# their own below.
JSON_CORPUS=$'t\e[2J\e]0;t\a\r\xc2\x9b\x7f\nFAKE LINE'

# check_clean FILE...: fails the test if a file holds a control byte, a
# C1 character, invalid UTF-8 or a line that begins with a fake line
# (a CSV file may end its lines with CR LF, JSON may hold a DEL).
check_clean () {
    python3 - "$@" <<'PY' || fail "raw terminal text in the output (above)"
import re, sys
bad = False
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print("%s: invalid UTF-8 at byte %d" % (path, e.start)); bad = True; continue
    if path.endswith(".csv"):
        text = text.replace("\r\n", "\n")     # CSV's own line ends (RFC 4180)
    if path.endswith(".json"):
        text = text.replace("\x7f", "")        # JSON keeps DEL, which a terminal ignores
    found = re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", text)
    if found:
        print("%s: control character U+%04X at %d: %r" % (path, ord(found.group()), found.start(),
              text[max(0, found.start() - 40):found.start() + 40]))
        bad = True
    for line in text.split("\n"):
        if line.startswith("agent=s1 event=fake") or line.startswith("FAKE LINE"):
            print("%s: a fake line: %r" % (path, line)); bad = True
sys.exit(1 if bad else 0)
PY
}

# in_uts HOSTNAME PROGRAM ARGS...: exec PROGRAM in a UTS namespace whose
# host name is HOSTNAME (bytes as given), in this process.
in_uts () {
    local host=$1
    shift
    exec unshare -u python3 -c '
import os, socket, sys
socket.sethostname(os.fsencode(sys.argv[1]))
os.execv(sys.argv[2], sys.argv[2:])' "$host" "$@"
}

# The agent: no --name, so that its name is its host name.
mkdir -p "$SCRATCH/evil"
( in_uts "$CORPUS" "$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --root "$SCRATCH/evil" \
    2> "$SCRATCH/evil.log" ) &
PIDS+=($!)
wait_bound evil
E=$ENDPOINT

# ping: name and host.
"$BIN/iofleet" ping "$E" > "$SCRATCH/ping.out" 2>&1 || { cat "$SCRATCH/ping.out"; fail "ping failed"; }
check_clean "$SCRATCH/ping.out"
grep -qF 'h\x1B[2J\x1B]0;t\x07\x0D\xFF\xFE\xC2\x9B\x0Aagent=s1 event=fake' "$SCRATCH/ping.out" ||
    { cat "$SCRATCH/ping.out"; fail "ping does not show the name escaped"; }

# run with the corpus as label; its report, and the archive it wrote.
printf '[agent a1]\nendpoint = %s\n[job t1]\nagent = a1\npath = w\nsize = 1M\nbs = 64K\nsettle = 0\n' \
    "$E" > "$SCRATCH/run.ini"
rc=0
"$BIN/iofleet" run "$SCRATCH/run.ini" -o "$SCRATCH/run" --db "$SCRATCH/a.db" --label "$CORPUS" \
    --progress lines > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" || rc=$?
[ "$rc" = 0 ] || { cat "$SCRATCH/run.err"; fail "the run exited $rc"; }
grep -q "event=name-differs" "$SCRATCH/run.err" || fail "the run did not say the agent's name differs"
check_clean "$SCRATCH/run.out" "$SCRATCH/run.err" "$SCRATCH/run/report.txt" "$SCRATCH/run/report.csv"
for format in text csv html; do
    "$BIN/iofleet" report "$SCRATCH/run/results.json" --format "$format" > "$SCRATCH/report.$format" ||
        fail "report --format $format failed"
    check_clean "$SCRATCH/report.$format"
done
"$BIN/iofleet" history --db "$SCRATCH/a.db" > "$SCRATCH/history.out" 2>&1 || fail "history failed"
"$BIN/iofleet" history --db "$SCRATCH/a.db" --test t1 > "$SCRATCH/history-t1.out" 2>&1 ||
    fail "history --test failed"
check_clean "$SCRATCH/history.out" "$SCRATCH/history-t1.out"
grep -qF 'h\x1B[2J' "$SCRATCH/history.out" || fail "history lost the label"
for by in label host kernel scenario; do
    "$BIN/iofleet" compare --db "$SCRATCH/a.db" --by "$by" > "$SCRATCH/by-$by.out" 2>&1 ||
        { cat "$SCRATCH/by-$by.out"; fail "compare --by $by failed"; }
    check_clean "$SCRATCH/by-$by.out"
done
grep -qF 'h\x1B[2J' "$SCRATCH/by-label.out" || fail "compare --by label lost the label"

# A console whose host name is the corpus holds the agent; ping shows
# whom it serves, and another run is refused as busy.
printf '[agent a1]\nendpoint = %s\n[job hold]\nagent = a1\npath = h\nsize = 64M\nbs = 64K\nrate = 1M\n' \
    "$E" > "$SCRATCH/hold.ini"
( in_uts "$CORPUS" "$BIN/iofleet" run "$SCRATCH/hold.ini" -o "$SCRATCH/hold" --no-db -q \
    > /dev/null 2>&1 ) &
PIDS+=($!)
wait_log "$SCRATCH/evil.log" "event=start .*test=hold"
"$BIN/iofleet" ping "$E" > "$SCRATCH/busy-ping.out" 2>&1 || { cat "$SCRATCH/busy-ping.out"; fail "ping failed"; }
check_clean "$SCRATCH/busy-ping.out"
grep -qF 'event=fake pid=' "$SCRATCH/busy-ping.out" ||
    { cat "$SCRATCH/busy-ping.out"; fail "ping does not say whom the agent serves"; }
printf '[global]\nconnect_timeout = 1s\n' | cat - "$SCRATCH/run.ini" > "$SCRATCH/busy.ini"
rc=0
timeout 30 "$BIN/iofleet" run "$SCRATCH/busy.ini" -o "$SCRATCH/busy" --no-db -q \
    > "$SCRATCH/busy.out" 2> "$SCRATCH/busy.err" || rc=$?
[ "$rc" = 1 ] && grep -q "busy: agent .* serves coordinator" "$SCRATCH/busy.err" ||
    { cat "$SCRATCH/busy.err"; fail "the run on a busy agent exited $rc without saying so"; }
check_clean "$SCRATCH/busy.out" "$SCRATCH/busy.err"

# Results files carrying the corpus: compare in every format and with a
# gate, db import, history and compare --by.
python3 "$TOP/tests/resultset.py" "$SCRATCH/a.json" "$JSON_CORPUS" --label "$JSON_CORPUS" \
    "$JSON_CORPUS=100,100,100,100" "dd1=50,50,50,50"
python3 "$TOP/tests/resultset.py" "$SCRATCH/b.json" "k2$JSON_CORPUS" --label "b$JSON_CORPUS" \
    --start 1796000100 "$JSON_CORPUS=10,10,10,10" "dd1=50,50,50,50"
python3 - "$SCRATCH/a.json" "$SCRATCH/b.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    r = json.load(open(path))
    r["scenario"] = r["agents"][0]["hostname"] = r["agents"][0]["name"] = r["label"]
    json.dump(r, open(path, "w"))
PY
for format in text csv json html; do
    rc=0
    "$BIN/iofleet" compare "$SCRATCH/a.json" "$SCRATCH/b.json" --format "$format" \
        > "$SCRATCH/compare.$format" 2>&1 || rc=$?
    [ "$rc" = 0 ] || { cat "$SCRATCH/compare.$format"; fail "compare --format $format exited $rc"; }
    check_clean "$SCRATCH/compare.$format"
done
grep -qF 't\x1B[2J' "$SCRATCH/compare.text" || fail "compare lost the test name"
rc=0
"$BIN/iofleet" compare "$SCRATCH/a.json" "$SCRATCH/b.json" --fail-on 'MB/s<-5%' \
    --labels "$CORPUS,x" > "$SCRATCH/gate.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$SCRATCH/gate.out"; fail "the gate exited $rc, not 1"; }
grep -q "iofleet compare: fail: " "$SCRATCH/gate.out" || fail "the gate did not say why"
check_clean "$SCRATCH/gate.out"
"$BIN/iofleet" db import "$SCRATCH/a.json" "$SCRATCH/b.json" --db "$SCRATCH/b.db" \
    > "$SCRATCH/import.out" 2>&1 || { cat "$SCRATCH/import.out"; fail "db import failed"; }
"$BIN/iofleet" history --db "$SCRATCH/b.db" > "$SCRATCH/history-b.out" 2>&1 || fail "history failed"
"$BIN/iofleet" history --db "$SCRATCH/b.db" --test "$JSON_CORPUS" > "$SCRATCH/history-bt.out" 2>&1 ||
    fail "history --test failed"
check_clean "$SCRATCH/import.out" "$SCRATCH/history-b.out" "$SCRATCH/history-bt.out"
for by in label host kernel scenario; do
    "$BIN/iofleet" compare --db "$SCRATCH/b.db" --by "$by" > "$SCRATCH/by-b-$by.out" 2>&1 ||
        { cat "$SCRATCH/by-b-$by.out"; fail "compare --by $by failed"; }
    check_clean "$SCRATCH/by-b-$by.out"
done

# Files that hold what JSON cannot: a NUL and invalid UTF-8. They are
# refused, and the refusal quotes nothing raw.
sed 's/"dd1"/"d\\u0000\\u001b[2J"/' "$SCRATCH/a.json" > "$SCRATCH/nul.json"
sed $'s/"dd1"/"d\xff\e[2J"/' "$SCRATCH/a.json" > "$SCRATCH/utf8.json"
for file in nul utf8; do
    for command in "compare $SCRATCH/$file.json" "report $SCRATCH/$file.json" \
                   "db import $SCRATCH/$file.json --db $SCRATCH/c.db"; do
        rc=0
        # shellcheck disable=SC2086
        "$BIN/iofleet" $command > "$SCRATCH/refused.out" 2>&1 || rc=$?
        [ "$rc" != 0 ] || fail "$command accepted a file with $file"
        check_clean "$SCRATCH/refused.out"
    done
done
echo "terminal escapes: ok"
