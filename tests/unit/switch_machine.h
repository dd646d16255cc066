/* The machine the comsys tests derive their times on by hand: a switch, Hockney's
 * 50 us + bytes / 12.5 MB/s between nodes (0 B: 50 us, 8 B: 50.64 us), processes of one
 * node through memory at 1 us + bytes / 5 GB/s, procs_per_node processes a node, the
 * other keys their defaults (eager up to 64 KiB, no overheads). */
#ifndef PZ_TEST_SWITCH_MACHINE_H
#define PZ_TEST_SWITCH_MACHINE_H

#include "machine.h"

static inline void switch_machine(struct pz_machine *m, int procs_per_node)
{
    pz_machine_defaults(m);
    m->network = PZ_NET_SWITCH;
    m->latency = 50e-6;
    m->bandwidth = 12.5e6;
    m->shm_latency = 1e-6;
    m->shm_bandwidth = 5e9;
    m->procs_per_node = procs_per_node;
}

#endif
