/* Collectives in the communication model: each member's part is an agent that runs the
 * rounds of the algorithm (coll.h) as point-to-point messages in the collective context
 * of the communicator, in the background of the member.  An agent takes its rounds
 * from a schedule made once (coll_schedule.h) where the algorithm has one, else asks
 * the algorithm for each round; a member that posts the same instance as its last one
 * on the communicator reuses that one's schedule, and members whose schedules are equal
 * (their peers are relative to the member) share one.  The messages to a member that
 * wait unmatched are kept in its home agent's box rather than in the model's match
 * table (pz_cs_coll_match). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "coll_schedule.h"
#include "comsys_int.h"
#include "cost.h"

/* A message of a collective waiting unmatched at its receiver (pz_cs_coll_match): from
 * which process, the instance's tag, and the match table's item. */
struct box_item {
    int src, tag;
    struct pz_match_item item;
};

/* Items a member's box holds in its agent before it needs an array of its own: one in
 * the agent's second cache line, two in its third.  A round of recursive doubling
 * leaves at most one message waiting for a member on time; one late by a few rounds
 * finds the messages of its next rounds' partners waiting. */
#define BOX_INLINE 3

/* An agent is two cache lines of what a round reads and writes (aligned on them), then
 * what its part's start, a walked round and the receive overheads read; the message
 * that completes a member's round finds the member's box and its agent in the same
 * two lines. */
struct agent {
    /* the round */
    _Alignas(64) double round_end;   /* latest completion of the round's messages */
    double reduce_bytes;       /* combined after the round */
    const union pz_coll_step *step, *end;   /* with sched: the head of the next round,
                                               and the end of its steps */
    struct pz_coll_schedule *sched;   /* NULL: round by round from algo */
    const struct pz_coll_algo *algo;
    int comm, tag, round;
    int outstanding;           /* messages of the round not complete; +1 while posting */
    /* the member */
    int request;               /* the member's collective request */
    int here, own, other;      /* the member's place in its communicator's procs, and
                                  where its group and the other begin there */
    int size;                  /* its group's size (c.size) */
    uint8_t copied;            /* the round's local copy is done: post its messages */
    uint8_t home, busy;        /* the home agent of its member (never on the free list),
                                  and whether it runs a part now */
    /* the messages to its member (as home agent) not matched yet, oldest first: in
       inline_box while at most BOX_INLINE, else in more */
    uint32_t nbox, capbox;
    struct box_item *more;
    struct box_item inline_box[BOX_INLINE];
    /* the part */
    struct pz_coll c;
    double *counts;            /* the copies c's arrays point into */
    int next_free;
    /* with receive overheads, the round's receives not arrived yet: from which process,
     * and the receiver's overhead of each */
    struct awaited *awaited;
    int nawaited, capawaited;
};

struct awaited {
    int src;
    double overhead;
};

_Static_assert(offsetof(struct agent, inline_box[1]) <= 128,
               "a round's fields and the box's first item fill two cache lines");

/* Whether cs's machine makes a collective's eager message between two processes no
 * more than its transfer: no CPU time charged to its sender or receiver, between nodes
 * or on one (a send's overhead of 0 lets the message leave when it is posted, send_tail
 * taking nothing from it), and none of the states that the resume overhead, the duplex
 * overhead and the duplex factors keep per process.  Progress in calls holds only a
 * rendezvous' steps, a copy and a reduction only the round around the messages. */
static int plain_machine(const struct pz_comsys *cs)
{
    const struct pz_machine *m = cs->machine;
    const struct pz_overhead *o[2] = { &m->overhead, &m->shm_overhead };

    for (int i = 0; i < 2; i++)
        if (o[i]->send != 0 || o[i]->send_per_byte != 0 || o[i]->recv != 0 ||
            o[i]->recv_per_byte != 0)
            return 0;
    return !cs->resume && !cs->sending && !cs->turns && !(m->send_tail < 0);
}

