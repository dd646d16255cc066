/* Point-to-point protocols over the network model, and the event loop of the
 * communication model.  A request is a send, a receive or a member's part of a
 * collective; unmatched sends and receives wait in match queues (match.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comsys_int.h"
#include "cost.h"

struct pz_comsys *pz_comsys_new(const struct pz_machine *m, int nprocs)
{
    struct pz_comsys *cs = calloc(1, sizeof(*cs));

    if (!cs)
        return NULL;
    cs->machine = m;
    cs->nprocs = nprocs;
    cs->free_req = cs->free_agent = -1;
    cs->net = pz_network_new(m, pz_nodes_for(m, nprocs));
    cs->node = malloc((size_t)(nprocs > 0 ? nprocs : 1) * sizeof(int));
    cs->cpu_free = calloc((size_t)(nprocs > 0 ? nprocs : 1), sizeof(double));
    if (!cs->net || !cs->node || !cs->cpu_free || pz_match_init(&cs->match, nprocs) != 0 ||
        pz_cs_progress_init(cs) != 0 || pz_cs_resume_init(cs) != 0 ||
        pz_cs_duplex_init(cs) != 0 || pz_cs_turns_init(cs) != 0) {
        pz_comsys_free(cs);
        return NULL;
    }
    for (int p = 0; p < nprocs; p++)
        cs->node[p] = pz_node_of(m, p, nprocs);
    return cs;
}

void pz_comsys_free(struct pz_comsys *cs)
{
    if (!cs)
        return;
    pz_network_free(cs->net);
    free(cs->node);
    free(cs->cpu_free);
    pz_radix_release(&cs->events);
    free(cs->now_queue.items);
    pz_cs_rounds_free(cs);
    pz_match_release(&cs->match);
    free(cs->req);
    pz_cs_coll_free(cs);
    for (int c = 0; c < cs->ncomms; c++) {
        free(cs->comms[c].procs);
        free(cs->comms[c].seq);
    }
    free(cs->comms);
    pz_cs_progress_free(cs);
    pz_cs_resume_free(cs);
    pz_cs_duplex_free(cs);
    pz_cs_turns_free(cs);
    pz_cs_locks_free(cs);
    free(cs);
}

void pz_comsys_set_notify(struct pz_comsys *cs, pz_comsys_notify fn, void *ud)
{
    cs->notify = fn;
    cs->notify_ud = ud;
}

static void free_if_unused(struct pz_comsys *cs, int r)
{
    struct request *q = &cs->req[r];

    if (q->kind == REQ_FREE || q->done < 0 || !q->released || q->queued)
        return;
    if (q->partner >= 0 && cs->req[q->partner].partner == r)
        cs->req[q->partner].partner = -1;
    q->kind = REQ_FREE;
    q->next = cs->free_req;
    cs->free_req = r;
}

void pz_cs_complete(struct pz_comsys *cs, int r, double t)
{
    struct request *q = &cs->req[r];

    q->done = t;
    if (q->agent >= 0 && q->kind == REQ_RECV)
        pz_cs_agent_received(cs, q->agent, q->key.src, t);
    else if (q->agent >= 0)
        pz_cs_agent_message_done(cs, q->agent, t);
    else if (q->watched && cs->notify)
        cs->notify(cs->notify_ud, q->owner, r, t);
    if (cs->req[r].then)
        pz_cs_rma_then(cs, r, t);
    free_if_unused(cs, r);
}

double pz_cs_transfer(struct pz_comsys *cs, int from, int to, double bytes)
{
    if (from == to)
        return cs->now + pz_self_time(cs->machine, bytes);
    return pz_network_transfer(cs->net, cs->node[from], cs->node[to], bytes, cs->now);
}

double pz_cs_control(const struct pz_comsys *cs, int from, int to)
{
    if (from == to)
        return cs->now + pz_self_time(cs->machine, 0);
    return pz_network_control(cs->net, cs->node[from], cs->node[to], cs->now);
}

/* When an eager message's data, leaving now, arrives: a process's own work is there
 * at once, its time spent by its sender before it left (pz_cs_send_overhead). */
static double eager_arrival(struct pz_comsys *cs, int from, int to, double bytes)
{
    double arrival;

    if (pz_cs_self_work(cs, from, to))
        return cs->now;
    arrival = pz_cs_turns_arrives(cs, from, to, bytes, cs->now,
                                  pz_cs_transfer(cs, from, to, bytes));
    return pz_cs_duplex_arrives(cs, from, to, arrival);
}

