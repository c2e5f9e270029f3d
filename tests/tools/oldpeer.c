/*  tests/tools/oldpeer.c: a peer that speaks the protocol version before
    ours, as an agent of the release before would.

    usage: oldpeer PORT_FILE

    Binds a ROUTER to a free loopback port, writes the endpoint into
    PORT_FILE (whole, by a rename), and answers every message with what
    such an agent answers a message of a version it does not speak: an
    ERROR with code "version", in its own version. Runs until killed.
*/
#include "../../proto/version.h"

#include <stdio.h>
#include <string.h>
#include <zmq.h>

//  A msgpack str of up to 255 bytes (fixstr or str 8) at out; returns
//  its size.
static size_t
s_str (unsigned char *out, const char *text)
{
    size_t length = strlen (text), head = 1;
    if (length < 32)
        out [0] = (unsigned char) (0xa0 | length);
    else {
        out [0] = 0xd9;
        out [head++] = (unsigned char) length;
    }
    memcpy (out + head, text, length);
    return head + length;
}

int
main (int argc, char *argv [])
{
    if (argc != 2) {
        fprintf (stderr, "usage: oldpeer PORT_FILE\n");
        return 2;
    }
    void *context = zmq_ctx_new ();
    void *router = zmq_socket (context, ZMQ_ROUTER);
    char endpoint [256];
    size_t length = sizeof endpoint;
    if (zmq_bind (router, "tcp://127.0.0.1:*") != 0
    ||  zmq_getsockopt (router, ZMQ_LAST_ENDPOINT, endpoint, &length) != 0) {
        fprintf (stderr, "oldpeer: bind: %s\n", zmq_strerror (zmq_errno ()));
        return 1;
    }
    char temporary [1024];
    snprintf (temporary, sizeof temporary, "%s.tmp", argv [1]);
    FILE *file = fopen (temporary, "w");
    if (!file || fprintf (file, "%s\n", endpoint) < 0 || fclose (file) != 0
    ||  rename (temporary, argv [1]) != 0) {
        perror ("oldpeer: the port file");
        return 1;
    }
    //  {v: ours - 1, t: "error", code: "version", text: ..., job_id: -1}
    char text [64];
    snprintf (text, sizeof text, "protocol version %d, this side speaks %d",
              IOFLEET_PROTOCOL_VERSION, IOFLEET_PROTOCOL_VERSION - 1);
    unsigned char answer [256];
    size_t size = 0;
    answer [size++] = 0x85;
    size += s_str (answer + size, "v");
    answer [size++] = (unsigned char) (IOFLEET_PROTOCOL_VERSION - 1);
    size += s_str (answer + size, "t");
    size += s_str (answer + size, "error");
    size += s_str (answer + size, "code");
    size += s_str (answer + size, "version");
    size += s_str (answer + size, "text");
    size += s_str (answer + size, text);
    size += s_str (answer + size, "job_id");
    answer [size++] = 0xff;                 //  -1, a negative fixint
    for (;;) {
        zmq_msg_t identity;
        zmq_msg_init (&identity);
        if (zmq_msg_recv (&identity, router, 0) < 0)
            break;
        //  The rest of the message, whatever it holds.
        for (int more = zmq_msg_more (&identity); more; ) {
            zmq_msg_t part;
            zmq_msg_init (&part);
            more = zmq_msg_recv (&part, router, 0) >= 0 && zmq_msg_more (&part);
            zmq_msg_close (&part);
        }
        zmq_send (router, zmq_msg_data (&identity), zmq_msg_size (&identity), ZMQ_SNDMORE);
        zmq_send (router, answer, size, 0);
        zmq_msg_close (&identity);
    }
    zmq_close (router);
    zmq_ctx_term (context);
    return 0;
}
