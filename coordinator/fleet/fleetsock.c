/*  coordinator/fleet/fleetsock.c: the fleet's one socket; see fleetsock.h. */
#include "fleetsock.h"
#include "../../proto/fdlimit.h"
#include "../../proto/msg.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

//  A routing id is ours, never libzmq's (whose start with a zero byte):
//  a letter, then the peer's id in four bytes, most significant first.
#define S_ID_TAG   'a'
#define S_ID_SIZE  5

//  The console's own routing id, as every agent sees it: a letter, then
//  random bytes. One id for the whole life of the socket, so that an
//  agent knows a reconnection (after a pause of either side, a dropped
//  connection) as the same coordinator, whose session it holds, and not
//  as a second one to refuse.
#define S_OWN_TAG   'c'
#define S_OWN_SIZE  16

//  Descriptors kept free beside one per connection: the results
//  directory, the archive, the terminal, libzmq's own.
#define S_FD_MARGIN 64

//  When the soft limit must grow, it grows to what is needed rounded up
//  to this, so that adding agents one by one does not raise it each time.
#define S_FD_STEP 1024

//  ZMTP heartbeats on every connection, as the agent's listening socket
//  has them (agent/listen.c): a dead connection is found and redialled.
#define S_HEARTBEAT_IVL_MS      5000
#define S_HEARTBEAT_TIMEOUT_MS  15000

struct _fleetsock_t {
    zsock_t *router;                //  connects out to every agent
    zsock_t *monitor;               //  the router's connection events
    bool monitoring;                //  zmq_socket_monitor is on: off before closing
};

//  The routing id of peer id.
static void
s_id_bytes (uint32_t id, uint8_t bytes [S_ID_SIZE])
{
    bytes [0] = S_ID_TAG;
    bytes [1] = (uint8_t) (id >> 24);
    bytes [2] = (uint8_t) (id >> 16);
    bytes [3] = (uint8_t) (id >> 8);
    bytes [4] = (uint8_t) id;
}

//  Our own routing id: random, so that no other console has it.
static void
s_own_id (uint8_t bytes [S_OWN_SIZE])
{
    bytes [0] = S_OWN_TAG;
    if (getrandom (bytes + 1, S_OWN_SIZE - 1, 0) != S_OWN_SIZE - 1) {
        //  Interrupted: the pid and the time still keep two consoles apart.
        uint64_t mix [2] = { (uint64_t) getpid (), (uint64_t) time (NULL) };
        memcpy (bytes + 1, mix, sizeof mix < S_OWN_SIZE - 1? sizeof mix: S_OWN_SIZE - 1);
    }
}

