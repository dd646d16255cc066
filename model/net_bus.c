/* Ethernet with a hub: the whole network carries one transfer at a time (for its link
 * time); the others wait in the order they become ready. */
#include <stdlib.h>

#include "network.h"

struct bus {
    double free_at;
};

static void *create(const struct pz_machine *m, int nnodes)
{
    (void)m, (void)nnodes;
    return calloc(1, sizeof(struct bus));
}

static double reserve(void *state, int src, int dst, double ready, double cost, double hold)
{
    struct bus *b = state;
    double start = ready > b->free_at ? ready : b->free_at;

    (void)src, (void)dst;
    b->free_at = start + hold;
    return start + cost;
}

const struct pz_network_ops pz_network_bus = { create, reserve, free };
