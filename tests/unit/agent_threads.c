/*  tests/unit/agent_threads.c: the threads of streams and seekers
    (workload_thread_start, workload_thread_join). A thread runs on a
    stack of WORKLOAD_STACK_BYTES above a guard page, with every signal
    blocked, and its stack is gone once it is joined: an idle agent keeps
    no memory for the streams of its past tests.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../agent/workloads/workload.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

//  What a thread saw of itself, for the main thread to check.
typedef struct {
    uintptr_t local;                //  the address of a variable on its stack
    uintptr_t stack_low;            //  the lowest address of its stack
    size_t stack_bytes;             //  the size of its stack
    bool term_blocked;              //  SIGTERM was blocked in it
    bool int_blocked;               //  and SIGINT
} s_seen_t;

//  Record where the thread runs and what it blocks; touch some of its
//  stack, as a stream's thread does.
static void *
s_look (void *arg)
{
    s_seen_t *seen = arg;
    volatile char scratch [16 * 1024];
    memset ((char *) scratch, 1, sizeof (scratch));
    seen->local = (uintptr_t) &scratch [0];
    pthread_attr_t attr;
    void *low;
    if (pthread_getattr_np (pthread_self (), &attr) == 0) {
        pthread_attr_getstack (&attr, &low, &seen->stack_bytes);
        seen->stack_low = (uintptr_t) low;
        pthread_attr_destroy (&attr);
    }
    sigset_t mask;
    pthread_sigmask (SIG_SETMASK, NULL, &mask);
    seen->term_blocked = sigismember (&mask, SIGTERM) == 1;
    seen->int_blocked = sigismember (&mask, SIGINT) == 1;
    return NULL;
}

//  True if the page holding address is mapped in this process.
static bool
s_mapped (uintptr_t address)
{
    long page = sysconf (_SC_PAGESIZE);
    unsigned char resident;
    void *start = (void *) (address & ~((uintptr_t) page - 1));
    return mincore (start, (size_t) page, &resident) == 0;
}

//  The permissions of the mapping that starts at address, from
//  /proc/self/maps ("rw-p", "---p"), or "" if none starts there.
static void
s_mapping_at (uintptr_t address, char *perms, size_t size)
{
    snprintf (perms, size, "%s", "");
    FILE *maps = fopen ("/proc/self/maps", "r");
    assert_non_null (maps);
    char line [512];
    while (fgets (line, sizeof (line), maps)) {
        unsigned long low, high;
        char found [8];
        if (sscanf (line, "%lx-%lx %7s", &low, &high, found) == 3 && low == address) {
            snprintf (perms, size, "%s", found);
            break;
        }
    }
    fclose (maps);
}

//  The thread runs on a stack of the size asked, blocks every signal, and
//  its stack is unmapped once it is joined (glibc would have kept it).
static void
test_stack_given_back (void **state)
{
    (void) state;
    for (int round = 0; round < 3; round++) {
        s_seen_t seen = { 0 };
        workload_thread_t thread;
        assert_int_equal (workload_thread_start (&thread, s_look, &seen), 0);
        workload_thread_join (&thread);
        assert_true (seen.term_blocked);
        assert_true (seen.int_blocked);
        assert_int_equal (seen.stack_bytes, WORKLOAD_STACK_BYTES);
        assert_true (seen.local >= seen.stack_low);
        assert_true (seen.local < seen.stack_low + seen.stack_bytes);
        assert_null (thread.stack);
        assert_false (s_mapped (seen.local));
        assert_false (s_mapped (seen.stack_low + seen.stack_bytes - 1));
    }
}

//  Wait until the main thread says go.
static void *
s_wait_for_go (void *arg)
{
    atomic_bool *go = arg;
    while (!atomic_load (go))
        usleep (1000);
    return NULL;
}

//  While the thread runs, the page below its stack is its guard: mapped,
//  and neither readable nor writable; the join unmaps both.
static void
test_guard_page (void **state)
{
    (void) state;
    atomic_bool go = false;
    workload_thread_t thread;
    assert_int_equal (workload_thread_start (&thread, s_wait_for_go, &go), 0);
    uintptr_t guard = (uintptr_t) thread.stack;
    uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
    char perms [8];
    s_mapping_at (guard, perms, sizeof (perms));
    assert_string_equal (perms, "---p");
    s_mapping_at (guard + page, perms, sizeof (perms));
    assert_string_equal (perms, "rw-p");
    assert_int_equal (thread.stack_bytes, page + WORKLOAD_STACK_BYTES);
    atomic_store (&go, true);
    workload_thread_join (&thread);
    assert_false (s_mapped (guard));
    assert_false (s_mapped (guard + page));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_stack_given_back),
        cmocka_unit_test (test_guard_page),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