fleetsock_t *
fleetsock_new (char *err, size_t errlen)
{
    fleetsock_t *self = (fleetsock_t *) zmalloc (sizeof (fleetsock_t));
    self->router = zsock_new (ZMQ_ROUTER);
    if (!self->router) {
        snprintf (err, errlen, "zsock_new(ROUTER): %s", zmq_strerror (zmq_errno ()));
        goto fail;
    }
    //  Never block on a dead agent: a send to a full queue fails instead
    //  of waiting (ROUTER_MANDATORY makes it say so rather than drop);
    //  the last BYE gets half a second to leave at exit and no more;
    //  frames larger than the protocol allows are dropped by libzmq
    //  before they reach the decoder; ZMTP heartbeats keep idle
    //  connections honest both ways, as seldom as the agent's: libzmq
    //  cancels a connection's heartbeat timer by walking every timer of
    //  its I/O thread, so at 4096 agents a ping a second kept that
    //  thread busy and held back the keepalives of the lease.
    void *handle = zsock_resolve (self->router);
    int mandatory = 1;
    zmq_setsockopt (handle, ZMQ_ROUTER_MANDATORY, &mandatory, sizeof mandatory);
    zsock_set_sndtimeo (self->router, 0);
    zsock_set_linger (self->router, 500);
    zsock_set_maxmsgsize (self->router, MSG_FRAME_MAX);
    zsock_set_heartbeat_ivl (self->router, S_HEARTBEAT_IVL_MS);
    zsock_set_heartbeat_timeout (self->router, S_HEARTBEAT_TIMEOUT_MS);
    zsock_set_reconnect_ivl (self->router, 200);
    uint8_t own [S_OWN_SIZE];
    s_own_id (own);
    zmq_setsockopt (handle, ZMQ_ROUTING_ID, own, sizeof own);

    //  The monitor's address is unbound only when libzmq's reaper gets
    //  to the last fleet's socket, and the next fleet may have its
    //  memory: a count, not an address, keeps each name new.
    static uint64_t s_fleets;
    char endpoint [64];
    snprintf (endpoint, sizeof endpoint, "inproc://iofleet-fleet-%" PRIu64,
              __atomic_fetch_add (&s_fleets, 1, __ATOMIC_RELAXED));
    int events = ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_CONNECT_RETRIED
               | ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
               | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL;
    if (zmq_socket_monitor (handle, endpoint, events) == -1) {
        snprintf (err, errlen, "zmq_socket_monitor(%s): %s", endpoint, zmq_strerror (zmq_errno ()));
        goto fail;
    }
    self->monitoring = true;
    //  libzmq's I/O thread sends each event into the monitor's pipe and
    //  waits while the pipe is full: every connection of the socket, and
    //  a closing of the socket that waits for that thread, would stall
    //  behind a monitor nobody reads in time (a fleet of thousands makes
    //  thousands of events at once, a run's end thousands more). Without
    //  a high-water mark on our side the pipe never fills; it is read on
    //  every turn of the fleet's loop and before the monitor stops.
    self->monitor = zsock_new (ZMQ_PAIR);
    if (self->monitor)
        zsock_set_rcvhwm (self->monitor, 0);
    if (!self->monitor || zsock_connect (self->monitor, "%s", endpoint) == -1) {
        snprintf (err, errlen, "connect(%s): %s", endpoint, zmq_strerror (zmq_errno ()));
        goto fail;
    }
    return self;

fail:
    fleetsock_destroy (&self);
    return NULL;
}

void
fleetsock_destroy (fleetsock_t **self_p)
{
    assert (self_p);
    fleetsock_t *self = *self_p;
    if (self) {
        //  What the monitor still holds is read and dropped, then the
        //  monitor stops before the socket closes.
        if (self->monitor) {
            uint16_t event;
            uint32_t value;
            char endpoint [256];
            while (fleetsock_event (self, &event, &value, endpoint, sizeof endpoint))
                ;
        }
        if (self->monitoring)
            zmq_socket_monitor (zsock_resolve (self->router), NULL, 0);
        zsock_destroy (&self->monitor);
        zsock_destroy (&self->router);
        free (self);
        *self_p = NULL;
    }
}

void
fleetsock_set_certificate (fleetsock_t *self, zcert_t *own)
{
    zcert_apply (own, self->router);
}

int
fleetsock_reserve (fleetsock_t *self, size_t connections, char *err, size_t errlen)
{
    (void) self;
    char who [64];
    snprintf (who, sizeof who, "%zu agent%s", connections, connections == 1? "": "s");
    return fdlimit_reserve ((uint64_t) connections + S_FD_MARGIN, S_FD_STEP, who,
                            connections != 1, "or drive fewer agents", err, errlen);
}

