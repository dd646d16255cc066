/* Wait states.  Messages are matched in time order by (communicator, sender, receiver,
 * tag), first in first out as MPI orders them; only messages in flight are kept.  A
 * collective instance is the k-th collective of a communicator on each of its members;
 * an instance is kept until its last member reached it.  Nonblocking collectives are
 * matched in nbc.c.  Senders, receivers and members are MPI processes, whichever of
 * their threads made the call; the waits go to that thread (the process of the
 * analysis). */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define MAX_NODES 64

struct pz_msg {
    uint32_t comm, tag;
    int src;                   /* the sending thread */
    int dst;                   /* the receiving MPI process */
    int receiver;              /* the receiving thread, of a receive read first */
    int receive_first;         /* a receive that ended before its send began */
    double send_enter, recv_enter;
    int refs;                  /* the queue, and the open blocking send that sent it */
    struct pz_msg *next;       /* in its queue */
    struct pz_msg *prev_to, *next_to;   /* sends in flight to dst, oldest first */
    /* a blocking send that returned before its receive was matched: when the receive
     * turns out to have begun while the send was still in its call, the Late Receiver
     * is charged to these intervals of the sender */
    double send_leave;
    int *sender_nodes;
    uint32_t nsender_nodes;
    /* a receive read before its send because both happened at the same tick (a
     * prediction on a network without latency): when it ended, and the intervals of the
     * blocking call it ended in, to charge its Late Sender once the send is read */
    double recv_end;
    int *receiver_nodes;
    uint32_t nreceiver_nodes;
};

struct queue {
    uint32_t comm, tag;
    int src, dst, used;
    struct pz_msg *head, *tail;
};

struct instance {
    uint32_t comm, size, seen;
    uint64_t seq;
    OTF2_CollectiveOp op;
    uint32_t root;
    int used;
    double *enter, *leave;
    int *proc;
    int (*nodes)[MAX_NODES];
    uint32_t *nnodes;
};

struct pz_waits {
    struct queue *queues;
    uint32_t nqueues, qcount;
    struct pz_msg **to_head, **to_tail;     /* per receiving MPI process */
    uint64_t *seq;                          /* per (MPI process, communicator) */
    uint32_t nseq;
    struct instance *instances;
    uint32_t ninstances, icount;
};

int pz_waits_new(struct reader *r)
{
    struct pz_waits *w = calloc(1, sizeof(*w));
    size_t n = (size_t)r->a->nprocs;

    if (!w)
        return -1;
    r->waits = w;
    w->to_head = calloc(n, sizeof(*w->to_head));
    w->to_tail = calloc(n, sizeof(*w->to_tail));
    w->nseq = (uint32_t)(n * (r->defs.ncomms ? r->defs.ncomms : 1));
    w->seq = calloc(w->nseq, sizeof(*w->seq));
    r->nbc = pz_nbc_new(r);
    return w->to_head && w->to_tail && w->seq && r->nbc ? 0 : -1;
}

/* MPI process of rank in comm, as seen by MPI process self; -1 if unknown. */
static int proc_of(const struct reader *r, uint32_t comm, uint32_t rank, int self)
{
    return pz_comm_process(pz_defs_comm(&r->defs, comm), rank, self);
}

static uint32_t hash4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint64_t h = a * 0x9E3779B97F4A7C15u;

    h = (h ^ b) * 0xBF58476D1CE4E5B9u;
    h = (h ^ c) * 0x94D049BB133111EBu;
    h = (h ^ d) * 0x9E3779B97F4A7C15u;
    return (uint32_t)(h >> 32);
}

static int grow_queues(struct pz_waits *w)
{
    uint32_t n = w->nqueues ? 2 * w->nqueues : 1024;
    struct queue *fresh = calloc(n, sizeof(*fresh));

    if (!fresh)
        return -1;
    for (uint32_t i = 0; i < w->nqueues; i++) {
        struct queue *q = &w->queues[i];
        uint32_t s;

        if (!q->used)
            continue;
        s = hash4(q->comm, (uint32_t)q->src, (uint32_t)q->dst, q->tag) & (n - 1);
        while (fresh[s].used)
            s = (s + 1) & (n - 1);
        fresh[s] = *q;
    }
    free(w->queues);
    w->queues = fresh;
    w->nqueues = n;
    return 0;
}

