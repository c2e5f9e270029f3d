/*  proto/clock.c: clocks and offset arithmetic; see clock.h. */
#include "clock.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

static int64_t
s_read (clockid_t id)
{
    struct timespec ts;
    clock_gettime (id, &ts);
    return (int64_t) ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

int64_t
clock_now_ns (void)
{
    return s_read (CLOCK_MONOTONIC);
}

int64_t
clock_wall_ns (void)
{
    return s_read (CLOCK_REALTIME);
}

clock_sample_t
clock_from_exchange (int64_t t1, int64_t t2, int64_t t3, int64_t t4)
{
    //  Halve each difference before adding, so that two clocks far apart
    //  (monotonic clocks start at boot) cannot overflow the sum.
    clock_sample_t sample;
    sample.offset_ns = (t2 - t1) / 2 + (t3 - t4) / 2;
    sample.rtt_ns = (t4 - t1) - (t3 - t2);
    if (sample.rtt_ns < 0)
        sample.rtt_ns = 0;
    return sample;
}

int64_t
clock_to_coordinator (int64_t agent_ns, int64_t offset_ns)
{
    return agent_ns - offset_ns;
}

int64_t
clock_to_agent (int64_t coordinator_ns, int64_t offset_ns)
{
    return coordinator_ns + offset_ns;
}

int
clock_sleep_until (int64_t instant_ns)
{
    struct timespec ts = {
        .tv_sec = instant_ns / NS_PER_SEC,
        .tv_nsec = instant_ns % NS_PER_SEC
    };
    int rc;
    while ((rc = clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
        ;
    return rc == 0? 0: -1;
}

int64_t
clock_wait_until (int64_t instant_ns, int64_t spin_ns, bool yield)
{
    int64_t now_ns = clock_now_ns ();
    if (now_ns < instant_ns - spin_ns) {
        clock_sleep_until (instant_ns - spin_ns);
        now_ns = clock_now_ns ();
    }
    while (now_ns < instant_ns) {
        if (yield)
            sched_yield ();
        now_ns = clock_now_ns ();
    }
    return now_ns;
}
