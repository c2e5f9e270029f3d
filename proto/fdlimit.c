/*  proto/fdlimit.c: the open-file limit, checked before the first socket;
    see fdlimit.h.
*/
#include "fdlimit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

int
fdlimit_reserve (uint64_t needed, uint64_t step, const char *who, int many,
                 const char *remedy, char *err, size_t errlen)
{
    struct rlimit limit;
    if (getrlimit (RLIMIT_NOFILE, &limit) == -1) {
        snprintf (err, errlen, "getrlimit(RLIMIT_NOFILE): %s", strerror (errno));
        return -1;
    }
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= needed)
        return 0;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed) {
        snprintf (err, errlen, "%s %s %llu open files, and this process may have no more "
                  "than %llu (its hard limit): raise it (ulimit -Hn, LimitNOFILE=)%s%s",
                  who, many? "need": "needs", (unsigned long long) needed,
                  (unsigned long long) limit.rlim_max, remedy? " ": "", remedy? remedy: "");
        return -1;
    }
    rlim_t wanted = step? (needed + step - 1) / step * step: needed;
    if (limit.rlim_max != RLIM_INFINITY && wanted > limit.rlim_max)
        wanted = limit.rlim_max;
    limit.rlim_cur = wanted;
    if (setrlimit (RLIMIT_NOFILE, &limit) == -1) {
        snprintf (err, errlen, "setrlimit(RLIMIT_NOFILE, %llu) for %s: %s",
                  (unsigned long long) wanted, who, strerror (errno));
        return -1;
    }
    return 0;
}