/* A communicator of size processes, the first low_size of them an intercommunicator's
 * low group (0: an intracommunicator). */
static int add_comm(struct pz_comsys *cs, int size, const int *procs, int low_size)
{
    struct comm *grown = realloc(cs->comms, (size_t)(cs->ncomms + 1) * sizeof(*grown));
    struct comm *c;

    if (!grown)
        return -1;
    cs->comms = grown;
    c = &cs->comms[cs->ncomms];
    c->size = size;
    c->low_size = low_size;
    c->procs = malloc((size_t)(size > 0 ? size : 1) * sizeof(int));
    c->seq = calloc((size_t)(size > 0 ? size : 1), sizeof(unsigned));
    c->cache = NULL;
    c->home = NULL;
    c->plain = plain_machine(cs);
    memset(c->shared, 0, sizeof(c->shared));
    if (!c->procs || !c->seq) {
        free(c->procs);
        free(c->seq);
        return -1;
    }
    memcpy(c->procs, procs, (size_t)size * sizeof(int));
    return cs->ncomms++;
}

int pz_comsys_comm(struct pz_comsys *cs, int size, const int *procs)
{
    return add_comm(cs, size, procs, 0);
}

int pz_comsys_intercomm(struct pz_comsys *cs, int low_size, const int *low_procs,
                        int high_size, const int *high_procs)
{
    int *all = malloc((size_t)(low_size + high_size > 0 ? low_size + high_size : 1) *
                      sizeof(int));
    int id;

    if (!all || low_size <= 0 || high_size <= 0) {
        free(all);
        return -1;
    }
    memcpy(all, low_procs, (size_t)low_size * sizeof(int));
    memcpy(all + low_size, high_procs, (size_t)high_size * sizeof(int));
    id = add_comm(cs, low_size + high_size, all, low_size);
    free(all);
    return id;
}

/* Where member c->me's group begins in cm's procs, and the other group (of an
 * intercommunicator). */
static int own_group(const struct comm *cm, const struct pz_coll *c)
{
    return cm->low_size && !c->low ? cm->low_size : 0;
}

static int other_group(const struct comm *cm, const struct pz_coll *c)
{
    return cm->low_size && c->low ? cm->low_size : 0;
}

/* Member c->me's place in cm (its process is cm->procs of it). */
static int member(const struct comm *cm, const struct pz_coll *c)
{
    return own_group(cm, c) + c->me;
}

/* Whether c describes a member of cm: an intracommunicator's, or one of an
 * intercommunicator's groups with their sizes. */
static int is_member(const struct comm *cm, const struct pz_coll *c)
{
    int own = cm->size, other = 0;

    if (cm->low_size) {
        own = c->low ? cm->low_size : cm->size - cm->low_size;
        other = cm->size - own;
        if (c->size != own)
            return 0;
    }
    return c->remote_size == other && c->me >= 0 && c->me < own;
}

void pz_comsys_force(struct pz_comsys *cs, const struct pz_coll_algo *algo)
{
    cs->forced[algo->op] = algo;
}

/* A new agent, not a home one and not busy, with an empty box; -1 if memory ran out.
 * Pointers into cs->agents are invalid after it. */
static int new_agent(struct pz_comsys *cs)
{
    struct agent *ag;
    int a = cs->free_agent;

    if (a >= 0) {
        cs->free_agent = cs->agents[a].next_free;
        return a;
    }
    if (cs->nagents == cs->capagents) {
        int cap = cs->capagents ? 2 * cs->capagents : 64;
        struct agent *grown =
            aligned_alloc(_Alignof(struct agent), (size_t)cap * sizeof(*grown));

        if (!grown)
            return -1;
        if (cs->nagents)
            memcpy(grown, cs->agents, (size_t)cs->nagents * sizeof(*grown));
        free(cs->agents);
        cs->agents = grown;
        cs->capagents = cap;
    }
    ag = &cs->agents[cs->nagents];
    ag->sched = NULL;
    ag->counts = NULL;
    ag->awaited = NULL;
    ag->nawaited = ag->capawaited = 0;
    ag->home = ag->busy = 0;
    ag->nbox = 0;
    ag->capbox = BOX_INLINE;
    ag->more = NULL;
    return cs->nagents++;
}

