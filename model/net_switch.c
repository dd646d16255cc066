/* A switch: each node has one link out and one link in; transfers contend only where
 * they share an endpoint.  A transfer whose receiver's link is busy waits for it either
 * at its sender, holding the sender's link meanwhile (switch_queue sender: a switch
 * without buffers), or in the switch, the sender's link free once it has sent the
 * message (switch_queue switch: a store-and-forward switch); it arrives at the same
 * time either way, but under the first, the sender's next transfers, to other nodes,
 * wait behind it.  The two links of a node are independent (full duplex) unless
 * the machine's duplex_factor says otherwise: a transfer then takes duplex_factor - 1
 * times longer for the time it overlaps traffic the other way at either of its nodes
 * (2: half duplex, the two directions take turns).  A transfer already under way is
 * not slowed by a later one, whose arrival is already known: the later one bears the
 * whole cost of the overlap, so an exchange both ways begun together ends after
 * duplex_factor times one transfer, as the measured exchange it is calibrated on.
 * Each link is held for the message's link time (cost.h): its whole time, or with
 * link_hold bytes its bytes alone, the latency overlapping the next messages. */
#include <stdlib.h>

#include "network.h"

struct links {
    double duplex_factor;
    int queue_in_switch;   /* switch_queue switch */
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

    if (!l || !(l->out = calloc((size_t)nnodes, sizeof(double))) ||
        !(l->in = calloc((size_t)nnodes, sizeof(double)))) {
        destroy(l);
        return NULL;
    }
    l->duplex_factor = m->duplex_factor;
    l->queue_in_switch = m->switch_queue == PZ_QUEUE_SWITCH;
    return l;
}

/* How long [start, start + cost] overlaps traffic the other way at src or dst: their
 * links in that direction are busy from before start (transfers are reserved in the
 * order they are ready) until they are free. */
static double opposite_overlap(const struct links *l, int src, int dst, double start,
                               double cost)
{
    double busy = l->in[src] > l->out[dst] ? l->in[src] : l->out[dst];
    double overlap = busy - start;

    return overlap <= 0 ? 0 : overlap < cost ? overlap : cost;
}

static double reserve(void *state, int src, int dst, double ready, double cost, double hold)
{
    struct links *l = state;
    double sent = ready > l->out[src] ? ready : l->out[src];   /* from its sender */
    double start = l->in[dst] > sent ? l->in[dst] : sent;      /* into its receiver */
    double stretch = 0;

    if (l->duplex_factor > 1)
        stretch = (l->duplex_factor - 1) * opposite_overlap(l, src, dst, start, hold);
    l->out[src] = (l->queue_in_switch ? sent : start) + hold + stretch;
    l->in[dst] = start + hold + stretch;
    return start + cost + stretch;
}

const struct pz_network_ops pz_network_switch = { create, reserve, destroy };
