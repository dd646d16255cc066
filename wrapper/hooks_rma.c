/* The hooks of one-sided communication (hooks_rma.h). */
#include <otf2/otf2.h>

#include "handles.h"
#include "hooks_rma.h"
#include "rma_groups.h"

/* The value of a window handle, as the registry knows it (handles.h). */
static uint64_t window_key(MPI_Win win)
{
    return (uint64_t)(uintptr_t)win;
}

/* A new one-sided event of the call on window ref targeting peer (-1: all). */
static struct pz_item *rma_item(struct pz_call *c, enum pz_item_kind kind, uint32_t ref,
                                int peer)
{
    struct pz_item *it = pz_call_item(c, kind);

    if (it) {
        it->comm = ref;
        it->collective = 0;
        it->peer = peer;
        it->tag = 0;
        it->request = 0;
        it->bytes = it->bytes_received = 0;
    }
    return it;
}

/* A collective operation op on window ref: begun at enter, ended at leave. */
static void collective(struct pz_call *c, uint32_t ref, OTF2_CollectiveOp op,
                       OTF2_RmaSyncLevel level)
{
    struct pz_item *it = rma_item(c, PZ_ITEM_RMA_COLL_END, ref, -1);

    rma_item(c, PZ_ITEM_RMA_COLL_BEGIN, ref, -1);
    if (it) {
        it->collective = (uint8_t)op;
        it->tag = (int32_t)level;
    }
}

void pz_post_rma_win_new(struct pz_call *c, MPI_Comm comm, MPI_Win *win)
{
    uint32_t ref = pz_handles_made(&pz_rma_windows, comm, NULL, window_key(*win));

    if (ref == PZ_NO_HANDLE)
        return;
    rma_item(c, PZ_ITEM_RMA_WIN_CREATE, ref, -1);
    collective(c, ref, OTF2_COLLECTIVE_OP_CREATE_HANDLE, OTF2_RMA_SYNC_LEVEL_PROCESS);
}

int pz_pre_rma_win_free(struct pz_call *c, MPI_Win *win)
{
    c->comm = pz_handles_find(&pz_rma_windows, window_key(*win));
    return 0;
}

void pz_post_rma_win_free(struct pz_call *c, MPI_Win *win)
{
    (void)win;  /* MPI_WIN_NULL now: the pre hook kept its reference */
    if (c->comm == PZ_NO_HANDLE)
        return;
    /* the collective's begin first, then the window's end, both at enter */
    collective(c, c->comm, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, OTF2_RMA_SYNC_LEVEL_PROCESS);
    rma_item(c, PZ_ITEM_RMA_WIN_DESTROY, c->comm, -1);
    pz_handles_freed(&pz_rma_windows, c->comm);
}

/* A transfer of bytes to or from target peer of win; none with MPI_PROC_NULL.  A
 * request-based one is remembered until its completion. */
static struct pz_item *transfer(struct pz_call *c, enum pz_item_kind kind, int peer,
                                MPI_Win win, uint64_t bytes, MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_RMA, .peer = peer, .bytes = bytes,
                            .send_counts = PZ_NO_COUNTS, .recv_counts = PZ_NO_COUNTS };
    struct pz_item *it;

    r.comm = pz_handles_find(&pz_rma_windows, window_key(win));
    if (r.comm == PZ_NO_HANDLE || peer == MPI_PROC_NULL ||
        !(it = rma_item(c, kind, r.comm, peer)))
        return NULL;
    it->bytes = bytes;
    if (request && *request != MPI_REQUEST_NULL) {
        pz_requests_post(c->thread->requests, request, &r);
        it->request = r.id;
    }
    return it;
}

void pz_post_rma_put(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, MPI_Win win,
                     MPI_Request *request)
{
    transfer(c, PZ_ITEM_RMA_PUT, peer, win, pz_bytes(count, type), request);
}

void pz_post_rma_get(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, MPI_Win win,
                     MPI_Request *request)
{
    transfer(c, PZ_ITEM_RMA_GET, peer, win, pz_bytes(count, type), request);
}

void pz_post_rma_acc(struct pz_call *c, MPI_Count count, MPI_Datatype type, MPI_Count rcount,
                     MPI_Datatype rtype, int peer, MPI_Win win, MPI_Request *request)
{
    struct pz_item *it = transfer(c, PZ_ITEM_RMA_ATOMIC, peer, win, pz_bytes(count, type),
                                  request);

    if (!it)
        return;
    it->collective = rtype == MPI_DATATYPE_NULL ? OTF2_RMA_ATOMIC_TYPE_ACCUMULATE
                                                : OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE;
    it->bytes_received = pz_bytes(rcount, rtype);
}