int pz_cs_eager_size(const struct pz_comsys *cs, int from, int to, double bytes)
{
    /* self_segments are what a message to oneself costs, whatever the protocol: the
       handshake between processes (rendezvous_overhead) is not its */
    return bytes <= cs->machine->eager_threshold || pz_cs_self_work(cs, from, to);
}

static int eager(const struct pz_comsys *cs, const struct request *send)
{
    return send->mode == PZ_SEND_BUFFERED ||
           (send->mode == PZ_SEND_STANDARD &&
            pz_cs_eager_size(cs, send->key.src, send->key.dst, send->bytes));
}

/* The next event: those due now first, then the rest of a group of rounds being taken
 * (comsys_rounds.c), then the queue's; 0 if there is none. */
static int next_event(struct pz_comsys *cs, struct pz_heap_item *ev)
{
    struct due_now *q = &cs->now_queue;

    if (q->count) {
        *ev = q->items[q->head];
        ev->time = cs->now;
        q->head = (q->head + 1) & (q->cap - 1);
        q->count--;
        return 1;
    }
    if (pz_cs_rounds_take(cs, ev))
        return 1;
    if (!pz_radix_pop(&cs->events, ev))
        return 0;
    if (ev->kind == EV_ROUNDS)
        pz_cs_rounds_begin(cs, ev);
    return 1;
}

/* The bytes of rendezvous send s that travel with its request-to-send: the machine's
 * rendezvous_first_fragment, at most the message (Open MPI's ob1 sends a rendezvous
 * message's first fragment with its request over TCP); 0 under MPICH's protocol, and
 * between processes of one node (Open MPI's shared memory copies a large message
 * through a single copy the receiver makes, no fragment ahead). */
static double first_fragment(const struct pz_comsys *cs, const struct request *s)
{
    if (pz_cs_same_node(cs, s->key.src, s->key.dst))
        return 0;
    return fmin(cs->machine->rendezvous_first_fragment, s->bytes);
}

/* Rendezvous send r's request-to-send leaves now: it arrives after a control message's
 * time, or, with a first fragment, with those bytes, which travel as an eager message's
 * do (on the links, from now) and wait at the receiver until its receive is posted. */
static void request_to_send(struct pz_comsys *cs, int r)
{
    const struct request *q = &cs->req[r];
    double first = first_fragment(cs, q);

    pz_cs_push(cs,
               first > 0 ? eager_arrival(cs, q->key.src, q->key.dst, first)
                         : pz_cs_control(cs, q->key.src, q->key.dst),
               EV_RTS, r);
}

/* The receiver is ready for a rendezvous send: the clear-to-send goes now, and the data
 * leaves when it has arrived and the protocol's own handling (rendezvous_overhead) is
 * done.  A message whose first fragment held all of it is received now: the
 * clear-to-send only tells its sender that it matched. */
static void clear_to_send(struct pz_comsys *cs, int send)
{
    const struct request *s = &cs->req[send];

    if (first_fragment(cs, s) > 0 && !(s->bytes > first_fragment(cs, s)))
        pz_cs_complete(cs, s->partner, cs->now);
    s = &cs->req[send];
    pz_cs_push(cs,
               pz_cs_control(cs, s->key.dst, s->key.src) +
                   cs->machine->rendezvous_overhead,
               EV_CTS, send);
}

/* The clear-to-send has arrived: the data (what the first fragment did not carry) goes,
 * and both complete when it has arrived; with nothing left, the send completes now.
 * The whole message was on its way since both its send and its receive were posted;
 * what follows a first fragment, from now. */
static void send_data(struct pz_comsys *cs, int send)
{
    const struct request *s = &cs->req[send];
    int recv = s->partner;
    double first = first_fragment(cs, s), rest = s->bytes - first;
    double start = first > 0 ? cs->now : fmax(s->posted, cs->req[recv].posted);
    double arrival;

    if (first > 0 && !(rest > 0)) {
        pz_cs_complete(cs, send, cs->now);
        return;
    }
    arrival = pz_cs_turns_arrives(cs, s->key.src, s->key.dst, rest, start,
                                  pz_cs_transfer(cs, s->key.src, s->key.dst, rest));
    arrival = pz_cs_duplex_arrives(cs, s->key.src, s->key.dst, arrival);

    pz_cs_complete(cs, recv, arrival);
    pz_cs_complete(cs, send, arrival);
}

