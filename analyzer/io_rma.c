/* MPI-IO and one-sided communication as parts of MPI time (reader.h): the time of the
 * calls of either family, and the bytes of their operations.  An I/O operation's mode
 * is in its IoOperationBegin, its bytes in its IoOperationComplete, which a nonblocking
 * operation has in a later call: the operations begun and not complete are kept, per
 * process, handle and matching id.  A wait or test that completed a nonblocking I/O
 * operation begun in an earlier call, and no message or collective (the process's
 * operations in flight are as many at its leave as at the leave of its previous MPI
 * call: none was posted in between), is I/O time rather than point-to-point.  Lock
 * Contention (docs/characteristics.md): the locks of windows are kept per window,
 * target and origin, held or released, so that an MPI_Win_lock that returned after
 * another origin released a conflicting lock of its target waited from its enter until
 * that release. */
#include <stddef.h>
#include <stdlib.h>

#include "call_family.h"
#include "grow.h"
#include "reader.h"

struct pending {
    int proc;
    OTF2_IoHandleRef handle;
    uint64_t matching;
    OTF2_IoOperationMode mode;
};

/* The last lock of an origin (MPI process) on a target of a window: target
 * OTF2_UNDEFINED_UINT32 for every process of the window (MPI_Win_lock_all). */
struct lock {
    OTF2_RmaWinRef win;
    uint32_t target;
    int origin;
    int exclusive;
    double released;       /* -1 while held */
};

/* A process since its last MPI call. */
struct since_call {
    int64_t in_flight;     /* its operations in flight at that call's leave */
    int io_completed;      /* it has completed a nonblocking I/O operation since */
};

struct pz_io_rma {
    struct pending *ops;
    uint32_t n, cap;
    struct since_call *since;      /* of each process */
    struct lock *locks;
    uint32_t nlocks, caplocks;
};

/* The state of r, made at its first use; NULL (and r fails) if memory ran out. */
static struct pz_io_rma *state_of(struct reader *r)
{
    struct pz_io_rma *s = r->io_rma;

    if (!s && (s = r->io_rma = calloc(1, sizeof(*s))) &&
        !(s->since = calloc((size_t)r->a->nprocs, sizeof(*s->since)))) {
        free(s);
        s = r->io_rma = NULL;
    }
    if (!s)
        pz_reader_fail(r, "out of memory");
    return s;
}

/* Whether the MPI call of process proc leaving now completed nonblocking I/O and no
 * other operation; the call is the last since. */
static int completed_only_io(struct reader *r, int proc)
{
    struct since_call *c = r->io_rma ? &r->io_rma->since[proc] : NULL;
    int only_io;

    if (!c)
        return 0;
    only_io = c->io_completed && c->in_flight == r->procs[proc].in_flight;
    c->in_flight = r->procs[proc].in_flight;
    c->io_completed = 0;
    return only_io;
}

int pz_io_rma_call(struct reader *r, int proc, const int *nodes, uint32_t n,
                   const struct region *g, double d)
{
    enum pz_call_family family = pz_call_family(g->info->call);
    int io_wait = completed_only_io(r, proc);

    if (family == PZ_FAMILY_OTHER && !io_wait)
        return 0;
    r->a->io_rma = 1;
    pz_charge(r, proc, nodes, n,
              family == PZ_FAMILY_RMA ? offsetof(struct pz_stats, rma)
                                      : offsetof(struct pz_stats, io), d);
    return family == PZ_FAMILY_OTHER;
}

/* Adds bytes to field of the intervals open on the process of loc now. */
static void charge_bytes(struct reader *r, OTF2_LocationRef loc, size_t field, uint64_t bytes)
{
    int proc = pz_reader_proc(r, loc), nodes[256];
    uint32_t n;

    if (proc < 0)
        return;
    r->a->io_rma = 1;
    n = pz_open_nodes(r, proc, nodes, 256);
    pz_charge(r, proc, nodes, n, field, (double)bytes);
}

