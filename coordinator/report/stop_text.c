/*  coordinator/report/stop_text.c: how a test ran its requests and how
    it ended, in the text report; see text.h.

    A test is size-, request- or time-bound. The streams of a time-bound
    test all stop at one instant, and the report says how far apart they
    ended (the end skew) and what that spread is made of: how late past
    the instant each stream's last request ended, how long that request
    had been in flight, and how long the fsync and close after it took.
    The first is at most the second: no stream issues a request at or
    after the instant, and should one have (a clock re-measured in
    between), the line says by how much.
*/
#include "text.h"
#include "../../proto/clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

//  The second line of a time-bound test: how late its streams stopped,
//  and why.
static void
s_print_stop (const test_result_t *test, FILE *out)
{
    const stop_summary_t *stop = &test->summary.stop;
    char late [32], in_flight [32], issue_late [32], tail [32], streams [48];
    text_format_ms_fixed (stop->late_ns, late, sizeof late);
    text_format_ms_fixed (stop->in_flight_ns, in_flight, sizeof in_flight);
    text_format_ms_fixed (stop->issue_late_ns, issue_late, sizeof issue_late);
    text_format_ms_fixed (stop->tail_ns, tail, sizeof tail);
    //  Streams that failed or were aborted stopped for another reason.
    if (stop->streams == test->summary.streams)
        snprintf (streams, sizeof streams, "every stream");
    else
        snprintf (streams, sizeof streams, "the %" PRIu32 " streams that ran to it", stop->streams);
    if (stop->late_ns > 0)
        fprintf (out, "  %s stopped within %s of the stop instant", streams, late);
    else
        fprintf (out, "  %s stopped by the stop instant", streams);
    fprintf (out, ", %.9g s after the start (", (double) stop->instant_ns / NS_PER_SEC);
    //  With a queue (an engine's iodepth) the last request issued and
    //  the last to end are not one: the span is the queue draining.
    if (test->summary.depth_max > 1)
        fprintf (out, "%" PRIu64 " requests in flight then, the last done up to %s after "
                 "the last issue", test->summary.inflight_at_stop, in_flight);
    else
    if (stop->in_flight_ns > 0)
        fprintf (out, "the request in flight then: up to %s", in_flight);
    else
        fprintf (out, "no request in flight then");
    if (stop->issue_late_ns > 0)
        fprintf (out, "; one issued %s after the instant", issue_late);
    fprintf (out, "); fsync and close after it: up to %s more\n", tail);
}

void
stop_text_bound (const test_result_t *test, FILE *out)
{
    if (test->bound [0]) {
        fprintf (out, "  %s-bound", test->bound);
        if (strcmp (test->bound, "time") == 0 && test->summary.streams > 1) {
            char skew [32];
            text_format_ms_fixed (test->summary.end_skew_ns, skew, sizeof skew);
            fprintf (out, ", streams ended %s apart", skew);
        }
        fputc ('\n', out);
        if (test->summary.stop.streams)
            s_print_stop (test, out);
    }
    //  A queue (an engine's iodepth, an nfs:// source's READ calls in
    //  flight): the depth its streams really reached.
    if (test->summary.depth_max > 1)
        fprintf (out, "  requests in flight per stream: %.1f on the mean, %" PRIu32 " at most\n",
                 test->summary.depth_mean, test->summary.depth_max);
}
