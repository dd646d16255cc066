/* One MPI call of a thread in the replay: its events become operations posted to the
 * communication model at the call's start (sends, receives, collectives) by the
 * thread's process, and waits for the operations it completes; the call ends when the
 * last of those completes.  A call with no communication (MPI_Comm_rank, a test that
 * found nothing) takes its recorded time, scaled like computation; MPI_Init takes none
 * (pz_call_starts_mpi), nor does a blocking probe (waits_for_a_message); an MPI-IO
 * call, which the model has no file system for, its recorded time times the machine's
 * io_scale.  A call that completes a nonblocking I/O
 * operation (MPI_Wait of an MPI_File_iwrite) lasts at least until the operation ends:
 * its begin's predicted time plus its recorded duration times io_scale.  What a call of
 * a pool of MPI_Waitany and the like completes is engine_any.c's to choose. */
#include <stdlib.h>
#include <string.h>

#include "call_family.h"
#include "constructor.h"
#include "engine_int.h"
#include "grow.h"
#include "trace_calls.h"

/* --- the nonblocking operations a thread has in flight, by the trace's request id */

static int remember_as(struct engine *e, struct thread *k, uint64_t id, int request,
                       int persistent)
{
    if (k->npending == k->cappending) {
        int cap = k->cappending ? 2 * k->cappending : 8;
        struct pending *grown = realloc(k->pending, (size_t)cap * sizeof(*grown));

        if (!grown) {
            pz_engine_fail(e, "out of memory");
            return -1;
        }
        k->pending = grown;
        k->cappending = cap;
    }
    k->pending[k->npending++] = (struct pending){ id, request, persistent };
    return 0;
}

static int remember(struct engine *e, struct thread *k, uint64_t id, int request)
{
    return remember_as(e, k, id, request, 0);
}

/* Whether call starts persistent requests. */
static int starts(const struct pz_region_info *call)
{
    return call->call == PZ_CALL_MPI_Start || call->call == PZ_CALL_MPI_Startall;
}

int pz_engine_take(struct thread *k, uint64_t id)
{
    for (int i = 0; i < k->npending; i++) {
        if (k->pending[i].id == id) {
            int request = k->pending[i].request;

            k->pending[i] = k->pending[--k->npending];
            return request;
        }
    }
    return -1;
}

/* --- waiting */

int pz_engine_set_waiter(struct engine *e, int th, int request)
{
    if (request >= e->nwaiters) {
        int n = e->nwaiters ? e->nwaiters : 256;
        int *grown;

        while (n <= request)
            n *= 2;
        if (!(grown = realloc(e->waiter, (size_t)n * sizeof(*grown)))) {
            pz_engine_fail(e, "out of memory");
            return -1;
        }
        e->waiter = grown;
        e->nwaiters = n;
    }
    e->waiter[request] = th;
    return 0;
}

static void wait_for(struct engine *e, int th, int request)
{
    struct thread *k = &e->threads[th];
    double done;

    if (request < 0 || pz_engine_set_waiter(e, th, request) != 0)
        return;
    if ((done = pz_comsys_watch(e->cs, request)) < 0) {
        k->outstanding++;
        return;
    }
    k->wake = pz_comsys_deliver(e->cs, request, k->wake);
    pz_comsys_release(e->cs, request);
}

/* --- point-to-point */

/* The process of rank `rank` of communicator comm as seen by thread th; -1 (and the
 * replay stops) if it is not defined. */
static int process_of(struct engine *e, int th, uint32_t comm, uint32_t rank)
{
    int q = pz_call_process(e->in, e->threads[th].rank, comm, rank);
    const int *procs;

    if (q < 0)
        pz_engine_fail(e, "%s: rank %u of communicator %u is not defined%s",
                       pz_engine_name(e, th).text, rank, comm,
                       pz_trace_in_comm(e->in, comm, &procs) > 0 ? ""
                       : " (it has no members in the trace: a communicator made by a call "
                         "the recorder does not record, such as MPI_Comm_spawn's or "
                         "MPI_Comm_connect's; docs/mpi-table.md)");
    return q;
}

static enum pz_send_mode send_mode(const struct pz_region_info *call)
{
    return call->synchronous ? PZ_SEND_SYNCHRONOUS
           : call->buffered  ? PZ_SEND_BUFFERED
                             : PZ_SEND_STANDARD;
}

/* A message goes from process to process, whichever of their threads send and receive:
 * a receive matches the next message of its communicator, source and tag. */
