/*  agent/workloads/copy.c: read `src`, write `dst`, what net1 and mix3
    time: `cp` from a mounted share, or a copy from an NFS server read
    straight over the wire with libnfs (no mount needed).

    src is either a path under the agent's roots (job.c has resolved it
    there before prepare: reading outside the roots is refused like
    writing) or an URL nfs://server/export/path[?version=4] (NFSv3 unless
    the URL says otherwise). Stream k of n > 1 reads the same source and
    writes dst.k. Options as for write: bs (bytes per read and write
    call), direct (O_DIRECT on the destination), fsync; size limits the
    copy to the first size bytes of the source, and without it the whole
    source is copied.

    Everything that can fail before the timed part fails in prepare:
    reaching the server, mounting the export, opening the source, finding
    it too small, creating the destination. Each error names the server
    and the path. A stream that fails in prepare removes what it created.

    Each stream has its own NFS context (its own TCP connection) and uses
    the synchronous calls in its own thread: libnfs splits a read larger
    than the server's maximum into several requests in flight, so one
    call per bs keeps the wire busy.
*/
#include "workload.h"

#include "../confine.h"

#include <errno.h>
#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  How long one NFS call may take before it fails: connecting and mounting
//  in prepare (the agent's loop waits for it, so well below the leases),
//  and each read of the timed part (a stop waits for the read under way).
#define S_NFS_PREPARE_TIMEOUT_MS    4000
#define S_NFS_RUN_TIMEOUT_MS        10000

//  What one copy stream holds between prepare and cleanup.
typedef struct {
    workload_output_t out;          //  the destination, and what removing it takes
    int src_fd;                     //  a local source, -1 for none
    struct nfs_context *nfs;        //  an NFS source: its context (connection), or NULL
    struct nfsfh *nfsfh;            //  the open NFS source file, or NULL
    uint64_t size_bytes;            //  bytes to copy: size, or the whole source
    unsigned char *buffer;          //  bs bytes, page-aligned
    char src_shown [CONFINE_SHOWN_MAX];     //  src as messages show it
} s_copy_t;


//  A stream's buffer of bs, and for an nfs:// source as much again, a
//  bound on what libnfs holds of the replies on their way (it receives
//  each into a buffer of its own before copying the data into ours).
static uint64_t
s_copy_stream_memory (const jobspec_t *spec)
{
    return jobspec_src_is_nfs (spec->src)? 2 * spec->bs_bytes: spec->bs_bytes;
}

//  Check that a source of source_bytes can give what the job asks, and
//  settle the bytes to copy. Returns 0, or -1 with the reason in err.
static int
s_settle_size (workload_stream_t *ws, s_copy_t *state, uint64_t source_bytes,
               char *err, size_t errlen)
{
    uint64_t wanted_bytes = ws->spec->size_bytes;
    if (wanted_bytes > source_bytes) {
        snprintf (err, errlen, "source %s: has %llu bytes, fewer than size = %llu",
                  state->src_shown, (unsigned long long) source_bytes,
                  (unsigned long long) wanted_bytes);
        return -1;
    }
    state->size_bytes = wanted_bytes? wanted_bytes: source_bytes;
    if (state->size_bytes == 0) {
        snprintf (err, errlen, "source %s: is empty, nothing to copy", state->src_shown);
        return -1;
    }
    return 0;
}

