/*  proto/fdlimit.h: how many files this process may open, checked before
    the first socket.

    libzmq and CZMQ assert when a socket cannot get its descriptors (an
    abort, exit 134, with `ulimit -n 10`), so both programs make sure of
    the descriptors they need before they create any: the soft limit is
    raised within the hard one where it is short, and what cannot be had
    is said in a sentence.
*/
#ifndef IOFLEET_FDLIMIT_H
#define IOFLEET_FDLIMIT_H

#include <stddef.h>
#include <stdint.h>

//  Make sure this process may hold `needed` open files: a lower soft
//  limit is raised to needed rounded up to `step` (at most the hard
//  limit). Returns 0; or -1 with err: "WHO need(s) N open files, and
//  this process may have no more than M (its hard limit): raise it
//  (ulimit -Hn, LimitNOFILE=)" followed by remedy when it is not NULL,
//  or the failed system call. who is a noun phrase ("10 agents", "the
//  agent"); many says whether it is plural.
int fdlimit_reserve (uint64_t needed, uint64_t step, const char *who, int many,
                     const char *remedy, char *err, size_t errlen);

#endif