/* The home agent of the member at place `to` of communicator comm: made (idle) at the
 * first message or part of that member; -1 if memory ran out.  A member's parts run in
 * its home agent whenever it is idle, and the messages to the member wait in its box
 * whatever part they are for, so that the message that completes a round finds the
 * agent it completes where it looked for its receive. */
static int home_agent(struct pz_comsys *cs, int comm, int to)
{
    struct comm *cm = &cs->comms[comm];
    int a;

    if (!cm->home) {
        if (!(cm->home = malloc((size_t)cm->size * sizeof(int))))
            return -1;
        for (int i = 0; i < cm->size; i++)
            cm->home[i] = -1;
    }
    if (cm->home[to] >= 0)
        return cm->home[to];
    if ((a = new_agent(cs)) < 0)
        return -1;
    cs->agents[a].home = 1;
    cs->comms[comm].home[to] = a;
    return a;
}

/* An agent for a new part of the member at place `at` of comm: its home agent if idle,
 * else one of the free list; -1 if memory ran out. */
static int part_agent(struct pz_comsys *cs, int comm, int at)
{
    int a = home_agent(cs, comm, at);

    if (a >= 0 && cs->agents[a].busy)
        a = new_agent(cs);
    if (a >= 0)
        cs->agents[a].busy = 1;
    return a;
}

static void free_agent(struct pz_comsys *cs, int a)
{
    free(cs->agents[a].counts);
    cs->agents[a].counts = NULL;
    pz_coll_schedule_release(cs->agents[a].sched);
    cs->agents[a].sched = NULL;
    cs->agents[a].nawaited = 0;
    cs->agents[a].busy = 0;
    if (cs->agents[a].home)
        return;   /* its box stays its member's */
    cs->agents[a].next_free = cs->free_agent;
    cs->free_agent = a;
}

/* Appends it to agent ag's box; 0, or -1 if memory ran out. */
static int box_append(struct agent *ag, const struct box_item *it)
{
    if (ag->nbox == ag->capbox) {
        uint32_t cap = 2 * ag->capbox;
        struct box_item *grown = ag->capbox > BOX_INLINE
                                     ? realloc(ag->more, cap * sizeof(*grown))
                                     : malloc(cap * sizeof(*grown));

        if (!grown)
            return -1;
        if (ag->capbox == BOX_INLINE)
            memcpy(grown, ag->inline_box, sizeof(ag->inline_box));
        ag->more = grown;
        ag->capbox = cap;
    }
    (ag->capbox > BOX_INLINE ? ag->more : ag->inline_box)[ag->nbox++] = *it;
    return 0;
}

int pz_cs_coll_match(struct pz_comsys *cs, int to, struct pz_match_key key,
                     struct pz_match_item item, struct pz_match_item *partner)
{
    const struct comm *cm = &cs->comms[key.comm & ~PZ_COLL_CONTEXT];
    /* the member has its home agent after its first message: no call to look it up */
    int h = cm->home && cm->home[to] >= 0 ? cm->home[to]
                                          : home_agent(cs, key.comm & ~PZ_COLL_CONTEXT, to);
    struct agent *ag;
    struct box_item *box;

    if (h < 0) {
        cs->failed = 1;
        return -1;
    }
    ag = &cs->agents[h];
    box = ag->capbox > BOX_INLINE ? ag->more : ag->inline_box;
    for (uint32_t i = 0; i < ag->nbox; i++) {
        if (box[i].src != key.src || box[i].tag != key.tag)
            continue;
        if (box[i].item.is_send == item.is_send)
            break;                          /* wait behind the older ones of its kind */
        *partner = box[i].item;
        if (i + 1 < ag->nbox)   /* most often the last: no call for nothing to move */
            memmove(&box[i], &box[i + 1], (ag->nbox - i - 1) * sizeof(*box));
        ag->nbox--;
        cs->pending--;
        return 1;
    }
    if (box_append(ag, &(struct box_item){ key.src, key.tag, item }) != 0) {
        cs->failed = 1;
        return -1;
    }
    cs->pending++;
    return 0;
}

