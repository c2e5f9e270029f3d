/*  agent/settings.c: the agent's settings table, its config file and its
    command line; see settings.h.

    To add a setting: add a field to struct _settings_t, a row to
    settings_rows[] (name, type, offset, default, help; .arg names the
    value in --help; SETTING_FILE if the config file may give it,
    SETTING_LIST if it may be repeated), and pass it on in
    settings_agent_config (a field of agent_config_t). The flag, the key,
    --help and the manual page follow from the row. The max-memory row
    is an example of a size: `--max-memory 512M` and `max-memory = 512M`
    both read through opt_parse, bounds checked.
*/
#include "settings.h"
#include "confine.h"

#include "../proto/clock.h"
#include "../proto/inifile.h"
#include "../proto/jobspec.h"
#include "../proto/version.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S_PROGRAM       "iofleet-agent"
#define S_ENDPOINT_MAX  255             //  a bind endpoint
#define S_ROWS_MAX      32              //  rows settings_rows[] may have
#define S_CODE_BASE     256             //  getopt code of row i: S_CODE_BASE + i

//  Where a value came from, besides a line of the file (1, 2, ...).
#define S_FROM_DEFAULT  0
#define S_FROM_FLAG     (-1)

//  The values of a list setting, in the order given.
typedef struct {
    char **items;                       //  each value, malloc'd
    int *lines;                         //  where each came from (a line, S_FROM_FLAG)
    size_t count;
} s_list_t;

struct _settings_t {
    char config [JOB_PATH_MAX + 1];     //  --config FILE, "" for the default
    char bind [S_ENDPOINT_MAX + 1];     //  ZeroMQ endpoint to listen on
    char name [JOB_NAME_MAX + 1];       //  agent name, "" for the host name
    s_list_t roots;                     //  directories the agent may write under
    s_list_t nfs_hosts;                 //  servers nfs:// sources may come from
    char keys [JOB_PATH_MAX + 1];       //  CURVE keys directory, "" for none
    bool insecure;                      //  serve a non-loopback bind without keys
    uint64_t max_memory_bytes;          //  bound on one test's buffers, 0 for MemTotal / 4
    int64_t max_lease_ns;               //  the longest lease a coordinator may ask for
    bool verbose;                       //  also log pings and samples
    bool help;                          //  --help
    bool version;                       //  --version
    bool man;                           //  --man: print the manual page
    bool completion;                    //  --completion: print the shell completion's words
    const char *path;                   //  config file read (config or the default), NULL if none
    int lines [S_ROWS_MAX];             //  per row: line of the file, S_FROM_FLAG or S_FROM_DEFAULT
};

#define AT(f)       offsetof (struct _settings_t, f)
#define CAPACITY(f) sizeof (((struct _settings_t *) 0)->f)

