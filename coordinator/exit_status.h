/*  coordinator/exit_status.h: what `iofleet` exits with, one list for
    every command and for the EXIT STATUS of iofleet(1).

    A command returns one of these; main() exits with it. The manual
    page writes each row's text, so that the list printed there is the
    list the code returns.
*/
#ifndef IOFLEET_EXIT_STATUS_H
#define IOFLEET_EXIT_STATUS_H

//  X (NAME, value, what it means), in the order the manual lists them.
#define EXIT_STATUS_LIST(X) \
    X (OK, 0, "everything ran and every agent reported; report, compare, db and " \
              "history: the command did what it was asked") \
    X (FAILED, 1, "a test failed, or an agent was lost or could not be reached (the " \
                  "report still says what was measured); report, compare, db and " \
                  "history: a file or the archive could not be read or written; " \
                  "compare --fail-on: a real change passed a bound") \
    X (USAGE, 2, "bad usage or a bad scenario, or run's preflight found jobs the agents " \
                 "would refuse (every problem is printed, with its fix); then nothing " \
                 "was started") \
    X (ARCHIVE, 3, "run: everything ran and the results directory is complete, but " \
                   "the archive could not record the run") \
    X (SKIP, 125, "compare --fail-on: a set is partial, failed or lacks a test, so " \
                  "it cannot be judged (git bisect run skips the commit)")

typedef enum {
#define EXIT_STATUS_ENUM(name, value, text) EXIT_STATUS_##name = value,
    EXIT_STATUS_LIST (EXIT_STATUS_ENUM)
#undef EXIT_STATUS_ENUM
} exit_status_t;

#endif