int
fleetsock_connect (fleetsock_t *self, uint32_t id, const char *endpoint,
                   const uint8_t *server_key, char *err, size_t errlen)
{
    void *handle = zsock_resolve (self->router);
    uint8_t bytes [S_ID_SIZE];
    s_id_bytes (id, bytes);
    if (zmq_setsockopt (handle, ZMQ_CONNECT_ROUTING_ID, bytes, sizeof bytes) == -1) {
        snprintf (err, errlen, "zmq_setsockopt(ZMQ_CONNECT_ROUTING_ID): %s",
                  zmq_strerror (zmq_errno ()));
        return -1;
    }
    if (server_key)
        zsock_set_curve_serverkey_bin (self->router, server_key);
    if (zmq_connect (handle, endpoint) == -1) {
        snprintf (err, errlen, "cannot connect to '%s': %s", endpoint, zmq_strerror (zmq_errno ()));
        return -1;
    }
    return 0;
}

int
fleetsock_send (fleetsock_t *self, uint32_t id, const void *data, size_t size)
{
    void *handle = zsock_resolve (self->router);
    uint8_t bytes [S_ID_SIZE];
    s_id_bytes (id, bytes);
    if (zmq_send (handle, bytes, sizeof bytes, ZMQ_SNDMORE | ZMQ_DONTWAIT) == -1)
        return -1;
    return zmq_send (handle, data, size, ZMQ_DONTWAIT) == -1? -1: 0;
}

//  Read and drop the rest of a message.
static void
s_skip_rest (void *handle)
{
    int more = 1;
    size_t more_size = sizeof more;
    while (zmq_getsockopt (handle, ZMQ_RCVMORE, &more, &more_size) == 0 && more) {
        zmq_msg_t part;
        zmq_msg_init (&part);
        int rc = zmq_msg_recv (&part, handle, ZMQ_DONTWAIT);
        zmq_msg_close (&part);
        if (rc == -1)
            break;
    }
}

int
fleetsock_recv (fleetsock_t *self, uint32_t *id, zframe_t **frame, bool *more)
{
    void *handle = zsock_resolve (self->router);
    zmq_msg_t routing;
    zmq_msg_init (&routing);
    if (zmq_msg_recv (&routing, handle, ZMQ_DONTWAIT) == -1) {
        zmq_msg_close (&routing);
        return 0;
    }
    const uint8_t *bytes = (const uint8_t *) zmq_msg_data (&routing);
    bool ours = zmq_msg_size (&routing) == S_ID_SIZE && bytes [0] == S_ID_TAG;
    if (ours)
        *id = (uint32_t) bytes [1] << 24 | (uint32_t) bytes [2] << 16
            | (uint32_t) bytes [3] << 8 | bytes [4];
    bool body = zmq_msg_more (&routing);
    zmq_msg_close (&routing);
    if (!body)
        return 0;                   //  a routing id alone: nothing to hand on
    *frame = zframe_recv (self->router);
    if (!*frame)
        return 0;
    *more = zframe_more (*frame);
    if (*more)
        s_skip_rest (handle);
    if (!ours) {
        zframe_destroy (frame);
        return 0;
    }
    return 1;
}

int
fleetsock_event (fleetsock_t *self, uint16_t *event, uint32_t *value,
                 char *endpoint, size_t endpointlen)
{
    if (!(zsock_events (self->monitor) & ZMQ_POLLIN))
        return 0;
    zmsg_t *message = zmsg_recv (self->monitor);
    if (!message)
        return 0;
    zframe_t *head = zmsg_first (message);
    zframe_t *address = zmsg_next (message);
    int rc = 0;
    if (head && zframe_size (head) == 6) {
        memcpy (event, zframe_data (head), sizeof *event);
        memcpy (value, zframe_data (head) + 2, sizeof *value);
        size_t length = address? zframe_size (address): 0;
        if (length >= endpointlen)
            length = endpointlen - 1;
        if (length)
            memcpy (endpoint, zframe_data (address), length);
        endpoint [length] = '\0';
        rc = 1;
    }
    zmsg_destroy (&message);
    return rc;
}

void *
fleetsock_handle (fleetsock_t *self)
{
    return zsock_resolve (self->router);
}

void *
fleetsock_monitor_handle (fleetsock_t *self)
{
    return zsock_resolve (self->monitor);
}
