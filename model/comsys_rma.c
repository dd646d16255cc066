/* One-sided transfers and the signals of generalized active target synchronization
 * (comsys.h): requests of a kind of their own, REQ_RMA, which no receive of the program
 * matches; the key holds the origin (src) and the target (dst), the mode the kind.  A
 * signal's wait matches the signal in the match table, under a context of negative
 * numbers that no communicator uses (theirs are >= 0). */
#include "comsys_int.h"

/* The modes of REQ_RMA requests after enum pz_rma_kind's. */
enum { RMA_SIGNAL = PZ_RMA_GET + 1, RMA_SIGNAL_WAIT };

#define MAX_CHANNEL 0x3fffffff

static struct pz_match_key signal_key(int channel, int from, int to)
{
    return (struct pz_match_key){ (int)(0x80000000u | (unsigned)channel), from, to, 0 };
}

/* A new request of the origin's, not posted yet; -1 as pz_comsys_rma says. */
static int new_rma(struct pz_comsys *cs, int mode, int origin, int target, double bytes,
                   double at)
{
    int r;

    if (origin < 0 || origin >= cs->nprocs || target < 0 || target >= cs->nprocs ||
        at < cs->now || (r = pz_cs_new_request(cs)) < 0)
        return -1;
    cs->req[r].kind = REQ_RMA;
    cs->req[r].mode = (uint8_t)mode;
    cs->req[r].owner = origin;
    cs->req[r].bytes = bytes;
    cs->req[r].posted = at;
    cs->req[r].key = (struct pz_match_key){ 0, origin, target, 0 };
    return r;
}

int pz_comsys_rma(struct pz_comsys *cs, enum pz_rma_kind kind, int origin, int target,
                  double bytes, double at)
{
    int r = new_rma(cs, (int)kind, origin, target, bytes, at);

    return r < 0 ? -1 : pz_cs_post(cs, r, at);
}

int pz_comsys_rma_after(struct pz_comsys *cs, enum pz_rma_kind kind, int origin, int target,
                        double bytes, double at, int after)
{
    int r;

    if (after < 0 || after >= cs->nreq || cs->req[after].done >= 0) {
        double done = after >= 0 && after < cs->nreq ? cs->req[after].done : -1;

        if (done <= at)
            return pz_comsys_rma(cs, kind, origin, target, bytes, at);
        /* a completion known ahead of its time: the transfer waits for it as an event,
         * other processes' operations until then keep their place */
        if ((r = new_rma(cs, (int)kind, origin, target, bytes, at)) < 0)
            return -1;
        return pz_cs_post_ahead(cs, r, done);
    }
    if ((r = new_rma(cs, (int)kind, origin, target, bytes, at)) < 0)
        return -1;
    cs->req[r].next_then = cs->req[after].then;
    cs->req[after].then = r + 1;
    return r;
}

void pz_cs_rma_then(struct pz_comsys *cs, int r, double t)
{
    int next = cs->req[r].then;

    cs->req[r].then = 0;
    while (next) {
        int d = next - 1;

        next = cs->req[d].next_then;
        /* an event, not a post now: the simulation's clock must not pass the time of
           the event being processed */
        pz_cs_post_ahead(cs, d, cs->req[d].posted > t ? cs->req[d].posted : t);
    }
}

int pz_comsys_signal(struct pz_comsys *cs, int from, int to, int channel, double at)
{
    int r;

    if (channel < 0 || channel > MAX_CHANNEL ||
        (r = new_rma(cs, RMA_SIGNAL, from, to, 0, at)) < 0)
        return -1;
    cs->req[r].key = signal_key(channel, from, to);
    return pz_cs_post(cs, r, at);
}

int pz_cs_post_ahead(struct pz_comsys *cs, int r, double at)
{
    cs->req[r].posted = at;
    pz_cs_push(cs, at, EV_POST, r);
    return r;
}

int pz_comsys_signal_ahead(struct pz_comsys *cs, int from, int to, int channel, double at)
{
    int r;

    if (channel < 0 || channel > MAX_CHANNEL ||
        (r = new_rma(cs, RMA_SIGNAL, from, to, 0, at)) < 0)
        return -1;
    cs->req[r].key = signal_key(channel, from, to);
    return pz_cs_post_ahead(cs, r, at);
}

int pz_comsys_signal_wait(struct pz_comsys *cs, int proc, int from, int channel, double at)
{
    int r;

    if (channel < 0 || channel > MAX_CHANNEL ||
        (r = new_rma(cs, RMA_SIGNAL_WAIT, proc, from, 0, at)) < 0)
        return -1;
    cs->req[r].key = signal_key(channel, from, proc);
    return pz_cs_post(cs, r, at);
}

/* Matches signal or wait r with the oldest of the other kind: the other's item in
 * *partner and 1, or keeps r waiting (a signal with its arrival) and 0. */
static int match_signal(struct pz_comsys *cs, int r, double arrival,
                        struct pz_match_item *partner)
{
    struct request *q = &cs->req[r];
    int is_signal = q->mode == RMA_SIGNAL;
    struct pz_match_item item = { is_signal ? -1 : r, is_signal, arrival };
    int rc = pz_match_take_or_add(&cs->match, q->key, item, partner);

    if (rc < 0) {
        cs->failed = 1;
        return 0;
    }
    cs->pending += rc ? -1 : 1;
    q->queued = !rc && !is_signal;
    return rc;
}

/* A signal leaves now; its wait, if posted, completes when it arrives. */
static void signal_start(struct pz_comsys *cs, int r)
{
    double arrival = pz_cs_control(cs, cs->req[r].key.src, cs->req[r].key.dst);
    struct pz_match_item wait;

    cs->messages++;
    if (match_signal(cs, r, arrival, &wait) > 0) {
        cs->req[wait.request].queued = 0;
        pz_cs_complete(cs, wait.request,
                       arrival > cs->req[wait.request].posted ? arrival
                                                              : cs->req[wait.request].posted);
    }
    pz_cs_complete(cs, r, arrival);
}

/* A wait posted now: complete when its signal has arrived. */
static void signal_wait_start(struct pz_comsys *cs, int r)
{
    struct pz_match_item signal;

    if (match_signal(cs, r, 0, &signal) > 0)
        pz_cs_complete(cs, r, signal.value > cs->now ? signal.value : cs->now);
}

void pz_cs_rma_start(struct pz_comsys *cs, int r)
{
    const struct request *q = &cs->req[r];

    if (q->mode == RMA_SIGNAL) {
        signal_start(cs, r);
        return;
    }
    if (q->mode == RMA_SIGNAL_WAIT) {
        signal_wait_start(cs, r);
        return;
    }
    if (pz_cs_is_lock(q)) {
        pz_cs_lock_start(cs, r);
        return;
    }
    cs->messages++;
    if (q->mode == PZ_RMA_GET)
        pz_cs_push(cs, pz_cs_control(cs, q->key.src, q->key.dst), EV_RMA_REPLY, r);
    else
        pz_cs_complete(cs, r, pz_cs_transfer(cs, q->key.src, q->key.dst, q->bytes));
}

/* The target's process answers a Get at once: MPICH's progress engine handles it in
 * the background of the target's program. */
void pz_cs_rma_reply(struct pz_comsys *cs, int r)
{
    const struct request *q = &cs->req[r];

    cs->messages++;
    pz_cs_complete(cs, r, pz_cs_transfer(cs, q->key.dst, q->key.src, q->bytes));
}