static struct queue *queue_of(struct pz_waits *w, uint32_t comm, int src, int dst, uint32_t tag)
{
    uint32_t s;

    if (2 * (w->qcount + 1) > w->nqueues && grow_queues(w) != 0)
        return NULL;
    for (s = hash4(comm, (uint32_t)src, (uint32_t)dst, tag) & (w->nqueues - 1);
         w->queues[s].used; s = (s + 1) & (w->nqueues - 1)) {
        struct queue *q = &w->queues[s];

        if (q->comm == comm && q->src == src && q->dst == dst && q->tag == tag)
            return q;
    }
    w->queues[s] = (struct queue){ comm, tag, src, dst, 1, NULL, NULL };
    w->qcount++;
    return &w->queues[s];
}

static void release(struct pz_msg *m)
{
    if (--m->refs == 0) {
        free(m->sender_nodes);
        free(m->receiver_nodes);
        free(m);
    }
}

/* A wait of proc in the intervals open on it now; the synchronization too when
 * with_sync (a wait counts there once, whatever its kinds). */
static void charge_now(struct reader *r, int proc, size_t field, double value, int with_sync)
{
    int nodes[MAX_NODES];
    uint32_t n;

    if (value <= 0)
        return;
    n = pz_open_nodes(r, proc, nodes, MAX_NODES);
    pz_charge(r, proc, nodes, n, field, value);
    if (with_sync)
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, sync), value);
}

static void unlink_to(struct pz_waits *w, struct pz_msg *m)
{
    if (m->prev_to)
        m->prev_to->next_to = m->next_to;
    else
        w->to_head[m->dst] = m->next_to;
    if (m->next_to)
        m->next_to->prev_to = m->prev_to;
    else
        w->to_tail[m->dst] = m->prev_to;
}

/* The receive of m ended at the tick its send began: its Late Sender, the wait from the
 * receiving call's start to the send, goes to the intervals the call was in. */
static void late_sender_at_tie(struct reader *r, const struct pz_msg *m, double send_enter)
{
    double wait = send_enter - m->recv_enter;

    if (wait <= 0 || !m->receiver_nodes)
        return;
    pz_charge(r, m->receiver, m->receiver_nodes, m->nreceiver_nodes,
              offsetof(struct pz_stats, late_sender), wait);
    pz_charge(r, m->receiver, m->receiver_nodes, m->nreceiver_nodes,
              offsetof(struct pz_stats, sync), wait);
}

void pz_waits_send(struct reader *r, int proc, uint32_t comm, uint32_t dest, uint32_t tag,
                   double when, struct frame *call)
{
    struct pz_waits *w = r->waits;
    int me = pz_reader_rank(r, proc), dst = proc_of(r, comm, dest, me);
    struct queue *q;
    struct pz_msg *m;

    if (dst < 0 || !(q = queue_of(w, comm, me, dst, tag)))
        return;
    if (q->head && q->head->receive_first) {   /* its receive was read first */
        m = q->head;
        q->head = m->next;
        if (!q->head)
            q->tail = NULL;
        if (when > m->recv_end)
            r->a->clock_violations++;          /* it ended before the send began */
        else
            late_sender_at_tie(r, m, when);
        r->a->messages++;
        release(m);
        return;
    }
    if (!(m = calloc(1, sizeof(*m))))
        return;
    *m = (struct pz_msg){ .comm = comm, .tag = tag, .src = proc, .dst = dst, .send_enter = when,
                          .recv_enter = -1, .refs = 1, .prev_to = w->to_tail[dst],
                          .send_leave = -1 };
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
    if (w->to_tail[dst])
        w->to_tail[dst]->next_to = m;
    else
        w->to_head[dst] = m;
    w->to_tail[dst] = m;
    if (call && r->regions[call->region].sends_blocking && !call->send) {
        call->send = m;        /* for Late Receiver, when the send call returns */
        m->refs++;
    }
}

