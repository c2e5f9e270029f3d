/*  tests/unit/agent_interval.c: the host's latency per interval, recorded
    by several threads while another takes it, adds up exactly: every
    request is in one interval, and every interval taken is a histogram
    some set of values could have made.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../agent/interval_latency.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define S_THREADS   4
#define S_REQUESTS  200000          //  per thread

typedef struct {
    interval_latency_t *intervals;  //  where the threads record
    int seed;                       //  the thread's values
    histogram_t expected [MSG_LATENCY_KINDS];   //  what it recorded
} s_writer_t;

//  Record S_REQUESTS values of every kind and keep them in expected.
static void *
s_write (void *arg)
{
    s_writer_t *writer = (s_writer_t *) arg;
    unsigned int state = (unsigned int) writer->seed;
    for (int nbr = 0; nbr < S_REQUESTS; nbr++) {
        msg_latency_kind_t kind = (msg_latency_kind_t) (nbr % MSG_LATENCY_KINDS);
        int64_t value_ns = (int64_t) (rand_r (&state) % 5000000) << (nbr % 7);
        interval_latency_record (writer->intervals, kind, value_ns);
        histogram_record (&writer->expected [kind], value_ns);
    }
    return NULL;
}

//  The buckets of a and b are the same.
static void
s_assert_same_buckets (const histogram_t *a, const histogram_t *b)
{
    assert_int_equal (histogram_count (a), histogram_count (b));
    assert_memory_equal (a->counts, b->counts, sizeof (a->counts));
}

static void
test_intervals_add_up_while_recorded (void **state)
{
    (void) state;
    interval_latency_t *intervals = interval_latency_new ();
    assert_non_null (intervals);
    s_writer_t *writers = calloc (S_THREADS, sizeof (s_writer_t));
    assert_non_null (writers);
    pthread_t threads [S_THREADS];
    for (int nbr = 0; nbr < S_THREADS; nbr++) {
        writers [nbr].intervals = intervals;
        writers [nbr].seed = nbr + 1;
        assert_int_equal (pthread_create (&threads [nbr], NULL, s_write, &writers [nbr]), 0);
    }
    //  Take while they record, then once more after they are done.
    histogram_t *taken = calloc (1, sizeof (histogram_t) * MSG_LATENCY_KINDS);
    histogram_t *total = calloc (1, sizeof (histogram_t) * MSG_LATENCY_KINDS);
    assert_non_null (taken);
    assert_non_null (total);
    int takes = 0;
    for (int round = 0; round < 2; round++) {
        do {
            interval_latency_take (intervals, taken);
            for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
                char err [128];
                if (histogram_check (&taken [kind], err, sizeof err))
                    fail_msg ("interval %d, kind %d: %s", takes, kind, err);
                assert_int_equal (histogram_merge (&total [kind], &taken [kind]), 0);
            }
            takes++;
        } while (round == 1 && histogram_count (&taken [0]) > 0);
        if (round == 0)
            for (int nbr = 0; nbr < S_THREADS; nbr++)
                pthread_join (threads [nbr], NULL);
    }
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
        histogram_t *expected = histogram_new ();
        assert_non_null (expected);
        for (int nbr = 0; nbr < S_THREADS; nbr++)
            assert_int_equal (histogram_merge (expected, &writers [nbr].expected [kind]), 0);
        s_assert_same_buckets (&total [kind], expected);
        //  And the percentiles are those of the requests themselves.
        assert_int_equal (histogram_percentile (&total [kind], 99),
                          histogram_percentile (expected, 99));
        histogram_destroy (&expected);
    }
    //  Nothing is left once taken.
    assert_int_equal (interval_latency_take (intervals, taken), 0);
    free (taken);
    free (total);
    free (writers);
    interval_latency_destroy (&intervals);
    assert_null (intervals);
    interval_latency_destroy (&intervals);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_intervals_add_up_while_recorded),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
