/*  coordinator/scenario/fio_keys.h: fio's job option names and what they
    are here, one table (fio_keys.c), so that a fio user's first scenario
    is told what to write: `rw = randread` gets "rw is fio's; here:
    workload = randrw, mode = rndrd".

    A row maps a fio key to one of ours that takes fio's value as it is
    (filename -> path), or each of fio's values to our keys and values
    (rw = randread -> workload = randrw, mode = rndrd), or, where there is
    no such mapping, says what to use instead. Keys that fio and iofleet
    spell the same (size, bs, direct, iodepth, runtime, rate, rate_iops,
    random_distribution, randseed) are ours and need no row.
*/
#ifndef IOFLEET_FIO_KEYS_H
#define IOFLEET_FIO_KEYS_H

#include <stdbool.h>
#include <stddef.h>

//  One of fio's values of a key, and what it is here.
typedef struct {
    const char *fio;                //  fio's value, such as "randread"
    const char *ours;               //  "workload = randrw, mode = rndrd"; NULL: none here
} fio_value_t;

//  One of fio's keys.
typedef struct {
    const char *fio;                //  fio's key, such as "rw"
    const char *ours;               //  our key that takes fio's value as it is, or NULL
    const fio_value_t *values;      //  else fio's values one by one, or NULL
    bool file_after_colon;          //  a value may name a file after a colon
                                    //  (mmaphuge:/hugepages/f), which is left out
    const char *otherwise;          //  what to use here when neither applies (a key
                                    //  without a counterpart, a value not in values)
} fio_key_t;

//  The rows, ending with a row whose fio is NULL.
extern const fio_key_t fio_keys [];

//  The row of fio's key name, or NULL if fio has no such key (or spells
//  it as we do).
const fio_key_t *fio_keys_find (const char *name);

//  What fio's key name with value is here, as "KEY is fio's; here: ..."
//  into out (value quoted printably). Returns 0, or -1 if name is not
//  one of fio's keys.
int fio_keys_explain (const char *name, const char *value, char *out, size_t outlen);

//  The part of value, fio's "READS,WRITES,TRIMS" of a key that takes a
//  value per direction (bs, rate, rate_iops), for reads or (writes) for
//  writes into out: one value is every direction's, an empty part is
//  fallback (fio's default). Returns 0, or -1 if value has more than
//  three parts.
int fio_keys_part (const char *value, bool writes, const char *fallback, char *out,
                   size_t outlen);

#endif
