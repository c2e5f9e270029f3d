/*  tests/bench/wakefloor.c: the least start skew COUNT processes can have
    on this machine, for tests/bench/scale.sh.

    usage: wakefloor COUNT

    Forks COUNT processes that start at one instant the way a stream of
    the agent does (agent/stream.c): raised to SCHED_FIFO where allowed,
    with a timer slack of 1 ns, each waits with proto/clock.c's
    clock_wait_until (asleep until CLOCK_START_SPIN_NS before the
    instant, then spinning on the clock, yielding at each turn when
    raised) and takes the clock as it returns. Nothing else runs in them: no socket, no message, no
    workload. Prints one line,

        count=N spread_ns=S first_late_ns=F

    S from the first process to take the clock after the instant to the
    last, F how late the first was. With fewer CPUs than processes, every
    one of them must be given a CPU after the instant before it can see
    it; S is then what that costs here, the floor of any fleet of COUNT
    agents on this machine, to be read beside their host skew.
*/
#define _GNU_SOURCE
#include "../../proto/clock.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

//  Time given to fork each process before the instant, and a second more.
#define S_LEAD_PER_PROCESS_NS NS_PER_MSEC
#define S_LEAD_NS NS_PER_SEC

//  One process: wait for the instant as a stream does, record the clock.
static void
s_child (int64_t instant_ns, int64_t *seen_ns)
{
    prctl (PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    struct sched_param realtime = { .sched_priority = 1 };
    bool raised = sched_setscheduler (0, SCHED_FIFO, &realtime) == 0;
    *seen_ns = clock_wait_until (instant_ns, CLOCK_START_SPIN_NS, raised);
    if (raised) {
        struct sched_param normal = { .sched_priority = 0 };
        sched_setscheduler (0, SCHED_OTHER, &normal);
    }
    _exit (0);
}

int
main (int argc, char *argv [])
{
    char *end;
    long count = argc == 2? strtol (argv [1], &end, 10): 0;
    if (argc != 2 || *end || count < 1 || count > 65536) {
        fprintf (stderr, "usage: wakefloor COUNT (1 to 65536 processes)\n");
        return 2;
    }
    int64_t *seen_ns = mmap (NULL, (size_t) count * sizeof (int64_t), PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (seen_ns == MAP_FAILED) {
        fprintf (stderr, "wakefloor: mmap: %s\n", strerror (errno));
        return 1;
    }
    int64_t instant_ns = clock_now_ns () + count * S_LEAD_PER_PROCESS_NS + S_LEAD_NS;
    long started = 0;
    for (; started < count; started++) {
        pid_t pid = fork ();
        if (pid == -1) {
            fprintf (stderr, "wakefloor: fork of process %ld: %s\n", started + 1, strerror (errno));
            break;
        }
        if (pid == 0)
            s_child (instant_ns, &seen_ns [started]);
    }
    int late = clock_now_ns () >= instant_ns;
    while (wait (NULL) > 0 || errno == EINTR)
        ;
    if (started < count)
        return 1;
    if (late) {
        fprintf (stderr, "wakefloor: forking %ld processes passed the instant\n", count);
        return 1;
    }
    int64_t first_ns = seen_ns [0], last_ns = seen_ns [0];
    for (long index = 1; index < count; index++) {
        if (seen_ns [index] < first_ns)
            first_ns = seen_ns [index];
        if (seen_ns [index] > last_ns)
            last_ns = seen_ns [index];
    }
    printf ("count=%ld spread_ns=%lld first_late_ns=%lld\n", count,
            (long long) (last_ns - first_ns), (long long) (first_ns - instant_ns));
    return 0;
}
