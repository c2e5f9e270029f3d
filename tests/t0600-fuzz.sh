#!/usr/bin/env bash
# A short libFuzzer run of the message decoder and the scenario parser
# (`make fuzz` runs them longer): built with clang, ASan and UBSan; any
# crash, leak or assertion fails the test and leaves the input in
# $SCRATCH for a unit test to take over.
# runs once: it builds the fuzz targets itself, with clang and the sanitizers
. "$(dirname "$0")/lib.sh"

FUZZ_B=$SCRATCH/fuzz
make -s -C "$TOP" FUZZ_B="$FUZZ_B" fuzz-build >"$SCRATCH/build.log" 2>&1 ||
    { cat "$SCRATCH/build.log"; fail "the fuzz targets do not build"; }
tests_seconds=${FUZZ_TEST_SECONDS:-5}
"$TOP/tests/fuzz/run.sh" "$FUZZ_B" "$tests_seconds" || fail "the fuzzers found something"
echo "fuzz: ok"
