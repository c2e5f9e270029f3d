#!/usr/bin/env bash
# The demo (configs/demo.ini, as scripts/demo.sh runs it: two agents on
# loopback and an NFS server for mix3) run as it is: every figure of its
# report.txt is on its page and in its results.json and report.csv
# (tests/page_figures.py, report_figures.py).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

export_dir=$SCRATCH/export
nfs_server "$export_dir"
sed -e "s|nfs://NFS_SERVER/EXPORT|$NFS_URL|" -e "s|EXPORT|$export_dir|" \
    "$TOP/configs/demo.ini" > "$SCRATCH/demo.ini"
start_agent a1 --root "$export_dir"; E1=$ENDPOINT
start_agent a2 --allow-nfs "$NFS_ADDR"; E2=$ENDPOINT
r=$SCRATCH/demo
"$BIN/iofleet" run "$SCRATCH/demo.ini" --agent "a1=$E1" --agent "a2=$E2" -q --no-db -o "$r" \
    > "$SCRATCH/demo.out" 2>&1 || { cat "$SCRATCH/demo.out"; fail "the demo exited $?"; }
python3 "$TOP/tests/page_figures.py" "$r/report.txt" "$r/report.html" "$r/results.json" \
    "$r/report.csv" || fail "the demo's page, results or CSV lack figures of its text"
echo "demo: $(wc -l < "$r/report.txt") lines of text, every figure on the page, in the results" \
     "and in the CSV"