/* A member's last collective on a communicator without per-rank counts, and its
 * schedule (NULL if it has none). */
struct coll_cache {
    const struct pz_coll_algo *algo;
    struct pz_coll c;
    struct pz_coll_schedule *sched;
};

static void free_cache(struct comm *cm)
{
    free(cm->home);
    for (int i = 0; cm->cache && i < cm->size; i++)
        pz_coll_schedule_release(cm->cache[i].sched);
    free(cm->cache);
    for (int i = 0; i < COMM_SHARED; i++)
        pz_coll_schedule_release(cm->shared[i]);
}

/* The schedule equal to s among those cm shares (s is released then), else s, shared
 * from now on in place of the one shared longest; NULL stays NULL. */
static struct pz_coll_schedule *share(struct comm *cm, struct pz_coll_schedule *s)
{
    int i = 0;

    if (!s)
        return NULL;
    while (i < COMM_SHARED && cm->shared[i] && !pz_coll_schedule_same(cm->shared[i], s))
        i++;
    if (i < COMM_SHARED && cm->shared[i]) {
        pz_coll_schedule_release(s);
        s = cm->shared[i];
        s->users++;
    } else {
        i = COMM_SHARED - 1;
        pz_coll_schedule_release(cm->shared[i]);
        s->users++;   /* the communicator's */
    }
    memmove(&cm->shared[1], &cm->shared[0], (size_t)i * sizeof(cm->shared[0]));
    cm->shared[0] = s;
    return s;
}

void pz_cs_coll_free(struct pz_comsys *cs)
{
    for (int a = 0; a < cs->nagents; a++) {
        free(cs->agents[a].counts);
        free(cs->agents[a].awaited);
        if (cs->agents[a].capbox > BOX_INLINE)
            free(cs->agents[a].more);
        pz_coll_schedule_release(cs->agents[a].sched);
    }
    free(cs->agents);
    for (int c = 0; c < cs->ncomms; c++)
        free_cache(&cs->comms[c]);
}

/* Whether algo gives instance c the rounds it gave the instance in k (the same member
 * of the same communicator): the same algorithm, operation, root and bytes, to the
 * bit, and no per-rank counts in either. */
static int same_instance(const struct coll_cache *k, const struct pz_coll_algo *algo,
                         const struct pz_coll *c)
{
    return k->algo == algo && k->c.op == c->op && k->c.root == c->root &&
           memcmp(&k->c.bytes, &c->bytes, sizeof(c->bytes)) == 0;
}

/* The schedule of member c->me's part of c on cm by algo, with one more user, or NULL. */
static struct pz_coll_schedule *schedule_of(struct comm *cm, const struct pz_coll_algo *algo,
                                            const struct pz_coll *c)
{
    struct coll_cache *k;

    if (c->remote_size > 0)
        return NULL;   /* intercommunicator algorithms have no schedule (coll.h) */
    if (c->send_counts || c->recv_counts ||
        (!cm->cache && !(cm->cache = calloc((size_t)cm->size, sizeof(*cm->cache)))))
        return pz_coll_schedule_new(algo, c);
    k = &cm->cache[c->me];
    if (!same_instance(k, algo, c)) {
        pz_coll_schedule_release(k->sched);
        k->algo = algo;
        k->c = *c;
        k->sched = share(cm, pz_coll_schedule_new(algo, c));
    }
    if (k->sched)
        k->sched->users++;
    return k->sched;
}

/* Copies the per-rank arrays of c into the agent (per rank of the remote group on an
 * intercommunicator). */
