/* Private to the collective algorithms (coll*.c): the tables of algorithms by family,
 * and the walk every algorithm is written as.
 *
 * An algorithm is written once, as straight-line code that walks through all rounds
 * of one member in order; the walk emits the messages of the one round it was asked
 * for and only counts the others.  So a round is made on demand without a stored
 * schedule, and algorithms compose by walking one after the other (scatter, then
 * allgather).  A family of P - 1 rounds of the same shape (ring, pairwise) begins them
 * all at once with pz_internal_walk_rounds, so finding round r never costs O(r). */
#ifndef PZ_COLL_ALGOS_H
#define PZ_COLL_ALGOS_H

#include <stddef.h>

#include "coll.h"

struct pz_walk_record;

struct pz_walk {
    int want;                    /* the round asked for, -1 to count rounds only */
    int next;                    /* rounds begun so far */
    struct pz_coll_round *out;
    struct pz_walk_record *record;   /* instead of want and out: every round, into a
                                        schedule (coll_schedule.h) */
};

typedef void pz_walk_fn(const struct pz_coll *c, struct pz_walk *w);

/* An entry of a family's table: the algorithm as coll.h shows it, and the walk it is
 * written as, from which a schedule of all its rounds can be made. */
struct pz_internal_algo {
    struct pz_coll_algo algo;
    pz_walk_fn *walk;
};

/* The walk of a built-in algorithm, NULL for any other. */
pz_walk_fn *pz_internal_walk_of(const struct pz_coll_algo *a);

/* Bytes of the blocks lo .. hi-1 (relative to the root of the walk) that an
 * allgather-like walk moves; hi is clipped to c->size. */
typedef double pz_blocks_fn(const struct pz_coll *c, int root, int lo, int hi);

/* Walks fn for member c->me: 1 and round `round` in out, or 0 if it has no such round. */
int pz_internal_walk_run(pz_walk_fn *fn, const struct pz_coll *c, int round,
                         struct pz_coll_round *out);

/* Begins k rounds of the same shape: which of them (0 .. k-1) is the round asked
 * for, else -1.  A schedule of every round is not made of such a family (k > 1): its
 * rounds are made in O(1) each already, and can be as many as the members. */
int pz_internal_walk_rounds(struct pz_walk *w, int k);

/* Begins one round: 1 when it is the round asked for (then emit its messages). */
int pz_internal_walk_round(struct pz_walk *w);

void pz_internal_walk_send(struct pz_walk *w, int peer, double bytes);
void pz_internal_walk_recv(struct pz_walk *w, int peer, double bytes);
void pz_internal_walk_reduce(struct pz_walk *w, double bytes);

/* The member copies bytes of its own block locally before the messages that follow in
 * the round (MPICH's MPIR_Localcopy).  An algorithm that copies has no schedule: it is
 * walked round by round, whose rounds tell the copy (pz_coll_round.copy). */
void pz_internal_walk_copy(struct pz_walk *w, double bytes);

/* Rank helpers (coll_math.c): the rank `rel` places after root, and me's place after root. */
int pz_internal_abs(const struct pz_coll *c, int root, int rel);
int pz_internal_rel(const struct pz_coll *c, int root);
int pz_internal_pof2_floor(int p);   /* largest power of two <= p (p >= 1) */
int pz_internal_pof2_ceil(int p);    /* smallest power of two >= p */
int pz_internal_is_pof2(int p);

/* What me sends to / receives from peer: the counts array where there is one,
 * else n. */
double pz_internal_send_count(const struct pz_coll *c, int peer);
double pz_internal_recv_count(const struct pz_coll *c, int peer);
/* The block of rank r (Allgatherv, Reduce_scatter): recv_counts[r] or n. */
double pz_internal_block(const struct pz_coll *c, int r);
/* Sum of the blocks of all ranks. */
double pz_internal_total(const struct pz_coll *c);

/* Walks shared between families. */

/* What a member adds to the bytes it received in a recursive-doubling walk. */
enum pz_rd_reduce {
    PZ_RD_COPY,                  /* nothing: the data is gathered */
    PZ_RD_REDUCE_EXCHANGE,       /* what it received in each exchange */
    PZ_RD_REDUCE_ALL             /* that, and what the remainder's fix-up brings */
};

/* Recursive doubling over blocks relative to root as MPICH writes it from 1.2.5 to
 * 4.x: at distance 2^i a member exchanges with its partner what its subtree holds,
 * blocks(subtree) sent, blocks(partner's subtree) received; with a non-power-of-two
 * size the members whose partner does not exist get the partner subtree's data from
 * a member of their own subtree that has it, by recursive halving. */
