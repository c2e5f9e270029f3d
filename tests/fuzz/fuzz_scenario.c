/*  tests/fuzz/fuzz_scenario.c: libFuzzer target for the scenario parser.

    Every input is written to a scratch file and loaded as a scenario,
    then checked and destroyed: the parser must accept it or say why,
    and never crash, leak or read out of bounds.
*/
#include "../../coordinator/scenario/scenario.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

//  Load one input as a scenario file.
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    static char path [64];
    if (!path [0])
        snprintf (path, sizeof (path), "/tmp/iofleet-fuzz-scenario.%d.ini", (int) getpid ());
    FILE *file = fopen (path, "wb");
    if (!file)
        return 0;
    fwrite (data, 1, size, file);
    fclose (file);

    char err [1024] = "";
    scenario_t *scenario = scenario_load (path, err, sizeof (err));
    if (scenario) {
        scenario_check (scenario, err, sizeof (err));
        scenario_set_agent (scenario, "fuzz=tcp://127.0.0.1:1", err, sizeof (err));
        scenario_destroy (&scenario);
        assert (!scenario);
    }
    else
        assert (err [0]);
    unlink (path);
    return 0;
}
