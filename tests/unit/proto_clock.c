/*  tests/unit/proto_clock.c: offset arithmetic of a ping exchange, worked
    out by hand, including clocks far apart; mapping between timelines;
    reading and sleeping on the clocks.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/clock.h"

#include <stdlib.h>

//  One exchange built from what really happened: the agent's clock is
//  offset_ns ahead of the coordinator's, the ping takes out_ns to arrive,
//  the agent holds it for hold_ns, the pong takes back_ns.
typedef struct {
    int64_t t1, t2, t3, t4;
} exchange_t;

static exchange_t
s_exchange (int64_t t1, int64_t offset_ns, int64_t out_ns, int64_t hold_ns, int64_t back_ns)
{
    exchange_t x;
    x.t1 = t1;
    x.t2 = t1 + offset_ns + out_ns;
    x.t3 = x.t2 + hold_ns;
    x.t4 = t1 + out_ns + hold_ns + back_ns;
    return x;
}

static void
test_same_clock (void **state)
{
    (void) state;
    //  100 ns each way, 50 ns in the agent: no offset, 200 ns round trip.
    clock_sample_t s = clock_from_exchange (1000, 1100, 1150, 1250);
    assert_int_equal (s.offset_ns, 0);
    assert_int_equal (s.rtt_ns, 200);

    //  The agent answers at once.
    s = clock_from_exchange (0, 500, 500, 1000);
    assert_int_equal (s.offset_ns, 0);
    assert_int_equal (s.rtt_ns, 1000);

    //  Zero round trip, same clock: all four instants equal.
    s = clock_from_exchange (777, 777, 777, 777);
    assert_int_equal (s.offset_ns, 0);
    assert_int_equal (s.rtt_ns, 0);
}

static void
test_offsets_by_hand (void **state)
{
    (void) state;
    //  Agent 5 s ahead; 1 ms each way; the agent holds the ping 2 ms.
    //  t1 = 10 s, t2 = 15.001 s, t3 = 15.003 s, t4 = 10.004 s.
    //  offset = ((5.001) + (15.003 - 10.004)) / 2 = (5.001 + 4.999) / 2 = 5 s
    //  rtt = 4 ms - 2 ms = 2 ms
    clock_sample_t s = clock_from_exchange (10 * NS_PER_SEC,
                                            15 * NS_PER_SEC + 1 * NS_PER_MSEC,
                                            15 * NS_PER_SEC + 3 * NS_PER_MSEC,
                                            10 * NS_PER_SEC + 4 * NS_PER_MSEC);
    assert_int_equal (s.offset_ns, 5 * NS_PER_SEC);
    assert_int_equal (s.rtt_ns, 2 * NS_PER_MSEC);

    //  Agent 3 s behind: t1 = 20 s, t2 = 17.0005 s, t3 = 17.0006 s,
    //  t4 = 20.0011 s. offset = (-2.9995 + -3.0005) / 2 = -3 s,
    //  rtt = 1.1 ms - 0.1 ms = 1 ms.
    s = clock_from_exchange (20 * NS_PER_SEC,
                             17 * NS_PER_SEC + 500 * NS_PER_USEC,
                             17 * NS_PER_SEC + 600 * NS_PER_USEC,
                             20 * NS_PER_SEC + 1100 * NS_PER_USEC);
    assert_int_equal (s.offset_ns, -3 * NS_PER_SEC);
    assert_int_equal (s.rtt_ns, 1 * NS_PER_MSEC);

    //  A slow path out (3 ms) and a fast one back (1 ms), same clock:
    //  the offset is wrong by half the asymmetry, 1 ms, which is within
    //  the uncertainty rtt / 2 = 2 ms. t1 = 100 ms, t2 = t3 = 103 ms,
    //  t4 = 104 ms.
    s = clock_from_exchange (100 * NS_PER_MSEC, 103 * NS_PER_MSEC,
                             103 * NS_PER_MSEC, 104 * NS_PER_MSEC);
    assert_int_equal (s.offset_ns, 1 * NS_PER_MSEC);
    assert_int_equal (s.rtt_ns, 4 * NS_PER_MSEC);
    assert_true (llabs (s.offset_ns - 0) <= s.rtt_ns / 2);

    //  The agent claims to have held the ping longer than the whole round
    //  trip (a clock stepped under it): the round trip is clamped to 0.
    //  t4 - t1 = 50, t3 - t2 = 90.
    s = clock_from_exchange (0, 10, 100, 50);
    assert_int_equal (s.rtt_ns, 0);
    assert_int_equal (s.offset_ns, (10 - 0) / 2 + (100 - 50) / 2);
}

static void
test_clocks_far_apart (void **state)
{
    (void) state;
    //  Monotonic clocks count from boot, so two hosts can be years apart.
    //  Here the agent reads 5e18 ns (158 years) more than the coordinator:
    //  (t2 - t1) + (t3 - t4) is about 1e19, beyond INT64_MAX (9.22e18), so
    //  the offset must be computed without forming that sum.
    //  t1 = 1 s, out 1 ms, hold 0.5 ms, back 1 ms:
    //  t2 = 5e18 + 1.001e9, t3 = 5e18 + 1.0015e9, t4 = 1.0025e9.
    const int64_t far = 5000000000000000000LL;
    clock_sample_t s = clock_from_exchange (1000000000LL,
                                            far + 1001000000LL,
                                            far + 1001500000LL,
                                            1002500000LL);
    assert_true (s.offset_ns == far);
    assert_int_equal (s.rtt_ns, 2 * NS_PER_MSEC);

    //  The other way: the coordinator has been up for 8.5e18 ns and the
    //  agent reads 8e18 less. t1 = 8.5e18, out 1000, hold 500, back 1000:
    //  t2 = 5e17 + 1000, t3 = 5e17 + 1500, t4 = 8.5e18 + 2500.
    s = clock_from_exchange (8500000000000000000LL,
                             500000000000000000LL + 1000,
                             500000000000000000LL + 1500,
                             8500000000000000000LL + 2500);
    assert_true (s.offset_ns == -8000000000000000000LL);
    assert_int_equal (s.rtt_ns, 2000);

    //  Close to the ends of int64 on both sides.
    s = clock_from_exchange (0, INT64_MAX - 10, INT64_MAX, 20);
    //  exact: ((INT64_MAX - 10) + (INT64_MAX - 20)) / 2 = INT64_MAX - 15
    assert_true (llabs (s.offset_ns - (INT64_MAX - 15)) <= 1);
    assert_int_equal (s.rtt_ns, 10);
    s = clock_from_exchange (INT64_MAX - 100, 0, 40, INT64_MAX);
    //  exact: ((-(INT64_MAX - 100)) + (40 - INT64_MAX)) / 2 = -INT64_MAX + 70
    assert_true (llabs (s.offset_ns - (-INT64_MAX + 70)) <= 1);
    assert_int_equal (s.rtt_ns, 60);

    //  Map instants across: the agent's t2 is the coordinator's t1 plus
    //  the trip out, and back again.
    exchange_t x = s_exchange (1000000000LL, far, 1000000, 500000, 1000000);
    assert_true (clock_to_coordinator (x.t2, far) == x.t1 + 1000000);
    assert_true (clock_to_agent (x.t1 + 1000000, far) == x.t2);
    assert_true (clock_to_agent (clock_to_coordinator (x.t3, far), far) == x.t3);
}

static void
test_odd_differences (void **state)
{
    (void) state;
    //  Each difference is halved on its own, so with two odd differences
    //  the result may be 1 ns from the exact half sum, never more.
    //  t2 - t1 = 3, t3 - t4 = 1: exact 2, halves give 1 + 0 = 1.
    clock_sample_t s = clock_from_exchange (0, 3, 4, 3);
    assert_true (s.offset_ns == 1 || s.offset_ns == 2);
    assert_int_equal (s.rtt_ns, 2);
    //  t2 - t1 = -3, t3 - t4 = -1: exact -2.
    s = clock_from_exchange (3, 0, 1, 2);
    assert_true (s.offset_ns == -1 || s.offset_ns == -2);
    //  Even differences are exact: 4 and -2 give 1.
    s = clock_from_exchange (0, 4, 5, 7);
    assert_int_equal (s.offset_ns, 1);
    assert_int_equal (s.rtt_ns, 6);
}

static void
test_random_exchanges (void **state)
{
    (void) state;
    //  Exchanges from random clocks and delays: the offset found is never
    //  further from the truth than the uncertainty rtt / 2 (plus the 1 ns
    //  of halving), and the round trip is exactly the time on the wire.
    srandom (4242);
    for (int i = 0; i < 200000; i++) {
        int64_t t1 = (int64_t) (((uint64_t) random () << 31 | (uint64_t) random ()) % (1ULL << 62));
        int64_t span = (int64_t) (((uint64_t) random () << 31 | (uint64_t) random ()) % (1ULL << 62));
        //  Agent clock anywhere from 0 up to 2^62 + t1: never negative.
        int64_t offset = span - t1;
        int64_t out = random () % (10 * NS_PER_MSEC);
        int64_t hold = random () % NS_PER_MSEC;
        int64_t back = random () % (10 * NS_PER_MSEC);
        if (i % 5 == 0)
            back = out;                     //  symmetric paths
        exchange_t x = s_exchange (t1, offset, out, hold, back);
        clock_sample_t s = clock_from_exchange (x.t1, x.t2, x.t3, x.t4);
        assert_true (s.rtt_ns == out + back);
        assert_true (llabs (s.offset_ns - offset) <= s.rtt_ns / 2 + 1);
        if (out == back)
            assert_true (llabs (s.offset_ns - offset) <= 1);
        assert_true (clock_to_agent (clock_to_coordinator (x.t2, offset), offset) == x.t2);
    }
}

static void
test_reading_and_sleeping (void **state)
{
    (void) state;
    int64_t before = clock_now_ns ();
    assert_true (before > 0);
    for (int i = 0; i < 1000; i++) {
        int64_t now = clock_now_ns ();
        assert_true (now >= before);
        before = now;
    }
    //  After 2020-01-01, in nanoseconds since the epoch.
    assert_true (clock_wall_ns () > 1577836800LL * NS_PER_SEC);

    int64_t target = clock_now_ns () + 20 * NS_PER_MSEC;
    assert_int_equal (clock_sleep_until (target), 0);
    int64_t woke = clock_now_ns ();
    assert_true (woke >= target);
    assert_true (woke < target + 2 * NS_PER_SEC);

    //  An instant already past returns at once.
    int64_t start = clock_now_ns ();
    assert_int_equal (clock_sleep_until (start - NS_PER_SEC), 0);
    assert_true (clock_now_ns () - start < NS_PER_SEC);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_same_clock),
        cmocka_unit_test (test_offsets_by_hand),
        cmocka_unit_test (test_clocks_far_apart),
        cmocka_unit_test (test_odd_differences),
        cmocka_unit_test (test_random_exchanges),
        cmocka_unit_test (test_reading_and_sleeping),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
