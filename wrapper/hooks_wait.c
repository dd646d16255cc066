/* Hooks of the wait and test family and of persistent requests.  A pre hook keeps a
 * copy of the request handles, which MPI overwrites when it completes them, and where
 * the program holds them, and stands in for ignored statuses, so that the post hook
 * knows what completed and how. */
#include <stdlib.h>

#include "comms.h"
#include "hooks.h"
#include "hooks_p2p.h"
#include "requests.h"

PZ_ALWAYS_INLINE int keep_requests(struct pz_call *c, int n, const MPI_Request *requests)
{
    c->nrequests = n > 0 ? n : 0;
    c->program_requests = requests;
    c->requests = c->inline_requests;
    if (n > PZ_INLINE_REQUESTS) {
        if (!(c->requests = malloc((size_t)n * sizeof(MPI_Request)))) {
            c->nrequests = 0;
            return 0;
        }
        c->allocated |= PZ_ALLOCATED_REQUESTS;
    }
    for (int i = 0; i < c->nrequests; i++)
        c->requests[i] = requests[i];
    return 0;
}

PZ_ALWAYS_INLINE void stand_in_statuses(struct pz_call *c, int n, MPI_Status **statuses)
{
    if (*statuses != MPI_STATUSES_IGNORE)
        return;
    c->statuses = c->inline_statuses;
    if (n > PZ_INLINE_REQUESTS) {
        if (!(c->statuses = malloc((size_t)n * sizeof(MPI_Status))))
            return;  /* MPI still gets MPI_STATUSES_IGNORE; receives go unrecorded */
        c->allocated |= PZ_ALLOCATED_STATUSES;
    }
    *statuses = c->statuses;
}

void pz_call_release_requests(struct pz_call *c)
{
    if (c->allocated & PZ_ALLOCATED_REQUESTS)
        free(c->requests);
    if (c->allocated & PZ_ALLOCATED_STATUSES)
        free(c->statuses);
}

/* Records the completion of request r, as status describes it. */
PZ_ALWAYS_INLINE void record_completion(struct pz_call *c, struct pz_request r,
                                        const MPI_Status *status)
{
    struct pz_item *it;
    int cancelled = 0;

    if (r.cancelled && status && status != MPI_STATUS_IGNORE)
        PMPI_Test_cancelled(status, &cancelled);
    if (cancelled) {
        pz_add_request_event(c, &r, PZ_ITEM_REQUEST_CANCELLED);
    } else if (r.kind == PZ_REQ_SEND) {
        pz_add_request_event(c, &r, PZ_ITEM_ISEND_COMPLETE);
    } else if (r.kind == PZ_REQ_COLL) {
        pz_add_request_event(c, &r, PZ_ITEM_NBC_COMPLETE);
    } else if (r.kind == PZ_REQ_RMA) {
        pz_add_request_event(c, &r, PZ_ITEM_RMA_OP_COMPLETE);
    } else if (r.kind == PZ_REQ_IO) {
        if ((it = pz_add_request_event(c, &r, PZ_ITEM_IO_COMPLETE)) && status &&
            status != MPI_STATUS_IGNORE)
            pz_item_keep_status(it, status);
    } else if (r.pair == PZ_PAIR_RECV) {
        int any = r.peer == MPI_ANY_SOURCE;

        if (any && status && status != MPI_STATUS_IGNORE)
            r.peer = status->MPI_SOURCE;
        if (r.tag == MPI_ANY_TAG && status && status != MPI_STATUS_IGNORE)
            r.tag = status->MPI_TAG;
        if ((it = pz_add_request_event(c, &r, PZ_ITEM_IRECV_COMPLETE)) && any)
            it->flags |= PZ_ITEM_ANY_SOURCE;
    } else if (status && status != MPI_STATUS_IGNORE) {
        int any = r.peer == MPI_ANY_SOURCE;

        r.peer = pz_received_peer(status);
        r.tag = status->MPI_TAG;
        if ((it = pz_add_request_event(c, &r, PZ_ITEM_IRECV_COMPLETE))) {
            pz_item_keep_status(it, status);
            if (any)
                it->flags |= PZ_ITEM_ANY_SOURCE;
        }
    }
}

/* The requests the call was given: where the program holds them, and their handles. */
PZ_ALWAYS_INLINE struct pz_request_slots kept_slots(const struct pz_call *c)
{
    return (struct pz_request_slots){ c->program_requests, c->requests, c->nrequests };
}

/* Records the completion of the request of the call's slot i (both halves of an
 * MPI_Isendrecv, posted at one variable).  Inline in each wait and test hook: it runs
 * for every request they complete. */
