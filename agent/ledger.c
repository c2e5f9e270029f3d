/*  agent/ledger.c: the claims of the jobs of one test; see ledger.h. */
#include "ledger.h"

#include "../proto/jobspec.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

//  The buffers of one job.
typedef struct {
    uint32_t job_id;            //  the job
    uint64_t bytes;             //  its streams' buffers together
} s_memory_t;

//  One file a job uses.
typedef struct {
    uint32_t job_id;            //  the job
    char job [JOB_NAME_MAX + 1];    //  its name, for messages
    ledger_use_t use;           //  how it uses the file
    char *path;                 //  resolved path; of a set, its base
    uint64_t set_files;         //  a set of path.1 .. path.N: N; 0 for one file
    bool known;                 //  dev and ino are known (the file existed)
    dev_t dev;                  //  its device
    ino_t ino;                  //  and inode
} s_file_t;

struct _ledger_t {
    uint64_t memory_bound_bytes;    //  what the buffers of one test may take
    s_memory_t *memory;         //  claims of memory, one per job
    size_t memory_count;        //  how many
    s_file_t *files;            //  claims of files
    size_t file_count;          //  how many
    size_t file_capacity;       //  room in files
    confine_dirs_t *dirs;       //  directories the test's jobs made, to remove at the end
    kept_t *kept;               //  where files may outlive the test, NULL nowhere
    uint64_t kept_session;      //  the session they would be kept for
};

//  An empty ledger with a memory bound.
ledger_t *
ledger_new (uint64_t memory_bound_bytes)
{
    ledger_t *self = calloc (1, sizeof (ledger_t));
    if (!self)
        return NULL;
    self->memory_bound_bytes = memory_bound_bytes;
    self->dirs = confine_dirs_new ();
    if (!self->dirs)
        ledger_destroy (&self);
    return self;
}

//  Forget every claim and free the ledger.
void
ledger_destroy (ledger_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    ledger_t *self = *self_p;
    for (size_t index = 0; index < self->file_count; index++)
        free (self->files [index].path);
    free (self->files);
    free (self->memory);
    confine_dirs_destroy (&self->dirs);
    free (self);
    *self_p = NULL;
}

//  bytes as a size a scenario would write ("64M", "1.5G"). Returns buf.
static const char *
s_size_text (uint64_t bytes, char *buf, size_t buflen)
{
    static const opt_def_t size_row = { .name = "bytes", .type = OPT_SIZE, .offset = 0 };
    if (opt_format (&size_row, &bytes, buf, buflen) == -1)
        snprintf (buf, buflen, "%llu", (unsigned long long) bytes);
    return buf;
}

//  Claim a job's memory, if the test stays within the bound.
int
ledger_claim_memory (ledger_t *self, uint32_t job_id, const char *name, uint64_t streams,
                     uint64_t buffer_bytes, uint64_t figures_bytes, char *err, size_t errlen)
{
    uint64_t held_bytes = 0;
    for (size_t index = 0; index < self->memory_count; index++)
        held_bytes += self->memory [index].bytes;
    uint64_t stream_bytes = buffer_bytes + figures_bytes;
    bool overflow = stream_bytes < buffer_bytes
                 || (stream_bytes && streams > UINT64_MAX / stream_bytes);
    uint64_t bytes = overflow? UINT64_MAX: streams * stream_bytes;
    if (overflow || bytes > self->memory_bound_bytes - held_bytes) {
        char need [32], each [32], figures [32], held [32], bound [32];
        snprintf (err, errlen, "job %s: its streams need %s (%llu stream%s of %s of buffers "
                  "and %s of figures)%s%s%s, over this agent's bound of %s per test "
                  "(--max-memory)", name,
                  s_size_text (bytes, need, sizeof (need)), (unsigned long long) streams,
                  streams == 1? "": "s", s_size_text (buffer_bytes, each, sizeof (each)),
                  s_size_text (figures_bytes, figures, sizeof (figures)),
                  held_bytes? ", and the test holds ": "",
                  held_bytes? s_size_text (held_bytes, held, sizeof (held)): "",
                  held_bytes? " already": "",
                  s_size_text (self->memory_bound_bytes, bound, sizeof (bound)));
        return -1;
    }
    s_memory_t *memory = realloc (self->memory, (self->memory_count + 1) * sizeof (s_memory_t));
    if (!memory) {
        snprintf (err, errlen, "job %s: %s", name, strerror (ENOMEM));
        return -1;
    }
    self->memory = memory;
    self->memory [self->memory_count++] = (s_memory_t) { .job_id = job_id, .bytes = bytes };
    return 0;
}

//  True if the claim of a file and a new use of the same file cannot go
//  together: anything but reads, or a read of a fill's file.
static bool
s_uses_clash (ledger_use_t held, ledger_use_t wanted)
{
    if (held == LEDGER_READS)
        return wanted == LEDGER_WRITES;
    if (wanted == LEDGER_READS)
        return held == LEDGER_WRITES;
    return true;
}

//  True if name is base.K for a K in 1 .. count, written as a set's
//  files are named (no sign, no leading zero).
static bool
s_in_set (const char *base, uint64_t count, const char *name)
{
    size_t length = strlen (base);
    if (strncmp (name, base, length) != 0 || name [length] != '.')
        return false;
    const char *digits = name + length + 1;
    if (*digits < '1' || *digits > '9')
        return false;
    uint64_t index = 0;
    for (; *digits; digits++) {
        if (*digits < '0' || *digits > '9' || index > count)
            return false;
        index = index * 10 + (uint64_t) (*digits - '0');
    }
    return index >= 1 && index <= count;
}

