/* Point-to-point protocols over the network model.  A request is a send or a receive;
 * each (communicator, source, destination, tag) keeps a queue of unmatched sends or of
 * unmatched receives, and a match fixes both completion times. */
#include <stdlib.h>
#include <string.h>

#include "comsys.h"
#include "cost.h"
#include "network.h"

struct request {
    double posted, done;      /* done < 0 while unknown */
    double bytes;
    int src, dst, synchronous, is_send;
    int next;                 /* next unmatched request of the same queue, -1 */
};

struct queue {
    int comm, src, dst, tag, used;
    int head, tail;           /* unmatched requests, all sends or all receives */
};

struct pz_comsys {
    const struct pz_machine *machine;
    struct pz_network *net;
    int nprocs;
    struct request *requests;
    int nrequests, cap;
    struct queue *queues;
    unsigned nqueues, qcount;
    int pending;
};

struct pz_comsys *pz_comsys_new(const struct pz_machine *m, int nprocs)
{
    struct pz_comsys *cs = calloc(1, sizeof(*cs));

    if (!cs)
        return NULL;
    cs->machine = m;
    cs->nprocs = nprocs;
    if (!(cs->net = pz_network_new(m, pz_nodes_for(m, nprocs)))) {
        free(cs);
        return NULL;
    }
    return cs;
}

void pz_comsys_free(struct pz_comsys *cs)
{
    if (!cs)
        return;
    pz_network_free(cs->net);
    free(cs->requests);
    free(cs->queues);
    free(cs);
}

static unsigned hash(int comm, int src, int dst, int tag, unsigned n)
{
    unsigned long long h = (unsigned)comm * 0x9E3779B97F4A7C15ull;

    h = (h ^ (unsigned)src) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (unsigned)dst) * 0x94D049BB133111EBull;
    h = (h ^ (unsigned)tag) * 0x9E3779B97F4A7C15ull;
    return (unsigned)(h >> 32) & (n - 1);
}

static int grow_queues(struct pz_comsys *cs)
{
    unsigned n = cs->nqueues ? 2 * cs->nqueues : 256;
    struct queue *fresh = calloc(n, sizeof(*fresh));

    if (!fresh)
        return -1;
    for (unsigned i = 0; i < cs->nqueues; i++) {
        struct queue *q = &cs->queues[i];
        unsigned s;

        if (!q->used)
            continue;
        for (s = hash(q->comm, q->src, q->dst, q->tag, n); fresh[s].used; s = (s + 1) & (n - 1))
            ;
        fresh[s] = *q;
    }
    free(cs->queues);
    cs->queues = fresh;
    cs->nqueues = n;
    return 0;
}

static struct queue *queue_of(struct pz_comsys *cs, int comm, int src, int dst, int tag)
{
    unsigned s;

    if (2 * (cs->qcount + 1) > cs->nqueues && grow_queues(cs) != 0)
        return NULL;
    for (s = hash(comm, src, dst, tag, cs->nqueues); cs->queues[s].used;
         s = (s + 1) & (cs->nqueues - 1)) {
        struct queue *q = &cs->queues[s];

        if (q->comm == comm && q->src == src && q->dst == dst && q->tag == tag)
            return q;
    }
    cs->queues[s] = (struct queue){ comm, src, dst, tag, 1, -1, -1 };
    cs->qcount++;
    return &cs->queues[s];
}

static int new_request(struct pz_comsys *cs, const struct request *r)
{
    if (cs->nrequests == cs->cap) {
        int cap = cs->cap ? 2 * cs->cap : 256;
        struct request *grown = realloc(cs->requests, (size_t)cap * sizeof(*grown));

        if (!grown)
            return -1;
        cs->requests = grown;
        cs->cap = cap;
    }
    cs->requests[cs->nrequests] = *r;
    return cs->nrequests++;
}

/* Both times of a matched send and receive, by the protocol the size calls for. */
static void complete(struct pz_comsys *cs, struct request *send, struct request *recv)
{
    const struct pz_machine *m = cs->machine;
    int from = pz_node_of(m, send->src, cs->nprocs), to = pz_node_of(m, send->dst, cs->nprocs);
    double arrival;

    if (!send->synchronous && send->bytes <= m->eager_threshold) {
        arrival = pz_network_transfer(cs->net, from, to, send->bytes, send->posted);
        send->done = send->posted;
        recv->done = arrival > recv->posted ? arrival : recv->posted;
        return;
    }
    arrival = pz_network_transfer(cs->net, from, to, 0, send->posted);          /* RTS */
    arrival = pz_network_transfer(cs->net, to, from, 0,                          /* CTS */
                                  arrival > recv->posted ? arrival : recv->posted);
    arrival = pz_network_transfer(cs->net, from, to, send->bytes, arrival);       /* data */
    send->done = recv->done = arrival;
}

/* Matches request r with the oldest unmatched partner in q, or queues it. */
static void match_or_queue(struct pz_comsys *cs, struct queue *q, int r)
{
    struct request *mine = &cs->requests[r];
    int other = q->head;

    if (other >= 0 && cs->requests[other].is_send != mine->is_send) {
        q->head = cs->requests[other].next;
        if (q->head < 0)
            q->tail = -1;
        cs->pending--;
        if (mine->is_send)
            complete(cs, mine, &cs->requests[other]);
        else
            complete(cs, &cs->requests[other], mine);
        return;
    }
    if (q->tail >= 0)
        cs->requests[q->tail].next = r;
    else
        q->head = r;
    q->tail = r;
    cs->pending++;
}

static int post(struct pz_comsys *cs, const struct request *r, int comm, int tag)
{
    struct queue *q = queue_of(cs, comm, r->src, r->dst, tag);
    int id;

    if (!q || (id = new_request(cs, r)) < 0)
        return -1;
    match_or_queue(cs, q, id);
    return id;
}

int pz_comsys_send(struct pz_comsys *cs, int src, int dst, int tag, int comm, double bytes,
                   int synchronous, double at)
{
    struct request r = { at, -1, bytes, src, dst, synchronous, 1, -1 };

    return post(cs, &r, comm, tag);
}

int pz_comsys_recv(struct pz_comsys *cs, int dst, int src, int tag, int comm, double at)
{
    struct request r = { at, -1, 0, src, dst, 0, 0, -1 };

    return post(cs, &r, comm, tag);
}

double pz_comsys_done(const struct pz_comsys *cs, int request)
{
    return request >= 0 && request < cs->nrequests ? cs->requests[request].done : -1;
}

int pz_comsys_pending(const struct pz_comsys *cs)
{
    return cs->pending;
}
