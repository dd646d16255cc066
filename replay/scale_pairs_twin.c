/* Twins in an exchange with every member in turn (scale_pairs_int.h): each step a
 * blocking send and a blocking receive with one partner, rank XOR i or the i-th other
 * rank, as a program writes it when its messages are small, the send first everywhere,
 * or when it orders them by rank so that the two processes of a step cannot both wait
 * in a send: the send first where its rank is below the partner's, the receive first
 * where it is above.  Recorded, such a process's steps are (send, receive) in some
 * iterations and (receive, send) in others, which no body repeated alike gives: a
 * twin's iterations are instead the same two shapes in either order, and the orders
 * they follow from one iteration to the next (SPP_LO_FIRST ...) are learned from every
 * process, whose intersection tells them where the processes of one rank's side alone
 * cannot (rank 0 is below every partner). */
#include "scale_pairs_int.h"
#include "trace.h"

/* The shape of step sym when it is one blocking send or receive to an offset partner on
 * the world or a slice, that event into *e; SP_OWN_SHAPE when it is not one, SP_NONE
 * when memory runs out. */
static uint32_t one_message(struct sp_pairs *x, uint32_t sym, const struct sp_event **e)
{
    const struct sp_sym *s = &x->t->syms[sym];

    if (s->kind != SP_STEP || s->n != 1)
        return SP_OWN_SHAPE;
    *e = sp_events_of(x->t, sym);
    if (((*e)->kind != PZ_REC_SEND && (*e)->kind != PZ_REC_RECV) || !spp_pairable(*e))
        return SP_OWN_SHAPE;
    return sp_shape(&x->sh, sym);
}

/* The two steps at syms[a] as a twin's iteration: their shapes into s[0..1], and
 * process proc's rank in the communicator below the partner's into *below.  1 when they
 * are one (one message each, to one partner on one communicator), 0, -1 (memory). */
static int iteration(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, size_t a, uint32_t *s, int *below)
{
    const struct sp_event *e[2];
    int me[2], q[2], n[2];

    for (int j = 0; j < 2; j++) {
        if ((s[j] = one_message(x, syms[a + (size_t)j], &e[j])) == SP_NONE)
            return -1;
        if ((s[j] & SP_OWN_SHAPE) || spp_partner(run, proc, e[j], &me[j], &q[j], &n[j]) != 0)
            return 0;
    }
    *below = me[0] < q[0];
    return q[0] == q[1] && n[0] == n[1] && e[0]->comm.kind == e[1]->comm.kind &&
           e[0]->comm.keep == e[1]->comm.keep && s[0] != s[1];
}

int spp_twin_start(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n, size_t at)
{
    uint32_t s[2];
    int below;

    return at + 2 <= n ? iteration(x, run, proc, syms, at, s, &below) : 0;
}

/* Whether the two calls of step a of process proc moved as many bytes each. */
static int equal_sizes(const struct pz_scale_run *run, int proc, size_t a)
{
    const struct pz_scale_process *p = &run->procs[proc];

    return p->steps[a].n && p->steps[a + 1].n &&
           p->events[p->steps[a].first].bytes == p->events[p->steps[a + 1].first].bytes;
}

int spp_twin_alike(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, struct spp_run *r)
{
    uint32_t s[2], lo = 0;
    uint8_t orders = SPP_ORDERS;

    for (size_t k = 0; k < r->count && orders; k++) {
        size_t a = r->at + 2 * k;
        int below, rc = iteration(x, run, proc, syms, a, s, &below), flipped;

        if (rc <= 0)
            return rc;
        if (!k)
            lo = s[0] < s[1] ? s[0] : s[1];
        if (s[0] != lo && s[1] != lo)
            return 0;
        flipped = s[0] != lo;
        orders &= (uint8_t)((flipped ? SPP_HI_FIRST : SPP_LO_FIRST) |
                            (flipped != below ? SPP_LO_BELOW : SPP_HI_BELOW));
        /* a call first at some processes and second at others stands for both sizes */
        if (!equal_sizes(run, proc, a))
            orders &= (uint8_t)~SPP_BY_RANK;
    }
    r->lo = lo;
    r->orders = orders;
    return orders && spp_forms_of(x, run, proc, syms, r, 0, 0) &&
           spp_forms_of(x, run, proc, syms, r, 1, 0);
}

uint8_t spp_twin_order(const struct spp_body *y)
{
    for (uint8_t o = SPP_LO_FIRST; o <= SPP_HI_BELOW; o = (uint8_t)(o << 1))
        if (y->orders & o)
            return o;
    return 0;
}
