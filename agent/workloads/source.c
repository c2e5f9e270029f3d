/*  agent/workloads/source.c: a file read from start to end, a local path
    or an nfs:// URL, for the workloads that read one (copy's src, read's
    path); see workload.h.

    A local file is a path under the agent's roots that job.c resolved:
    it is opened refusing any symlink on the way, like every file the
    agent opens there, and read through the job's engine. An URL
    nfs://server/export/path[?version=4] is read straight over the wire
    with libnfs (NFSv3 unless the URL says otherwise), no mount needed.
    Each stream has its own NFS context (its own TCP connection), set up
    here with the synchronous calls in the stream's thread at prepare,
    and read through the nfs engine (agent/engines/nfs.c): iodepth READ
    calls in flight through libnfs's asynchronous interface, whatever
    `engine` says. libnfs keeps no cache of its own: every read goes to
    the server.
*/
#include "workload.h"

#include "../confine.h"
#include "../engines/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  How long one NFS call may take before it fails: connecting and mounting
//  in prepare (the job is not READY before, so well below the leases),
//  and each READ of the timed part (libnfs fails one with no answer by
//  then; a stop waits for those in flight). Whole seconds, as libnfs
//  wants them.
#define S_NFS_PREPARE_TIMEOUT_MS    4000
#define S_NFS_RUN_TIMEOUT_MS        10000

//  Nothing open.
void
workload_source_init (workload_source_t *source, const char *role, const char *name)
{
    memset (source, 0, sizeof (*source));
    source->role = role;
    source->fd = -1;
    confine_shorten (name, source->shown, sizeof (source->shown));
}