static int keep_counts(struct agent *ag, const struct pz_coll *c)
{
    size_t n = (size_t)(c->remote_size > 0 ? c->remote_size : c->size);
    int nsend = c->send_counts != NULL, nrecv = c->recv_counts != NULL;

    ag->c = *c;
    ag->counts = NULL;
    if (!nsend && !nrecv)
        return 0;
    if (!(ag->counts = malloc((size_t)(nsend + nrecv) * n * sizeof(double))))
        return -1;
    if (nsend) {
        memcpy(ag->counts, c->send_counts, n * sizeof(double));
        ag->c.send_counts = ag->counts;
    }
    if (nrecv) {
        memcpy(ag->counts + (nsend ? n : 0), c->recv_counts, n * sizeof(double));
        ag->c.recv_counts = ag->counts + (nsend ? n : 0);
    }
    return 0;
}

int pz_comsys_collective(struct pz_comsys *cs, int comm, const struct pz_coll *c, double at)
{
    const struct pz_coll_algo *algo;
    struct comm *cm;
    double begin;
    int r, a;

    if (comm < 0 || comm >= cs->ncomms || at < cs->now || !is_member(&cs->comms[comm], c) ||
        (unsigned)c->op >= PZ_COLL_NOPS)
        return -1;
    /* a forced algorithm is one of intracommunicators (pz_coll_named) */
    algo = cs->forced[c->op] && !c->remote_size ? cs->forced[c->op]
                                                : pz_coll_choose(cs->machine->mpi, c);
    cm = &cs->comms[comm];
    if (!algo || (r = pz_cs_new_request(cs)) < 0 ||
        (a = part_agent(cs, comm, member(cm, c))) < 0)
        return -1;
    if (keep_counts(&cs->agents[a], c) != 0) {
        free_agent(cs, a);
        return -1;
    }
    cs->agents[a].algo = algo;
    if ((cs->agents[a].sched = schedule_of(cm, algo, c))) {
        cs->agents[a].step = cs->agents[a].sched->steps;
        cs->agents[a].end = cs->agents[a].step + cs->agents[a].sched->nsteps;
    }
    cs->agents[a].comm = comm;
    cs->agents[a].here = member(cm, c);
    cs->agents[a].own = own_group(cm, c);
    cs->agents[a].other = other_group(cm, c);
    cs->agents[a].size = c->size;
    cs->agents[a].tag = (int)(cm->seq[member(cm, c)]++ & 0x7fffffff);
    cs->agents[a].round = 0;
    cs->agents[a].copied = 0;
    cs->agents[a].request = r;
    cs->req[r].kind = REQ_COLL;
    cs->req[r].owner = cm->procs[member(cm, c)];
    cs->req[r].posted = at;
    /* the call's own work (docs/machines.md, collective_overhead) takes its process's
       CPU first: its first round begins after it */
    begin = pz_cs_occupy(cs, cs->req[r].owner, at, cs->machine->collective_overhead);
    pz_cs_push(cs, begin, EV_ROUND, a);
    return r;
}

/* Whether the machine charges receivers a CPU time: agents then keep the overhead of
 * each message they await. */
static int charges_receivers(const struct pz_machine *m)
{
    return m->overhead.recv > 0 || m->overhead.recv_per_byte > 0 || m->shm_overhead.recv > 0 ||
           m->shm_overhead.recv_per_byte > 0;
}

/* Agent a's round receives a message from process src, whose receiver's overhead is
 * overhead. */
static void await(struct pz_comsys *cs, int a, int src, double overhead)
{
    struct agent *ag = &cs->agents[a];

    if (ag->nawaited == ag->capawaited) {
        int cap = ag->capawaited ? 2 * ag->capawaited : 8;
        struct awaited *grown = realloc(ag->awaited, (size_t)cap * sizeof(*grown));

        if (!grown) {
            cs->failed = 1;
            return;
        }
        ag->awaited = grown;
        ag->capawaited = cap;
    }
    ag->awaited[ag->nawaited++] = (struct awaited){ src, overhead };
}