/* A message received late by the blocking call: the call waits until the latest of its
 * late messages was sent (charged at its Leave), in the wrong order when an earlier
 * message to this receiver was already in flight when the call began. */
static void late_sender(struct reader *r, int proc, const struct pz_msg *m, struct frame *call)
{
    const struct pz_msg *first = r->waits->to_head[pz_reader_rank(r, proc)];

    if (m->send_enter <= call->enter)
        return;
    if (m->send_enter > call->latest_send)
        call->latest_send = m->send_enter;
    if (first && first->send_enter < call->enter)
        call->wrong_order = 1;
}

/* Late Receiver of a send that returned before its receive was matched. */
static void late_receiver_after(struct reader *r, const struct pz_msg *m)
{
    double wait = (m->recv_enter < m->send_leave ? m->recv_enter : m->send_leave) - m->send_enter;

    if (wait <= 0 || m->recv_enter >= m->send_leave)
        return;
    pz_charge(r, m->src, m->sender_nodes, m->nsender_nodes,
              offsetof(struct pz_stats, late_receiver), wait);
    pz_charge(r, m->src, m->sender_nodes, m->nsender_nodes, offsetof(struct pz_stats, sync),
              wait);
}

void pz_waits_recv(struct reader *r, int proc, uint32_t comm, uint32_t source, uint32_t tag,
                   double when, struct frame *call)
{
    struct pz_waits *w = r->waits;
    int me = pz_reader_rank(r, proc), src = proc_of(r, comm, source, me);
    struct queue *q;
    struct pz_msg *m;

    if (src < 0 || !(q = queue_of(w, comm, src, me, tag)))
        return;
    m = q->head;
    if (!m || m->receive_first) {              /* no send yet: a clock violation, or lost */
        struct pz_msg *early = calloc(1, sizeof(*early));

        if (!early)
            return;
        *early = (struct pz_msg){ .comm = comm, .tag = tag, .src = -1, .dst = me,
                                  .receiver = proc, .receive_first = 1, .recv_enter = call ? call->enter : when,
                                  .recv_end = when, .refs = 1, .send_leave = -1 };
        if (call && r->regions[call->region].blocking &&
            (early->receiver_nodes = malloc(MAX_NODES * sizeof(int))))
            early->nreceiver_nodes = pz_open_nodes(r, proc, early->receiver_nodes, MAX_NODES);
        if (q->tail)
            q->tail->next = early;
        else
            q->head = early;
        q->tail = early;
        return;
    }
    q->head = m->next;
    if (!q->head)
        q->tail = NULL;
    unlink_to(w, m);
    r->a->messages++;
    m->recv_enter = call ? call->enter : when;
    if (when < m->send_enter)
        r->a->clock_violations++;
    else if (call && r->regions[call->region].blocking)
        late_sender(r, proc, m, call);
    if (m->send_leave >= 0)
        late_receiver_after(r, m);
    release(m);
}

/* The sender's blocking send returns: its Late Receiver if the receive began while it
 * was in the call, now or once the receive is matched. */
static void send_done(struct reader *r, int proc, struct frame *call, double leave)
{
    struct pz_msg *m = call->send;

    if (m->recv_enter >= 0) {
        double until = m->recv_enter < leave ? m->recv_enter : leave;

        charge_now(r, proc, offsetof(struct pz_stats, late_receiver), until - m->send_enter, 1);
    } else if (m->refs > 1 && (m->sender_nodes = malloc(MAX_NODES * sizeof(int)))) {
        m->send_leave = leave;
        m->nsender_nodes = pz_open_nodes(r, proc, m->sender_nodes, MAX_NODES);
    }
    call->send = NULL;
    release(m);
}

