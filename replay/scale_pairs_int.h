/* The inside of the exchanges with every member in turn (scale_program_int.h,
 * sp_pairs_*), shared by its parts: the runs of steps whose partners follow a form
 * (scale_pairs_runs.c), those whose two calls, a blocking send and receive with one
 * partner, come in either order (scale_pairs_twin.c), the bodies learned from them
 * (scale_pairs.c) and the runs rewritten by them (scale_pairs_rewrite.c). */
#ifndef PZ_SCALE_PAIRS_INT_H
#define PZ_SCALE_PAIRS_INT_H

#include "scale_program_int.h"

/* The longest body looked for, in steps. */
#define SPP_MAX_BODY 16

/* The forms a partner may follow, as bits (enum pz_scale_pair_form). */
#define SPP_FORMS ((1u << (PZ_SCALE_PAIR_FORMS + 1)) - (1u << PZ_SCALE_PAIR_PLUS))

/* The orders a twin body's two calls (its shapes lo and hi, lo the lower) may follow
 * from one iteration to the next, as bits: lo first in every iteration, or hi first;
 * lo first where the process's rank is below its partner's and hi first where it is
 * above (blocking sends and receives ordered by rank, so that the two processes of a
 * step cannot both wait in a send), or the reverse. */
#define SPP_LO_FIRST 1u
#define SPP_HI_FIRST 2u
#define SPP_LO_BELOW 4u
#define SPP_HI_BELOW 8u
#define SPP_ORDERS 15u
#define SPP_BY_RANK (SPP_LO_BELOW | SPP_HI_BELOW)

/* A run of a body: from `at`, `count` iterations of `period` steps; a twin's (period
 * 2) iterations have the shapes lo and another, in either order, and fit `orders`. */
struct spp_run {
    size_t at, period, count;
    uint8_t twin, orders;
    uint32_t lo;
};

/* A body learned: its steps' shapes (a twin's: lo, hi) and, per event of each, the
 * forms its partner fitted at every process seen, and the step its tag advances by. */
struct spp_body {
    uint32_t shape[SPP_MAX_BODY];
    uint32_t period;
    uint8_t twin;              /* two blocking calls with one partner, in either order */
    uint8_t orders;            /* a twin's: the orders every run of it fitted */
    uint8_t forms[SPP_MAX_BODY][SP_MAX_EVENTS];
    uint32_t tag_step[SPP_MAX_BODY][SP_MAX_EVENTS];
    uint8_t tag_known[SPP_MAX_BODY][SP_MAX_EVENTS];
    uint32_t tag_first[SPP_MAX_BODY][SP_MAX_EVENTS];   /* at a run's first iteration, */
    uint8_t tag_mixed[SPP_MAX_BODY][SP_MAX_EVENTS];    /* not the same in every run */
    const struct pz_scale_run *run;    /* the recording it was learned from last, */
    int nreached, last;        /* how many of its processes reached every member with it,
                                  the last of them, */
    uint32_t nwhole;           /* and in how many recordings every process did */
    uint32_t nrooted;          /* in how many recordings rank 0 did (a gather or scatter
                                  written by hand: rank 0 receives from every other
                                  process in turn, each of which sends to it once) */
    uint8_t beyond_root;       /* a process other than rank 0 reached every member */
    uint8_t uneven;            /* some run's messages differ in size from one iteration
                                  to the next */
};

struct sp_pairs {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its partners and tags */
    struct spp_body *bodies;
    uint32_t nbodies, capbodies;
    struct sp_roots *roots;    /* the calls to rank 0 in no run */
    struct spp_run *rewritten; /* the runs sp_pairs_rewrite rewrote last, in order */
    uint32_t nrewritten, caprewritten;
    uint8_t grid_too;          /* as sp_pairs_new was given */
    const struct pz_scale_run *last;   /* the recording learned from last, */
    uint32_t nlarge;           /* and how many of 3 processes or more were */
};

/* Does event e name a partner an exchange with every member may have: an offset on the
 * world or a slice of the grid. */
int spp_pairable(const struct sp_event *e);
/* Whether step sym has such a partner. */
int spp_has_partner(const struct sp_table *t, uint32_t sym);
/* Process proc's rank in e's communicator (*me), its partner's (*q) and the members (*n):
 * 0, or -1 when the partner is not in the grid. */
int spp_partner(const struct pz_scale_run *run, int proc, const struct sp_event *e, int *me,
                int *q, int *n);
/* The position in syms of step q of the body in iteration k of run r: k * period + q
 * from r->at, or in a twin's the step of shape lo (q = 0) or the other (q = 1) wherever
 * it is in the iteration.  The shapes of r's steps are known (found with r). */
size_t spp_slot(struct sp_pairs *x, const uint32_t *syms, const struct spp_run *r, size_t k,
                size_t q);
/* The forms event i of body step q of run r fits at process proc: its distance growing
 * by one from one iteration to the next, below the members.  0: none, or not an event
 * with a partner. */
uint8_t spp_forms_of(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct spp_run *r, size_t q, uint32_t i);
/* The run of 2 iterations or more beginning at syms[at] (n of them) that reaches every
 * member (spp_reaches_every_member), its period the shortest that gives one, as many
 * iterations as follow alike; count 0 when none.  Steps that fit a form without reaching
 * every member are no such exchange: a ring's send to rank + 1 and a gather's to 0 at
 * process 1 of 8 are its 6th and 7th other members in descending order.  0, -1
 * (memory). */
int spp_find_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                 const uint32_t *syms, size_t n, size_t at, struct spp_run *r);
/* The body learned whose shapes begin at syms[at] (its period fitting in n), of period
 * `period` or the longest when period is 0, a twin when twin is 1, not one when 0,
 * either when -1; NULL.  *err set when memory runs out. */
struct spp_body *spp_body_at(struct sp_pairs *x, const uint32_t *syms, size_t n, size_t at,
                             size_t period, int twin, int *err);

/* Does run r (process proc's) reach every other member: its first partner's distance at
 * its first iteration, 0 or 1, and its iterations as many as the members less that, in
 * some form. */
int spp_reaches_every_member(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                             const uint32_t *syms, const struct spp_run *r);

/* Whether body y may be rewritten: where the grid explains the exchanges too
 * (struct sp_pairs.grid_too), only when no run of it had messages of different sizes. */
int spp_body_taken(const struct sp_pairs *x, const struct spp_body *y);

/* Whether the two steps at syms[at] may begin a twin's run: each one blocking send or
 * receive (nothing else) to an offset partner on the world or a slice, the same at both,
 * of two shapes. */
int spp_twin_start(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n, size_t at);
/* Whether run r (period 2, count iterations, at a twin's start) is a twin's: every
 * iteration of the two shapes the first has, in either order, both calls with one
 * partner, fitting some form and some order (r->lo and r->orders set).  1, 0, -1
 * (memory). */
int spp_twin_alike(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, struct spp_run *r);
/* The order a twin body y is rewritten in (one of its orders, those of every iteration
 * alike first), 0 when it fits none. */
uint8_t spp_twin_order(const struct spp_body *y);

#endif