//  Open a local source and check it. O_NONBLOCK keeps a FIFO from
//  blocking the agent.
static int
s_open_local (workload_stream_t *ws, s_copy_t *state, char *err, size_t errlen)
{
    const char *src = state->src_shown;
    //  Resolved under a root by the job; opened refusing any symlink on
    //  the way, like every file the agent opens there.
    state->src_fd = confine_open (ws->spec->src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0);
    if (state->src_fd == -1) {
        snprintf (err, errlen, "open(%s): %s", src,
                  errno == ELOOP? "is a symbolic link": strerror (errno));
        return -1;
    }
    struct stat st;
    if (fstat (state->src_fd, &st) == -1) {
        snprintf (err, errlen, "fstat(%s): %s", src, strerror (errno));
        return -1;
    }
    if (!S_ISREG (st.st_mode)) {
        snprintf (err, errlen, "source %s: not a regular file", src);
        return -1;
    }
    int flags = fcntl (state->src_fd, F_GETFL);
    if (flags == -1 || fcntl (state->src_fd, F_SETFL, flags & ~O_NONBLOCK) == -1) {
        snprintf (err, errlen, "fcntl(%s, F_SETFL): %s", src, strerror (errno));
        return -1;
    }
    posix_fadvise (state->src_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return s_settle_size (ws, state, (uint64_t) st.st_size, err, errlen);
}

//  Connect to the server of an nfs:// source, mount its export, open and
//  check the file. Every error names the server and the path.
static int
s_open_nfs (workload_stream_t *ws, s_copy_t *state, char *err, size_t errlen)
{
    const char *src = state->src_shown;
    int rc = -1;
    struct nfs_url *url = NULL;
    //  The parts of the URL, as messages show them.
    char server [CONFINE_SHOWN_MAX], export [CONFINE_SHOWN_MAX], file [CONFINE_SHOWN_MAX];

    state->nfs = nfs_init_context ();
    if (!state->nfs) {
        snprintf (err, errlen, "nfs_init_context(%s): out of memory", src);
        goto done;
    }
    nfs_set_timeout (state->nfs, S_NFS_PREPARE_TIMEOUT_MS);
    url = nfs_parse_url_full (state->nfs, ws->spec->src);
    if (!url) {
        snprintf (err, errlen, "source %s: not an nfs://server/export/file URL (%s)",
                  src, nfs_get_error (state->nfs));
        goto done;
    }
    if (!url->server || !url->server [0] || !url->path || !url->file || !url->file [0]) {
        snprintf (err, errlen, "source %s: the URL needs a server, an export and a file", src);
        goto done;
    }
    confine_shorten (url->server, server, sizeof (server));
    confine_shorten (url->path, export, sizeof (export));
    confine_shorten (url->file, file, sizeof (file));
    int nfs_rc = nfs_mount (state->nfs, url->server, url->path);
    if (nfs_rc != 0) {
        //  libnfs says only "nfs_service failed" when nothing answers.
        const char *reason = nfs_get_error (state->nfs);
        bool unreachable = strstr (reason, "nfs_service failed") != NULL;
        snprintf (err, errlen, "nfs_mount(server %s, export %s): %s%s", server, export,
                  unreachable? "the server cannot be reached (no portmapper or mount service "
                               "answers): ": "", reason);
        goto done;
    }
    nfs_rc = nfs_open (state->nfs, url->file, O_RDONLY, &state->nfsfh);
    if (nfs_rc != 0) {
        state->nfsfh = NULL;
        snprintf (err, errlen, "nfs_open(server %s, export %s, file %s): %s", server,
                  export, file, nfs_get_error (state->nfs));
        goto done;
    }
    struct nfs_stat_64 st;
    nfs_rc = nfs_fstat64 (state->nfs, state->nfsfh, &st);
    if (nfs_rc != 0) {
        snprintf (err, errlen, "nfs_fstat64(server %s, file %s%s): %s", server,
                  export, file, nfs_get_error (state->nfs));
        goto done;
    }
    if (!S_ISREG ((mode_t) st.nfs_mode)) {
        snprintf (err, errlen, "source %s (server %s, file %s%s): not a regular file",
                  src, server, export, file);
        goto done;
    }
    if (s_settle_size (ws, state, st.nfs_size, err, errlen) == -1)
        goto done;
    nfs_set_timeout (state->nfs, S_NFS_RUN_TIMEOUT_MS);
    rc = 0;

done:
    if (url)
        nfs_destroy_url (url);
    return rc;
}

//  Open the source, create the destination, allocate the buffer.
static int
s_copy_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_copy_t *state = calloc (1, sizeof (s_copy_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    workload_output_init (&state->out);
    state->src_fd = -1;
    confine_shorten (ws->spec->src, state->src_shown, sizeof (state->src_shown));
    ws->data = state;

    //  The source first: a copy that cannot read must not leave an empty
    //  destination behind, nor truncate one that was there.
    int rc = jobspec_src_is_nfs (ws->spec->src)? s_open_nfs (ws, state, err, errlen)
                                               : s_open_local (ws, state, err, errlen);
    if (rc == -1)
        return -1;
    if (workload_open_output (ws, &state->out, err, errlen) == -1)
        return -1;
    return workload_buffer_new (&state->buffer, (size_t) ws->spec->bs_bytes, err, errlen);
}

//  Read up to want_bytes at offset from the source into the buffer.
//  Returns the bytes read (0 at the end of the source), or -1 recorded.
static ssize_t
s_read (workload_stream_t *ws, s_copy_t *state, uint64_t offset, size_t want_bytes)
{
    while (true) {
        if (state->nfs) {
            int got = nfs_pread (state->nfs, state->nfsfh, offset, want_bytes, state->buffer);
            if (got >= 0)
                return got;
            workload_fail (ws, -got, "nfs_pread(%s at %llu): %s", state->src_shown,
                           (unsigned long long) offset, nfs_get_error (state->nfs));
            return -1;
        }
        ssize_t got = pread (state->src_fd, state->buffer, want_bytes, (off_t) offset);
        if (got >= 0)
            return got;
        if (errno == EINTR)
            continue;
        workload_fail (ws, errno, "read(%s at %llu)", state->src_shown,
                       (unsigned long long) offset);
        return -1;
    }
}

//  With O_DIRECT, a last block that is not a whole number of sectors
//  cannot be written; it goes through the page cache instead (and the
//  fsync at the end still covers it).
static int
s_leave_direct (workload_stream_t *ws, s_copy_t *state)
{
    int flags = fcntl (state->out.fd, F_GETFL);
    if (flags == -1 || fcntl (state->out.fd, F_SETFL, flags & ~O_DIRECT) == -1) {
        workload_fail (ws, errno, "fcntl(%s, F_SETFL)", ws->shown);
        return -1;
    }
    return 0;
}

//  The timed part: read a block, write it, until size bytes are copied;
//  then flush and close as fsync asks.
static int
s_copy_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_copy_t *state = ws->data;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t read_bytes = 0;
    uint64_t done_bytes = 0;
    int status = WORKLOAD_DONE;

    while (read_bytes < state->size_bytes) {
        if (workload_stopping (ws)) {
            status = WORKLOAD_STOPPED;
            break;
        }
        uint64_t want_bytes = state->size_bytes - read_bytes < bs_bytes?
                              state->size_bytes - read_bytes: bs_bytes;
        ssize_t got = s_read (ws, state, read_bytes, (size_t) want_bytes);
        if (got == -1) {
            status = WORKLOAD_FAILED;
            break;
        }
        if (got == 0) {
            workload_fail (ws, EIO, "read(%s): the source ended at %llu bytes, before %llu",
                           state->src_shown, (unsigned long long) read_bytes,
                           (unsigned long long) state->size_bytes);
            status = WORKLOAD_FAILED;
            break;
        }
        read_bytes += (uint64_t) got;
        if (ws->spec->direct && got % WORKLOAD_DIRECT_ALIGN_BYTES
        &&  s_leave_direct (ws, state) == -1) {
            status = WORKLOAD_FAILED;
            break;
        }
        if (workload_write_full (ws, state->out.fd, state->buffer, (size_t) got,
                                 &done_bytes) == -1) {
            status = WORKLOAD_FAILED;
            break;
        }
    }
    return workload_output_end (ws, &state->out.fd, done_bytes, status);
}

//  Close both ends, free, and remove the destination unless kept.
static void
s_copy_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_copy_t *state = ws->data;
    if (!state)
        return;
    workload_output_release (ws, &state->out, remove_files);
    if (state->src_fd != -1)
        close (state->src_fd);
    if (state->nfs) {
        if (state->nfsfh)
            nfs_close (state->nfs, state->nfsfh);
        nfs_destroy_context (state->nfs);
    }
    free (state->buffer);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_copy_ops = {
    .name = "copy",
    .stream_memory = s_copy_stream_memory,
    .prepare = s_copy_prepare,
    .run = s_copy_run,
    .stop = NULL,               //  the flag is checked after every block
    .cleanup = s_copy_cleanup,
};
