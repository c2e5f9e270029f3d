#!/usr/bin/env bash
# A direct randrw starts on a file the page cache does not hold: the
# layout writes through the cache, and direct requests over cached
# pages are refused by the kernel's non-blocking path (io_uring hands
# each to a worker thread) and pay for dropping the page, so the
# layout's pages go before the first request. Checked with fincore on
# the file a kept set leaves: none of its pages is cached after a
# request-bound O_DIRECT rndrd run.
. "$(dirname "$0")/lib.sh"

command -v fincore > /dev/null || fail "fincore (util-linux) is missing"
start_agent a1
cat > "$SCRATCH/dc.ini" <<INI
[global]
settle = 0
[agent a1]
endpoint = $ENDPOINT
[job dc]
agent = a1
workload = randrw
mode = rndrd
path = dc/f
files = 1
size = 8M
bs = 4K
requests = 64
direct = yes
keep = yes
INI
"$BIN/iofleet" run -q --no-db "$SCRATCH/dc.ini" -o "$SCRATCH/res" > "$SCRATCH/out" 2>&1 ||
    { cat "$SCRATCH/out"; fail "the run failed"; }
file=$SCRATCH/a1/dc/f
[ -f "$file" ] || fail "the kept set has no file $file"
pages=$(fincore --noheadings --output PAGES "$file" | tr -d ' ')
[ "$pages" = 0 ] || fail "$pages pages of the laid-out file are in the page cache after a direct run"
echo "ok: the direct run left none of the file's pages cached"
