/* The walk through one member's rounds that every collective algorithm is written as
 * (coll_algos.h), and the rank arithmetic the algorithms share. */
#include "coll_algos.h"

int pz_internal_walk_run(pz_walk_fn *fn, const struct pz_coll *c, int round,
                         struct pz_coll_round *out)
{
    struct pz_walk w = { round, 0, out };

    out->reduce_bytes = 0;
    if (c->size <= 1)
        return 0;
    fn(c, &w);
    return round < w.next;
}

int pz_internal_walk_rounds(struct pz_walk *w, int k)
{
    int first = w->next;

    w->next += k;
    return w->want >= first && w->want < w->next ? w->want - first : -1;
}

int pz_internal_walk_round(struct pz_walk *w)
{
    return pz_internal_walk_rounds(w, 1) == 0;
}

void pz_internal_walk_send(struct pz_walk *w, int peer, double bytes)
{
    w->out->message(w->out->ud, peer, 1, bytes);
}

void pz_internal_walk_recv(struct pz_walk *w, int peer, double bytes)
{
    w->out->message(w->out->ud, peer, 0, bytes);
}

void pz_internal_walk_reduce(struct pz_walk *w, double bytes)
{
    w->out->reduce_bytes += bytes;
}

int pz_internal_abs(const struct pz_coll *c, int root, int rel)
{
    return (rel + root) % c->size;
}

int pz_internal_rel(const struct pz_coll *c, int root)
{
    return (c->me - root + c->size) % c->size;
}

int pz_internal_pof2_floor(int p)
{
    int q = 1;

    while (q <= p / 2)
        q *= 2;
    return q;
}

int pz_internal_pof2_ceil(int p)
{
    int q = 1;

    while (q < p)
        q *= 2;
    return q;
}

int pz_internal_is_pof2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

double pz_internal_send_count(const struct pz_coll *c, int peer)
{
    return c->send_counts ? c->send_counts[peer] : c->bytes;
}

double pz_internal_recv_count(const struct pz_coll *c, int peer)
{
    return c->recv_counts ? c->recv_counts[peer] : c->bytes;
}

double pz_internal_block(const struct pz_coll *c, int r)
{
    return c->recv_counts ? c->recv_counts[r] : c->bytes;
}

double pz_internal_total(const struct pz_coll *c)
{
    double sum = 0;

    if (!c->recv_counts)
        return c->bytes * c->size;
    for (int r = 0; r < c->size; r++)
        sum += c->recv_counts[r];
    return sum;
}
