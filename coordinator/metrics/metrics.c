/*  coordinator/metrics/metrics.c: the HTTP side of --metrics; see metrics.h.

    The listening socket is ours (so that a bad address or a port in use
    is said exactly, before anything starts) and handed to libmicrohttpd,
    which runs one thread of its own.
*/
#include "metrics.h"
#include "metrics_collect.h"
#include "metrics_render.h"
#include "../../proto/clock.h"

#include <czmq.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

//  A snapshot shared by the run loop and scrapes, freed by the last one.
typedef struct {
    metrics_snapshot_t *snapshot;   //  the figures
    unsigned refs;                  //  holders: the server while current, scrapes rendering it
} shared_t;

struct _metrics_t {
    struct MHD_Daemon *daemon;      //  the HTTP server
    pthread_mutex_t lock;           //  guards current and every refs
    shared_t *current;              //  what a scrape gets, NULL before the first
    metrics_collector_t *collector; //  the run loop's
    int64_t next_ns;                //  when a phase under way is next published
    char url [300];                 //  http://HOST:PORT/metrics
};

//  Drop a hold on shared (NULL: none); the last frees it. Called with
//  the lock held; returns what the caller frees after letting it go.
static shared_t *
s_release (shared_t *shared)
{
    return shared && --shared->refs == 0? shared: NULL;
}

static void
s_free (shared_t *shared)
{
    if (shared) {
        metrics_snapshot_free (shared->snapshot);
        free (shared);
    }
}

//  One request: GET or HEAD of /metrics or /, the current snapshot in
//  the format asked for.
static enum MHD_Result
s_answer (void *cls, struct MHD_Connection *connection, const char *url, const char *method,
          const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
    (void) version, (void) upload_data, (void) upload_size, (void) con_cls;
    metrics_t *self = (metrics_t *) cls;
    struct MHD_Response *response;
    unsigned status = MHD_HTTP_OK;
    if (!streq (method, "GET") && !streq (method, "HEAD")) {
        static char allowed [] = "only GET and HEAD\n";
        response = MHD_create_response_from_buffer (strlen (allowed), allowed,
                                                    MHD_RESPMEM_PERSISTENT);
        status = MHD_HTTP_METHOD_NOT_ALLOWED;
    }
    else if (!streq (url, "/metrics") && !streq (url, "/")) {
        static char missing [] = "iofleet serves /metrics\n";
        response = MHD_create_response_from_buffer (strlen (missing), missing,
                                                    MHD_RESPMEM_PERSISTENT);
        status = MHD_HTTP_NOT_FOUND;
    }
    else {
        const char *accept = MHD_lookup_connection_value (connection, MHD_HEADER_KIND,
                                                          MHD_HTTP_HEADER_ACCEPT);
        metrics_format_t format = metrics_format_for (accept);
        pthread_mutex_lock (&self->lock);
        shared_t *shared = self->current;
        if (shared)
            shared->refs++;
        pthread_mutex_unlock (&self->lock);
        size_t size = 0;
        char *body = metrics_render (shared? shared->snapshot: NULL, format, &size);
        pthread_mutex_lock (&self->lock);
        shared_t *unused = s_release (shared);
        pthread_mutex_unlock (&self->lock);
        s_free (unused);
        if (!body)
            return MHD_NO;          //  out of memory: the connection is closed
        response = MHD_create_response_from_buffer (size, body, MHD_RESPMEM_MUST_FREE);
        if (!response) {
            free (body);
            return MHD_NO;
        }
        MHD_add_response_header (response, MHD_HTTP_HEADER_CONTENT_TYPE,
                                 metrics_content_type (format));
    }
    if (!response)
        return MHD_NO;
    enum MHD_Result rc = MHD_queue_response (connection, status, response);
    MHD_destroy_response (response);
    return rc;
}

