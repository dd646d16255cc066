/* A switch, full duplex: each node has one link out and one link in; transfers contend
 * only where they share an endpoint. */
#include <stdlib.h>

#include "network.h"

struct links {
    double *out, *in;   /* per node: when its outgoing and incoming links are free */
};

static void destroy(void *state)
{
    struct links *l = state;

    if (l) {
        free(l->out);
        free(l->in);
        free(l);
    }
}

static void *create(const struct pz_machine *m, int nnodes)
{
    struct links *l = calloc(1, sizeof(*l));

    (void)m;
    if (!l || !(l->out = calloc((size_t)nnodes, sizeof(double))) ||
        !(l->in = calloc((size_t)nnodes, sizeof(double)))) {
        destroy(l);
        return NULL;
    }
    return l;
}

static double reserve(void *state, int src, int dst, double ready, double cost)
{
    struct links *l = state;
    double start = ready;

    if (l->out[src] > start)
        start = l->out[src];
    if (l->in[dst] > start)
        start = l->in[dst];
    l->out[src] = l->in[dst] = start + cost;
    return start;
}

const struct pz_network_ops pz_network_switch = { create, reserve, destroy };