static int post_send(struct engine *e, int th, const struct pz_rec *r,
                     const struct pz_region_info *call)
{
    const struct thread *k = &e->threads[th];
    int dst = process_of(e, th, r->comm, r->peer);

    if (dst < 0)
        return -1;
    return pz_comsys_send(e->cs, k->rank, dst, (int)r->tag, (int)r->comm, (double)r->bytes,
                          send_mode(call), k->call_start);
}

static int post_recv(struct engine *e, int th, const struct pz_rec *r)
{
    const struct thread *k = &e->threads[th];
    int src = process_of(e, th, r->comm, r->peer);

    if (src < 0)
        return -1;
    return pz_comsys_recv(e->cs, k->rank, src, (int)r->tag, (int)r->comm, k->call_start);
}

/* MPI_Irecv: the receive is posted now with the source and tag its completion records
 * (a wildcard receive matched what the recording matched).  A completion with no source
 * is a receive from MPI_PROC_NULL (MPI_Imrecv of the message MPI_Improbe found there):
 * no message, it completes at once (request -1, which no call waits for). */
static void post_irecv(struct engine *e, int th, uint64_t id, int persistent)
{
    struct thread *k = &e->threads[th];
    const struct pz_rec *c = pz_call_completion(e->in, th, k->call_len, id, PZ_REC_IRECV,
                                                PZ_REC_REQUEST_CANCELLED);
    struct pz_rec done;

    if (!c)
        return;
    if (c->kind == PZ_REC_REQUEST_CANCELLED) {
        remember(e, k, id, REQ_CANCELLED);
        return;
    }
    done = *c;
    remember_as(e, k, id, done.peer == PZ_NONE32 ? -1 : post_recv(e, th, &done), persistent);
}

/* --- collectives */

/* Whether the first group of an intercommunicator whose second begins at procs[local]
 * is MPICH's low group: the one whose rank 0 has the lower process number. */
static int first_is_low(const int *procs, int local)
{
    return procs[0] < procs[local];
}

/* The communicator of the model for trace communicator comm (size processes procs,
 * the first local of them a group of an intercommunicator, else local is 0). */
static int model_comm(struct engine *e, int size, const int *procs, int local)
{
    int low;

    if (local <= 0)
        return pz_comsys_comm(e->cs, size, procs);
    low = first_is_low(procs, local);
    return low ? pz_comsys_intercomm(e->cs, local, procs, size - local, procs + local)
               : pz_comsys_intercomm(e->cs, size - local, procs + local, local, procs);
}

/* Member c->me (its place in the trace's list of comm's processes) as coll.h describes
 * it on an intercommunicator whose first group has local processes: a rank of its own
 * group, and the sizes of both. */
static void intercomm_member(const int *procs, int size, int local, struct pz_coll *c)
{
    int in_first = c->me < local;

    c->low = in_first == first_is_low(procs, local);
    c->me = in_first ? c->me : c->me - local;
    c->size = in_first ? local : size - local;
    c->remote_size = size - c->size;
}

/* The communicator's number in the model, with the rank in it of process p and its size
 * in c (on an intercommunicator, as coll.h describes it); -1 if p is not a member. */
static int comm_of(struct engine *e, int p, uint32_t comm, struct pz_coll *c)
{
    const int *procs = NULL;
    int size = pz_trace_in_comm(e->in, comm, &procs);
    int local = pz_trace_in_comm_local(e->in, comm);
    struct comm_map *m;

    if (size <= 0)
        return -1;
    if (comm >= e->ncomms) {
        struct comm_map *grown = realloc(e->comms, (comm + 1) * sizeof(*grown));

        if (!grown)
            return -1;
        for (uint32_t i = e->ncomms; i <= comm; i++)
            grown[i] = (struct comm_map){ -1, NULL };
        e->comms = grown;
        e->ncomms = comm + 1;
    }
    m = &e->comms[comm];
    if (m->id < 0) {
        if (!(m->rank_of = malloc((size_t)e->nprocs * sizeof(int))))
            return -1;
        for (int q = 0; q < e->nprocs; q++)
            m->rank_of[q] = -1;
        for (int i = 0; i < size; i++)
            if (procs[i] >= 0)
                m->rank_of[procs[i]] = i;
        m->id = model_comm(e, size, procs, local);
    }
    c->me = m->rank_of[p];
    c->size = size;
    if (c->me >= 0 && local > 0)
        intercomm_member(procs, size, local, c);
    return c->me >= 0 ? m->id : -1;
}

/* The per-rank byte lists of rec into counts (2 x the ranks data goes to: c->size, or
 * the remote group's on an intercommunicator; allocated here when rec has one),
 * pointed to by c. */