void pz_waits_call_done(struct reader *r, int proc, struct frame *call, double leave)
{
    double wait = call->latest_send - call->enter;

    if (call->send)
        send_done(r, proc, call, leave);
    if (wait > 0) {
        charge_now(r, proc, offsetof(struct pz_stats, late_sender), wait, 1);
        if (call->wrong_order)
            charge_now(r, proc, offsetof(struct pz_stats, wrong_order), wait, 0);
    }
    pz_nbc_call_done(r, proc, call, leave);
}

static int grow_instances(struct pz_waits *w)
{
    uint32_t n = w->ninstances ? 2 * w->ninstances : 256;
    struct instance *fresh = calloc(n, sizeof(*fresh));

    if (!fresh)
        return -1;
    for (uint32_t i = 0; i < w->ninstances; i++) {
        struct instance *in = &w->instances[i];
        uint32_t s;

        if (!in->used)
            continue;
        s = hash4(in->comm, (uint32_t)in->seq, (uint32_t)(in->seq >> 32), 0) & (n - 1);
        while (fresh[s].used)
            s = (s + 1) & (n - 1);
        fresh[s] = *in;
    }
    free(w->instances);
    w->instances = fresh;
    w->ninstances = n;
    return 0;
}

static struct instance *instance_of(struct pz_waits *w, uint32_t comm, uint64_t seq,
                                    uint32_t size)
{
    struct instance *in;
    uint32_t s;

    if (2 * (w->icount + 1) > w->ninstances && grow_instances(w) != 0)
        return NULL;
    for (s = hash4(comm, (uint32_t)seq, (uint32_t)(seq >> 32), 0) & (w->ninstances - 1);
         w->instances[s].used; s = (s + 1) & (w->ninstances - 1))
        if (w->instances[s].comm == comm && w->instances[s].seq == seq)
            return &w->instances[s];
    in = &w->instances[s];
    *in = (struct instance){ .comm = comm, .size = size, .seq = seq, .used = 1 };
    in->enter = calloc(size, sizeof(double));
    in->leave = calloc(size, sizeof(double));
    in->proc = calloc(size, sizeof(int));
    in->nodes = calloc(size, sizeof(*in->nodes));
    in->nnodes = calloc(size, sizeof(uint32_t));
    if (!in->enter || !in->leave || !in->proc || !in->nodes || !in->nnodes)
        return NULL;
    w->icount++;
    return in;
}

static void forget(struct pz_waits *w, struct instance *in)
{
    free(in->enter);
    free(in->leave);
    free(in->proc);
    free(in->nodes);
    free(in->nnodes);
    in->used = 0;
    w->icount--;
    /* reinsert the entries that follow in the probe sequence */
    for (uint32_t s = (uint32_t)(in - w->instances + 1) & (w->ninstances - 1);
         w->instances[s].used; s = (s + 1) & (w->ninstances - 1)) {
        struct instance moved = w->instances[s];
        uint32_t t;

        w->instances[s].used = 0;
        for (t = hash4(moved.comm, (uint32_t)moved.seq, (uint32_t)(moved.seq >> 32), 0) &
                 (w->ninstances - 1);
             w->instances[t].used; t = (t + 1) & (w->ninstances - 1))
            ;
        w->instances[t] = moved;
    }
}

static void charge_member(struct reader *r, const struct instance *in, uint32_t i,
                          size_t field, double value)
{
    if (value > 0)
        pz_charge(r, in->proc[i], in->nodes[i], in->nnodes[i], field, value);
}