PZ_ALWAYS_INLINE void completed(struct pz_call *c, int i, const MPI_Status *status)
{
    struct pz_request_slots s = kept_slots(c);
    struct pz_request r;

    if (c->requests[i] == MPI_REQUEST_NULL ||
        !pz_requests_complete(c->thread->requests, &s, i, &r))
        return;
    record_completion(c, r, status);
    if (r.pair == PZ_PAIR_SEND && pz_requests_complete(c->thread->requests, &s, i, &r))
        record_completion(c, r, status);
}

/* A test that completed nothing: each request it looked at was tested. */
static void tested(struct pz_call *c)
{
    struct pz_request_slots s = kept_slots(c);
    struct pz_request r;

    for (int i = 0; i < c->nrequests; i++)
        if (c->requests[i] != MPI_REQUEST_NULL &&
            pz_requests_find(c->thread->requests, &s, i, &r))
            pz_add_request_event(c, &r, PZ_ITEM_REQUEST_TEST);
}

int pz_pre_wait(struct pz_call *c, MPI_Request *request, MPI_Status **status)
{
    keep_requests(c, 1, request);
    return pz_stand_in_status(c, status);
}

void pz_post_wait(struct pz_call *c, int *flag, MPI_Status *status)
{
    if (flag && !*flag)
        tested(c);
    else
        completed(c, 0, status);
}

int pz_pre_waitall(struct pz_call *c, int n, MPI_Request *requests, MPI_Status **statuses)
{
    stand_in_statuses(c, n, statuses);
    return keep_requests(c, n, requests);
}

void pz_post_waitall(struct pz_call *c, int n, int *flag, MPI_Status *statuses)
{
    if (flag && !*flag) {
        tested(c);
        return;
    }
    for (int i = 0; i < n && i < c->nrequests; i++)
        completed(c, i, statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i]);
}

int pz_pre_waitany(struct pz_call *c, int n, MPI_Request *requests, MPI_Status **status)
{
    pz_stand_in_status(c, status);
    return keep_requests(c, n, requests);
}

void pz_post_waitany(struct pz_call *c, int *index, int *flag, MPI_Status *status)
{
    if (flag && !*flag)
        tested(c);
    else if (*index != MPI_UNDEFINED && *index < c->nrequests)
        completed(c, *index, status);
}

int pz_pre_waitsome(struct pz_call *c, int n, MPI_Request *requests, MPI_Status **statuses)
{
    stand_in_statuses(c, n, statuses);
    return keep_requests(c, n, requests);
}

void pz_post_waitsome(struct pz_call *c, int *outcount, int *indices, MPI_Status *statuses)
{
    if (*outcount == MPI_UNDEFINED)
        return;
    if (*outcount == 0) {
        tested(c);
        return;
    }
    for (int k = 0; k < *outcount; k++)
        if (indices[k] >= 0 && indices[k] < c->nrequests)
            completed(c, indices[k], statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[k]);
}

static void persistent(struct pz_call *c, int kind, uint64_t bytes, int peer, int tag,
                       MPI_Comm comm, const MPI_Request *request)
{
    struct pz_request r = { .kind = (uint8_t)kind, .persistent = 1, .comm = pz_comm_ref(comm),
                            .peer = peer, .tag = tag, .bytes = bytes };

    if (peer != MPI_PROC_NULL)
        pz_requests_add(c->thread->requests, request, &r);
}

void pz_post_psend_init(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag,
                        MPI_Comm comm, MPI_Request *request)
{
    persistent(c, PZ_REQ_SEND, pz_bytes(count, type), peer, tag, comm, request);
}

void pz_post_precv_init(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                        MPI_Request *request)
{
    persistent(c, PZ_REQ_RECV, 0, peer, tag, comm, request);
}

void pz_post_start(struct pz_call *c, MPI_Request *request)
{
    pz_post_startall(c, 1, request);
}

/* A persistent request keeps the variable of its *_init: a program that starts it from
 * another variable or array has it found by handle (requests.h). */
void pz_post_startall(struct pz_call *c, int n, MPI_Request *requests)
{
    struct pz_request_slots s = { requests, requests, n };
    struct pz_request r;

    for (int i = 0; i < n; i++)
        if (pz_requests_start(c->thread->requests, &s, i, &r))
            pz_add_request_event(c, &r, r.kind == PZ_REQ_SEND   ? PZ_ITEM_ISEND
                                        : r.kind == PZ_REQ_COLL ? PZ_ITEM_NBC_REQUEST
                                                                : PZ_ITEM_IRECV_REQUEST);
}

int pz_pre_request_free(struct pz_call *c, MPI_Request *request)
{
    struct pz_request_slots s = { request, request, 1 };

    if (*request != MPI_REQUEST_NULL)
        pz_requests_remove(c->thread->requests, &s, 0);
    return 0;
}

int pz_pre_cancel(struct pz_call *c, MPI_Request *request)
{
    struct pz_request_slots s = { request, request, 1 };

    if (*request != MPI_REQUEST_NULL)
        pz_requests_cancel(c->thread->requests, &s, 0);
    return 0;
}
