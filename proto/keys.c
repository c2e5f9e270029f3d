/*  proto/keys.c: key pairs and keys directories; see keys.h. */
#include "keys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define S_KEY_BYTES     32          //  a CURVE public or secret key
#define S_KEY_TEXT      40          //  the same in Z85

struct _keys_t {
    char *dir;                      //  the directory loaded
    zcert_t *own;                   //  our pair, both keys
    zcert_t **peers;                //  every other public certificate
    size_t peer_count;              //  how many
};

//  True if name is usable as a key pair name (and so as a file name).
static bool
s_name_is_valid (const char *name)
{
    size_t length = strlen (name);
    return length > 0 && length <= KEYS_NAME_MAX && name [0] != '.'
        && strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789._-") == length;
}

//  True if name ends with suffix (and has something before it).
static bool
s_ends_with (const char *name, const char *suffix)
{
    size_t name_len = strlen (name), suffix_len = strlen (suffix);
    return name_len > suffix_len && streq (name + name_len - suffix_len, suffix);
}

//  mkdir -p: dir and every missing parent, 0700. Returns 0 or -1 (errno).
static int
s_make_dirs (const char *dir)
{
    char path [PATH_MAX];
    if (snprintf (path, sizeof (path), "%s", dir) >= (int) sizeof (path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *slash = strchr (path + 1, '/'); slash; slash = strchr (slash + 1, '/')) {
        *slash = '\0';
        if (mkdir (path, 0700) == -1 && errno != EEXIST)
            return -1;
        *slash = '/';
    }
    if (mkdir (path, 0700) == -1 && errno != EEXIST)
        return -1;
    return 0;
}

//  Write a new key pair.
int
keys_generate (const char *dir, const char *name, char *err, size_t errlen)
{
    char public_path [PATH_MAX], secret_path [PATH_MAX];
    zcert_t *cert = NULL;
    mode_t old_umask = umask (077);

    if (!s_name_is_valid (name)) {
        snprintf (err, errlen, "keygen: name '%s': use 1 to %d letters, digits, '.', '_' "
                  "or '-', not starting with '.'", name, KEYS_NAME_MAX);
        goto fail;
    }
    if (s_make_dirs (dir) == -1) {
        snprintf (err, errlen, "keygen: mkdir(%s): %s", dir, strerror (errno));
        goto fail;
    }
    snprintf (public_path, sizeof (public_path), "%s/%s" KEYS_PUBLIC_SUFFIX, dir, name);
    snprintf (secret_path, sizeof (secret_path), "%s/%s" KEYS_SECRET_SUFFIX, dir, name);
    struct stat st;
    if (lstat (public_path, &st) == 0 || lstat (secret_path, &st) == 0) {
        snprintf (err, errlen, "keygen %s: a key pair of that name exists; "
                  "remove it or pick another name", public_path);
        goto fail;
    }
    cert = zcert_new ();
    if (!cert) {
        snprintf (err, errlen, "keygen %s: cannot make a key pair (CURVE missing?)", public_path);
        goto fail;
    }
    char created [32];
    time_t now = time (NULL);
    struct tm tm;
    strftime (created, sizeof (created), "%Y-%m-%dT%H:%M:%SZ", gmtime_r (&now, &tm));
    zcert_set_meta (cert, "name", "%s", name);
    zcert_set_meta (cert, "created", "%s", created);

    //  The umask above makes the secret file 0600 from its first byte;
    //  chmod afterwards says so explicitly whatever CZMQ does.
    if (zcert_save_secret (cert, secret_path) == -1 || chmod (secret_path, 0600) == -1) {
        snprintf (err, errlen, "keygen %s: cannot write it: %s", secret_path, strerror (errno));
        goto fail;
    }
    if (zcert_save_public (cert, public_path) == -1 || chmod (public_path, 0644) == -1) {
        snprintf (err, errlen, "keygen %s: cannot write it: %s", public_path, strerror (errno));
        unlink (secret_path);
        goto fail;
    }
    zcert_destroy (&cert);
    umask (old_umask);
    return 0;

fail:
    zcert_destroy (&cert);
    umask (old_umask);
    return -1;
}

//  A secret certificate must be a regular file private to its owner.
int
keys_check_secret_mode (const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (lstat (path, &st) == -1) {
        snprintf (err, errlen, "secret key %s: %s", path, strerror (errno));
        return -1;
    }
    if (!S_ISREG (st.st_mode)) {
        snprintf (err, errlen, "secret key %s: not a regular file", path);
        return -1;
    }
    if (st.st_mode & 077) {
        snprintf (err, errlen, "secret key %s is readable or writable by group or others "
                  "(mode %04o): refusing it; run chmod 600 %s", path,
                  (unsigned) (st.st_mode & 07777), path);
        return -1;
    }
    return 0;
}

//  Load one certificate file; name it after the file if its metadata
//  does not. Returns it, or NULL with a reason.
static zcert_t *
s_load (const char *path, const char *file_name, const char *suffix, char *err, size_t errlen)
{
    zcert_t *cert = zcert_load (path);
    if (!cert) {
        snprintf (err, errlen, "key %s: not a readable CZMQ certificate", path);
        return NULL;
    }
    const char *name = zcert_meta (cert, "name");
    if (!name || !*name) {
        char base [KEYS_NAME_MAX + 1];
        size_t length = strlen (file_name) - strlen (suffix);
        if (length > KEYS_NAME_MAX)
            length = KEYS_NAME_MAX;
        memcpy (base, file_name, length);
        base [length] = '\0';
        zcert_set_meta (cert, "name", "%s", base);
    }
    return cert;
}

//  Load our own pair from the secret file secret_name in self->dir.
static int
s_load_own (keys_t *self, const char *secret_name, char *err, size_t errlen)
{
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/%s", self->dir, secret_name);
    if (keys_check_secret_mode (path, err, errlen) == -1)
        return -1;
    //  zcert_load reads FILE_secret first; hand it the public name.
    char public_path [PATH_MAX];
    snprintf (public_path, sizeof (public_path), "%.*s", (int) (strlen (path) - strlen ("_secret")), path);
    self->own = s_load (public_path, secret_name, KEYS_SECRET_SUFFIX, err, errlen);
    if (!self->own)
        return -1;
    static const unsigned char no_key [S_KEY_BYTES] = { 0 };
    if (memcmp (zcert_secret_key (self->own), no_key, S_KEY_BYTES) == 0) {
        snprintf (err, errlen, "secret key %s: holds no secret key", path);
        return -1;
    }
    return 0;
}

//  Add a peer certificate, unless it is our own public key again or
//  already known (two copies of one key are one peer).
static int
s_add_peer (keys_t *self, const char *file_name, char *err, size_t errlen)
{
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/%s", self->dir, file_name);
    zcert_t *cert = s_load (path, file_name, KEYS_PUBLIC_SUFFIX, err, errlen);
    if (!cert)
        return -1;
    if (memcmp (zcert_public_key (cert), zcert_public_key (self->own), S_KEY_BYTES) == 0
    ||  keys_peer_by_key (self, zcert_public_key (cert))) {
        zcert_destroy (&cert);
        return 0;
    }
    zcert_t **peers = realloc (self->peers, (self->peer_count + 1) * sizeof (zcert_t *));
    if (!peers) {
        snprintf (err, errlen, "key %s: %s", path, strerror (ENOMEM));
        zcert_destroy (&cert);
        return -1;
    }
    self->peers = peers;
    self->peers [self->peer_count++] = cert;
    return 0;
}

//  Load a keys directory.
keys_t *
keys_new (const char *dir, char *err, size_t errlen)
{
    DIR *handle = NULL;
    zlist_t *names = NULL;
    keys_t *self = calloc (1, sizeof (keys_t));
    if (!self || !(self->dir = strdup (dir)) || !(names = zlist_new ())) {
        snprintf (err, errlen, "keys %s: %s", dir, strerror (ENOMEM));
        goto fail;
    }
    zlist_autofree (names);
    handle = opendir (dir);
    if (!handle) {
        snprintf (err, errlen, "keys %s: %s", dir, strerror (errno));
        goto fail;
    }
    //  Secret files first: the own pair must be known to skip its
    //  public half among the peers.
    char secret_name [256] = "";
    size_t secret_count = 0;
    struct dirent *entry;
    while ((entry = readdir (handle))) {
        if (s_ends_with (entry->d_name, KEYS_SECRET_SUFFIX)) {
            secret_count++;
            snprintf (secret_name, sizeof (secret_name), "%s", entry->d_name);
        }
        else
        if (s_ends_with (entry->d_name, KEYS_PUBLIC_SUFFIX))
            zlist_append (names, entry->d_name);
    }
    if (secret_count != 1) {
        snprintf (err, errlen, "keys %s: holds %zu secret keys (*" KEYS_SECRET_SUFFIX "), "
                  "needs exactly one: this program's own, from `iofleet keygen %s NAME`",
                  dir, secret_count, dir);
        goto fail;
    }
    if (s_load_own (self, secret_name, err, errlen) == -1)
        goto fail;
    zlist_sort (names, (zlist_compare_fn *) strcmp);
    for (char *name = zlist_first (names); name; name = zlist_next (names))
        if (s_add_peer (self, name, err, errlen) == -1)
            goto fail;
    closedir (handle);
    zlist_destroy (&names);
    return self;

fail:
    if (handle)
        closedir (handle);
    zlist_destroy (&names);
    keys_destroy (&self);
    return NULL;
}

//  Free the certificates.
void
keys_destroy (keys_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    keys_t *self = *self_p;
    for (size_t index = 0; index < self->peer_count; index++)
        zcert_destroy (&self->peers [index]);
    free (self->peers);
    zcert_destroy (&self->own);
    free (self->dir);
    free (self);
    *self_p = NULL;
}

//  The directory loaded.
const char *
keys_dir (keys_t *self)
{
    return self->dir;
}

//  Our own pair.
zcert_t *
keys_own (keys_t *self)
{
    return self->own;
}

//  Number of peers.
size_t
keys_peer_count (keys_t *self)
{
    return self->peer_count;
}

//  A certificate's name.
const char *
keys_cert_name (zcert_t *cert)
{
    const char *name = zcert_meta (cert, "name");
    return name? name: "";
}

//  Peer by name: the file NAME.key first, then the metadata name.
zcert_t *
keys_peer (keys_t *self, const char *name, char *err, size_t errlen)
{
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/%s" KEYS_PUBLIC_SUFFIX, self->dir, name);
    if (s_name_is_valid (name) && access (path, F_OK) == 0) {
        zcert_t *cert = zcert_load (path);
        zcert_t *peer = cert? keys_peer_by_key (self, zcert_public_key (cert)): NULL;
        zcert_destroy (&cert);
        if (peer)
            return peer;
    }
    for (size_t index = 0; index < self->peer_count; index++)
        if (streq (keys_cert_name (self->peers [index]), name))
            return self->peers [index];
    snprintf (err, errlen, "no public key for %s in %s (expected %s, or a certificate "
              "whose name is %s)", name, self->dir, path, name);
    return NULL;
}

//  Peer by public key.
zcert_t *
keys_peer_by_key (keys_t *self, const unsigned char *public_key)
{
    for (size_t index = 0; index < self->peer_count; index++)
        if (memcmp (zcert_public_key (self->peers [index]), public_key, S_KEY_BYTES) == 0)
            return self->peers [index];
    return NULL;
}

//  A key in Z85.
const char *
keys_key_text (const unsigned char *public_key, char *buf, size_t buflen)
{
    assert (buflen > S_KEY_TEXT);
    if (!zmq_z85_encode (buf, public_key, S_KEY_BYTES))
        buf [0] = '\0';
    return buf;
}
