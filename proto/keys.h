/*  proto/keys.h: CURVE key pairs and the keys directory both sides load.

    `iofleet keygen DIR [NAME]` writes one key pair in CZMQ's zcert format:

        DIR/NAME.key            public certificate (0644): hand it out
        DIR/NAME.key_secret     secret certificate (0600): never copy it

    Both carry the metadata name = NAME and created = UTC time. A keys
    directory, on either side, holds exactly one secret certificate (the
    program's own key pair) and the public certificates of its peers:

    - an agent's DIR: its own pair and the NAME.key of every coordinator
      it trusts; a coordinator whose key is not there is refused;
    - a coordinator's DIR: its own pair and the NAME.key of every agent it
      drives. Agent NAME's key is DIR/NAME.key, or else the one public
      certificate in DIR whose metadata name is NAME.

    Only files directly in DIR count (no subdirectories). A secret
    certificate readable by group or others is refused, with the chmod
    that fixes it: a key anyone on the host can read authenticates anyone.
*/
#ifndef IOFLEET_KEYS_H
#define IOFLEET_KEYS_H

#include <czmq.h>
#include <stdbool.h>
#include <stddef.h>

#define KEYS_PUBLIC_SUFFIX  ".key"          //  public certificate files
#define KEYS_SECRET_SUFFIX  ".key_secret"   //  secret certificate files
#define KEYS_NAME_MAX       63              //  key pair names, like agent names

typedef struct _keys_t keys_t;

//  Write a new key pair DIR/NAME.key (0644) and DIR/NAME.key_secret
//  (0600), creating DIR and its missing parents (0700). Refuses to overwrite an
//  existing pair and names that are not 1 to 63 letters, digits, '.', '_'
//  or '-'. Returns 0, or -1 with "keygen DIR/NAME.key: reason" in err.
int keys_generate (const char *dir, const char *name, char *err, size_t errlen);

//  Check that a secret certificate file is a regular file that only its
//  owner may read or write. Returns 0, or -1 with a reason and the chmod
//  that fixes it in err.
int keys_check_secret_mode (const char *path, char *err, size_t errlen);

//  Load a keys directory: its one secret certificate (mode checked) and
//  every public certificate beside it. Returns NULL with a reason naming
//  the directory or the file in err.
keys_t *keys_new (const char *dir, char *err, size_t errlen);

//  Destroy; safe on NULL, NULLs the caller's pointer.
void keys_destroy (keys_t **self_p);

//  The directory loaded (borrowed).
const char *keys_dir (keys_t *self);

//  Our own certificate, with both keys (borrowed): zcert_apply it to a
//  socket.
zcert_t *keys_own (keys_t *self);

//  Number of peer public certificates (our own public one not counted).
size_t keys_peer_count (keys_t *self);

//  The public certificate of peer `name`: DIR/NAME.key, or the one whose
//  metadata name is name. Returns it (borrowed), or NULL with a reason in
//  err naming the file expected.
zcert_t *keys_peer (keys_t *self, const char *name, char *err, size_t errlen);

//  The peer whose public key is public_key (32 bytes), or NULL. Used to
//  decide whether a CURVE client may in, and to name it in logs.
zcert_t *keys_peer_by_key (keys_t *self, const unsigned char *public_key);

//  Name a peer certificate (metadata name, else its file name; borrowed).
const char *keys_cert_name (zcert_t *cert);

//  A 32-byte public key as 40 Z85 characters into buf (at least 41).
//  Returns buf.
const char *keys_key_text (const unsigned char *public_key, char *buf, size_t buflen);

#endif