/* Takes step kind of rendezvous send: now if its process may (it is in an MPI call, or
 * the library progresses in the background), else at the process's next call. */
static void step(struct pz_comsys *cs, int proc, enum cs_event kind, int send)
{
    if (!pz_cs_progress_now(cs, proc, kind, send))
        return;
    if (kind == EV_CTS_GO)
        clear_to_send(cs, send);
    else
        send_data(cs, send);
}

static void matched(struct pz_comsys *cs, int send, int recv)
{
    cs->req[send].partner = recv;
    cs->req[recv].partner = send;
    cs->req[recv].bytes = cs->req[send].bytes;
    cs->req[recv].has_data = 1;
    if (eager(cs, &cs->req[send])) {
        double arrival = cs->req[send].arrival, posted = cs->req[recv].posted;

        pz_cs_complete(cs, recv, arrival > posted ? arrival : posted);
    } else if (cs->req[send].rts_arrived) {
        clear_to_send(cs, send);
    }
}

/* Matches item of key with the oldest partner waiting: 1 and the partner in *partner;
 * or keeps it waiting: 0; -1 if memory ran out. */
static int match(struct pz_comsys *cs, struct pz_match_key key, struct pz_match_item item,
                 struct pz_match_item *partner)
{
    int rc = pz_match_take_or_add(&cs->match, key, item, partner);

    if (rc < 0)
        cs->failed = 1;
    else
        cs->pending += rc ? -1 : 1;
    return rc;
}

/* Takes the oldest partner of r, or keeps r unmatched; the partner or -1. */
static int match_or_queue(struct pz_comsys *cs, int r)
{
    struct request *q = &cs->req[r];
    struct pz_match_item item = { r, q->kind == REQ_SEND, 0 }, partner;
    int rc = match(cs, q->key, item, &partner);

    if (rc > 0) {
        cs->req[partner.request].queued = 0;
        return partner.request;
    }
    q->queued = rc == 0;
    return -1;
}

void pz_cs_start(struct pz_comsys *cs, int r)
{
    struct request *q = &cs->req[r];
    int other;

    if (q->kind == REQ_RMA) {
        pz_cs_rma_start(cs, r);
        return;
    }
    if (q->kind == REQ_SEND) {
        cs->messages++;
        if (eager(cs, q))
            q->arrival = eager_arrival(cs, q->key.src, q->key.dst, q->bytes);
        else
            request_to_send(cs, r);
    }
    other = match_or_queue(cs, r);
    if (other >= 0) {
        if (cs->req[r].kind == REQ_SEND)
            matched(cs, r, other);
        else
            matched(cs, other, r);
        free_if_unused(cs, other);
    }
    /* an eager send is complete once its data has left */
    if (cs->req[r].kind == REQ_SEND && eager(cs, &cs->req[r]))
        pz_cs_complete(cs, r, cs->req[r].posted);
}

/* --- the messages of collectives' agents (comsys_coll.c)
 *
 * They follow the protocols above, but an eager message needs no request: its send
 * waits unmatched (in its receiver's box, pz_cs_coll_match) with the time its data
 * arrives, its receive with the agent and the time it was posted, and each completes
 * by telling its agent.  Only a
 * rendezvous message is a pair of requests, since its steps are events. */

/* A request of a rendezvous message of agent, posted at `at`; -1 if memory ran out. */
static int coll_request(struct pz_comsys *cs, enum req_kind kind, int agent,
                        const struct pz_match_key *key, double bytes, double at)
{
    int r = pz_cs_new_request(cs);
    struct request *q;

    if (r < 0)
        return -1;
    q = &cs->req[r];
    q->kind = (uint8_t)kind;
    q->owner = kind == REQ_SEND ? key->src : key->dst;
    q->agent = agent;
    q->released = 1;
    q->bytes = bytes;
    q->mode = PZ_SEND_STANDARD;
    q->posted = at;
    q->key = *key;
    return r;
}

/* A collective's send and receive just matched: the receive's item holds its agent and
 * post time, the send's its arrival time if eager, else its request. */