//  Open a local file and check it. O_NONBLOCK keeps a FIFO from blocking
//  the agent until the file is known to be a regular one.
int
workload_source_open_local (workload_source_t *source, const char *path, int extra_flags,
                            char *err, size_t errlen)
{
    const char *shown = source->shown;
    int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | extra_flags;
    source->fd = confine_open (path, flags, 0);
    if (source->fd == -1) {
        int err_no = errno;
        if (err_no == EINVAL && (extra_flags & O_DIRECT))
            snprintf (err, errlen, "open(%s, O_DIRECT): the filesystem does not support "
                      "direct I/O (%s)", shown, strerror (err_no));
        else
            snprintf (err, errlen, "open(%s): %s", shown,
                      err_no == ELOOP? "is a symbolic link": strerror (err_no));
        errno = err_no;
        return -1;
    }
    struct stat st;
    if (fstat (source->fd, &st) == -1) {
        snprintf (err, errlen, "fstat(%s): %s", shown, strerror (errno));
        return -1;
    }
    if (!S_ISREG (st.st_mode)) {
        snprintf (err, errlen, "%s %s: not a regular file", source->role, shown);
        errno = EINVAL;
        return -1;
    }
    int status_flags = fcntl (source->fd, F_GETFL);
    if (status_flags == -1 || fcntl (source->fd, F_SETFL, status_flags & ~O_NONBLOCK) == -1) {
        snprintf (err, errlen, "fcntl(%s, F_SETFL): %s", shown, strerror (errno));
        return -1;
    }
    if (!(extra_flags & O_DIRECT))
        posix_fadvise (source->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    source->dev = st.st_dev;
    source->ino = st.st_ino;
    source->size_bytes = (uint64_t) st.st_size;
    return 0;
}

//  Give an NFS context a client name of its own for NFSv4. The server
//  keeps one state per client name: streams of one agent that shared
//  libnfs's default name would take each other's state away (a read then
//  fails with NFS4ERR_EXPIRED). The host's name and the process tell
//  agents apart, a counter the streams of one agent.
static void
s_name_client (struct nfs_context *nfs)
{
    static atomic_uint contexts;
    char host [256] = "";
    gethostname (host, sizeof (host) - 1);
    char name [320];
    snprintf (name, sizeof (name), "iofleet-agent %s %ld %u", host, (long) getpid (),
              atomic_fetch_add (&contexts, 1));
    nfs4_set_client_name (nfs, name);
}

//  Connect, mount, open, check; every error names the server and the path.
int
workload_source_open_nfs (workload_source_t *source, const char *url_text,
                          char *err, size_t errlen)
{
    const char *shown = source->shown;
    int rc = -1;
    struct nfs_url *url = NULL;
    //  The parts of the URL, as messages show them.
    char server [CONFINE_SHOWN_MAX], export [CONFINE_SHOWN_MAX], file [CONFINE_SHOWN_MAX];

    source->nfs = nfs_init_context ();
    if (!source->nfs) {
        snprintf (err, errlen, "nfs_init_context(%s): out of memory", shown);
        goto done;
    }
    nfs_set_timeout (source->nfs, S_NFS_PREPARE_TIMEOUT_MS);
    s_name_client (source->nfs);
    url = nfs_parse_url_full (source->nfs, url_text);
    if (!url) {
        snprintf (err, errlen, "%s %s: not an nfs://server/export/file URL (%s)",
                  source->role, shown, nfs_get_error (source->nfs));
        goto done;
    }
    if (!url->server || !url->server [0] || !url->path || !url->file || !url->file [0]) {
        snprintf (err, errlen, "%s %s: the URL needs a server, an export and a file",
                  source->role, shown);
        goto done;
    }
    confine_shorten (url->server, server, sizeof (server));
    confine_shorten (url->path, export, sizeof (export));
    confine_shorten (url->file, file, sizeof (file));
    int nfs_rc = nfs_mount (source->nfs, url->server, url->path);
    if (nfs_rc != 0) {
        //  libnfs says only "nfs_service failed" when nothing answers.
        const char *reason = nfs_get_error (source->nfs);
        bool unreachable = strstr (reason, "nfs_service failed") != NULL;
        snprintf (err, errlen, "nfs_mount(server %s, export %s): %s%s", server, export,
                  unreachable? "the server cannot be reached (no portmapper or mount service "
                               "answers): ": "", reason);
        goto done;
    }
    nfs_rc = nfs_open (source->nfs, url->file, O_RDONLY, &source->nfsfh);
    if (nfs_rc != 0) {
        source->nfsfh = NULL;
        snprintf (err, errlen, "nfs_open(server %s, export %s, file %s): %s", server,
                  export, file, nfs_get_error (source->nfs));
        goto done;
    }
    struct nfs_stat_64 st;
    nfs_rc = nfs_fstat64 (source->nfs, source->nfsfh, &st);
    if (nfs_rc != 0) {
        snprintf (err, errlen, "nfs_fstat64(server %s, file %s%s): %s", server,
                  export, file, nfs_get_error (source->nfs));
        goto done;
    }
    if (!S_ISREG ((mode_t) st.nfs_mode)) {
        snprintf (err, errlen, "%s %s (server %s, file %s%s): not a regular file",
                  source->role, shown, server, export, file);
        goto done;
    }
    source->size_bytes = st.nfs_size;
    nfs_set_timeout (source->nfs, S_NFS_RUN_TIMEOUT_MS);
    rc = 0;

done:
    if (url)
        nfs_destroy_url (url);
    return rc;
}

//  Close the file and the NFS context.
void
workload_source_close (workload_source_t *source)
{
    if (source->fd != -1)
        close (source->fd);
    source->fd = -1;
    if (source->nfs) {
        if (source->nfsfh)
            nfs_close (source->nfs, source->nfsfh);
        nfs_destroy_context (source->nfs);
    }
    source->nfs = NULL;
    source->nfsfh = NULL;
}

int
workload_source_check (const jobspec_t *spec, const char *name, char *err, size_t errlen)
{
    return jobspec_src_is_nfs (name)? 0: engine_check (spec, err, errlen);
}

struct _engine_t *
workload_source_engine (workload_stream_t *ws, workload_source_t *source, bool direct,
                        char *err, size_t errlen)
{
    const jobspec_t *spec = ws->spec;
    if (!source->nfs)
        return engine_new (spec->engine, engine_slots (spec), &source->fd, 1, direct, err,
                           errlen);
    const engine_nfs_file_t file = {
        .nfs = source->nfs, .nfsfh = source->nfsfh, .shown = source->shown
    };
    return engine_new_nfs (&file, engine_slots (spec), err, errlen);
}

//  The engine's slots, and for an URL as much again: the replies libnfs
//  holds on their way, one for every READ in flight.
uint64_t
workload_source_memory (const jobspec_t *spec, const char *name)
{
    uint64_t depth = spec->iodepth? spec->iodepth: 1;
    return engine_memory (spec) + (jobspec_src_is_nfs (name)? depth * spec->bs_bytes: 0);
}
