/*  tests/unit/coord_report_wire.c: what the reports make of a test that
    did not finish cleanly, and of strings that came from the wire.

    A lost stream shows its last sample's bytes as a lower bound ("≥ N")
    and the combined figure of its test is marked partial, as it is for a
    failed or aborted stream; names, hosts, paths and errors with control
    bytes reach no report raw; frames an agent sent that did not decode are
    in the footer; the JSON keeps all of it for a re-rendering.
*/
#include "../../coordinator/results/results_file.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/report/report.h"
#include "render.h"
#include "../../proto/clock.h"
#include "scratch.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#define MS (NS_PER_MSEC)

//  A finished stream of a test.
static void
s_stream (stream_result_t *stream, const char *agent, uint64_t bytes, int64_t end_ns)
{
    memset (stream, 0, sizeof *stream);
    snprintf (stream->agent, sizeof stream->agent, "%s", agent);
    snprintf (stream->job, sizeof stream->job, "held-%s", agent);
    assert_int_equal (stream_result_set_path (stream, "/x/held"), 0);
    stream->finished = true;
    stream->bytes = bytes;
    stream->start_ns = 1 * MS;
    stream->last_write_ns = stream->end_ns = end_ns;
}

//  held: a1 wrote 24 MB in 2 s; a3 was lost after a sample of 8 MB at
//  1 s. aborted: one stream stopped with an error, its RESULT in hand.
//  The strings of a3 carry what a hostile or broken agent might send.
static void
s_run_build (run_result_t *run)
{
    memset (run, 0, sizeof *run);
    snprintf (run->scenario_path, sizeof run->scenario_path, "held.ini");
    run->agents = calloc (1, sizeof (agent_info_t));
    assert_non_null (run->agents);
    run->agent_count = 1;
    snprintf (run->agents [0].name, sizeof run->agents [0].name, "a3");
    snprintf (run->agents [0].hostname, sizeof run->agents [0].hostname, "evil\x1b[31mhost");
    snprintf (run->agents [0].kernel, sizeof run->agents [0].kernel, "6.1\r\n\xc2\x9b" "2J");
    run->agents [0].malformed_frames = 7;
    run->tests = calloc (2, sizeof (test_result_t));
    assert_non_null (run->tests);
    run->test_count = run->test_capacity = 2;

    test_result_t *held = &run->tests [0];
    snprintf (held->name, sizeof held->name, "held");
    held->iteration = 1;
    held->streams = calloc (2, sizeof (stream_result_t));
    assert_non_null (held->streams);
    held->stream_count = 2;
    s_stream (&held->streams [0], "a1", 24000000, 2000 * MS);
    stream_result_t *lost = &held->streams [1];
    s_stream (lost, "a3", 0, 0);
    lost->finished = false;
    lost->lost = true;
    assert_int_equal (stream_result_set_error (lost, "agent lost\n\x1b]0;pwned\x07"), 0);
    assert_int_equal (stream_result_add_sample (lost, 500 * MS, 4000000), 0);
    assert_int_equal (stream_result_add_sample (lost, 1000 * MS, 8000000), 0);

    test_result_t *aborted = &run->tests [1];
    snprintf (aborted->name, sizeof aborted->name, "aborted");
    aborted->iteration = 1;
    aborted->streams = calloc (2, sizeof (stream_result_t));
    assert_non_null (aborted->streams);
    aborted->stream_count = 2;
    s_stream (&aborted->streams [0], "a1", 10000000, 1000 * MS);
    s_stream (&aborted->streams [1], "a2", 5000000, 1000 * MS);
    assert_int_equal (stream_result_set_error (&aborted->streams [1],
                                               "aborted: an agent was lost (on_lost = abort)"), 0);
    for (size_t nbr = 0; nbr < run->test_count; nbr++)
        aggregate_test (&run->tests [nbr]);
}

//  Whether text holds a control byte other than those that end lines.
static bool
s_has_control (const char *text)
{
    for (; *text; text++) {
        unsigned char c = (unsigned char) *text;
        if ((c < 0x20 && c != '\n' && c != '\r') || c == 0x7f)
            return true;
        //  A C1 control as UTF-8: U+0080 .. U+009F.
        if (c == 0xc2 && (unsigned char) text [1] >= 0x80 && (unsigned char) text [1] <= 0x9f)
            return true;
    }
    return false;
}

