/* Unmatched point-to-point requests, kept per receiving process in the order they were
 * posted: sends whose receive is not posted yet and receives whose send is not.  A new
 * request matches the oldest unmatched one of the same (communicator, source,
 * destination, tag) if that one is of the other kind (the requests of one key are all
 * sends or all receives); otherwise it waits behind them.  A process rarely has more
 * than a few requests unmatched, so a short scan of its own lists is cheaper than a
 * table of every key (which misses the cache at thousands of processes); its requests
 * are spread over PZ_MATCH_BUCKETS lists by key, so that even a process expecting a
 * message from each of thousands (a linear all-to-all) scans only a share of them. */
#ifndef PZ_MATCH_H
#define PZ_MATCH_H

#include <stdint.h>

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
    struct pz_match_key key;
    struct pz_match_item item;
};

struct pz_match_list {
    struct pz_match_entry *items;
    uint32_t n, cap;
};

#define PZ_MATCH_BUCKETS 32

struct pz_match {
    struct pz_match_list *lists;   /* PZ_MATCH_BUCKETS per destination process */
    int nprocs;
};

/* 0, or -1 if memory ran out. */
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
