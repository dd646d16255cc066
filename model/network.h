/* Networks behind one interface: a transfer asks for the links it needs from the time
 * it is ready and gets the time its last byte arrives; the links stay busy for the
 * machine's link time (cost.h, pz_link_time: the whole transfer, or its bytes alone).
 * Each kind of network is one file (net_bus.c, net_channels.c, net_switch.c); the
 * message cost comes from cost.h, never from the caller. */
#ifndef PZ_NETWORK_H
#define PZ_NETWORK_H

#include "machine.h"

struct pz_network;

/* The operations a network model provides. */
struct pz_network_ops {
    /* Private state for nnodes nodes; NULL if memory ran out. */
    void *(*create)(const struct pz_machine *m, int nnodes);
    /* When a transfer of duration cost (alone on its links) from src to dst, ready at
     * ready, ends: it starts when what it needs is free, and occupies it for hold from
     * then. */
    double (*reserve)(void *state, int src, int dst, double ready, double cost, double hold);
    void (*destroy)(void *state);
};

extern const struct pz_network_ops pz_network_bus, pz_network_channels, pz_network_switch;

/* A network of the machine's kind joining nnodes nodes; NULL if memory ran out. */
struct pz_network *pz_network_new(const struct pz_machine *m, int nnodes);

/* A transfer of bytes from node src to node dst, ready at time ready: the time its last
 * byte arrives.  Between processes of one node it goes through memory and occupies no
 * link.  Transfers must be asked for in the order of their ready times. */
double pz_network_transfer(struct pz_network *net, int src, int dst, double bytes,
                           double ready);

/* A protocol's control message from node src to node dst, ready at time ready (a
 * rendezvous's request to send, an RMA lock's request ...): when it arrives.  It
 * carries no payload and takes a message of 0 bytes' time, but neither waits for nor
 * holds the links: networks and MPI libraries cut large transfers into packets and fragments, and
 * a control message goes between them instead of after the whole transfer. */
double pz_network_control(const struct pz_network *net, int src, int dst, double ready);

void pz_network_free(struct pz_network *net);

#endif