/* MPI_Fetch_and_op and MPI_Compare_and_swap: one element each way. */
void pz_post_rma_fetch(struct pz_call *c, MPI_Datatype type, int peer, MPI_Win win)
{
    struct pz_item *it = transfer(c, PZ_ITEM_RMA_ATOMIC, peer, win, pz_bytes(1, type), NULL);

    if (!it)
        return;
    it->collective = c->id == PZ_CALL_MPI_Compare_and_swap
                         ? OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP
                         : OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE;
    it->bytes_received = it->bytes;
}

void pz_post_rma_fence(struct pz_call *c, MPI_Win win)
{
    uint32_t ref = pz_handles_find(&pz_rma_windows, window_key(win));

    if (ref != PZ_NO_HANDLE)
        collective(c, ref, OTF2_COLLECTIVE_OP_BARRIER,
                   OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
}

/* An event of win on target peer at leave; -1 for MPI_PROC_NULL: all of its processes. */
static struct pz_item *on_target(struct pz_call *c, enum pz_item_kind kind, int peer,
                                 MPI_Win win)
{
    uint32_t ref = pz_handles_find(&pz_rma_windows, window_key(win));
    int target = peer == MPI_PROC_NULL ? -1 : peer;
    struct pz_item *it;

    if (ref == PZ_NO_HANDLE || !(it = rma_item(c, kind, ref, target)))
        return NULL;
    it->request = target < 0 ? OTF2_UNDEFINED_UINT64 : (uint64_t)target;
    return it;
}

void pz_post_rma_lock(struct pz_call *c, int locktype, int peer, MPI_Win win)
{
    struct pz_item *it = on_target(c, PZ_ITEM_RMA_REQUEST_LOCK, peer, win);

    if (it)
        it->collective = locktype == MPI_LOCK_EXCLUSIVE ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
}

void pz_post_rma_unlock(struct pz_call *c, int peer, MPI_Win win)
{
    on_target(c, PZ_ITEM_RMA_RELEASE_LOCK, peer, win);
}

void pz_post_rma_flush(struct pz_call *c, int peer, MPI_Win win)
{
    struct pz_item *it = on_target(c, PZ_ITEM_RMA_SYNC, peer, win);

    if (it) {
        it->tag = OTF2_RMA_SYNC_TYPE_MEMORY;
        it->request = 0;
    }
}

/* An RmaGroupSync of win with group at level; none without a group. */
static void group_sync(struct pz_call *c, uint32_t win, uint32_t group, OTF2_RmaSyncLevel level)
{
    struct pz_item *it;

    if (group == PZ_NO_GROUP || !(it = rma_item(c, PZ_ITEM_RMA_GROUP_SYNC, win, -1)))
        return;
    it->tag = (int32_t)level;
    it->request = group;
}

void pz_post_rma_epoch(struct pz_call *c, MPI_Group group, MPI_Win win)
{
    uint32_t ref = pz_handles_find(&pz_rma_windows, window_key(win)), g;
    enum pz_rma_epoch epoch = c->id == PZ_CALL_MPI_Win_post ? PZ_EPOCH_EXPOSURE
                                                            : PZ_EPOCH_ACCESS;

    if (ref == PZ_NO_HANDLE)
        return;
    g = pz_rma_groups_intern(group);
    pz_rma_epoch_open(ref, epoch, g);
    group_sync(c, ref, g, OTF2_RMA_SYNC_LEVEL_PROCESS);
}

void pz_post_rma_epoch_end(struct pz_call *c, MPI_Win win, int *flag)
{
    uint32_t ref = pz_handles_find(&pz_rma_windows, window_key(win));
    enum pz_rma_epoch epoch = c->id == PZ_CALL_MPI_Win_complete ? PZ_EPOCH_ACCESS
                                                                : PZ_EPOCH_EXPOSURE;

    if (ref == PZ_NO_HANDLE)
        return;
    if (flag && !*flag) {
        group_sync(c, ref, pz_rma_epoch_group(ref, epoch), OTF2_RMA_SYNC_LEVEL_NONE);
        return;
    }
    group_sync(c, ref, pz_rma_epoch_group(ref, epoch),
               OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
    pz_rma_epoch_close(ref, epoch);
}
