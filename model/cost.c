/* Message cost models and the placement of processes on nodes. */
#include <math.h>

#include "cost.h"

/* The first of the segments s whose bound bytes does not exceed; NULL if none. */
static const struct pz_segment *segment_of(const struct pz_segments *s, double bytes)
{
    for (int i = 0; i < s->n; i++)
        if (bytes <= s->seg[i].upto)
            return &s->seg[i];
    return NULL;
}

/* A message of bytes between two nodes, as its cost model splits it: the start-up spent
 * off the links (Hockney's latency, a segment's, or the packet model's t0 plus t1 for
 * the bytes of its first packet) and the time its bytes take on them (at the segment's
 * or the machine's bandwidth; for the packet model with each packet's header, an empty
 * message being one packet). */
struct message_parts {
    double start_up, wire;
};

static struct message_parts parts_of(const struct pz_machine *m, double bytes)
{
    const struct pz_segment *g = segment_of(&m->segments, bytes);
    double payload, packets;

    if (g)
        return (struct message_parts){ g->latency, bytes / g->bandwidth };
    if (m->cost_model == PZ_COST_HOCKNEY)
        return (struct message_parts){ m->latency, bytes / m->bandwidth };
    payload = m->packet_size - m->packet_header;
    packets = ceil(bytes / payload);
    return (struct message_parts){
        m->latency + (packets <= 1 ? bytes : payload) * m->latency_per_byte,
        (bytes + (packets < 1 ? 1 : packets) * m->packet_header) / m->bandwidth
    };
}

double pz_message_time(const struct pz_machine *m, double bytes)
{
    struct message_parts p = parts_of(m, bytes);

    return p.start_up + p.wire;
}

double pz_link_time(const struct pz_machine *m, double bytes)
{
    if (m->link_hold == PZ_HOLD_MESSAGE)
        return pz_message_time(m, bytes);
    return m->link_gap + parts_of(m, bytes).wire;
}

double pz_shm_time(const struct pz_machine *m, double bytes)
{
    const struct pz_segment *g = segment_of(&m->shm_segments, bytes);

    if (g)
        return g->latency + bytes / g->bandwidth;
    return m->shm_latency + bytes / m->shm_bandwidth;
}

double pz_self_time(const struct pz_machine *m, double bytes)
{
    const struct pz_segment *g = segment_of(&m->self_segments, bytes);

    if (g)
        return g->latency + bytes / g->bandwidth;
    return pz_shm_time(m, bytes);
}

double pz_copy_time(const struct pz_machine *m, double bytes)
{
    const struct pz_segments *s = &m->copy_segments;
    const struct pz_segment *g = segment_of(s, bytes);

    if (s->n == 0 || !(bytes > 0))
        return 0;
    if (!g)
        g = &s->seg[s->n - 1];
    return g->latency + bytes / g->bandwidth;
}

/* The bytes an eager message's overheads are per byte of: all of them up to the eager
 * threshold, none beyond. */
static double copied(const struct pz_machine *m, double bytes)
{
    return bytes <= m->eager_threshold ? bytes : 0;
}

double pz_send_overhead(const struct pz_machine *m, double bytes, int same_node)
{
    const struct pz_overhead *o = same_node ? &m->shm_overhead : &m->overhead;

    return o->send + copied(m, bytes) * o->send_per_byte;
}

double pz_recv_overhead(const struct pz_machine *m, double bytes, int same_node)
{
    const struct pz_overhead *o = same_node ? &m->shm_overhead : &m->overhead;

    return o->recv + copied(m, bytes) * o->recv_per_byte;
}

double pz_send_tail_time(const struct pz_machine *m, double bytes)
{
    return m->send_tail + copied(m, bytes) * m->send_tail_per_byte;
}

double pz_resume_overhead(const struct pz_machine *m, double computed, int same_node)
{
    double full = same_node ? m->shm_resume_overhead : m->resume_overhead;

    if (!(computed > 0))
        return 0;
    return computed >= m->resume_after ? full : full * computed / m->resume_after;
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