static void counts_of(struct engine *e, const struct pz_rec *rec, struct pz_coll *c,
                      double **counts)
{
    const char *send = pz_trace_in_string(e->in, rec->send_list);
    const char *recv = pz_trace_in_string(e->in, rec->recv_list);
    int n = c->remote_size > 0 ? c->remote_size : c->size;

    *counts = NULL;
    if ((!send && !recv) || !(*counts = malloc(2 * (size_t)n * sizeof(double))))
        return;
    if (pz_call_counts(send, *counts, n) == 0)
        c->send_counts = *counts;
    if (pz_call_counts(recv, *counts + n, n) == 0)
        c->recv_counts = *counts + n;
}

/* The root of operation op on an intercommunicator as member c sees it (coll.h), from
 * the bytes it recorded: the member that sent the data out (Bcast, Scatter(v)) or took
 * it in (Gather(v), Reduce) is the root, one that received or sent its block is of the
 * other group (whose root's rank its record gives, or in a trace of an older recorder,
 * which left the root out there, is taken as 0), and one that moved nothing does
 * nothing (MPI_PROC_NULL). */
static int inter_root(enum pz_coll_op op, double sent, double received)
{
    int outward = op == PZ_COLL_BCAST || op == PZ_COLL_SCATTER || op == PZ_COLL_SCATTERV;
    double at_root = outward ? sent : received, at_others = outward ? received : sent;

    if (at_root > 0)
        return PZ_COLL_ROOT;
    return at_others > 0 ? 0 : PZ_COLL_PROC_NULL;
}

static int is_rooted(enum pz_coll_op op)
{
    return op == PZ_COLL_BCAST || op == PZ_COLL_GATHER || op == PZ_COLL_GATHERV ||
           op == PZ_COLL_SCATTER || op == PZ_COLL_SCATTERV || op == PZ_COLL_REDUCE;
}

/* Sets c's root and block on an intercommunicator; -1 (and the replay stops) for a root
 * the other group cannot be told: one other than rank 0 of its group in a trace that
 * records no roots there (the root's own record names none). */
static int intercomm_root(struct engine *e, int th, const struct pz_rec *rec, struct pz_coll *c)
{
    int recorded = rec->peer != PZ_NONE32;

    c->root = is_rooted(c->op) ? inter_root(c->op, (double)rec->bytes, (double)rec->bytes2) : 0;
    if (c->root == 0 && recorded)
        c->root = (int)rec->peer;
    if (c->root == PZ_COLL_ROOT && c->me != 0 && !recorded) {
        pz_engine_fail(e, "%s: the root of a collective on intercommunicator %u is rank %d "
                       "of its group: the trace does not tell the other group, and only "
                       "rank 0 is replayed",
                       pz_engine_name(e, th).text, rec->comm, c->me);
        return -1;
    }
    if (c->bytes < 0)
        c->bytes = pz_coll_inter_block(c->op, c->remote_size, c->root, (double)rec->bytes,
                                       (double)rec->bytes2);
    return 0;
}

/* Posts operation op of c.bytes per process (c.op, c.bytes set) over the communicator of
 * rec (a collective's end) for thread th's process, whose member it is whichever thread
 * calls, with rec's per-rank byte lists; the request, or -1 with nothing to model (on
 * MPI_COMM_SELF). */
static int post_on_comm(struct engine *e, int th, const struct pz_rec *rec, struct pz_coll c)
{
    int comm = comm_of(e, e->threads[th].rank, rec->comm, &c), rc;
    double *counts;

    if (comm < 0)
        return -1;
    if (c.remote_size > 0) {
        if (intercomm_root(e, th, rec, &c) != 0)
            return -1;
    } else {
        c.root = rec->peer == PZ_NONE32 ? 0 : (int)rec->peer;
        if (c.bytes < 0)
            c.bytes = pz_coll_block(c.op, c.size, c.root, c.me, (double)rec->bytes,
                                    (double)rec->bytes2);
    }
    counts_of(e, rec, &c, &counts);
    rc = pz_comsys_collective(e->cs, comm, &c, e->threads[th].call_start);
    free(counts);
    if (rc < 0)
        pz_engine_fail(e, "%s: cannot model a collective (operation %u)",
                       pz_engine_name(e, th).text, rec->coll_op);
    return rc;
}

/* Posts the part of the collective that rec (its end) describes; the request, or -1
 * for a collective with nothing to model (on MPI_COMM_SELF, or of an unknown kind). */
static int post_collective(struct engine *e, int th, const struct pz_rec *rec)
{
    struct pz_coll c = { .bytes = -1 };

    if (pz_call_coll_op(rec->coll_op, &c.op) != 0)
        return -1;
    return post_on_comm(e, th, rec, c);
}