const settings_row_t settings_rows [] = {
    { .opt = { .name = "config", .type = OPT_STRING, .offset = AT (config),
               .capacity = CAPACITY (config),
               .help = "read the settings from FILE instead of " SETTINGS_DEFAULT_CONFIG
                       " (which is read only if it exists)" },
      .arg = "FILE" },
    { .opt = { .name = "bind", .type = OPT_STRING, .offset = AT (bind),
               .capacity = CAPACITY (bind), .default_text = "tcp://*:7654",
               .help = "ZeroMQ endpoint to listen on: tcp://HOST:PORT, tcp://*:PORT for every "
                       "address; tcp://127.0.0.1:* picks a free port at random (49152 to "
                       "65535), logged as event=bound" },
      .arg = "ENDPOINT", .flags = SETTING_FILE },
    { .opt = { .name = "name", .type = OPT_STRING, .offset = AT (name),
               .capacity = CAPACITY (name),
               .help = "name reported to coordinators: 1 to 63 letters, digits, '.', '_' "
                       "or '-' (default: the host name)" },
      .arg = "NAME", .flags = SETTING_FILE },
    { .opt = { .name = "root", .type = OPT_STRING, .offset = AT (roots),
               .capacity = JOB_PATH_MAX + 1,
               .help = "directory the agent may create files under; give it again for more. "
                       "Relative job paths go under the first root. At least one is needed" },
      .arg = "DIR", .flags = SETTING_FILE | SETTING_LIST },
    { .opt = { .name = "allow-nfs", .type = OPT_STRING, .offset = AT (nfs_hosts),
               .capacity = JOB_NAME_MAX * 4,
               .help = "read nfs:// sources from this server (a name or address as in the "
                       "URLs; '*' for any); give it again for more. Without it, none" },
      .arg = "HOST", .flags = SETTING_FILE | SETTING_LIST },
    { .opt = { .name = "keys", .type = OPT_STRING, .offset = AT (keys),
               .capacity = CAPACITY (keys),
               .help = "encrypt and authenticate (CURVE): DIR holds this agent's key pair "
                       "(its secret key readable by its owner only) and the NAME.key of every "
                       "coordinator it accepts (`iofleet keygen DIR NAME` makes a pair)" },
      .arg = "DIR", .flags = SETTING_FILE },
    { .opt = { .name = "insecure", .type = OPT_BOOL, .offset = AT (insecure),
               .default_text = "no",
               .help = "allow a non-loopback bind without keys: traffic is not encrypted and "
                       "coordinators are not authenticated" },
      .flags = SETTING_FILE },
    { .opt = { .name = "max-memory", .type = OPT_SIZE, .offset = AT (max_memory_bytes),
               .min = 1 << 20,
               .help = "buffers one test may hold on this agent (streams x bs of all its "
                       "jobs), e.g. 512M or 4G (default: a quarter of the host's memory)" },
      .arg = "SIZE", .flags = SETTING_FILE },
    { .opt = { .name = "max-lease", .type = OPT_DURATION, .offset = AT (max_lease_ns),
               .min = NS_PER_SEC, .max = 3600 * NS_PER_SEC, .default_text = "60s",
               .help = "the longest lease a coordinator may ask for: how long the agent keeps "
                       "a session, busy for every other coordinator, after its coordinator "
                       "falls silent; a HELLO asking for more is refused" },
      .arg = "DURATION", .flags = SETTING_FILE },
    { .opt = { .name = "verbose", .type = OPT_BOOL, .offset = AT (verbose),
               .default_text = "no",
               .help = "also log pings and samples" },
      .flags = SETTING_FILE },
    { .opt = { .name = "version", .type = OPT_BOOL, .offset = AT (version),
               .help = "print the version and exit" } },
    { .opt = { .name = "help", .type = OPT_BOOL, .offset = AT (help),
               .help = "print this help and exit" } },
    { .opt = { .name = "man", .type = OPT_BOOL, .offset = AT (man),
               .help = "print the manual page as roff and exit" },
      .flags = SETTING_HIDDEN },
    { .opt = { .name = "completion", .type = OPT_BOOL, .offset = AT (completion),
               .help = "print the words of the shell completion and exit" },
      .flags = SETTING_HIDDEN },
    { .opt = { .name = NULL } }
};

//  Number of rows.
static size_t
s_row_count (void)
{
    size_t count = 0;
    while (settings_rows [count].opt.name)
        count++;
    assert (count <= S_ROWS_MAX);
    return count;
}

//  The row called name, or NULL.
static const settings_row_t *
s_row (const char *name)
{
    for (const settings_row_t *row = settings_rows; row->opt.name; row++)
        if (strcmp (row->opt.name, name) == 0)
            return row;
    return NULL;
}

//  The list field of a list row.
static s_list_t *
s_list (settings_t *self, const settings_row_t *row)
{
    assert (row->flags & SETTING_LIST);
    return (s_list_t *) ((char *) self + row->opt.offset);
}

//  Empty a list.
static void
s_list_clear (s_list_t *list)
{
    for (size_t i = 0; i < list->count; i++)
        free (list->items [i]);
    free (list->items);
    free (list->lines);
    memset (list, 0, sizeof (*list));
}

//  --------------------------------------------------------------------
//  Errors, named by where the value came from