static void coll_matched(struct pz_comsys *cs, struct pz_match_key key,
                         struct pz_match_item send, struct pz_match_item recv)
{
    int r;

    if (send.request < 0) {
        pz_cs_agent_received(cs, recv.request, key.src,
                             send.value > recv.value ? send.value : recv.value);
    } else if ((r = coll_request(cs, REQ_RECV, recv.request, &key, 0, recv.value)) >= 0) {
        matched(cs, send.request, r);
    }
}

void pz_cs_coll_send(struct pz_comsys *cs, int agent, int to, struct pz_match_key key,
                     double bytes)
{
    struct pz_match_item item = { -1, 1, 0 }, partner;
    int is_eager = pz_cs_eager_size(cs, key.src, key.dst, bytes), rc;

    cs->messages++;
    if (is_eager) {
        item.value = eager_arrival(cs, key.src, key.dst, bytes);
    } else {
        if ((item.request = coll_request(cs, REQ_SEND, agent, &key, bytes, cs->now)) < 0)
            return;
        request_to_send(cs, item.request);
    }
    rc = pz_cs_coll_match(cs, to, key, item, &partner);
    if (rc > 0)
        coll_matched(cs, key, item, partner);
    else if (rc == 0 && !is_eager)
        cs->req[item.request].queued = 1;
    if (is_eager)   /* complete once its data has left */
        pz_cs_agent_message_done(cs, agent, cs->now);
}

void pz_cs_coll_send_at(struct pz_comsys *cs, int agent, int to, struct pz_match_key key,
                        double bytes, double t)
{
    int r;

    if (t <= cs->now) {
        pz_cs_coll_send(cs, agent, to, key, bytes);
    } else if ((r = coll_request(cs, REQ_SEND, agent, &key, bytes, t)) >= 0) {
        cs->req[r].released = 0;   /* freed by its event, not by completing */
        cs->req[r].to = to;
        pz_cs_push(cs, t, EV_COLL_SEND, r);
    }
}

/* A collective's send that waited for its sender's overhead: posted now. */
static void coll_send_due(struct pz_comsys *cs, int r)
{
    struct request q = cs->req[r];

    cs->req[r].kind = REQ_FREE;
    cs->req[r].next = cs->free_req;
    cs->free_req = r;
    pz_cs_coll_send(cs, q.agent, q.to, q.key, q.bytes);
}

void pz_cs_coll_recv(struct pz_comsys *cs, int agent, int to, struct pz_match_key key)
{
    struct pz_match_item item = { agent, 0, cs->now }, send;

    if (pz_cs_coll_match(cs, to, key, item, &send) <= 0)
        return;
    if (send.request >= 0)
        cs->req[send.request].queued = 0;
    coll_matched(cs, key, send, item);
}

int pz_cs_post(struct pz_comsys *cs, int r, double at)
{
    cs->req[r].posted = at;
    if (at <= pz_comsys_next(cs)) {
        cs->now = at;
        pz_cs_start(cs, r);
    } else {
        pz_cs_push(cs, at, EV_POST, r);
    }
    return r;
}

/* A new send or receive, or -1 if a process is out of range, `at` is in the simulation's
 * past or memory ran out. */
static int new_p2p(struct pz_comsys *cs, enum req_kind kind, int owner, int src, int dst,
                   int tag, int comm, double at)
{
    int r;

    if (src < 0 || src >= cs->nprocs || dst < 0 || dst >= cs->nprocs || at < cs->now ||
        (r = pz_cs_new_request(cs)) < 0)
        return -1;
    cs->req[r].kind = (uint8_t)kind;
    cs->req[r].owner = owner;
    cs->req[r].key = (struct pz_match_key){ comm, src, dst, tag };
    return r;
}

int pz_comsys_send(struct pz_comsys *cs, int src, int dst, int tag, int comm, double bytes,
                   enum pz_send_mode mode, double at)
{
    int r = new_p2p(cs, REQ_SEND, src, src, dst, tag, comm, at);
    double leaves;

    if (r < 0)
        return -1;
    cs->req[r].bytes = bytes;
    cs->req[r].mode = (uint8_t)mode;
    /* the message leaves once its sender has spent its overheads on it: an event then,
       so that the simulation's clock stays at `at` for the other processes' posts */
    leaves = pz_cs_send_occupy(cs, src, dst, at, bytes);
    if (leaves > at) {
        cs->req[r].posted = leaves;
        pz_cs_push(cs, leaves, EV_POST, r);
        return r;
    }
    return pz_cs_post(cs, r, at);
}