void pz_internal_rd_fixup(const struct pz_coll *c, struct pz_walk *w, int root,
                          pz_blocks_fn *blocks, enum pz_rd_reduce reduce);
/* Ring allgather of blocks relative to root: P - 1 Sendrecv rounds. */
void pz_internal_ring_allgather(const struct pz_coll *c, struct pz_walk *w, int root,
                                pz_blocks_fn *blocks);
/* Blocks of Allgather(v): rank r's block is pz_internal_block(c, r). */
double pz_internal_allgather_blocks(const struct pz_coll *c, int root, int lo, int hi);
/* Binomial trees relative to root, n bytes per message. */
void pz_internal_binomial_bcast(const struct pz_coll *c, struct pz_walk *w, int root, double n);
void pz_internal_binomial_reduce(const struct pz_coll *c, struct pz_walk *w, int root,
                                 double n);
/* Linear Scatterv from root in one round of sends; count(c, r) is rank r's block,
 * blocks of 0 bytes are not sent. */
void pz_internal_linear_scatterv(const struct pz_coll *c, struct pz_walk *w, int root,
                                 double (*count)(const struct pz_coll *c, int r));

/* The non-power-of-two remainder of MPICH 2+'s recursive doubling and halving, with
 * rem = P - pof2: of the ranks < 2 rem, those of the other parity than keep_odd hand
 * `bytes` to their neighbour (me ^ 1) and wait, which combines them.  Returns the new
 * rank among pof2 (-1 for the waiting ones).  fold_out: the odd ones then give their
 * even neighbour its result, `bytes` of it. */
int pz_internal_fold_in(const struct pz_coll *c, struct pz_walk *w, int rem, int keep_odd,
                        double bytes);
void pz_internal_fold_out(const struct pz_coll *c, struct pz_walk *w, int rem, double bytes);

/* Defines name_round, the pz_coll_algo.round of walk `name`. */
#define PZ_WALK_ALGO(name)                                                                  \
    static int name##_round(const struct pz_coll *c, int round, struct pz_coll_round *out) \
    {                                                                                       \
        return pz_internal_walk_run(name, c, round, out);                                   \
    }

/* The table entry of algorithm `label` for op, written as walk `name` (PZ_WALK_ALGO); of
 * one whose walk copies locally (pz_internal_walk_copy). */
#define PZ_WALK_ENTRY(label, op, name) { { label, op, name##_round, 0 }, name }
#define PZ_WALK_ENTRY_COPYING(label, op, name) { { label, op, name##_round, 1 }, name }

/* MPICH 4's algorithm for instance c on an intercommunicator (coll_inter.c), NULL for
 * an operation not defined there. */
const struct pz_coll_algo *pz_internal_inter_choose(const struct pz_coll *c);

/* Open MPI 4.1's choice for intracommunicator instance c (coll_ompi.c): the name of an
 * algorithm of c->op. */
const char *pz_internal_choose_openmpi4(const struct pz_coll *c);

/* Walks, for member c->me, the algorithm openmpi4 chooses for op on c's members with
 * root 0 and n bytes a block (no per-rank counts): the parts Open MPI composes of its
 * own collectives (coll_ompi.c). */
void pz_internal_ompi_walk_chosen(const struct pz_coll *c, struct pz_walk *w,
                                  enum pz_coll_op op, double n);

/* The bytes of one element of an n-byte vector as the Open MPI algorithms count them:
 * 8 when 8 divides n, else the largest of 4, 2, 1 that does (coll_ompi_ring.c). */
double pz_internal_ompi_element_bytes(double n);

/* The families; each table ends with an entry whose name is NULL. */
extern const struct pz_internal_algo pz_internal_coll_tree[];
extern const struct pz_internal_algo pz_internal_coll_linear[];
extern const struct pz_internal_algo pz_internal_coll_exchange[];
extern const struct pz_internal_algo pz_internal_coll_rabenseifner[];
extern const struct pz_internal_algo pz_internal_coll_alltoall[];
extern const struct pz_internal_algo pz_internal_coll_ompi_ring[];
extern const struct pz_internal_algo pz_internal_coll_ompi_rooted[];
extern const struct pz_internal_algo pz_internal_coll_ompi_exchange[];
extern const struct pz_internal_algo pz_internal_coll_ompi_tree[];
extern const struct pz_internal_algo pz_internal_coll_ompi_butterfly[];
extern const struct pz_internal_algo pz_internal_coll_ompi_rabenseifner[];

#endif
