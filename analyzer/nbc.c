/* Nonblocking collectives: their instances and wait states.  A post
 * (NonBlockingCollectiveRequest) names only its request; the communicator, operation
 * and root come with its completion (NonBlockingCollectiveComplete) inside the wait or
 * test that completed it, and requests complete in any order (Waitany, Testsome).  MPI
 * has every member post the collectives of a communicator in the same order, so the
 * nonblocking ones alone are in the same order too: the k-th nonblocking post on C of
 * each member (an MPI process, whichever of its threads posts) is one instance.  A
 * thread's posts are kept in post order, and a post gets its number on its communicator
 * only once every earlier post of its thread has one too: when they are all completed
 * and their completing calls have returned.
 *
 * A member waits in the call that completed its part, for the last post it needs, and
 * only while it is in that call: max(0, min(leave, post) - enter).  A call that
 * completed several instances waits until the latest of those posts, counted once, in
 * the wait state of that instance, when the last of them is matched.  Memory holds the
 * posts not numbered yet, the instances some member has not matched yet and the calls
 * they were completed in: it grows with the operations in flight. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define MAX_NODES 64

/* A wait or test that completed nonblocking collectives. */
struct completer {
    int proc;
    int open;                  /* the call has not returned yet */
    double enter, leave;
    double synced;             /* until when its time counts in synchronization already:
                                  the Late Sender of receives it completed */
    size_t field;              /* the wait state of its longest wait, 0 if none */
    double until;              /* the end of that wait */
    int refs;                  /* its process while open, and each post it completed */
    int nodes[MAX_NODES];      /* the intervals it lies in */
    uint32_t nnodes;
};

struct post {
    uint64_t request;
    double enter;              /* of the call that posted it */
    OTF2_CollectiveOp op;
    uint32_t comm, root;
    struct completer *by;      /* NULL until completed */
};

struct member {
    double post;
    struct completer *by;
};

struct instance {
    OTF2_CollectiveOp op;
    uint32_t root, size, seen;
    struct member m[];         /* by rank in the communicator */
};

/* Elements head to head + n - 1 of v, oldest first. */
struct fifo {
    char *v;
    uint32_t head, n, cap;
};

struct pz_nbc {
    int nprocs;
    uint32_t ncomms;
    struct fifo *posts;            /* per process: struct post, in post order */
    struct completer **open;       /* per process: the call completing posts now */
    uint64_t *seq;                 /* per process and communicator: posts numbered */
    struct fifo *chains;           /* per communicator: struct instance *, oldest first */
    uint64_t *first;               /* per communicator: the number of its oldest */
};

static void *fifo_at(const struct fifo *f, uint32_t i, size_t size)
{
    return f->v + (size_t)(f->head + i) * size;
}

/* A new zeroed element at the end; NULL out of memory. */
static void *fifo_push(struct fifo *f, size_t size)
{
    void *e;

    if (f->head + f->n == f->cap) {
        if (f->head > 0 && f->head >= f->cap / 2) {    /* room enough at the front */
            memmove(f->v, f->v + (size_t)f->head * size, (size_t)f->n * size);
            f->head = 0;
        } else {
            uint32_t cap = f->cap ? 2 * f->cap : 16;
            char *v = realloc(f->v, (size_t)cap * size);

            if (!v)
                return NULL;
            f->v = v;
            f->cap = cap;
        }
    }
    e = fifo_at(f, f->n++, size);
    memset(e, 0, size);
    return e;
}

static void fifo_pop(struct fifo *f)
{
    f->head++;
    if (--f->n == 0)
        f->head = 0;
}

struct pz_nbc *pz_nbc_new(const struct reader *r)
{
    struct pz_nbc *n = calloc(1, sizeof(*n));
    size_t procs = (size_t)r->a->nprocs, comms = r->defs.ncomms ? r->defs.ncomms : 1;

    if (!n)
        return NULL;
    n->nprocs = r->a->nprocs;
    n->ncomms = r->defs.ncomms;
    n->posts = calloc(procs, sizeof(*n->posts));
    n->open = calloc(procs, sizeof(*n->open));
    n->seq = calloc(procs * comms, sizeof(*n->seq));
    n->chains = calloc(comms, sizeof(*n->chains));
    n->first = calloc(comms, sizeof(*n->first));
    if (n->posts && n->open && n->seq && n->chains && n->first)
        return n;
    pz_nbc_free(n);
    return NULL;
}

