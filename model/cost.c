/* Message cost models and the placement of processes on nodes. */
#include <math.h>

#include "cost.h"

double pz_message_time(const struct pz_machine *m, double bytes)
{
    double payload, packets;

    if (m->cost_model == PZ_COST_HOCKNEY)
        return m->latency + bytes / m->bandwidth;
    payload = m->packet_size - m->packet_header;
    packets = ceil(bytes / payload);
    if (packets <= 1)
        return m->latency + bytes * m->latency_per_byte +
               (bytes + m->packet_header) / m->bandwidth;
    return m->latency + payload * m->latency_per_byte +
           (bytes + packets * m->packet_header) / m->bandwidth;
}

double pz_shm_time(const struct pz_machine *m, double bytes)
{
    return m->shm_latency + bytes / m->shm_bandwidth;
}

int pz_nodes_for(const struct pz_machine *m, int nprocs)
{
    if (m->node_map) {
        int most = 0;

        for (int r = 0; r < nprocs; r++)
            if (pz_node_of(m, r, nprocs) > most)
                most = pz_node_of(m, r, nprocs);
        return most + 1;
    }
    return (nprocs + m->procs_per_node - 1) / m->procs_per_node;
}

int pz_node_of(const struct pz_machine *m, int rank, int nprocs)
{
    if (m->node_map)
        return m->node_map[rank % m->node_map_size];
    if (m->placement == PZ_PLACE_CYCLIC)
        return rank % pz_nodes_for(m, nprocs);
    return rank / m->procs_per_node;
}