/* A communicator constructor's collective on its parent (rec, CREATE_HANDLE) as MPICH
 * runs it (trace/constructor.h): an Allreduce of the context-id mask, and for a split
 * the Allgather of (color, key) pairs that precedes it.  The bytes are MPICH's, not the
 * recorded ones, which Score-P leaves at 0.  Both start with the call: the model has no
 * operation that starts when another of the same call ends, so a split's two collectives
 * overlap where MPICH runs them one after the other (docs/predict.md). */
static void post_constructor(struct engine *e, int th, const struct pz_rec *rec, int call)
{
    if (pz_constructor_splits(call))
        wait_for(e, th, post_on_comm(e, th, rec, (struct pz_coll){
                                         .op = PZ_COLL_ALLGATHER,
                                         .bytes = PZ_SPLIT_PAIR_BYTES }));
    wait_for(e, th, post_on_comm(e, th, rec, (struct pz_coll){
                                     .op = PZ_COLL_ALLREDUCE,
                                     .bytes = PZ_CONTEXT_MASK_BYTES }));
}

static void post_nonblocking_collective(struct engine *e, int th, uint64_t id)
{
    struct thread *k = &e->threads[th];
    const struct pz_rec *c = pz_call_completion(e->in, th, k->call_len, id,
                                                PZ_REC_NBC_COMPLETE, PZ_REC_NBC_COMPLETE);
    struct pz_rec done;

    if (!c)
        return;
    done = *c;
    remember(e, k, id, post_collective(e, th, &done));
}

/* --- one-sided communication, as MPICH's ch4 does it with no remote memory access in
 * the network: each operation a transfer to or from its target from the call on, which
 * the synchronization call that completes it waits for */

/* A thread's one-sided transfers not yet completed go with its requests (pending), under
 * an id no request of the trace has: the window and target (rank in the window's
 * communicator) of an epoch's operation.  Request-based ones (MPI_Rput...) go under their
 * request's id and complete in its wait. */
#define EPOCH_ID 0x8000000000000000ull

static uint64_t epoch_id(uint32_t window, uint32_t target)
{
    return EPOCH_ID | (uint64_t)(window & 0x7fffffff) << 32 | target;
}

/* Whether pending id is of an epoch's transfer on window to target (PZ_NONE32: to any). */
static int of_epoch(uint64_t id, uint32_t window, uint32_t target)
{
    return (id & EPOCH_ID) && (uint32_t)(id >> 32 & 0x7fffffff) == (window & 0x7fffffff) &&
           (target == PZ_NONE32 || (uint32_t)id == target);
}

/* The communicator of window; PZ_NONE32 (and the replay stops) if it is not defined. */
static uint32_t window_comm(struct engine *e, int th, uint32_t window)
{
    uint32_t comm = pz_trace_in_window_comm(e->in, window);

    if (comm == PZ_NONE32)
        pz_engine_fail(e, "%s: one-sided window %u is not defined",
                       pz_engine_name(e, th).text, window);
    return comm;
}

/* Generalized active target synchronization as MPICH's ch4 runs it (docs/predict.md):
 * MPI_Win_post signals each origin of its group; MPI_Win_start returns at once, but an
 * operation of its epoch leaves for a target only once that target's post has arrived;
 * MPI_Win_complete waits for the posts and its transfers, then signals each target;
 * MPI_Win_wait (and an MPI_Win_test that ends the epoch) returns once every origin of
 * its group has signalled.  A window's posts travel on signal channel 2 × window, its
 * completions on 2 × window + 1.  The post a thread awaits from a target process is
 * pending under an id of its own: the window and the process. */
#define POST_ID 0x4000000000000000ull

static uint64_t post_id(uint32_t window, uint32_t process)
{
    return POST_ID | (uint64_t)(window & 0x3fffffff) << 32 | process;
}

/* The request of the post thread k awaits from process on window; -1 if none. */
static int awaited_post(const struct thread *k, uint32_t window, uint32_t process)
{
    uint64_t id = post_id(window, process);

    for (int i = 0; i < k->npending; i++)
        if (k->pending[i].id == id)
            return k->pending[i].request;
    return -1;
}

/* Posts the transfer of one-sided operation r (RMA_PUT, RMA_GET, RMA_ATOMIC) from thread
 * th's process: a Put's or an Accumulate's bytes to the target; a Get's, or what an
 * atomic operation fetches (its operand, one element, travels with its request), back. */
