/* Collectives in the communication model: each member's part is an agent that runs the
 * rounds of the algorithm (coll.h) as point-to-point messages in the collective context
 * of the communicator, in the background of the member. */
#include <stdlib.h>
#include <string.h>

#include "comsys_int.h"

struct agent {
    struct pz_coll c;
    double *counts;            /* the copies c's arrays point into */
    const struct pz_coll_algo *algo;
    int comm, tag, round;
    int outstanding;           /* messages of the round not complete; +1 while posting */
    double round_end;          /* latest completion of the round's messages */
    double reduce_bytes;       /* combined after the round */
    int request;               /* the member's collective request */
    int next_free;
};

int pz_comsys_comm(struct pz_comsys *cs, int size, const int *procs)
{
    struct comm *grown = realloc(cs->comms, (size_t)(cs->ncomms + 1) * sizeof(*grown));
    struct comm *c;

    if (!grown)
        return -1;
    cs->comms = grown;
    c = &cs->comms[cs->ncomms];
    c->size = size;
    c->procs = malloc((size_t)(size > 0 ? size : 1) * sizeof(int));
    c->seq = calloc((size_t)(size > 0 ? size : 1), sizeof(unsigned));
    if (!c->procs || !c->seq) {
        free(c->procs);
        free(c->seq);
        return -1;
    }
    memcpy(c->procs, procs, (size_t)size * sizeof(int));
    return cs->ncomms++;
}

void pz_comsys_force(struct pz_comsys *cs, const struct pz_coll_algo *algo)
{
    cs->forced[algo->op] = algo;
}

static int new_agent(struct pz_comsys *cs)
{
    int a = cs->free_agent;

    if (a >= 0) {
        cs->free_agent = cs->agents[a].next_free;
        return a;
    }
    if (cs->nagents == cs->capagents) {
        int cap = cs->capagents ? 2 * cs->capagents : 64;
        struct agent *grown = realloc(cs->agents, (size_t)cap * sizeof(*grown));

        if (!grown)
            return -1;
        cs->agents = grown;
        cs->capagents = cap;
    }
    return cs->nagents++;
}

static void free_agent(struct pz_comsys *cs, int a)
{
    free(cs->agents[a].counts);
    cs->agents[a].counts = NULL;
    cs->agents[a].next_free = cs->free_agent;
    cs->free_agent = a;
}

void pz_cs_agents_free(struct pz_comsys *cs)
{
    for (int a = 0; a < cs->nagents; a++)
        free(cs->agents[a].counts);
    free(cs->agents);
}

/* Copies the per-rank arrays of c into the agent. */
static int keep_counts(struct agent *ag, const struct pz_coll *c)
{
    size_t n = (size_t)c->size;
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
    int r, a;

    if (comm < 0 || comm >= cs->ncomms || at < cs->now || c->me < 0 ||
        c->me >= cs->comms[comm].size)
        return -1;
    algo = cs->forced[c->op] ? cs->forced[c->op] : pz_coll_choose(cs->machine->mpi, c);
    if (!algo || (r = pz_cs_new_request(cs)) < 0 || (a = new_agent(cs)) < 0)
        return -1;
    cm = &cs->comms[comm];
    if (keep_counts(&cs->agents[a], c) != 0) {
        cs->agents[a].next_free = cs->free_agent;
        cs->free_agent = a;
        return -1;
    }
    cs->agents[a].algo = algo;
    cs->agents[a].comm = comm;
    cs->agents[a].tag = (int)(cm->seq[c->me]++ & 0x7fffffff);
    cs->agents[a].round = 0;
    cs->agents[a].round_end = at;
    cs->agents[a].request = r;
    cs->req[r].kind = REQ_COLL;
    cs->req[r].owner = cm->procs[c->me];
    cs->req[r].posted = at;
    pz_cs_push(cs, at, EV_ROUND, a);
    return r;
}

/* The agent whose round is being emitted (post_message's user data). */
struct emitting {
    struct pz_comsys *cs;
    int agent;
};

/* One message of a round: posted now in the communicator's collective context. */
static void post_message(void *ud, int peer, int is_send, double bytes)
{
    const struct emitting *em = ud;
    struct pz_comsys *cs = em->cs;
    int a = em->agent;
    struct agent *ag = &cs->agents[a];
    const struct comm *cm = &cs->comms[ag->comm];
    int me = cm->procs[ag->c.me], other = cm->procs[peer];
    int r = pz_cs_new_request(cs);

    if (r < 0)
        return;
    cs->req[r].kind = is_send ? REQ_SEND : REQ_RECV;
    cs->req[r].owner = me;
    cs->req[r].agent = a;
    cs->req[r].released = 1;
    cs->req[r].bytes = bytes;
    cs->req[r].mode = PZ_SEND_STANDARD;
    cs->req[r].posted = cs->now;
    cs->req[r].key = (struct pz_match_key){ ag->comm | PZ_COLL_CONTEXT,
                                            is_send ? me : other, is_send ? other : me,
                                            ag->tag };
    ag->outstanding++;
    pz_cs_start(cs, r);
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

void pz_cs_agent_round(struct pz_comsys *cs, int a)
{
    struct emitting em = { cs, a };
    struct pz_coll_round out = { post_message, &em, 0 };
    struct agent *ag = &cs->agents[a];

    ag->outstanding = 1;
    ag->round_end = cs->now;
    if (!ag->algo->round(&ag->c, ag->round, &out)) {
        int r = ag->request;

        free_agent(cs, a);
        pz_cs_complete(cs, r, cs->now);
        return;
    }
    ag = &cs->agents[a];
    ag->reduce_bytes = out.reduce_bytes;
    pz_cs_agent_message_done(cs, a, cs->now);
}