//  True if a claim and a new one name a file in common: by name, through
//  the sets' names, or by device and inode where both are known.
static bool
s_same_file (const s_file_t *held, const char *path, uint64_t set_files, bool known,
             const struct stat *st)
{
    if (held->set_files && set_files)
        return strcmp (held->path, path) == 0;
    if (held->set_files)
        return s_in_set (held->path, held->set_files, path);
    if (set_files)
        return s_in_set (path, set_files, held->path);
    return strcmp (held->path, path) == 0
        || (known && held->known && held->dev == st->st_dev && held->ino == st->st_ino);
}

//  Check a new use of a file (or a set) against every claim, then record
//  it.
static int
s_claim (ledger_t *self, uint32_t job_id, const char *name, ledger_use_t use,
         const char *path, uint64_t set_files, char *err, size_t errlen)
{
    struct stat st;
    bool known = !set_files && lstat (path, &st) == 0;
    for (size_t index = 0; index < self->file_count; index++) {
        s_file_t *held = &self->files [index];
        if (!s_same_file (held, path, set_files, known, &st) || !s_uses_clash (held->use, use))
            continue;
        char shown [CONFINE_SHOWN_MAX];
        confine_shorten (held->set_files && !set_files? path: held->path, shown, sizeof (shown));
        if (held->use == LEDGER_READS)
            snprintf (err, errlen, "job %s: writes the file job %s reads (%s)", name, held->job, shown);
        else
        if (use == LEDGER_READS)
            snprintf (err, errlen, "job %s: reads the file job %s writes (%s)", name, held->job, shown);
        else
            snprintf (err, errlen, "job %s: writes the same file as job %s (%s)", name, held->job, shown);
        return -1;
    }
    if (self->file_count == self->file_capacity) {
        size_t capacity = self->file_capacity? 2 * self->file_capacity: 16;
        s_file_t *files = realloc (self->files, capacity * sizeof (s_file_t));
        if (!files) {
            snprintf (err, errlen, "job %s: %s", name, strerror (ENOMEM));
            return -1;
        }
        self->files = files;
        self->file_capacity = capacity;
    }
    s_file_t *file = &self->files [self->file_count];
    *file = (s_file_t) { .job_id = job_id, .use = use, .known = known, .set_files = set_files };
    file->path = strdup (path);
    if (!file->path) {
        snprintf (err, errlen, "job %s: %s", name, strerror (ENOMEM));
        return -1;
    }
    snprintf (file->job, sizeof (file->job), "%s", name);
    if (known) {
        file->dev = st.st_dev;
        file->ino = st.st_ino;
    }
    self->file_count++;
    return 0;
}

int
ledger_claim_file (ledger_t *self, uint32_t job_id, const char *name,
                   ledger_use_t use, const char *path, char *err, size_t errlen)
{
    return s_claim (self, job_id, name, use, path, 0, err, errlen);
}

//  A set of one file is that file, path itself.
int
ledger_claim_set (ledger_t *self, uint32_t job_id, const char *name, ledger_use_t use,
                  const char *base, uint64_t count, char *err, size_t errlen)
{
    return s_claim (self, job_id, name, use, base, count > 1? count: 0, err, errlen);
}

//  Where files may outlive the test.
void
ledger_keep_in (ledger_t *self, kept_t *kept)
{
    self->kept = kept;
    self->kept_session = kept? kept_session (kept): 0;
}

kept_t *
ledger_kept (ledger_t *self, uint64_t *session_id)
{
    *session_id = self->kept_session;
    return self->kept;
}

//  Learn the identity of a prepared job's files.
void
ledger_seal_job (ledger_t *self, uint32_t job_id)
{
    for (size_t index = 0; index < self->file_count; index++) {
        s_file_t *file = &self->files [index];
        struct stat st;
        if (file->job_id == job_id && !file->known && !file->set_files
        &&  lstat (file->path, &st) == 0) {
            file->known = true;
            file->dev = st.st_dev;
            file->ino = st.st_ino;
        }
    }
}

//  Take over directories a job made.
int
ledger_adopt_dirs (ledger_t *self, confine_dirs_t *made)
{
    return confine_dirs_move (self->dirs, made);
}

//  Give back a job's memory and files.
void
ledger_forget_job (ledger_t *self, uint32_t job_id)
{
    size_t kept = 0;
    for (size_t index = 0; index < self->memory_count; index++)
        if (self->memory [index].job_id != job_id)
            self->memory [kept++] = self->memory [index];
    self->memory_count = kept;
    kept = 0;
    for (size_t index = 0; index < self->file_count; index++) {
        if (self->files [index].job_id == job_id)
            free (self->files [index].path);
        else
            self->files [kept++] = self->files [index];
    }
    self->file_count = kept;
}

//  The test is over: its empty directories go, those that hold files the
//  session keeps go with them, its claims are forgotten.
void
ledger_clear (ledger_t *self)
{
    confine_dirs_prune (self->dirs);
    if (!self->kept || kept_adopt_dirs (self->kept, self->kept_session, self->dirs) == -1)
        confine_dirs_forget (self->dirs);
    for (size_t index = 0; index < self->file_count; index++)
        free (self->files [index].path);
    self->file_count = 0;
    self->memory_count = 0;
}
