/*  tests/unit/coord_fio_keys.c: the table of fio's keys cannot drift from
    ours: every key and value it tells a user to write parses, and no row
    is for a key we spell as fio does; what a scenario is told.
*/
#include "../../coordinator/scenario/fio_keys.h"
#include "../../coordinator/scenario/scenario.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

//  Parse text, "KEY = VALUE, KEY = VALUE (a remark)", as job options;
//  every key must be a job option and every value must parse.
static void
s_assert_parses (const char *text)
{
    char copy [512];
    snprintf (copy, sizeof copy, "%s", text);
    char *remark = strstr (copy, " (");
    if (remark)
        *remark = 0;
    jobspec_t spec;
    jobspec_defaults (&spec);
    char *save = NULL;
    for (char *pair = strtok_r (copy, ",", &save); pair; pair = strtok_r (NULL, ",", &save)) {
        char key [64], value [64];
        if (sscanf (pair, " %63s = %63s", key, value) != 2)
            fail_msg ("'%s': '%s' is not KEY = VALUE", text, pair);
        const opt_def_t *opt = jobspec_option (key);
        if (!opt)
            fail_msg ("'%s': %s is not a job option", text, key);
        char reason [256];
        if (opt_parse (opt, value, &spec, reason, sizeof reason))
            fail_msg ("'%s': %s = %s: %s", text, key, value, reason);
    }
}

//  Every row: a key of fio's we do not have, mapped to a key we have or
//  to values that parse, or with what to use.
static void
test_table (void **state)
{
    (void) state;
    size_t rows = 0;
    for (const fio_key_t *row = fio_keys; row->fio; row++, rows++) {
        if (jobspec_option (row->fio))
            fail_msg ("%s is our key too: its row is never used", row->fio);
        if (row->ours && !jobspec_option (row->ours))
            fail_msg ("%s: %s is not a job option", row->fio, row->ours);
        if (!row->ours && !row->otherwise)
            fail_msg ("%s: neither a key of ours nor what to use", row->fio);
        for (const fio_value_t *value = row->values; value && value->fio; value++)
            s_assert_parses (value->ours);
    }
    assert_true (rows >= 20);
}

//  What a scenario's line with one of fio's keys is told.
static void
test_explain (void **state)
{
    (void) state;
    char out [512];
    assert_int_equal (fio_keys_explain ("rw", "randread", out, sizeof out), 0);
    assert_string_equal (out, "rw is fio's; here: workload = randrw, mode = rndrd");
    assert_int_equal (fio_keys_explain ("filename", "/data/f", out, sizeof out), 0);
    assert_string_equal (out, "filename is fio's; here: path = /data/f");
    assert_int_equal (fio_keys_explain ("numjobs", "4", out, sizeof out), 0);
    assert_string_equal (out, "numjobs is fio's; here: streams = 4");
    assert_int_equal (fio_keys_explain ("ioengine", "libaio", out, sizeof out), 0);
    assert_non_null (strstr (out, "here: engine = io_uring"));
    assert_int_equal (fio_keys_explain ("rw", "trim", out, sizeof out), 0);
    assert_string_equal (out, "rw is fio's, and rw = trim has no counterpart here; use "
                         "workload = read, write or randrw (trims are not done here)");
    assert_int_equal (fio_keys_explain ("ramp_time", "5", out, sizeof out), 0);
    assert_string_equal (out, "ramp_time is fio's; here: ramp = 5");
    //  A control byte of the file is quoted, not copied.
    assert_int_equal (fio_keys_explain ("filename", "a\033b", out, sizeof out), 0);
    assert_null (strchr (out, '\033'));
    //  Not fio's, or spelled as ours.
    assert_int_equal (fio_keys_explain ("colour", "blue", out, sizeof out), -1);
    assert_int_equal (fio_keys_explain ("size", "1M", out, sizeof out), -1);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_table),
        cmocka_unit_test (test_explain),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
