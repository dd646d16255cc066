/* Unmatched point-to-point requests: sends whose receive is not posted yet and receives
 * whose send is not.  A new request matches the oldest unmatched one of the same
 * (communicator, source, destination, tag) if that one is of the other kind (the
 * requests of one key are all sends or all receives); otherwise it waits behind them.
 *
 * They are kept in one hash table of every unmatched request, whatever its processes:
 * its size follows the requests waiting (at most half its slots are used), not the
 * processes or their pairs, so that at thousands of processes it still fits in the
 * processor's cache, and a request is found in the slot its key hashes to or in the few
 * after it (one cache line, usually) rather than in a list of its destination's. */
#ifndef PZ_MATCH_H
#define PZ_MATCH_H

#include <stdint.h>

/* The processes src and dst are >= 0. */
struct pz_match_key {
    int comm, src, dst, tag;
};

/* What waits unmatched: a request (the caller's number), whether it is a send, and a
 * value of the caller's that comes back with it when it is matched. */
struct pz_match_item {
    int request, is_send;
    double value;
};

struct pz_match_entry {
    struct pz_match_key key;   /* key.dst < 0: a free slot */
    struct pz_match_item item;
};

/* Open addressing with linear probing: the requests of one key lie, oldest first,
 * between the slot their key hashes to and the next free slot. */
struct pz_match {
    struct pz_match_entry *slots;
    uint32_t mask;             /* the slots' number (a power of two) - 1 */
    int shift;                 /* 64 - log2 of the slots' number */
    uint32_t n;                /* requests kept */
};

/* An empty table sized for about nprocs requests waiting; 0, or -1 if memory ran out. */
int pz_match_init(struct pz_match *m, int nprocs);

/* Matches item (of key) with the oldest unmatched item of its key if that is of the
 * other kind: returns 1 and that one (no longer unmatched) in *partner.  Else keeps
 * item unmatched and returns 0, or -1 if memory ran out.  (Key and item are passed by
 * value: the caller builds them field by field, and a struct read back whole from
 * such stores stalls the processor.) */
int pz_match_take_or_add(struct pz_match *m, struct pz_match_key key,
                         struct pz_match_item item, struct pz_match_item *partner);

/* Forgets the unmatched item of request (of key); 0, or -1 if it is not unmatched. */
int pz_match_remove(struct pz_match *m, const struct pz_match_key *key, int request);

void pz_match_release(struct pz_match *m);

#endif
