/* What the protocols (comsys.c), the collectives' agents (comsys_coll.c) and progress
 * in calls (comsys_progress.c) all use of the communication model's state: the table
 * of requests and the scheduling of events.  The event loop (comsys.c) takes the events
 * from the queues filled here. */
#include <stdlib.h>
#include <string.h>

#include "comsys_int.h"
#include "cost.h"

int pz_cs_new_request(struct pz_comsys *cs)
{
    int r = cs->free_req;

    if (r >= 0) {
        cs->free_req = cs->req[r].next;
    } else {
        if (cs->nreq == cs->capreq) {
            int cap = cs->capreq ? 2 * cs->capreq : 256;
            struct request *grown = realloc(cs->req, (size_t)cap * sizeof(*grown));

            if (!grown) {
                cs->failed = 1;
                return -1;
            }
            cs->req = grown;
            cs->capreq = cap;
        }
        r = cs->nreq++;
    }
    /* the free list's next request, for the next one made: it left the caches when it
       was released, at thousands of processes */
    __builtin_prefetch(&cs->req[cs->free_req >= 0 ? cs->free_req : r]);
    memset(&cs->req[r], 0, sizeof(cs->req[r]));
    cs->req[r].done = cs->req[r].arrival = -1;
    cs->req[r].partner = cs->req[r].agent = cs->req[r].next = -1;
    return r;
}

double pz_cs_occupy(struct pz_comsys *cs, int p, double t, double o)
{
    double start;

    if (!(o > 0))   /* before p's state is read: most messages cost no CPU time */
        return t;
    start = cs->cpu_free[p] > t ? cs->cpu_free[p] : t;
    cs->cpu_free[p] = start + o;
    return cs->cpu_free[p];
}

int pz_cs_same_node(const struct pz_comsys *cs, int p, int q)
{
    return cs->node[p] == cs->node[q];
}

int pz_cs_self_work(const struct pz_comsys *cs, int from, int to)
{
    return from == to && cs->machine->self_segments.n > 0;
}

double pz_cs_send_overhead(const struct pz_comsys *cs, int from, int to, double bytes)
{
    return pz_cs_self_work(cs, from, to)
               ? pz_self_time(cs->machine, bytes)
               : pz_send_overhead(cs->machine, bytes, pz_cs_same_node(cs, from, to));
}

double pz_cs_recv_overhead(const struct pz_comsys *cs, int from, int to, double bytes)
{
    return pz_cs_self_work(cs, from, to)
               ? 0
               : pz_recv_overhead(cs->machine, bytes, pz_cs_same_node(cs, from, to));
}

static int due_now_push(struct due_now *q, enum cs_event kind, int id)
{
    if (q->count == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 64;
        struct pz_heap_item *grown = malloc(cap * sizeof(*grown));

        if (!grown)
            return -1;
        for (uint32_t i = 0; i < q->count; i++)
            grown[i] = q->items[(q->head + i) & (q->cap - 1)];
        free(q->items);
        q->items = grown;
        q->head = 0;
        q->cap = cap;
    }
    q->items[(q->head + q->count++) & (q->cap - 1)] = (struct pz_heap_item){ 0, kind, id };
    return 0;
}

void pz_cs_push(struct pz_comsys *cs, double t, enum cs_event kind, int id)
{
    int rc;

    if (t <= cs->now) {
        rc = due_now_push(&cs->now_queue, kind, id);
    } else if (kind == EV_ROUND) {
        rc = pz_cs_rounds_push(cs, t, id);
    } else {
        pz_cs_rounds_close(cs, t);   /* a round of t pushed after it goes after it */
        rc = pz_radix_push(&cs->events, t, kind, id);
    }
    if (rc != 0)
        cs->failed = 1;
}