/* The receiver's overhead of agent a's first awaited message from src, forgotten; 0 if
 * none is awaited. */
static double awaited_overhead(struct agent *ag, int src)
{
    for (int i = 0; i < ag->nawaited; i++) {
        if (ag->awaited[i].src == src) {
            double o = ag->awaited[i].overhead;

            memmove(&ag->awaited[i], &ag->awaited[i + 1],
                    (size_t)(ag->nawaited - i - 1) * sizeof(ag->awaited[0]));
            ag->nawaited--;
            return o;
        }
    }
    return 0;
}

/* A message of agent a's round between two processes on a plain machine (struct
 * comm's plain), posted now: 1 if it is one it takes, an eager send or a receive, 0 if
 * not (a rendezvous).  It takes the steps of post_message and of the protocols below
 * it that change something there, in their order:
 * - a send: its overheads are 0, so it leaves now (pz_cs_send_occupy) and goes
 *   (pz_cs_coll_send): counted, its data arriving when pz_cs_transfer says (eager
 *   arrival: no duplex factors, no duplex overhead's state), and matched in its
 *   receiver's box; a receive waiting there is done at the later of the arrival and its
 *   post (the receiver pays nothing).  The send itself is done now, before its round
 *   can be (the round's own count holds it open while its messages are posted), so it
 *   changes nothing of its agent: neither is touched.
 * - a receive: posted (pz_cs_coll_recv) with nothing to pay or to remember first (no
 *   resume overhead, no receiver's overhead). */
static int plain_message(struct pz_comsys *cs, int a, int is_send, double bytes,
                         int there, struct pz_match_key key)
{
    struct pz_match_item item, recv;

    if (!is_send) {
        cs->agents[a].outstanding++;
        pz_cs_coll_recv(cs, a, cs->agents[a].here, key);
        return 1;
    }
    if (!(bytes <= cs->machine->eager_threshold))
        return 0;
    cs->messages++;
    item = (struct pz_match_item){ -1, 1, pz_cs_transfer(cs, key.src, key.dst, bytes) };
    if (pz_cs_coll_match(cs, there, key, item, &recv) > 0)
        pz_cs_agent_message_done(cs, recv.request,
                                 item.value > recv.value ? item.value : recv.value);
    return 1;
}

/* One message of agent a's round: posted now in the communicator's collective
 * context. */
static void post_message(struct pz_comsys *cs, int a, int peer, int is_send, double bytes)
{
    struct agent *ag = &cs->agents[a];
    const struct comm *cm = &cs->comms[ag->comm];
    /* peer's place (coll.h: on an intercommunicator, c.size + r is the remote group's
       rank r) */
    int here = ag->here, there = peer < ag->size ? ag->own + peer : ag->other + peer - ag->size;
    int me = cm->procs[here], other = cm->procs[there];
    struct pz_match_key key = { ag->comm | PZ_COLL_CONTEXT, is_send ? me : other,
                                is_send ? other : me, ag->tag };

    /* a message to oneself is its process's own work, or no transfer: not plain */
    if (cm->plain && me != other && plain_message(cs, a, is_send, bytes, there, key))
        return;
    ag->outstanding++;
    if (is_send) {
        pz_cs_coll_send_at(cs, a, there, key, bytes,
                           pz_cs_send_occupy(cs, me, other, cs->now, bytes));
    } else {
        pz_cs_resume_occupy(cs, me, other, cs->now, 0);
        if (charges_receivers(cs->machine))
            await(cs, a, other, pz_cs_recv_overhead(cs, other, me, bytes));
        pz_cs_coll_recv(cs, a, here, key);
    }
}

/* The agent whose round an algorithm emits (emit's user data). */
struct emitting {
    struct pz_comsys *cs;
    int agent;
};

static void emit(void *ud, int peer, int is_send, double bytes)
{
    const struct emitting *em = ud;

    post_message(em->cs, em->agent, peer, is_send, bytes);
}

