#!/usr/bin/env bash
# The corpus: stored runs of every workload and of the cases the reports
# treat apart (tests/corpus/runs/, made by tests/corpus/generate.sh),
# rendered in every format, compared, archived and listed by history
# (tests/corpus/render.sh), must come out as tests/corpus/expected/
# holds them, byte for byte. A change of output that is meant records
# itself there in the same commit (render.sh build tests/corpus/expected),
# so that the diff shows it; any other difference is a regression.
. "$(dirname "$0")/lib.sh"

bash "$TOP/tests/corpus/render.sh" "$BIN" "$SCRATCH/rendered" || fail "render.sh exited $?"
expected=$TOP/tests/corpus/expected
[ -s "$expected/exit-status.txt" ] || fail "no expected renderings in $expected"
if ! diff -r "$expected" "$SCRATCH/rendered" > "$SCRATCH/diff"; then
    head -80 "$SCRATCH/diff"
    fail "the corpus renders differently ($(grep -c '^diff\|^Only' "$SCRATCH/diff") files): see above"
fi
echo "corpus: $(ls "$expected" | wc -l) renderings as stored"