//  A socket listening on address, or -1 with the reason in err.
static int
s_listen (const char *address, char *url, size_t urllen, char *err, size_t errlen)
{
    char host [256];
    const char *colon = strrchr (address, ':');
    const char *port = colon? colon + 1: NULL;
    if (!colon || colon == address || !*port || strspn (port, "0123456789") != strlen (port)
    ||  atol (port) > 65535 || (size_t) (colon - address) >= sizeof host) {
        snprintf (err, errlen, "--metrics %s: expected HOST:PORT (a port of 0 to 65535)", address);
        return -1;
    }
    snprintf (host, sizeof host, "%.*s", (int) (colon - address), address);
    if (host [0] == '[' && host [strlen (host) - 1] == ']') {
        memmove (host, host + 1, strlen (host));
        host [strlen (host) - 1] = '\0';
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *found = NULL;
    int rc = getaddrinfo (streq (host, "*")? NULL: host, port, &hints, &found);
    if (rc) {
        snprintf (err, errlen, "--metrics %s: %s", address, gai_strerror (rc));
        return -1;
    }
    int fd = socket (found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
    int on = 1;
    if (fd >= 0)
        setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (fd < 0 || bind (fd, found->ai_addr, found->ai_addrlen) || listen (fd, 64)) {
        snprintf (err, errlen, "--metrics %s: %s", address, strerror (errno));
        if (fd >= 0)
            close (fd);
        freeaddrinfo (found);
        return -1;
    }
    freeaddrinfo (found);
    struct sockaddr_storage bound;
    socklen_t length = sizeof bound;
    char name [NI_MAXHOST] = "?", service [NI_MAXSERV] = "?";
    if (getsockname (fd, (struct sockaddr *) &bound, &length) == 0)
        getnameinfo ((struct sockaddr *) &bound, length, name, sizeof name, service,
                     sizeof service, NI_NUMERICHOST | NI_NUMERICSERV);
    bool v6 = strchr (name, ':') != NULL;
    snprintf (url, urllen, "http://%s%s%s:%s/metrics", v6? "[": "", name, v6? "]": "", service);
    return fd;
}

metrics_t *
metrics_new (const char *address, char *err, size_t errlen)
{
    metrics_t *self = (metrics_t *) calloc (1, sizeof (*self));
    if (!self || !(self->collector = metrics_collector_new ())) {
        snprintf (err, errlen, "--metrics: out of memory");
        goto fail;
    }
    pthread_mutex_init (&self->lock, NULL);
    int fd = s_listen (address, self->url, sizeof self->url, err, errlen);
    if (fd < 0)
        goto fail;
    self->daemon = MHD_start_daemon (MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0,
                                     NULL, NULL, s_answer, self,
                                     MHD_OPTION_LISTEN_SOCKET, fd,
                                     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned) 10,
                                     MHD_OPTION_CONNECTION_LIMIT, (unsigned) 64,
                                     MHD_OPTION_END);
    if (!self->daemon) {
        snprintf (err, errlen, "--metrics %s: the HTTP server did not start", address);
        close (fd);
        goto fail;
    }
    return self;
fail:
    metrics_destroy (&self);
    return NULL;
}

const char *
metrics_url (const metrics_t *self)
{
    return self->url;
}

void
metrics_publish (metrics_t *self, const test_result_t *result, bool over)
{
    if (!self || !result)
        return;
    int64_t now_ns = clock_now_ns ();
    if (!over && now_ns < self->next_ns)
        return;
    self->next_ns = now_ns + METRICS_PERIOD_NS;
    metrics_snapshot_t *snapshot = metrics_collect (self->collector, result, over);
    shared_t *shared = snapshot? (shared_t *) calloc (1, sizeof (shared_t)): NULL;
    if (!shared) {
        metrics_snapshot_free (snapshot);
        return;                     //  the figures before stay up
    }
    shared->snapshot = snapshot;
    shared->refs = 1;
    pthread_mutex_lock (&self->lock);
    shared_t *old = s_release (self->current);
    self->current = shared;
    pthread_mutex_unlock (&self->lock);
    s_free (old);
}

void
metrics_linger (metrics_t *self, int64_t linger_ns)
{
    if (!self || linger_ns <= 0)
        return;
    pthread_mutex_lock (&self->lock);
    bool published = self->current != NULL;
    pthread_mutex_unlock (&self->lock);
    if (!published)
        return;                     //  no figures to keep up
    fprintf (stderr, "iofleet: event=metrics-linger url=%s seconds=%.1f\n", self->url,
             (double) linger_ns / NS_PER_SEC);
    int64_t until_ns = clock_now_ns () + linger_ns;
    while (!zsys_interrupted && clock_now_ns () < until_ns) {
        int64_t left_ms = (until_ns - clock_now_ns ()) / 1000000;
        zclock_sleep ((int) (left_ms < 100? (left_ms > 0? left_ms: 1): 100));
    }
}

void
metrics_destroy (metrics_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    metrics_t *self = *self_p;
    if (self->daemon)
        MHD_stop_daemon (self->daemon);
    if (self->collector) {
        s_free (s_release (self->current));
        pthread_mutex_destroy (&self->lock);
    }
    metrics_collector_destroy (&self->collector);
    free (self);
    *self_p = NULL;
}
