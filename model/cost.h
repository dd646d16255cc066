/* The time one message takes on an idle link, by the machine's cost model. */
#ifndef PZ_COST_H
#define PZ_COST_H

#include "machine.h"

/* Between nodes: Hockney's latency + bytes / bandwidth, or the packet model of
 * shared/seeds/002 (model B): with n = ceil(bytes / (V_max - V_c)) packets (at least 1),
 *   n = 1:  t0 + bytes * t1 + (bytes + V_c) / bandwidth
 *   n > 1:  t0 + (V_max - V_c) * t1 + (bytes + n * V_c) / bandwidth
 * where t0 = latency, t1 = latency_per_byte, V_max = packet_size, V_c = packet_header. */
double pz_message_time(const struct pz_machine *m, double bytes);

/* Between processes of one node: shm_latency + bytes / shm_bandwidth. */
double pz_shm_time(const struct pz_machine *m, double bytes);

/* The node of rank among nprocs processes: by the node map if there is one (ranks
 * beyond it wrap around: rank r is placed as rank r mod its size), else by
 * procs_per_node and placement. */
int pz_node_of(const struct pz_machine *m, int rank, int nprocs);

/* Number of nodes nprocs processes take. */
int pz_nodes_for(const struct pz_machine *m, int nprocs);

#endif
