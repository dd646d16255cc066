/* The network of a machine: the model's operations and the message cost. */
#include <stdlib.h>

#include "cost.h"
#include "network.h"

struct pz_network {
    const struct pz_machine *machine;
    const struct pz_network_ops *ops;
    void *state;
};

struct pz_network *pz_network_new(const struct pz_machine *m, int nnodes)
{
    struct pz_network *net = malloc(sizeof(*net));

    if (!net)
        return NULL;
    net->machine = m;
    net->ops = m->network == PZ_NET_BUS ? &pz_network_bus
               : m->network == PZ_NET_CHANNELS ? &pz_network_channels
                                               : &pz_network_switch;
    if (!(net->state = net->ops->create(m, nnodes))) {
        free(net);
        return NULL;
    }
    return net;
}

double pz_network_transfer(struct pz_network *net, int src, int dst, double bytes,
                           double ready)
{
    if (src == dst)
        return ready + pz_shm_time(net->machine, bytes);
    return net->ops->reserve(net->state, src, dst, ready, pz_message_time(net->machine, bytes),
                             pz_link_time(net->machine, bytes));
}

double pz_network_control(const struct pz_network *net, int src, int dst, double ready)
{
    if (src == dst)
        return ready + pz_shm_time(net->machine, 0);
    return ready + pz_message_time(net->machine, 0);
}

void pz_network_free(struct pz_network *net)
{
    if (!net)
        return;
    net->ops->destroy(net->state);
    free(net);
}
