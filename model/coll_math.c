/* The rank and size arithmetic the collective algorithms and their choice share
 * (coll_algos.h): pure functions of a collective's description, calling nothing, so
 * that the choice (coll.c) and the walk (coll_walk.c) both use them without calling
 * each other. */
#include "coll_algos.h"

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