static void post_rma(struct engine *e, int th, const struct pz_rec *r)
{
    struct thread *k = &e->threads[th];
    uint32_t comm = window_comm(e, th, r->comm);
    int target = comm == PZ_NONE32 ? -1 : process_of(e, th, comm, r->peer);
    int fetches = r->kind == PZ_REC_RMA_GET || (r->kind == PZ_REC_RMA_ATOMIC && r->bytes2);
    double bytes = (double)(r->kind == PZ_REC_RMA_ATOMIC && fetches ? r->bytes2 : r->bytes);
    int request;

    if (target < 0)
        return;
    request = pz_comsys_rma_after(e->cs, fetches ? PZ_RMA_GET : PZ_RMA_PUT, k->rank, target,
                                  bytes, k->call_start,
                                  awaited_post(k, r->comm, (uint32_t)target));
    remember(e, k, r->request ? r->request : epoch_id(r->comm, r->peer), request);
}

/* Waits for thread th's transfers of the epoch on window to target (PZ_NONE32: to
 * every target); returns whether there were any. */
static int complete_epoch(struct engine *e, int th, uint32_t window, uint32_t target)
{
    struct thread *k = &e->threads[th];
    int found = 0;

    for (int i = 0; i < k->npending;) {
        if (of_epoch(k->pending[i].id, window, target)) {
            wait_for(e, th, pz_engine_take(k, k->pending[i].id));
            found = 1;
        } else {
            i++;
        }
    }
    return found;
}

/* A collective on window (rec, RMA_COLL_END: its creation, a fence, its freeing) as a
 * barrier of the window's communicator; a fence also completes the epoch's transfers. */
static void post_window_collective(struct engine *e, int th, const struct pz_rec *rec)
{
    struct pz_rec on_comm = *rec;

    on_comm.comm = window_comm(e, th, rec->comm);
    if (on_comm.comm == PZ_NONE32)
        return;
    on_comm.peer = PZ_NONE32;
    on_comm.send_list = on_comm.recv_list = PZ_NONE32;
    wait_for(e, th, post_on_comm(e, th, &on_comm,
                                 (struct pz_coll){ .op = PZ_COLL_BARRIER, .bytes = 0 }));
    if (rec->coll_op == OTF2_COLLECTIVE_OP_BARRIER)
        complete_epoch(e, th, rec->comm, PZ_NONE32);
}

/* Thread th's process signals process `to` on channel at `at`, not waiting for it;
 * ahead: at its call's end, before the other threads' operations until then. */
static void send_signal(struct engine *e, int th, int to, int channel, double at, int ahead)
{
    int rank = e->threads[th].rank;
    int request = ahead ? pz_comsys_signal_ahead(e->cs, rank, to, channel, at)
                        : pz_comsys_signal(e->cs, rank, to, channel, at);

    if (request < 0)
        pz_engine_fail(e, "%s: cannot model a signal of a one-sided epoch",
                       pz_engine_name(e, th).text);
    else
        pz_comsys_release(e->cs, request);
}

/* The processes of the group of r (RMA_GROUP_SYNC) into *procs (free it); their number,
 * -1 (and the replay stops) if the group is not defined. */
static int group_of(struct engine *e, int th, const struct pz_rec *r, int **procs)
{
    int n = pz_trace_in_group(e->in, r->peer, procs);

    if (n < 0)
        pz_engine_fail(e, "%s: the group %u of a one-sided epoch is not defined",
                       pz_engine_name(e, th).text, r->peer);
    return n;
}

/* The start of a post (signals to the origins) or of a start (waits for the targets'
 * posts, which its operations will need) of rec's epoch. */
static void open_epoch(struct engine *e, int th, const struct pz_rec *rec, int call)
{
    struct thread *k = &e->threads[th];
    int *procs, n = group_of(e, th, rec, &procs);
    int channel = (int)(2 * (rec->comm & 0x1fffffff));

    for (int i = 0; i < n; i++) {
        if (procs[i] < 0)
            continue;
        if (call == PZ_CALL_MPI_Win_post)
            send_signal(e, th, procs[i], channel, k->call_start, 0);
        else
            remember(e, k, post_id(rec->comm, (uint32_t)procs[i]),
                     pz_comsys_signal_wait(e->cs, k->rank, procs[i], channel,
                                           k->call_start));
    }
    free(procs);
}

/* The end of rec's epoch: a complete waits for its targets' posts and for its
 * transfers (and signals the targets as it returns: signal_completion); a wait, or a
 * test that ended the epoch, for every origin's completion. */