static void
test_lost_stream_in_the_text (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    char *text = render_report (&run, REPORT_FORMAT_TEXT);
    //  The lost stream's bytes, marked as a lower bound, in its row, in
    //  its FAILED line with the instant, and in its test's total.
    assert_non_null (strstr (text, "  a3     held-a3  0       ≥ 8000000  -"));
    assert_non_null (strstr (text, "FAILED  test held agent a3 job held-a3 stream 0: "
                                   "agent lost\\x0A\\x1B]0;pwned\\x07 "
                                   "(last sample 8000000 bytes at 1.000 s)\n"));
    assert_non_null (strstr (text, "held: 2 streams on 2 hosts (1 failed), ≥ 32000000 bytes, "
                                   "window 0.000 .. 2000 ms\n"));
    //  32e6 B over 0 .. 2 s = 16 MB/s, partial; so is the aborted test's
    //  15e6 B over 1 .. 1000 ms (the streams at 10 and 5 MB/s).
    assert_non_null (strstr (text, "\nheld     2        12.0+-      16 partial  -  "));
    assert_non_null (strstr (text, "\naborted  2        10.0+5.01   15 partial  15 "));
    assert_false (s_has_control (text));
    assert_non_null (strstr (text, "evil\\x1B[31mhost"));
    //  The frames the agent sent that did not decode, in the footer.
    const char *footer = "\nmalformed frames dropped: a3 7\n";
    assert_string_equal (text + strlen (text) - strlen (footer), footer);
    assert_non_null (strstr (text, "6.1\\x0D\\x0A\\xC2\\x9B2J"));
    free (text);
    run_result_clear (&run);
}

static void
test_wire_strings_escaped (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    //  A test name from a results file of anyone's making.
    snprintf (run.tests [1].name, sizeof run.tests [1].name, "ab\x1b[Korted");
    char *text = render_report (&run, REPORT_FORMAT_TEXT);
    assert_false (s_has_control (text));
    assert_non_null (strstr (text, "\nab\\x1B[Korted  2 "));
    assert_non_null (strstr (text, "FAILED  test ab\\x1B[Korted agent a2 "));
    free (text);
    char *csv = render_report (&run, REPORT_FORMAT_CSV);
    assert_false (s_has_control (csv));
    assert_non_null (strstr (csv, ",agent lost\\x0A\\x1B]0;pwned\\x07,"));
    //  The row's name, then its test's: a test without phases is its row.
    assert_non_null (strstr (csv, ",ab\\x1B[Korted,ab\\x1B[Korted,"));
    //  Every row is one line: as many CRLFs as rows and the header.
    size_t lines = 0;
    for (const char *at = csv; (at = strstr (at, "\r\n")); at += 2)
        lines++;
    assert_int_equal (lines, 1 + 4);
    free (csv);

    char *html = render_report (&run, REPORT_FORMAT_HTML);
    assert_false (s_has_control (html));
    assert_non_null (strstr (html, "evil\\x1B[31mhost"));
    free (html);

    //  JSON escapes C0 controls itself (\u001b); a C1 control is a valid
    //  character of a JSON string, kept for the programs that read it.
    char *json = render_report (&run, REPORT_FORMAT_JSON);
    assert_null (strpbrk (json, "\x1b\x07\r"));
    assert_non_null (strstr (json, "evil\\u001B[31mhost"));
    free (json);
    run_result_clear (&run);
}

//  The mark travels in results.json: a run rendered again from its file
//  says "≥" where the run did.
static void
test_mark_read_back (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    const char *tmp = getenv ("TMPDIR");
    char dir [256], path [300];
    snprintf (dir, sizeof dir, "%s/coord_report_wire.XXXXXX", tmp && *tmp? tmp: "/tmp");
    assert_non_null (mkdtemp (dir));
    snprintf (path, sizeof path, "%s/results.json", dir);
    char err [512] = "";
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &run, path,
                                           err, sizeof err), 0);
    run_result_t again;
    memset (&again, 0, sizeof again);
    assert_int_equal (results_read (path, &again, err, sizeof err), 0);
    assert_true (again.tests [0].streams [1].bytes_sampled);
    assert_int_equal (again.tests [0].streams [1].sampled_ns, 1000 * MS);
    assert_false (again.tests [0].streams [0].bytes_sampled);
    assert_int_equal (again.agents [0].malformed_frames, 7);
    //  Without its samples file the text is still the same.
    char *first = render_report (&run, REPORT_FORMAT_TEXT);
    char *second = render_report (&again, REPORT_FORMAT_TEXT);
    assert_string_equal (first, second);
    free (first);
    free (second);
    run_result_clear (&again);
    run_result_clear (&run);
    assert_int_equal (scratch_remove (dir), 0);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_lost_stream_in_the_text),
        cmocka_unit_test (test_wire_strings_escaped),
        cmocka_unit_test (test_mark_read_back),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