static OTF2_CallbackCode on_io_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                     OTF2_AttributeList *attributes, OTF2_IoHandleRef handle,
                                     OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                     uint64_t requested, uint64_t matching)
{
    struct reader *r = ud;
    struct pz_io_rma *s = r->io_rma;
    int proc = pz_reader_proc(r, loc);

    (void)time;
    (void)attributes;
    (void)flags;
    (void)requested;
    if (proc < 0 || mode == OTF2_IO_OPERATION_MODE_FLUSH)
        return OTF2_CALLBACK_SUCCESS;
    if (!(s = state_of(r)))
        return OTF2_CALLBACK_INTERRUPT;
    if (pz_grow((void **)&s->ops, &s->cap, s->n, sizeof(*s->ops)) != 0) {
        pz_reader_fail(r, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    s->ops[s->n++] = (struct pending){ proc, handle, matching, mode };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                        OTF2_AttributeList *attributes, OTF2_IoHandleRef handle,
                                        uint64_t transferred, uint64_t matching)
{
    struct reader *r = ud;
    struct pz_io_rma *s = r->io_rma;
    int proc = pz_reader_proc(r, loc);

    (void)time;
    (void)attributes;
    /* the latest match: a blocking operation completes right after its begin */
    for (uint32_t i = s ? s->n : 0; i-- > 0;) {
        struct pending *op = &s->ops[i];

        if (op->proc != proc || op->handle != handle || op->matching != matching)
            continue;
        if (matching != 0)
            s->since[proc].io_completed = 1;
        charge_bytes(r, loc, op->mode == OTF2_IO_OPERATION_MODE_READ
                                 ? offsetof(struct pz_stats, io_read)
                                 : offsetof(struct pz_stats, io_written), transferred);
        *op = s->ops[--s->n];
        break;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_put(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                uint32_t remote, uint64_t bytes, uint64_t matching)
{
    (void)time;
    (void)attributes;
    (void)win;
    (void)remote;
    (void)matching;
    charge_bytes(ud, loc, offsetof(struct pz_stats, rma_put), bytes);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_get(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                uint32_t remote, uint64_t bytes, uint64_t matching)
{
    (void)time;
    (void)attributes;
    (void)win;
    (void)remote;
    (void)matching;
    charge_bytes(ud, loc, offsetof(struct pz_stats, rma_got), bytes);
    return OTF2_CALLBACK_SUCCESS;
}

/* An atomic operation puts what it sends and gets what it receives (a fetch). */
static OTF2_CallbackCode on_atomic(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                   uint32_t remote, OTF2_RmaAtomicType type, uint64_t sent,
                                   uint64_t received, uint64_t matching)
{
    (void)time;
    (void)attributes;
    (void)win;
    (void)remote;
    (void)type;
    (void)matching;
    charge_bytes(ud, loc, offsetof(struct pz_stats, rma_put), sent);
    charge_bytes(ud, loc, offsetof(struct pz_stats, rma_got), received);
    return OTF2_CALLBACK_SUCCESS;
}

/* The lock of origin on target of win, made if new; NULL (and r fails) if memory ran
 * out. */
static struct lock *lock_of(struct reader *r, OTF2_RmaWinRef win, uint32_t target, int origin)
{
    struct pz_io_rma *s = state_of(r);

    if (!s)
        return NULL;
    for (uint32_t i = 0; i < s->nlocks; i++)
        if (s->locks[i].win == win && s->locks[i].target == target &&
            s->locks[i].origin == origin)
            return &s->locks[i];
    if (pz_grow((void **)&s->locks, &s->caplocks, s->nlocks, sizeof(*s->locks)) != 0) {
        pz_reader_fail(r, "out of memory");
        return NULL;
    }
    s->locks[s->nlocks] = (struct lock){ win, target, origin, 0, -1 };
    return &s->locks[s->nlocks++];
}

/* Whether lock l of another origin kept a lock of target (exclusive or not) from being
 * granted: one of them is exclusive, and their targets meet. */
static int conflicts(const struct lock *l, OTF2_RmaWinRef win, uint32_t target, int origin,
                     int exclusive)
{
    return l->win == win && l->origin != origin && (exclusive || l->exclusive) &&
           (l->target == target || l->target == OTF2_UNDEFINED_UINT32 ||
            target == OTF2_UNDEFINED_UINT32);
}

/* The Lock Contention of process proc's lock, granted by now: from its call's enter to
 * the latest release of a conflicting lock during the call. */
static double contention(struct reader *r, int proc, OTF2_RmaWinRef win, uint32_t target,
                         int exclusive, double now)
{
    const struct process *p = &r->procs[proc];
    const struct pz_io_rma *s = r->io_rma;
    double enter = p->depth ? p->stack[p->depth - 1].enter : now, latest = enter;

    for (uint32_t i = 0; s && i < s->nlocks; i++) {
        const struct lock *l = &s->locks[i];

        if (conflicts(l, win, target, pz_reader_rank(r, proc), exclusive) &&
            l->released > latest && l->released <= now)
            latest = l->released;
    }
    return latest - enter;
}

static OTF2_CallbackCode on_lock(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                 OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                 uint32_t remote, uint64_t id, OTF2_LockType type)
{
    struct reader *r = ud;
    int proc = pz_reader_proc(r, loc), exclusive = type == OTF2_LOCK_EXCLUSIVE, nodes[256];
    double now = (double)(int64_t)(time - r->base) / (double)r->defs.resolution, wait;
    struct lock *l;

    (void)attributes;
    (void)id;
    if (proc < 0)
        return OTF2_CALLBACK_SUCCESS;
    r->a->io_rma = 1;
    wait = contention(r, proc, win, remote, exclusive, now);
    if (wait > 0) {
        uint32_t n = pz_open_nodes(r, proc, nodes, 256);

        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, lock_contention), wait);
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, sync), wait);
    }
    if (!(l = lock_of(r, win, remote, pz_reader_rank(r, proc))))
        return OTF2_CALLBACK_INTERRUPT;
    l->exclusive = exclusive;
    l->released = -1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_release(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                    OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                    uint32_t remote, uint64_t id)
{
    struct reader *r = ud;
    int proc = pz_reader_proc(r, loc);
    struct lock *l;

    (void)attributes;
    (void)id;
    if (proc < 0)
        return OTF2_CALLBACK_SUCCESS;
    if (!(l = lock_of(r, win, remote, pz_reader_rank(r, proc))))
        return OTF2_CALLBACK_INTERRUPT;
    l->released = (double)(int64_t)(time - r->base) / (double)r->defs.resolution;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode pz_io_rma_record(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp t,
                                   OTF2_AttributeList *a, const struct pz_rec *rec)
{
    switch (rec->kind) {
    case PZ_REC_RMA_PUT:
        return on_put(loc, t, r, a, rec->comm, rec->peer, rec->bytes, rec->request);
    case PZ_REC_RMA_GET:
        return on_get(loc, t, r, a, rec->comm, rec->peer, rec->bytes, rec->request);
    case PZ_REC_RMA_ATOMIC:
        return on_atomic(loc, t, r, a, rec->comm, rec->peer, rec->coll_op, rec->bytes,
                         rec->bytes2, rec->request);
    case PZ_REC_RMA_LOCK:
        return on_lock(loc, t, r, a, rec->comm, rec->peer, rec->request, rec->coll_op);
    case PZ_REC_RMA_RELEASE:
        return on_release(loc, t, r, a, rec->comm, rec->peer, rec->request);
    case PZ_REC_IO_BEGIN:
        return on_io_begin(loc, t, r, a, rec->comm, (OTF2_IoOperationMode)rec->tag, rec->peer,
                           rec->bytes, rec->request);
    case PZ_REC_IO_COMPLETE:
        return on_io_complete(loc, t, r, a, rec->comm, rec->bytes, rec->request);
    }
    return OTF2_CALLBACK_SUCCESS;   /* no handler: the windows, epochs, I/O handles */
}

void pz_io_rma_callbacks(OTF2_GlobalEvtReaderCallbacks *cb)
{
    OTF2_GlobalEvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_lock);
    OTF2_GlobalEvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_release);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationBeginCallback(cb, on_io_begin);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationCompleteCallback(cb, on_io_complete);
    OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cb, on_put);
    OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cb, on_get);
    OTF2_GlobalEvtReaderCallbacks_SetRmaAtomicCallback(cb, on_atomic);
}

void pz_io_rma_free(struct reader *r)
{
    if (r->io_rma) {
        free(r->io_rma->ops);
        free(r->io_rma->since);
        free(r->io_rma->locks);
    }
    free(r->io_rma);
    r->io_rma = NULL;
}