static void close_epoch(struct engine *e, int th, const struct pz_rec *rec, int call)
{
    struct thread *k = &e->threads[th];
    int *procs, n;

    if (!(rec->tag & OTF2_RMA_SYNC_LEVEL_PROCESS) || (n = group_of(e, th, rec, &procs)) < 0)
        return;
    for (int i = 0; i < n; i++) {
        if (procs[i] < 0)
            continue;
        if (call == PZ_CALL_MPI_Win_complete)
            wait_for(e, th, pz_engine_take(k, post_id(rec->comm, (uint32_t)procs[i])));
        else
            wait_for(e, th, pz_comsys_signal_wait(e->cs, k->rank, procs[i],
                                                  (int)(2 * (rec->comm & 0x1fffffff) + 1),
                                                  k->call_start));
    }
    free(procs);
    if (call == PZ_CALL_MPI_Win_complete)
        complete_epoch(e, th, rec->comm, PZ_NONE32);
}

/* Passive target locks (docs/predict.md): MPI_Win_lock (_all: on every process of the
 * window) ends when its target has granted the lock, in the order the requests arrive
 * there; MPI_Win_unlock sends the release as it returns, which frees the lock when it
 * arrives.  A window's locks are the model's lock channel of the window's number. */

/* The processes that target `target` of window names (PZ_NONE32: every process of the
 * window's communicator) into *procs; their number (0 if the window is unknown). */
static int lock_targets(struct engine *e, int th, uint32_t window, uint32_t target,
                        const int **procs, int *one)
{
    uint32_t comm = window_comm(e, th, window);
    int n;

    if (comm == PZ_NONE32)
        return 0;
    if (target != PZ_NONE32) {
        *one = process_of(e, th, comm, target);
        *procs = one;
        return *one < 0 ? 0 : 1;
    }
    n = pz_trace_in_comm(e->in, comm, procs);
    return n < 0 ? 0 : n;
}

static void lock(struct engine *e, int th, const struct pz_rec *r)
{
    struct thread *k = &e->threads[th];
    const int *procs;
    int one, n = lock_targets(e, th, r->comm, r->peer, &procs, &one);

    for (int i = 0; i < n; i++)
        wait_for(e, th, pz_comsys_lock(e->cs, k->rank, procs[i], (int)(r->comm & 0x3fffffff),
                                       r->coll_op == OTF2_LOCK_EXCLUSIVE, k->call_start));
}

static void release(struct engine *e, int th, const struct pz_rec *r, double at)
{
    const int *procs;
    int one, n = lock_targets(e, th, r->comm, r->peer, &procs, &one);

    for (int i = 0; i < n; i++) {
        int request = pz_comsys_unlock(e->cs, e->threads[th].rank, procs[i],
                                       (int)(r->comm & 0x3fffffff), at);

        if (request < 0)
            pz_engine_fail(e, "%s: cannot model the release of a lock",
                           pz_engine_name(e, th).text);
        else
            pz_comsys_release(e->cs, request);
    }
}

/* A call returning: an MPI_Win_complete signals each target of its epoch, an unlock
 * releases its locks. */
static void end_one_sided(struct engine *e, int th, int call)
{
    struct thread *k = &e->threads[th];
    double at = k->wake > pz_comsys_now(e->cs) ? k->wake : pz_comsys_now(e->cs);

    for (size_t i = 1; i + 1 < k->call_len; i++) {
        const struct pz_rec *r = pz_trace_in_peek(e->in, th, i);
        int *procs, n;

        if (r->kind == PZ_REC_RMA_RELEASE)
            release(e, th, r, at);
        if (r->kind != PZ_REC_RMA_GROUP_SYNC || call != PZ_CALL_MPI_Win_complete ||
            (n = pz_trace_in_group(e->in, r->peer, &procs)) < 0)
            continue;
        for (int p = 0; p < n; p++)
            if (procs[p] >= 0)
                send_signal(e, th, procs[p], (int)(2 * (r->comm & 0x1fffffff) + 1), at, 1);
        free(procs);
    }
}

/* Acts on a one-sided event of the call; returns whether it communicates. */
static int rma_event(struct engine *e, int th, const struct pz_rec *r, int call)
{
    switch ((enum pz_rec_kind)r->kind) {
    case PZ_REC_RMA_PUT:
    case PZ_REC_RMA_GET:
    case PZ_REC_RMA_ATOMIC:
        post_rma(e, th, r);
        return 1;
    case PZ_REC_RMA_OP_COMPLETE:
        wait_for(e, th, pz_engine_take(&e->threads[th], r->request));
        return 1;
    case PZ_REC_RMA_COLL_END:
        post_window_collective(e, th, r);
        return 1;
    case PZ_REC_RMA_LOCK:
        lock(e, th, r);
        return 1;
    case PZ_REC_RMA_RELEASE:
    case PZ_REC_RMA_SYNC:
        return complete_epoch(e, th, r->comm, r->peer);
    case PZ_REC_RMA_GROUP_SYNC:
        if (call == PZ_CALL_MPI_Win_post || call == PZ_CALL_MPI_Win_start)
            open_epoch(e, th, r, call);
        else
            close_epoch(e, th, r, call);
        return r->tag != OTF2_RMA_SYNC_LEVEL_NONE;
    default:
        return 0;
    }
}