/* The waits of every member of a complete instance. */
static void complete(struct reader *r, const struct instance *in)
{
    double last_in = in->enter[0], first_out = in->leave[0], last_out = in->leave[0];
    double first_sender = 1e300;
    int root = in->root < in->size ? (int)in->root : -1;

    for (uint32_t i = 1; i < in->size; i++) {
        last_in = in->enter[i] > last_in ? in->enter[i] : last_in;
        first_out = in->leave[i] < first_out ? in->leave[i] : first_out;
        last_out = in->leave[i] > last_out ? in->leave[i] : last_out;
    }
    for (uint32_t i = 0; i < in->size; i++)
        if ((int)i != root && in->enter[i] < first_sender)
            first_sender = in->enter[i];
    for (uint32_t i = 0; i < in->size; i++) {
        double wait = last_in - in->enter[i], done = in->leave[i] - first_out;

        charge_member(r, in, i, offsetof(struct pz_stats, sync), wait);
        charge_member(r, in, i, offsetof(struct pz_stats, variation), last_out - in->leave[i]);
        if (in->op == OTF2_COLLECTIVE_OP_BARRIER) {
            charge_member(r, in, i, offsetof(struct pz_stats, wait_barrier), wait);
            charge_member(r, in, i, offsetof(struct pz_stats, barrier_completion), done);
        } else if (pz_collective_nxn(in->op)) {
            charge_member(r, in, i, offsetof(struct pz_stats, wait_nxn), wait);
            charge_member(r, in, i, offsetof(struct pz_stats, nxn_completion), done);
        } else if (pz_collective_n_to_1(in->op) && (int)i == root && in->size > 1) {
            charge_member(r, in, i, offsetof(struct pz_stats, early_reduce),
                          first_sender - in->enter[i]);
        } else if (pz_collective_1_to_n(in->op) && root >= 0 && (int)i != root) {
            charge_member(r, in, i, offsetof(struct pz_stats, late_broadcast),
                          in->enter[root] - in->enter[i]);
        }
    }
    r->a->collectives++;
}

void pz_waits_collective(struct reader *r, int proc, OTF2_CollectiveOp op, uint32_t comm,
                         uint32_t root, double enter, double leave)
{
    struct pz_waits *w = r->waits;
    const struct pz_comm_def *c = pz_defs_comm(&r->defs, comm);
    struct instance *in;
    uint32_t rank, size = c ? c->size : 0;
    int me = pz_reader_rank(r, proc);

    /* freeing a communicator is no collective operation of the report; making one is
     * when walk.c passes it on: a constructor's on its parent */
    if (!size || (pz_handle_op(op) && op != OTF2_COLLECTIVE_OP_CREATE_HANDLE))
        return;
    if ((rank = pz_comm_rank(c, me)) >= size)
        return;
    in = instance_of(w, comm, w->seq[(size_t)me * r->defs.ncomms + comm]++, size);
    if (!in)
        return;
    in->op = op;
    /* an intercommunicator's root is MPI_ROOT on one side, a rank of it on the other:
     * no Early Reduce or Late Broadcast there */
    in->root = c->local ? UINT32_MAX : root;
    in->enter[rank] = enter;
    in->leave[rank] = leave;
    in->proc[rank] = proc;
    in->nnodes[rank] = pz_open_nodes(r, proc, in->nodes[rank], MAX_NODES);
    if (++in->seen == size) {
        complete(r, in);
        forget(w, in);
    }
}

void pz_waits_finish(struct reader *r)
{
    struct pz_waits *w = r->waits;

    for (uint32_t i = 0; i < w->nqueues; i++)
        for (struct pz_msg *m = w->queues[i].used ? w->queues[i].head : NULL; m; m = m->next)
            if (m->receive_first)
                r->a->unmatched_receives++;
            else
                r->a->unmatched_sends++;
    r->a->incomplete_collectives += w->icount;
    pz_nbc_finish(r);
}

void pz_waits_free(struct reader *r)
{
    struct pz_waits *w = r->waits;

    if (!w)
        return;
    for (uint32_t i = 0; i < w->nqueues; i++) {
        struct pz_msg *m = w->queues[i].used ? w->queues[i].head : NULL;

        while (m) {
            struct pz_msg *next = m->next;

            release(m);
            m = next;
        }
    }
    for (uint32_t i = 0; i < w->ninstances; i++) {
        if (w->instances[i].used) {
            free(w->instances[i].enter);
            free(w->instances[i].leave);
            free(w->instances[i].proc);
            free(w->instances[i].nodes);
            free(w->instances[i].nnodes);
        }
    }
    pz_nbc_free(r->nbc);
    free(w->instances);
    free(w->queues);
    free(w->to_head);
    free(w->to_tail);
    free(w->seq);
    free(w);
    r->waits = NULL;
}
