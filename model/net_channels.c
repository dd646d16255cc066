/* Myrinet-like: `channels` transfers at once; a transfer takes the channel that frees
 * first, waiting for it if all are busy, and holds it for its link time. */
#include <stdlib.h>

#include "network.h"

struct channels {
    int n;
    double free_at[];
};

static void *create(const struct pz_machine *m, int nnodes)
{
    struct channels *c = calloc(1, sizeof(*c) + (size_t)m->channels * sizeof(double));

    (void)nnodes;
    if (c)
        c->n = m->channels;
    return c;
}

static double reserve(void *state, int src, int dst, double ready, double cost, double hold)
{
    struct channels *c = state;
    int first = 0;
    double start;

    (void)src, (void)dst;
    for (int i = 1; i < c->n; i++)
        if (c->free_at[i] < c->free_at[first])
            first = i;
    start = ready > c->free_at[first] ? ready : c->free_at[first];
    c->free_at[first] = start + hold;
    return start + cost;
}

const struct pz_network_ops pz_network_channels = { create, reserve, free };