/* --- nonblocking I/O */

/* Keeps I/O operation r, begun at the call's start. */
static void io_begin(struct engine *e, struct thread *k, const struct pz_rec *r)
{
    if (pz_grow((void **)&k->io, &k->capio, k->nio, sizeof(*k->io)) != 0) {
        pz_engine_fail(e, "out of memory");
        return;
    }
    k->io[k->nio++] = (struct io_begun){ r->comm, r->request, r->time, k->call_start };
}

/* The predicted end of the I/O operation that r completes, removed from those begun;
 * -1 if its begin was not recorded. */
static double io_complete(const struct engine *e, struct thread *k, const struct pz_rec *r)
{
    for (uint32_t i = 0; i < k->nio; i++) {
        struct io_begun op = k->io[i];

        if (op.handle != r->comm || op.matching != r->request)
            continue;
        k->io[i] = k->io[--k->nio];
        return op.predicted + (double)(r->time > op.recorded ? r->time - op.recorded : 0) /
                                  e->resolution * e->o->machine->io_scale;
    }
    return -1;
}

/* Acts on I/O event r of the call; returns the latest end of the nonblocking operations
 * the call completes, io_end so far.  A blocking operation (matching id 0) and a split
 * collective, begun without flag NON_BLOCKING, are timed by their calls. */
static double io_event(struct engine *e, struct thread *k, const struct pz_rec *r,
                       double io_end)
{
    double end;

    if (r->kind == PZ_REC_IO_BEGIN && (r->peer & OTF2_IO_OPERATION_FLAG_NON_BLOCKING))
        io_begin(e, k, r);
    else if (r->kind == PZ_REC_IO_COMPLETE && r->request != 0 &&
             (end = io_complete(e, k, r)) > io_end)
        return end;
    return io_end;
}

/* --- the call */

/* What a call with no communication takes of its recorded time. */
static double recorded_time_scale(const struct engine *e, const struct pz_region_info *call)
{
    if (pz_call_family(call->call) == PZ_FAMILY_IO)
        return e->o->machine->io_scale;
    return e->o->machine->cpu_scale;
}

/* Whether call is a blocking probe (MPI_Probe, MPI_Mprobe): its recorded time is the
 * wait for a message (on an oversubscribed node, for its sender to run at all), which
 * the receive that takes that message waits for in the replay; the probe itself takes
 * none.  Its twins that return at once (MPI_Iprobe, MPI_Improbe) keep their time. */
static int waits_for_a_message(const struct pz_region_info *call)
{
    return call->call == PZ_CALL_MPI_Probe || call->call == PZ_CALL_MPI_Mprobe;
}

/* Acts on one event of the call; returns whether it communicates. */
static int event(struct engine *e, int th, const struct pz_rec *r,
                 const struct pz_region_info *call)
{
    struct thread *k = &e->threads[th];

    switch ((enum pz_rec_kind)r->kind) {
    case PZ_REC_SEND:
        wait_for(e, th, post_send(e, th, r, call));
        return 1;
    case PZ_REC_RECV:
        wait_for(e, th, post_recv(e, th, r));
        return 1;
    case PZ_REC_ISEND:
        remember_as(e, k, r->request, post_send(e, th, r, call), starts(call));
        return 1;
    case PZ_REC_IRECV_REQUEST:
        post_irecv(e, th, r->request, starts(call));
        return 1;
    case PZ_REC_NBC_REQUEST:
        post_nonblocking_collective(e, th, r->request);
        return 1;
    case PZ_REC_COLL_END:
        if (r->coll_op == OTF2_COLLECTIVE_OP_CREATE_HANDLE && pz_constructor(call->call))
            post_constructor(e, th, r, call->call);
        else
            wait_for(e, th, post_collective(e, th, r));
        return 1;
    case PZ_REC_ISEND_COMPLETE:
    case PZ_REC_IRECV:
    case PZ_REC_NBC_COMPLETE:
        wait_for(e, th, pz_engine_take(k, r->request));
        return 1;
    case PZ_REC_REQUEST_CANCELLED: {
        int request = pz_engine_take(k, r->request);

        if (request >= 0) {
            pz_comsys_cancel(e->cs, request);
            wait_for(e, th, request);
        }
        return 1;
    }
    default:
        return rma_event(e, th, r, call->call);
    }
}