/* The waits of a call, once no instance it completed is left to match: its longest
 * wait in its wait state, and in synchronization what its Late Sender did not count. */
static void charge(struct reader *r, const struct completer *c)
{
    if (c->field)
        pz_charge(r, c->proc, c->nodes, c->nnodes, c->field, c->until - c->enter);
    if (c->until > c->synced)
        pz_charge(r, c->proc, c->nodes, c->nnodes, offsetof(struct pz_stats, sync),
                  c->until - c->synced);
}

/* Drops a reference to c; the last one charges its waits (r NULL: discards them). */
static void unref(struct reader *r, struct completer *c)
{
    if (--c->refs > 0)
        return;
    if (r)
        charge(r, c);
    free(c);
}

void pz_nbc_post(struct reader *r, int proc, uint64_t request, double post_enter)
{
    struct post *p = fifo_push(&r->nbc->posts[proc], sizeof(*p));

    if (!p) {
        pz_reader_fail(r, "out of memory");
        return;
    }
    p->request = request;
    p->enter = post_enter;
}

static struct instance *new_instance(uint32_t size)
{
    return calloc(1, sizeof(struct instance) + size * sizeof(struct member));
}

/* The instance of MPI process me's next number on comm.  Members number their posts
 * alike, so it is in the chain of those some member has not matched yet, or the next
 * one. */
static struct instance *place(struct pz_nbc *n, int me, uint32_t comm, uint32_t size)
{
    struct fifo *chain = &n->chains[comm];
    uint64_t k = n->seq[(size_t)me * n->ncomms + comm]++ - n->first[comm];
    struct instance *in, **slot;

    if (k < chain->n)
        return *(struct instance **)fifo_at(chain, (uint32_t)k, sizeof(in));
    if (!(in = new_instance(size)))
        return NULL;
    if (!(slot = fifo_push(chain, sizeof(*slot)))) {
        free(in);
        return NULL;
    }
    *slot = in;
    return in;
}

/* The last post a member waits for: the root's for a broadcast off the root, else the
 * latest of all (at the root of a reduce, that of the others: its own came before it
 * could wait). */
static double awaited(const struct instance *in, size_t field, double latest)
{
    if (field != offsetof(struct pz_stats, late_broadcast))
        return latest;
    return in->root < in->size ? in->m[in->root].post : -1e300;
}

/* The member's completing call waited until post, as far as it was still inside. */
static void settle(struct completer *c, size_t field, double post)
{
    double until = post < c->leave ? post : c->leave;

    if (until > c->until) {
        c->until = until;
        c->field = field;
    }
}

/* Every member of an instance has completed its part: their waits. */
static void matched(struct reader *r, const struct instance *in)
{
    double latest = in->m[0].post;

    for (uint32_t i = 1; i < in->size; i++)
        latest = in->m[i].post > latest ? in->m[i].post : latest;
    for (uint32_t i = 0; i < in->size; i++) {
        size_t field = pz_collective_wait(in->op, i == in->root);

        if (field)
            settle(in->m[i].by, field, awaited(in, field, latest));
        unref(r, in->m[i].by);
    }
    r->a->collectives++;
}

/* Post p of proc, completed by a call that has returned, joins its instance. */
static void number(struct reader *r, struct pz_nbc *n, int proc, const struct post *p)
{
    const struct pz_comm_def *c = pz_defs_comm(&r->defs, p->comm);
    int me = pz_reader_rank(r, proc);
    uint32_t rank = c ? pz_comm_rank(c, me) : 0;
    struct instance *in;

    /* no communicator of its process: no partners; or MPI_Comm_idup, no operation of the
       report (blocking communicator constructors are not either, waits.c) */
    if (!c || rank >= c->size || pz_handle_op(p->op)) {
        unref(r, p->by);
        return;
    }
    /* alone, it is its own instance: MPI_COMM_SELF is one communicator for all */
    in = c->size == 1 ? new_instance(1) : place(n, me, p->comm, c->size);
    if (!in) {
        pz_reader_fail(r, "out of memory");
        unref(r, p->by);
        return;
    }
    in->op = p->op;
    in->root = c->local ? UINT32_MAX : p->root;   /* as blocking ones (waits.c) */
    in->size = c->size;
    in->m[rank] = (struct member){ p->enter, p->by };
    if (++in->seen < in->size)
        return;
    matched(r, in);
    if (c->size > 1) {     /* the oldest: every member matched the earlier ones first */
        fifo_pop(&n->chains[p->comm]);
        n->first[p->comm]++;
    }
    free(in);
}