/* Posts agent a's round from its algorithm; 0 if its part is complete. */
static int walked_round(struct pz_comsys *cs, int a)
{
    struct emitting em = { cs, a };
    struct pz_coll_round out = { emit, &em, 0, NULL };
    /* a copy: a message may make its receiver's home agent, and move the agents */
    struct pz_coll c = cs->agents[a].c;

    if (!cs->agents[a].algo->round(&c, cs->agents[a].round, &out))
        return 0;
    cs->agents[a].reduce_bytes = out.reduce_bytes;
    return 1;
}

/* Posts agent a's round from its schedule; 0 if its part is complete. */
static int scheduled_round(struct pz_comsys *cs, int a)
{
    const union pz_coll_step *head = cs->agents[a].step, *msg;
    int me = cs->agents[a].here - cs->agents[a].own;   /* c.me */

    if (head == cs->agents[a].end)
        return 0;
    msg = head + 1;
    cs->agents[a].step = msg + head->head.nmsgs;
    for (; msg < cs->agents[a].step; msg++)
        post_message(cs, a, msg->msg.peer ^ me, msg->msg.is_send, msg->msg.bytes);
    cs->agents[a].reduce_bytes = head->head.reduce_bytes;
    return 1;
}

static void round_finished(struct pz_comsys *cs, int a)
{
    struct agent *ag = &cs->agents[a];
    double end = ag->round_end + ag->reduce_bytes * cs->machine->reduce_byte_time;

    ag->round++;
    ag->round_end = end;
    pz_cs_push(cs, end, EV_ROUND, a);
}

void pz_cs_agent_message_done(struct pz_comsys *cs, int a, double t)
{
    struct agent *ag = &cs->agents[a];

    if (t > ag->round_end)
        ag->round_end = t;
    if (--ag->outstanding == 0)
        round_finished(cs, a);
}

void pz_cs_agent_received(struct pz_comsys *cs, int a, int src, double t)
{
    struct agent *ag = &cs->agents[a];

    if (charges_receivers(cs->machine))
        t = pz_cs_occupy(cs, cs->comms[ag->comm].procs[ag->here],
                         t, awaited_overhead(ag, src));
    pz_cs_agent_message_done(cs, a, t);
}

static void ignore_message(void *ud, int peer, int is_send, double bytes)
{
    (void)ud, (void)peer, (void)is_send, (void)bytes;
}

static void add_copy(void *ud, double bytes)
{
    *(double *)ud += bytes;
}

/* The CPU time of the local copy that agent a's round begins with: 0 on a machine
 * without copy_segments, and for an algorithm that never copies (nor has one from a
 * schedule a copy: an algorithm that copies has none, coll_algos.h), whose round is
 * then walked once, not twice. */
static double round_copy_time(const struct pz_comsys *cs, const struct agent *ag)
{
    double bytes = 0;
    struct pz_coll_round out = { ignore_message, &bytes, 0, add_copy };

    if (!ag->algo->copies || ag->sched || cs->machine->copy_segments.n == 0)
        return 0;
    ag->algo->round(&ag->c, ag->round, &out);
    return pz_copy_time(cs->machine, bytes);
}

/* Whether agent a's round begins with a local copy not done yet: then its member's
 * CPU copies from now (after the overheads it took on before), and the round is taken
 * up again once it is done, its messages (sends and receives, as MPI posts them after
 * the copy) posted then. */
static int copy_first(struct pz_comsys *cs, int a)
{
    struct agent *ag = &cs->agents[a];
    const struct comm *cm = &cs->comms[ag->comm];
    double o;

    if (ag->copied) {
        ag->copied = 0;
        return 0;
    }
    o = round_copy_time(cs, ag);
    if (!(o > 0))
        return 0;
    ag->copied = 1;
    pz_cs_push(cs, pz_cs_occupy(cs, cm->procs[ag->here], cs->now, o), EV_ROUND, a);
    return 1;
}