//  Write "file:line: key: reason" for a value from the file, "--key:
//  reason" for one from a flag, and "file: key: reason" (or "--key:
//  reason" without a file) for one that was never given.
static void
s_error (const settings_t *self, const settings_row_t *row, int line,
         char *err, size_t errlen, const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

static void
s_error (const settings_t *self, const settings_row_t *row, int line,
         char *err, size_t errlen, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    if (self->path && line != S_FROM_FLAG)
        inifile_verror (err, errlen, self->path, line, row->opt.name, format, args);
    else {
        int used = snprintf (err, errlen, "--%s: ", row->opt.name);
        if (used >= 0 && (size_t) used < errlen)
            vsnprintf (err + used, errlen - (size_t) used, format, args);
    }
    va_end (args);
}

//  --------------------------------------------------------------------
//  Taking values

//  Set the value of row from text, given at line (or S_FROM_FLAG).
//  Returns 0, or -1 with the reason in err.
static int
s_set (settings_t *self, const settings_row_t *row, const char *text, int line,
       char *err, size_t errlen)
{
    size_t index = (size_t) (row - settings_rows);
    char reason [256];
    if (line > 0 && self->lines [index] > 0 && !(row->flags & SETTING_LIST)) {
        s_error (self, row, line, err, errlen, "given twice (first at line %d)",
                 self->lines [index]);
        return -1;
    }
    if (!(row->flags & SETTING_LIST)) {
        if (opt_parse (&row->opt, text, self, reason, sizeof (reason))) {
            s_error (self, row, line, err, errlen, "%s", reason);
            return -1;
        }
        self->lines [index] = line;
        return 0;
    }
    //  A list given on the command line replaces the file's.
    s_list_t *list = s_list (self, row);
    if (line == S_FROM_FLAG && self->lines [index] != S_FROM_FLAG)
        s_list_clear (list);
    self->lines [index] = line;

    //  Each value is parsed as a string of the row's capacity.
    opt_def_t item = row->opt;
    item.offset = 0;
    char *value = calloc (1, item.capacity);
    char **items = realloc (list->items, (list->count + 1) * sizeof (char *));
    if (items)
        list->items = items;
    int *lines = realloc (list->lines, (list->count + 1) * sizeof (int));
    if (lines)
        list->lines = lines;
    if (!value || !items || !lines) {
        free (value);
        s_error (self, row, line, err, errlen, "%s", strerror (ENOMEM));
        return -1;
    }
    if (opt_parse (&item, text, value, reason, sizeof (reason))) {
        free (value);
        s_error (self, row, line, err, errlen, "%s", reason);
        return -1;
    }
    list->items [list->count] = value;
    list->lines [list->count++] = line;
    return 0;
}

//  What the config file reader hands over. The file has no sections.
typedef struct {
    settings_t *settings;               //  being filled
    char *err;                          //  where an error goes
    size_t errlen;                      //  its size
} s_reading_t;

//  A "[...]" line in the config file: refused.
static int
s_on_section (void *user, int line, char *header)
{
    s_reading_t *reading = (s_reading_t *) user;
    inifile_error (reading->err, reading->errlen, reading->settings->path, line, header,
                   "the agent's config has no sections: give KEY = VALUE lines only");
    return -1;
}

//  A KEY = VALUE line of the config file.
static int
s_on_key (void *user, int line, const char *key, const char *value)
{
    s_reading_t *reading = (s_reading_t *) user;
    settings_t *self = reading->settings;
    const settings_row_t *row = s_row (key);
    if (!row || (row->flags & SETTING_HIDDEN)) {
        inifile_error (reading->err, reading->errlen, self->path, line, key,
                       "unknown key (the keys are listed in iofleet-agent(8))");
        return -1;
    }
    if (!(row->flags & SETTING_FILE)) {
        inifile_error (reading->err, reading->errlen, self->path, line, key,
                       "only a command-line flag: --%s", key);
        return -1;
    }
    return s_set (self, row, value, line, reading->err, reading->errlen);
}

//  --------------------------------------------------------------------
//  Checks that need only the values

//  True if name is usable as an agent name: it appears unquoted in every
//  log line and in reports, so letters, digits, '.', '_' and '-' only.
static bool
s_name_is_valid (const char *name)
{
    size_t length = strlen (name);
    if (length == 0 || length > JOB_NAME_MAX)
        return false;
    return strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789._-") == length;
}

//  Check the form of a bind endpoint: tcp://HOST:PORT (PORT a number or
//  '*'), ipc://PATH or inproc://NAME. Returns 0, or -1 with a reason.
static int
s_check_bind (const char *bind, char *reason, size_t reasonlen)
{
    const char *local = strncmp (bind, "ipc://", 6) == 0? bind + 6
                      : strncmp (bind, "inproc://", 9) == 0? bind + 9: NULL;
    if (local && !*local) {
        snprintf (reason, reasonlen, "'%s' needs a path or name after the ://", bind);
        return -1;
    }
    if (local)
        return 0;
    const char *host = strncmp (bind, "tcp://", 6) == 0? bind + 6: NULL;
    const char *colon = host? strrchr (host, ':'): NULL;
    if (!host || !colon || colon == host) {
        snprintf (reason, reasonlen, "'%s' is not an endpoint: use tcp://HOST:PORT, "
                  "tcp://*:PORT or ipc://PATH", bind);
        return -1;
    }
    const char *port = colon + 1;
    size_t digits = strspn (port, "0123456789");
    bool any = strcmp (port, "*") == 0;
    if (!any && (digits == 0 || digits > 5 || port [digits] || atoi (port) < 1
             ||  atoi (port) > 65535)) {
        snprintf (reason, reasonlen, "'%s': the port must be a number from 1 to 65535, "
                  "or '*' for any free one", bind);
        return -1;
    }
    return 0;
}

//  Check the values together. Returns 0, or -1 with err.
static int
s_validate (settings_t *self, char *err, size_t errlen)
{
    const settings_row_t *bind = s_row ("bind");
    const settings_row_t *insecure = s_row ("insecure");
    const settings_row_t *root = s_row ("root");
    int bind_line = self->lines [bind - settings_rows];
    char reason [512];

    if (self->name [0] && !s_name_is_valid (self->name)) {
        const settings_row_t *name = s_row ("name");
        s_error (self, name, self->lines [name - settings_rows], err, errlen,
                 "'%s': use 1 to 63 letters, digits, '.', '_' or '-'", self->name);
        return -1;
    }
    if (s_check_bind (self->bind, reason, sizeof (reason))) {
        s_error (self, bind, bind_line, err, errlen, "%s", reason);
        return -1;
    }
    if (self->keys [0] && self->insecure) {
        s_error (self, insecure, self->lines [insecure - settings_rows], err, errlen,
                 "keys and insecure exclude each other");
        return -1;
    }
    if (!self->keys [0] && !self->insecure && !agent_endpoint_is_loopback (self->bind)) {
        bool in_file = self->path && bind_line != S_FROM_FLAG;
        s_error (self, bind, bind_line, err, errlen,
                 "%s is not a loopback address and this agent runs without encryption; "
                 "give %s, or add %s to serve it anyway", self->bind,
                 in_file? "keys = DIR": "--keys DIR", in_file? "insecure = yes": "--insecure");
        return -1;
    }
    if (self->roots.count == 0) {
        s_error (self, root, S_FROM_DEFAULT, err, errlen,
                 "at least one root is needed: give --root DIR%s", self->path?
                 ", or root = DIR in the file": "");
        return -1;
    }
    return 0;
}

//  --------------------------------------------------------------------
//  The command line

//  Fill longs (S_ROWS_MAX + 1 entries) from the table.
static void
s_long_options (struct option *longs)
{
    size_t count = s_row_count ();
    for (size_t i = 0; i < count; i++) {
        const settings_row_t *row = &settings_rows [i];
        int has_arg = required_argument;
        //  A switch the file may set can be turned off again: --insecure=no.
        if (row->opt.type == OPT_BOOL)
            has_arg = (row->flags & SETTING_FILE)? optional_argument: no_argument;
        longs [i] = (struct option) { row->opt.name, has_arg, NULL, S_CODE_BASE + (int) i };
    }
    longs [count] = (struct option) { NULL, 0, NULL, 0 };
}

//  Read the config file at self->path into self.
static int
s_read_config (settings_t *self, char *err, size_t errlen)
{
    s_reading_t reading = { .settings = self, .err = err, .errlen = errlen };
    //  A config file is a few lines; a larger one is not a config file.
    static const inifile_limits_t limits = {
        .what = "config", .file_max = 64 * 1024, .line_max = 4096
    };
    return inifile_read (self->path, &limits, s_on_section, s_on_key, &reading, err, errlen);
}

settings_result_t
settings_parse (settings_t *self, int argc, char **argv, char *err, size_t errlen)
{
    assert (self && argv && err);
    struct option longs [S_ROWS_MAX + 1];
    s_long_options (longs);
    const settings_row_t *config = s_row ("config");

    //  First pass: bad flags, and what decides the rest (--config, --help).
    optind = 0;
    opterr = 1;
    int code;
    while ((code = getopt_long (argc, argv, "", longs, NULL)) != -1) {
        if (code < S_CODE_BASE) {
            err [0] = 0;            //  getopt_long said what was wrong
            return SETTINGS_BAD_USAGE;
        }
        const settings_row_t *row = &settings_rows [code - S_CODE_BASE];
        if ((row->flags & SETTING_FILE) || row->opt.type != OPT_BOOL) {
            if (row == config && s_set (self, row, optarg, S_FROM_FLAG, err, errlen))
                return SETTINGS_BAD_USAGE;
            continue;
        }
        *(bool *) ((char *) self + row->opt.offset) = true;
    }
    if (optind < argc) {
        snprintf (err, errlen, "unexpected argument '%s'", argv [optind]);
        return SETTINGS_BAD_USAGE;
    }
    if (self->help || self->version || self->man || self->completion) {
        if (self->help)
            settings_help (stdout);
        else
        if (self->version)
            printf (S_PROGRAM " %s (protocol %d)\n", IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
        else
        if (self->man)
            settings_man (stdout);
        else
            settings_completion (stdout);
        return SETTINGS_DONE;
    }
    //  The file, then every flag over it.
    self->path = self->config [0]? self->config
               : access (SETTINGS_DEFAULT_CONFIG, F_OK) == 0? SETTINGS_DEFAULT_CONFIG: NULL;
    if (self->path && s_read_config (self, err, errlen))
        return SETTINGS_BAD_CONFIG;
    optind = 0;
    opterr = 0;
    while ((code = getopt_long (argc, argv, "", longs, NULL)) != -1) {
        const settings_row_t *row = &settings_rows [code - S_CODE_BASE];
        if (row == config || !(row->flags & SETTING_FILE))
            continue;
        if (s_set (self, row, optarg? optarg: "yes", S_FROM_FLAG, err, errlen))
            return SETTINGS_BAD_USAGE;
    }
    if (s_validate (self, err, errlen))
        return self->path? SETTINGS_BAD_CONFIG: SETTINGS_BAD_USAGE;
    return SETTINGS_RUN;
}

//  --------------------------------------------------------------------
//  Checks against the system

int
settings_check (settings_t *self, char *err, size_t errlen)
{
    assert (self);
    char reason [1024];
    const settings_row_t *rows [] = { s_row ("root"), s_row ("allow-nfs") };
    confine_t *confine = confine_new ();
    if (!confine) {
        snprintf (err, errlen, "%s", strerror (ENOMEM));
        return -1;
    }
    int rc = 0;
    for (size_t r = 0; r < sizeof (rows) / sizeof (rows [0]) && rc == 0; r++) {
        s_list_t *list = s_list (self, rows [r]);
        for (size_t i = 0; i < list->count && rc == 0; i++) {
            //  The agent's own checks, so that they cannot differ.
            rc = r == 0? confine_add_root (confine, list->items [i], reason, sizeof (reason))
                       : confine_allow_nfs (confine, list->items [i], reason, sizeof (reason));
            //  A root the service may not write to (ProtectSystem=strict
            //  without a ReadWritePaths= for it) would fail every job.
            if (rc == 0 && r == 0 && access (list->items [i], W_OK) == -1) {
                snprintf (reason, sizeof (reason), "root %s: not writable: %s",
                          list->items [i], strerror (errno));
                rc = -1;
            }
            if (rc)
                s_error (self, rows [r], list->lines [i], err, errlen, "%s", reason);
        }
    }
    confine_destroy (&confine);
    if (rc == 0 && self->keys [0]) {
        keys_t *keys = agent_keys_new (self->keys, reason, sizeof (reason));
        if (!keys) {
            const settings_row_t *row = s_row ("keys");
            s_error (self, row, self->lines [row - settings_rows], err, errlen, "%s", reason);
            rc = -1;
        }
        keys_destroy (&keys);
    }
    return rc;
}

//  --------------------------------------------------------------------
//  The rest of the public face

settings_t *
settings_new (void)
{
    settings_t *self = calloc (1, sizeof (settings_t));
    if (!self)
        return NULL;
    size_t count = s_row_count ();
    for (size_t i = 0; i < count; i++) {
        const settings_row_t *row = &settings_rows [i];
        char reason [256];
        if (!row->opt.default_text)
            continue;
        int rc = s_set (self, row, row->opt.default_text, S_FROM_DEFAULT, reason, sizeof (reason));
        assert (rc == 0);               //  a default outside its own bounds is a table bug
        (void) rc;
    }
    return self;
}

void
settings_destroy (settings_t **self_p)
{
    assert (self_p);
    settings_t *self = *self_p;
    if (!self)
        return;
    s_list_clear (&self->roots);
    s_list_clear (&self->nfs_hosts);
    free (self);
    *self_p = NULL;
}

void
settings_agent_config (settings_t *self, agent_config_t *config)
{
    assert (self && config);
    memset (config, 0, sizeof (*config));
    config->bind_endpoint = self->bind;
    config->name = self->name [0]? self->name: NULL;
    config->roots = (const char *const *) self->roots.items;
    config->root_count = self->roots.count;
    config->nfs_hosts = (const char *const *) self->nfs_hosts.items;
    config->nfs_host_count = self->nfs_hosts.count;
    config->insecure = self->insecure;
    config->keys_dir = self->keys [0]? self->keys: NULL;
    config->verbose = self->verbose;
    config->max_memory_bytes = self->max_memory_bytes;
    config->max_lease_ns = self->max_lease_ns;
}