int pz_comsys_recv(struct pz_comsys *cs, int dst, int src, int tag, int comm, double at)
{
    int r = new_p2p(cs, REQ_RECV, dst, src, dst, tag, comm, at);

    if (r < 0)
        return -1;
    pz_cs_resume_occupy(cs, dst, src, at, 0);
    return pz_cs_post(cs, r, at);
}

void pz_comsys_cancel(struct pz_comsys *cs, int request)
{
    struct request *q = &cs->req[request];

    if (!q->queued || pz_match_remove(&cs->match, &q->key, request) != 0)
        return;
    q->queued = 0;
    cs->pending--;
    pz_cs_complete(cs, request, cs->now);
}

double pz_comsys_deliver(struct pz_comsys *cs, int request, double at)
{
    const struct request *q = &cs->req[request];
    double t = q->done > at ? q->done : at;

    if (q->kind != REQ_RECV || !q->has_data)
        return t;
    return pz_cs_occupy(cs, q->owner, t,
                        pz_cs_recv_overhead(cs, q->key.src, q->key.dst, q->bytes));
}

double pz_comsys_cpu_free(const struct pz_comsys *cs, int proc)
{
    return cs->cpu_free[proc];
}

double pz_comsys_done(const struct pz_comsys *cs, int request)
{
    return request >= 0 && request < cs->nreq ? cs->req[request].done : -1;
}

double pz_comsys_watch(struct pz_comsys *cs, int request)
{
    if (cs->req[request].done >= 0)
        return cs->req[request].done;
    cs->req[request].watched = 1;
    return -1;
}

void pz_comsys_release(struct pz_comsys *cs, int request)
{
    cs->req[request].released = 1;
    cs->req[request].watched = 0;
    free_if_unused(cs, request);
}

double pz_comsys_next(const struct pz_comsys *cs)
{
    return cs->now_queue.count || cs->groups.current ? cs->now : pz_radix_next(&cs->events);
}

void pz_comsys_step(struct pz_comsys *cs)
{
    struct pz_heap_item ev;
    int send;

    if (!next_event(cs, &ev))
        return;
    cs->now = ev.time;
    send = ev.id;
    switch ((enum cs_event)ev.kind) {
    case EV_POST:
        pz_cs_start(cs, ev.id);
        break;
    case EV_RTS:   /* at the receiver: its step, if its receive is posted */
        cs->req[send].rts_arrived = 1;
        if (cs->req[send].partner >= 0)
            step(cs, cs->req[send].key.dst, EV_CTS_GO, send);
        break;
    case EV_CTS:   /* at the sender: its step */
        step(cs, cs->req[send].key.src, EV_DATA_GO, send);
        break;
    case EV_CTS_GO:
        clear_to_send(cs, send);
        break;
    case EV_DATA_GO:
        send_data(cs, send);
        break;
    case EV_ROUND:
        pz_cs_agent_round(cs, ev.id);
        break;
    case EV_COLL_SEND:
        coll_send_due(cs, ev.id);
        break;
    case EV_RMA_REPLY:
        pz_cs_rma_reply(cs, ev.id);
        break;
    case EV_LOCK_ARRIVE:
        pz_cs_lock_arrived(cs, ev.id);
        break;
    case EV_LOCK_RELEASE:
        pz_cs_lock_released(cs, ev.id);
        break;
    }
}

double pz_comsys_wait(struct pz_comsys *cs, int n, const int *requests, double at)
{
    double latest = at;

    for (int i = 0; i < n; i++) {
        while (cs->req[requests[i]].done < 0) {
            if (pz_comsys_next(cs) == INFINITY)
                return -1;
            pz_comsys_step(cs);
        }
        if (cs->req[requests[i]].done > latest)
            latest = cs->req[requests[i]].done;
    }
    return latest;
}

double pz_comsys_now(const struct pz_comsys *cs)
{
    return cs->now;
}

int pz_comsys_pending(const struct pz_comsys *cs)
{
    return cs->pending;
}

unsigned long long pz_comsys_messages(const struct pz_comsys *cs)
{
    return cs->messages;
}

int pz_comsys_failed(const struct pz_comsys *cs)
{
    return cs->failed || cs->events.failed;
}