/* The agent of the event `ahead` (0 or more) after the one being handled, if it is a
 * round and the model knows it without a search: the events due now, the group of
 * rounds being taken, then the queue's earliest (ahead 0 there) or the one after it as
 * pz_radix_peek_second knows it (ahead 1 there: if that is a group of rounds, its
 * agents' array is asked for instead, its first agent read a turn later); -1 if not.  A
 * hint for prefetching: events pushed meanwhile may come first. */
static int round_ahead(const struct pz_comsys *cs, int ahead)
{
    const struct due_now *q = &cs->now_queue;
    const struct round_groups *gs = &cs->groups;
    struct pz_heap_item ev;

    if ((uint32_t)ahead < q->count) {
        ev = q->items[(q->head + (uint32_t)ahead) & (q->cap - 1)];
        return ev.kind == EV_ROUND ? ev.id : -1;
    }
    ahead -= (int)q->count;
    if (gs->current) {
        const struct round_group *g = &gs->all[gs->current - 1];

        if (ahead < g->n - g->next)
            return g->agents[g->next + ahead];
        ahead -= g->n - g->next;
    }
    if (!(ahead == 0 ? pz_radix_peek(&cs->events, &ev)
                     : ahead == 1 && pz_radix_peek_second(&cs->events, &ev)))
        return -1;
    if (ev.kind == EV_ROUNDS && ahead == 1)
        __builtin_prefetch(gs->all[ev.id].agents);
    if (ev.kind == EV_ROUNDS)
        return ahead == 0 ? gs->all[ev.id].agents[0] : -1;
    return ev.kind == EV_ROUND ? ev.id : -1;
}

/* The home agent of the receiver of the first message of agent a's next round, if its
 * schedule tells it; -1 if not. */
static int next_receiver(const struct pz_comsys *cs, int a)
{
    const struct agent *ag = &cs->agents[a];
    const struct comm *cm = &cs->comms[ag->comm];
    int peer, there;

    if (!ag->sched || ag->step == ag->end || ag->step->head.nmsgs == 0 || !cm->home)
        return -1;
    peer = ag->step[1].msg.peer ^ (ag->here - ag->own);
    there = peer < ag->size ? ag->own + peer : ag->other + peer - ag->size;
    return there >= 0 && there < cm->size ? cm->home[there] : -1;
}

/* An agent's round and its box's first item (two cache lines). */
static void prefetch_agent(const struct pz_comsys *cs, int a)
{
    __builtin_prefetch(&cs->agents[a]);
    __builtin_prefetch((const char *)&cs->agents[a] + 64);
}

/* Asks the processor for what the next rounds will touch first while this one runs:
 * at thousands of processes the members' agents and boxes have left the caches since
 * their last round, and a round stalls on them (its agent's first load, its partner's
 * box).  In steps, so that the misses of several rounds overlap: the agents of the two
 * rounds due after the next; the box of the receiver of the next round's first message,
 * found from its agent (asked for one or two rounds before). */
static void prefetch_rounds(const struct pz_comsys *cs)
{
    int next = round_ahead(cs, 0), to;

    for (int ahead = 1; ahead <= 2; ahead++)
        if ((to = round_ahead(cs, ahead)) >= 0)
            prefetch_agent(cs, to);
    if (next >= 0 && (to = next_receiver(cs, next)) >= 0)
        prefetch_agent(cs, to);
}

void pz_cs_agent_round(struct pz_comsys *cs, int a)
{
    struct agent *ag = &cs->agents[a];
    int more;

    prefetch_rounds(cs);
    if (copy_first(cs, a))
        return;
    ag->outstanding = 1;   /* until every message of the round is posted */
    ag->round_end = cs->now;
    more = ag->sched ? scheduled_round(cs, a) : walked_round(cs, a);
    if (!more) {
        int r = cs->agents[a].request;

        free_agent(cs, a);
        pz_cs_complete(cs, r, cs->now);
        return;
    }
    pz_cs_agent_message_done(cs, a, cs->now);
}