int pz_engine_call(struct engine *e, int th)
{
    struct thread *k = &e->threads[th];
    const struct pz_rec *enter = pz_trace_in_peek(e->in, th, 0), *last;
    uint32_t region = enter->region;
    uint64_t enter_time = enter->time;
    const struct pz_region_info *call = pz_trace_in_region(e->in, region);
    int communicates, choosing;
    double io_end = -1;

    e->result->calls++;
    if (pz_call_family(call->call) == PZ_FAMILY_IO)
        e->result->io_calls++;
    k->call_region = region;
    k->call_len = pz_call_length(e->in, th, region);
    k->call_start = k->wake = k->now;
    k->in_mpi = pz_comsys_enter(e->cs, k->rank, k->call_start);
    k->outstanding = 1;   /* until every operation is posted */
    choosing = pz_any_begin(e, th, call);
    communicates = choosing;
    for (size_t i = 1; i + 1 < k->call_len && !e->error[0]; i++) {
        struct pz_rec r = *pz_any_record(e, th, i);

        if (choosing && pz_any_completes(r.kind))
            continue;
        if (pz_rec_is_io(r.kind))
            io_end = io_event(e, k, &r, io_end);
        else
            communicates |= event(e, th, &r, call);
    }
    last = pz_trace_in_peek(e->in, th, k->call_len - 1);
    if (!communicates && last && last->time > enter_time &&
        !pz_call_starts_mpi(call) && !waits_for_a_message(call))
        k->wake = k->call_start + (double)(last->time - enter_time) / e->resolution *
                                      recorded_time_scale(e, call);
    if (io_end > k->wake)
        k->wake = io_end;
    /* the call lasts at least until the overheads of what it posted are spent */
    if (pz_comsys_cpu_free(e->cs, k->rank) > k->wake)
        k->wake = pz_comsys_cpu_free(e->cs, k->rank);
    if (choosing)
        pz_any_wait(e, th);
    if (--k->outstanding > 0) {
        k->state = THREAD_PARKED;
        return 1;
    }
    pz_engine_finish_call(e, th);
    return 0;
}

/* Whether an event of a call happens at its start (posting) or at its end. */
static int at_start(uint8_t kind)
{
    return kind == PZ_REC_ENTER || kind == PZ_REC_SEND || kind == PZ_REC_ISEND ||
           kind == PZ_REC_IRECV_REQUEST || kind == PZ_REC_COLL_BEGIN ||
           kind == PZ_REC_NBC_REQUEST || kind == PZ_REC_RMA_COLL_BEGIN ||
           kind == PZ_REC_RMA_WIN_DESTROY || kind == PZ_REC_RMA_PUT ||
           kind == PZ_REC_RMA_GET || kind == PZ_REC_RMA_ATOMIC || kind == PZ_REC_IO_BEGIN;
}

/* Writes the records of thread th's call with their predicted times. */
static void emit_call(struct engine *e, int th)
{
    struct thread *k = &e->threads[th];
    const struct pz_rec *r;

    for (size_t i = 0; i < k->call_len && (r = pz_any_record(e, th, i)); i++)
        pz_engine_emit(e, th, r,
                       at_start(r->kind) && i + 1 < k->call_len ? k->call_start : k->wake);
}

void pz_engine_finish_call(struct engine *e, int th)
{
    struct thread *k = &e->threads[th];
    const struct pz_rec *leave;

    /* without a trace to write or a sink, only the Leave is read: with thousands of
       threads, the records of a call that waited have left the cache by now */
    if (pz_call_family(pz_trace_in_region(e->in, k->call_region)->call) == PZ_FAMILY_RMA)
        end_one_sided(e, th, pz_trace_in_region(e->in, k->call_region)->call);
    pz_any_choose(e, th);
    if (e->out || e->o->sink)
        emit_call(e, th);
    pz_any_end(e, th);
    leave = k->call_len ? pz_trace_in_peek(e->in, th, k->call_len - 1) : NULL;
    if (leave && leave->kind == PZ_REC_LEAVE) {
        k->last = k->leave_wall = leave->time;
        k->leave_cpu = leave->cpu;
    }
    pz_trace_in_consume(e->in, th, k->call_len);
    pz_comsys_leave(e->cs, k->rank, k->in_mpi, k->wake);
    k->now = k->wake;
    k->factor = -1;
}
