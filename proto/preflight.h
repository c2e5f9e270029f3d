/*  proto/preflight.h: the kinds of problem a PREFLIGHT_REPLY names, the
    words both sides agree on: the agent files each refusal of a job's
    admission under one, and the console groups by it and gives the fix.
*/
#ifndef IOFLEET_PREFLIGHT_H
#define IOFLEET_PREFLIGHT_H

#define PREFLIGHT_JOB       "job"       //  the job itself: its options, or another job's files
#define PREFLIGHT_ROOTS     "roots"     //  a path outside the agent's roots (subject: the path)
#define PREFLIGHT_PATH      "path"      //  a path refused for another reason (.., a symlink)
#define PREFLIGHT_NFS       "nfs"       //  an nfs server the agent may not read (subject: URL)
#define PREFLIGHT_MEMORY    "memory"    //  over the agent's memory bound per test
#define PREFLIGHT_ENGINE    "engine"    //  an engine this host refuses
#define PREFLIGHT_WRITABLE  "writable"  //  a directory the agent cannot write (subject: it)
#define PREFLIGHT_SPACE     "space"     //  less free space than the job writes (subject: dir)

#endif
