/*  agent/auth.c: the agent's ZAP handler; see auth.h. */
#include "auth.h"
#include "log.h"

#include <stdio.h>
#include <string.h>

#define S_ZAP_ENDPOINT      "inproc://zeromq.zap.01"
#define S_KEY_BYTES         32

//  What the actor is handed at start.
typedef struct {
    keys_t *keys;                   //  the trusted coordinator certificates
    const char *agent_name;         //  log prefix
    char err [256];                 //  why it could not start, for auth_new
} s_args_t;

//  The peer address of a request as a log token (an IP address; anything
//  else is replaced by '_').
static const char *
s_address (zframe_t *frame, char *buf, size_t buflen)
{
    size_t size = frame? zframe_size (frame): 0;
    size_t used = 0;
    const unsigned char *data = frame? zframe_data (frame): NULL;
    for (size_t index = 0; index < size && used + 1 < buflen; index++)
        buf [used++] = strchr ("0123456789abcdefABCDEF.:", data [index])
                       && data [index]? (char) data [index]: '_';
    buf [used] = '\0';
    return used? buf: "-";
}

//  Answer one ZAP request: 200 for a trusted CURVE key, 400 otherwise.
static void
s_handle_request (zsock_t *handler, s_args_t *args)
{
    zmsg_t *request = zmsg_recv (handler);
    if (!request)
        return;
    //  version, request id, domain, address, identity, mechanism,
    //  credentials (for CURVE: the client's 32-byte public key).
    char *version = zmsg_popstr (request);
    zframe_t *request_id = zmsg_pop (request);
    char *domain = zmsg_popstr (request);
    zframe_t *address = zmsg_pop (request);
    zframe_t *identity = zmsg_pop (request);
    char *mechanism = zmsg_popstr (request);
    zframe_t *key = zmsg_pop (request);

    bool is_curve = mechanism && streq (mechanism, "CURVE") && key
                 && zframe_size (key) == S_KEY_BYTES;
    zcert_t *peer = is_curve? keys_peer_by_key (args->keys, zframe_data (key)): NULL;
    char key_text [48] = "-", address_text [64];
    if (is_curve)
        keys_key_text (zframe_data (key), key_text, sizeof (key_text));
    s_address (address, address_text, sizeof (address_text));
    if (peer)
        agent_log (args->agent_name, "event=accepted-key key=%s coordinator=%s address=%s",
               key_text, keys_cert_name (peer), address_text);
    else
        agent_log (args->agent_name, "event=refused-key key=%s mechanism=%s address=%s "
               "reason=\"not among the coordinator keys in %s\"", key_text,
               mechanism && streq (mechanism, "CURVE")? "CURVE": "other", address_text,
               keys_dir (args->keys));

    zmsg_t *reply = zmsg_new ();
    zmsg_addstr (reply, "1.0");
    if (request_id)
        zmsg_append (reply, &request_id);
    else
        zmsg_addstr (reply, "");
    zmsg_addstr (reply, peer? "200": "400");
    zmsg_addstr (reply, peer? "OK": "key not trusted");
    zmsg_addstr (reply, peer? keys_cert_name (peer): "");
    zmsg_addmem (reply, "", 0);
    zmsg_send (&reply, handler);

    zstr_free (&version);
    zstr_free (&domain);
    zstr_free (&mechanism);
    zframe_destroy (&request_id);
    zframe_destroy (&address);
    zframe_destroy (&identity);
    zframe_destroy (&key);
    zmsg_destroy (&request);
}

//  The actor: bind the ZAP endpoint, then answer requests until $TERM.
static void
s_actor (zsock_t *pipe, void *arg)
{
    s_args_t *args = arg;
    zsock_t *handler = zsock_new (ZMQ_REP);
    if (!handler || zsock_bind (handler, S_ZAP_ENDPOINT) == -1) {
        snprintf (args->err, sizeof (args->err), "bind(" S_ZAP_ENDPOINT "): %s",
                  zmq_strerror (zmq_errno ()));
        zsock_destroy (&handler);
        zsock_signal (pipe, 1);
        return;
    }
    zsock_signal (pipe, 0);
    zpoller_t *poller = zpoller_new (pipe, handler, NULL);
    while (poller) {
        void *which = zpoller_wait (poller, -1);
        if (which == handler)
            s_handle_request (handler, args);
        else {
            //  $TERM, or the context going away: either way, stop.
            char *command = which == pipe? zstr_recv (pipe): NULL;
            bool terminate = !command || streq (command, "$TERM");
            zstr_free (&command);
            if (terminate)
                break;
        }
    }
    zpoller_destroy (&poller);
    zsock_destroy (&handler);
    free (args);
}

//  Start the handler.
zactor_t *
auth_new (keys_t *keys, const char *agent_name, char *err, size_t errlen)
{
    s_args_t *args = calloc (1, sizeof (s_args_t));
    if (!args) {
        snprintf (err, errlen, "auth: out of memory");
        return NULL;
    }
    args->keys = keys;
    args->agent_name = agent_name;
    zactor_t *actor = zactor_new (s_actor, args);
    if (!actor) {
        snprintf (err, errlen, "auth: cannot start the ZAP handler");
        free (args);
        return NULL;
    }
    //  zactor_new waited for the signal; a failed bind left its reason.
    if (args->err [0]) {
        snprintf (err, errlen, "auth: %s", args->err);
        zactor_destroy (&actor);
        free (args);
        return NULL;
    }
    return actor;
}

//  Stop the handler.
void
auth_destroy (zactor_t **self_p)
{
    zactor_destroy (self_p);
}