/* The posts of proc that can be numbered now, in post order. */
static void drain(struct reader *r, struct pz_nbc *n, int proc)
{
    struct fifo *q = &n->posts[proc];

    while (q->n) {
        const struct post *p = fifo_at(q, 0, sizeof(*p));

        if (!p->by || p->by->open)
            break;
        number(r, n, proc, p);
        fifo_pop(q);
    }
}

/* The oldest post of proc with this request not completed yet (MPI reuses requests). */
static struct post *pending(struct pz_nbc *n, int proc, uint64_t request)
{
    struct fifo *q = &n->posts[proc];

    for (uint32_t i = 0; i < q->n; i++) {
        struct post *p = fifo_at(q, i, sizeof(*p));

        if (p->request == request && !p->by)
            return p;
    }
    return NULL;
}

/* The call completing posts of proc now.  MPI calls do not nest: the one open is it. */
static struct completer *completer(struct reader *r, struct pz_nbc *n, int proc,
                                   const struct frame *call, double when)
{
    struct completer *c = n->open[proc];

    if (c)
        return c;
    if (!(c = calloc(1, sizeof(*c))))
        return NULL;
    c->proc = proc;
    c->open = 1;
    c->refs = 1;
    c->enter = c->leave = c->until = c->synced = call ? call->enter : when;
    c->nnodes = pz_open_nodes(r, proc, c->nodes, MAX_NODES);
    n->open[proc] = c;
    return c;
}

/* The completing call returned: its posts can be numbered. */
static void close_call(struct reader *r, struct pz_nbc *n, struct completer *c, double leave,
                       double latest_send)
{
    c->open = 0;
    c->leave = leave;
    if (latest_send > c->synced)
        c->synced = latest_send;
    n->open[c->proc] = NULL;
    drain(r, n, c->proc);
    unref(r, c);
}

void pz_nbc_complete(struct reader *r, int proc, OTF2_CollectiveOp op, uint32_t comm,
                     uint32_t root, uint64_t request, const struct frame *call, double when)
{
    struct pz_nbc *n = r->nbc;
    struct post *p = pending(n, proc, request);
    struct completer *c;

    if (!p)
        return;
    if (!(c = completer(r, n, proc, call, when))) {
        pz_reader_fail(r, "out of memory");
        return;
    }
    p->op = op;
    p->comm = comm;
    p->root = root;
    p->by = c;
    c->refs++;
    if (!call)
        close_call(r, n, c, when, -1e300);
}

void pz_nbc_call_done(struct reader *r, int proc, const struct frame *call, double leave)
{
    struct pz_nbc *n = r->nbc;

    if (n->open[proc])
        close_call(r, n, n->open[proc], leave, call->latest_send);
}

/* Drops what is left: posts, instances not every member matched, open calls; r NULL
 * discards the waits of their calls. */
static void drop_all(struct reader *r, struct pz_nbc *n)
{
    for (int p = 0; p < n->nprocs; p++) {
        struct fifo *q = &n->posts[p];

        for (; q->n; fifo_pop(q)) {
            const struct post *post = fifo_at(q, 0, sizeof(*post));

            if (post->by)
                unref(r, post->by);
        }
        free(q->v);
        *q = (struct fifo){ 0 };
        if (n->open[p])
            unref(r, n->open[p]);
        n->open[p] = NULL;
    }
    for (uint32_t c = 0; c < n->ncomms; c++) {
        struct fifo *chain = &n->chains[c];

        for (; chain->n; fifo_pop(chain)) {
            struct instance *in = *(struct instance **)fifo_at(chain, 0, sizeof(in));

            for (uint32_t i = 0; i < in->size; i++)
                if (in->m[i].by)
                    unref(r, in->m[i].by);
            free(in);
        }
        free(chain->v);
        *chain = (struct fifo){ 0 };
    }
}

/* Instances some member never completed are incomplete; the calls that completed
 * instances along with them keep the waits of those. */
void pz_nbc_finish(struct reader *r)
{
    struct pz_nbc *n = r->nbc;

    for (uint32_t c = 0; c < n->ncomms; c++)
        r->a->incomplete_collectives += n->chains[c].n;
    drop_all(r, n);
}

void pz_nbc_free(struct pz_nbc *n)
{
    if (!n)
        return;
    if (n->posts && n->open && n->chains)
        drop_all(NULL, n);
    free(n->posts);
    free(n->open);
    free(n->seq);
    free(n->chains);
    free(n->first);
    free(n);
}
