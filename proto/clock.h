/*  proto/clock.h: clocks and the arithmetic that maps one host's clock
    onto another's.

    Every timestamp on the wire is CLOCK_MONOTONIC of the host that took it,
    in nanoseconds. The coordinator never assumes two hosts agree: it
    exchanges pings and derives, from the one with the smallest round trip,
    the offset of the agent's clock against its own (NTP arithmetic):

        t1  coordinator sends ping        (coordinator clock)
        t2  agent receives it             (agent clock)
        t3  agent sends pong              (agent clock)
        t4  coordinator receives pong     (coordinator clock)

        offset = ((t2 - t1) + (t3 - t4)) / 2     agent = coordinator + offset
        rtt    = (t4 - t1) - (t3 - t2)
        uncertainty = rtt / 2                    the offset is within ± this
*/
#ifndef IOFLEET_CLOCK_H
#define IOFLEET_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define NS_PER_SEC  1000000000LL
#define NS_PER_MSEC 1000000LL
#define NS_PER_USEC 1000LL

//  One ping exchange and what it tells.
typedef struct {
    int64_t offset_ns;          //  agent clock minus coordinator clock
    int64_t rtt_ns;             //  round trip less the agent's own delay
} clock_sample_t;

//  CLOCK_MONOTONIC now, in nanoseconds.
int64_t clock_now_ns (void);

//  CLOCK_REALTIME now, in nanoseconds since the epoch (labels only).
int64_t clock_wall_ns (void);

//  Offset and round trip of one exchange of four timestamps.
clock_sample_t clock_from_exchange (int64_t t1, int64_t t2, int64_t t3, int64_t t4);

//  Map an agent timestamp onto the coordinator's timeline and back.
int64_t clock_to_coordinator (int64_t agent_ns, int64_t offset_ns);
int64_t clock_to_agent (int64_t coordinator_ns, int64_t offset_ns);

//  Sleep until an absolute CLOCK_MONOTONIC instant (TIMER_ABSTIME),
//  resuming after signals. Returns 0, or -1 if the clock call failed.
int clock_sleep_until (int64_t instant_ns);

//  The spin a start instant is waited with (clock_wait_until's spin_ns):
//  a stream of the agent, and tests/bench/wakefloor.c, which measures the
//  least skew processes waiting so can have.
#define CLOCK_START_SPIN_NS (5 * NS_PER_MSEC)

//  Wait for an absolute CLOCK_MONOTONIC instant as precisely as the host
//  allows: sleep until spin_ns before it, then spin on the clock. A timer
//  wake-up is often a few hundred microseconds late on a virtual machine,
//  and two processes woken at one instant can start milliseconds apart;
//  the spin costs at most spin_ns of CPU and lands within a microsecond.
//  With yield, the spin gives the CPU to other runnable threads of the
//  same priority at each turn (for real-time spinners sharing few CPUs).
//  Returns the clock when the wait ended (>= instant_ns).
int64_t clock_wait_until (int64_t instant_ns, int64_t spin_ns, bool yield);

#endif
