/* Messages to a process that receives them from MPI_ANY_SOURCE (scale_run_int.h,
 * pz_scale_mark_collected): a master that collects results, whichever worker sends
 * first.  Its receives are no pattern of the grid (PZ_SCALE_PEER_ANY), and the sends
 * that feed them name the master, a rank, where an offset would follow the sender's
 * position (-1 at process 1 of 2 x 2 x 2, -1 -1 -1 at process 7, which at 16 reach
 * other processes than the master). */
#include <stdlib.h>

#include "grow.h"
#include "scale_run_int.h"
#include "trace_calls.h"

/* A process that receives from any source on a communicator with a tag. */
struct collector {
    int proc;
    uint32_t comm, tag;
};

struct collectors {
    struct collector *v;
    uint32_t n, cap;
};

static int is_collector(const struct collectors *c, int proc, uint32_t comm, uint32_t tag)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->v[i].proc == proc && c->v[i].comm == comm && c->v[i].tag == tag)
            return 1;
    return 0;
}

/* The collectors of the run into c.  0, or -1 when memory runs out. */
static int find_collectors(const struct pz_scale_reading *r, struct collectors *c)
{
    for (int p = 0; p < r->run->nprocs; p++) {
        const struct pz_scale_process *proc = &r->run->procs[p];

        for (size_t i = 0; i < proc->nevents; i++) {
            const struct pz_scale_raw *raw = &r->raw[p][i];
            uint32_t tag = proc->events[i].tag;

            if (!raw->any || is_collector(c, p, raw->comm, tag))
                continue;
            if (pz_grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v)) != 0)
                return -1;
            c->v[c->n++] = (struct collector){ p, raw->comm, tag };
        }
    }
    return 0;
}

static int is_send(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_ISEND;
}

int pz_scale_mark_collected(struct pz_scale_reading *r)
{
    struct collectors c = { 0 };

    if (find_collectors(r, &c) != 0) {
        free(c.v);
        return -1;
    }
    for (int p = 0; c.n && p < r->run->nprocs; p++) {
        const struct pz_scale_process *proc = &r->run->procs[p];

        for (size_t i = 0; i < proc->nevents; i++) {
            struct pz_scale_raw *raw = &r->raw[p][i];
            int q;

            if (!is_send(proc->events[i].kind) || raw->peer == PZ_NONE32 ||
                raw->comm == PZ_NONE32 ||
                (q = pz_call_process(r->in, p, raw->comm, raw->peer)) < 0)
                continue;
            if (is_collector(&c, q, raw->comm, proc->events[i].tag))
                raw->common = 1;
        }
    }
    free(c.v);
    return 0;
}
