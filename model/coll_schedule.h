/* A member's part of a collective instance made at once: every round with its messages,
 * the same as the algorithm's round function gives one round at a time (coll.h).  The
 * communication model replays a round per event; walking the algorithm from its start
 * for each of them costs O(rounds) per round, a schedule O(1), and members that post
 * the same instance again and again (an Allreduce per iteration) can share one.
 *
 * Only small parts have a schedule (at most PZ_COLL_SCHEDULE_MAX messages and rounds),
 * so that an instance on thousands of members still holds little memory; and not the
 * families of many rounds of one shape (ring, pairwise), whose round functions make any
 * round in O(1) already.
 *
 * A message's peer is kept relative to the member, as peer XOR member, so that members
 * whose rounds have the same shape have equal schedules and can share one: all the
 * members of recursive doubling on a power of two, for instance, whose 4096 own
 * schedules would not stay in the cache.  Private to libprognoz-comsys. */
#ifndef PZ_COLL_SCHEDULE_H
#define PZ_COLL_SCHEDULE_H

#include "coll.h"

#define PZ_COLL_SCHEDULE_MAX 64

struct pz_coll_message {
    int peer, is_send;           /* as pz_coll_round.message gets them, but peer XOR the
                                    member (in a schedule; not in pz_coll_round) */
    double bytes;
};

/* The steps of a schedule: each round is a head, then its messages, so that a round
 * is read from one or two cache lines. */
union pz_coll_step {
    struct {
        int nmsgs;
        double reduce_bytes;     /* as pz_coll_round.reduce_bytes */
    } head;
    struct pz_coll_message msg;
};

struct pz_coll_schedule {
    int nsteps;                  /* the rounds' heads and messages */
    int users;                   /* the caller's count of those that use it; 1 when made */
    const union pz_coll_step *steps;
};

/* The schedule of member c->me in an instance of algorithm a; NULL if a is not one of
 * the built-in algorithms, the member's part is too large or of a family of many
 * rounds (see above), or memory ran out: then use a->round.  c's arrays are not kept. */
struct pz_coll_schedule *pz_coll_schedule_new(const struct pz_coll_algo *a,
                                              const struct pz_coll *c);

/* Whether a and b give every member the same rounds (bytes compared to the bit). */
int pz_coll_schedule_same(const struct pz_coll_schedule *a, const struct pz_coll_schedule *b);

/* One user fewer; freed when there is none left.  NULL is ignored. */
void pz_coll_schedule_release(struct pz_coll_schedule *s);

#endif
