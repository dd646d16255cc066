/* Messages to rank 0 in a model of exchanges with every member in turn (scale_program_int.h,
 * sp_roots_*): a gather or scatter written by hand next to the all-to-all, where rank 0
 * receives from (or sends to) every other process in turn, which sp_pairs takes as a
 * run, and every other process makes one call to rank 0.  Recorded, that call's partner
 * is an offset in the process grid that differs from one process to the next (-1 at
 * process 1 of 2 x 2 x 2, -1 -1 -1 at process 7), which the template can only keep as
 * steps of their own guarded by positions that no longer hold at other counts (at 16,
 * process 15 then sent to 8).  Here a step in no run whose every message goes to world
 * rank 0, the same call at every other process of some recording of 3 processes or
 * more, is rewritten with rank 0 of the world as its partner (PZ_SCALE_PEER_RANK), which
 * the guards make a step of every process but rank 0 (struct sp_guard.rank_not). */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_program_int.h"
#include "trace.h"

/* A signature with its partners as rank 0, and the processes seen making it. */
struct rooted {
    uint32_t sig;                      /* in struct sp_roots.t */
    const struct pz_scale_run *run;    /* the recording it was seen in last, */
    int last, nmakers;                 /* the last process there and how many */
    uint8_t whole;                     /* every process but 0 of one recording made it */
};

struct sp_roots {
    struct sp_table t;                 /* the signatures, apart from the model's */
    struct rooted *v;
    uint32_t n, cap;
};

struct sp_roots *sp_roots_new(void)
{
    return calloc(1, sizeof(struct sp_roots));
}

void sp_roots_free(struct sp_roots *x)
{
    if (!x)
        return;
    sp_table_free(&x->t);
    free(x->v);
    free(x);
}

int sp_is_message(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_RECV || kind == PZ_REC_ISEND ||
           kind == PZ_REC_IRECV;
}

/* Step sym of process proc with every message's partner as rank 0 into ev (proto's
 * events): 1 when each event with an offset peer is a message on the world to rank 0,
 * at least one, and none names a poster; else 0. */
static int to_rank_0(const struct sp_table *t, const struct pz_scale_run *run, int proc,
                     uint32_t sym, struct sp_event *ev)
{
    const struct sp_sym *s = &t->syms[sym];
    int found = 0;

    if (s->kind != SP_STEP || s->n > SP_MAX_EVENTS)
        return 0;
    for (uint32_t i = 0; i < s->n; i++) {
        ev[i] = sp_events_of(t, sym)[i];
        if (ev[i].poster_sym != SP_NONE)
            return 0;
        if (ev[i].peer.kind != PZ_SCALE_PEER_OFFSET)
            continue;
        if (ev[i].comm.kind != PZ_SCALE_COMM_WORLD || !sp_is_message(ev[i].kind) ||
            sp_offset_rank(run, proc, &ev[i].comm, &ev[i].peer) != 0)
            return 0;
        memset(&ev[i].peer, 0, sizeof(ev[i].peer));
        ev[i].peer.kind = PZ_SCALE_PEER_RANK;
        found = 1;
    }
    return found;
}

/* The entry of signature sig, added when new; NULL when memory runs out. */
static struct rooted *entry(struct sp_roots *x, uint32_t sig)
{
    for (uint32_t i = 0; i < x->n; i++)
        if (x->v[i].sig == sig)
            return &x->v[i];
    if (pz_grow((void **)&x->v, &x->cap, x->n, sizeof(*x->v)) != 0)
        return NULL;
    x->v[x->n] = (struct rooted){sig, NULL, -1, 0, 0};
    return &x->v[x->n++];
}

int sp_roots_learn(struct sp_roots *x, const struct sp_table *t, const struct pz_scale_run *run,
                   int proc, uint32_t sym)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct rooted *y;
    uint32_t sig;

    /* at 2 processes every message of process 1 goes to rank 0 */
    if (!proc || run->nprocs < 3 || !to_rank_0(t, run, proc, sym, ev))
        return 0;
    if ((sig = sp_table_step(&x->t, &t->syms[sym], ev)) == SP_NONE || !(y = entry(x, sig)))
        return -1;
    if (y->run != run) {
        y->run = run;
        y->last = -1;
        y->nmakers = 0;
    }
    if (y->last != proc) {
        y->last = proc;
        y->whole |= ++y->nmakers == run->nprocs - 1;
    }
    return 0;
}

int sp_roots_rewrite(struct sp_roots *x, struct sp_table *t, const struct pz_scale_run *run,
                     int proc, uint32_t *sym)
{
    struct sp_event ev[SP_MAX_EVENTS];
    uint32_t sig, to;
    struct rooted *y;

    if (!proc || !to_rank_0(t, run, proc, *sym, ev))
        return 0;
    if ((sig = sp_table_step(&x->t, &t->syms[*sym], ev)) == SP_NONE || !(y = entry(x, sig)))
        return -1;
    if (!y->whole)
        return 0;
    if ((to = sp_table_step(t, &t->syms[*sym], ev)) == SP_NONE)
        return -1;
    *sym = to;
    return 1;
}
