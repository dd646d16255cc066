/* Queues of unmatched point-to-point requests, one per (communicator, source,
 * destination, tag): all sends or all receives, oldest first.  A queue exists only while
 * it holds requests, so memory follows the messages in flight, not the pairs that ever
 * communicated. */
#ifndef PZ_MATCH_H
#define PZ_MATCH_H

#include <stdint.h>

struct pz_match_key {
    int comm, src, dst, tag;
};

struct pz_match_queue {
    struct pz_match_key key;
    int head, tail;        /* request numbers; links are the caller's (next[]) */
    int used;
};

struct pz_match {
    struct pz_match_queue *slots;
    uint32_t nslots, count;
};

/* The queue of key, created empty (head = tail = -1) if absent; NULL if memory ran out.
 * The pointer is valid until the next call that creates or removes a queue. */
struct pz_match_queue *pz_match_queue(struct pz_match *m, const struct pz_match_key *key);

/* Removes q, which must be empty. */
void pz_match_remove(struct pz_match *m, struct pz_match_queue *q);

void pz_match_release(struct pz_match *m);

#endif
