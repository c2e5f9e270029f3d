/*  proto/workload_list.h: the workloads this protocol knows, by name.

    Only the list: the job option table (jobspec.c) takes the choices of
    its `workload` option from it, and the descriptor table (workload.c,
    see workload.h) has one row for each.
*/
#ifndef IOFLEET_WORKLOAD_LIST_H
#define IOFLEET_WORKLOAD_LIST_H

//  Every workload this protocol knows, in the order of their values.
//  The values never travel: the wire and the scenario use the names.
#define WORKLOAD_LIST(X) \
    X (NULL, null)          \
    X (WRITE, write)        \
    X (COPY, copy)          \
    X (FILL, fill)          \
    X (MONITOR, monitor)    \
    X (READ, read)          \
    X (REWRITE, rewrite)    \
    X (BONNIE, bonnie)      \
    X (RANDRW, randrw)

typedef enum {
#define WORKLOAD_ENUM(id, name) WORKLOAD_##id,
    WORKLOAD_LIST (WORKLOAD_ENUM)
#undef WORKLOAD_ENUM
    WORKLOAD_COUNT                  //  one past the last
} workload_t;

#endif
