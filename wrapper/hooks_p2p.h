/* The hooks of the point-to-point calls of nearly every program: blocking and
 * nonblocking sends and receives (categories send, recv, isend and irecv of
 * mpi_calls.tbl).  Inline in their wrappers; what is rare, the interval markers (a tag
 * no MPI accepts), is out of line in hooks_p2p.c with the other point-to-point hooks. */
#ifndef PZ_HOOKS_P2P_H
#define PZ_HOOKS_P2P_H

#include "comms.h"
#include "hooks.h"
#include "markers.h"
#include "requests.h"

/* The pre hooks of send, recv and isend/irecv for a tag of a marker (markers.h): 1, the
 * call consumed, if it is a marker half (hooks_p2p.c). */
int pz_pre_send_marker(struct pz_call *c, int peer, int tag, MPI_Comm comm);
int pz_pre_recv_marker(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                       MPI_Status *status);
int pz_pre_isend_marker(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                        MPI_Request *request);

/* Records a blocking send: MPI_Send and its modes, the send half of MPI_Sendrecv. */
static inline void pz_add_send(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer,
                               int tag, MPI_Comm comm)
{
    struct pz_item *it;

    if (peer == MPI_PROC_NULL || !(it = pz_call_item(c, PZ_ITEM_SEND)))
        return;
    it->comm = pz_comm_ref(comm);
    it->peer = peer;
    it->tag = tag;
    it->bytes = pz_bytes(count, type);
}

/* The peer to record of a receive that status completed.  A receive from MPI_PROC_NULL
 * (the MPI_Imrecv of the message MPI_Improbe found there) moves nothing: MPICH gives
 * it MPI_PROC_NULL, -1, as its source, which the trace writes as an undefined sender
 * and the readers take as no message; Open MPI's MPI_PROC_NULL is -2, recorded as
 * MPICH's is. */
static inline int32_t pz_received_peer(const MPI_Status *status)
{
    return status->MPI_SOURCE == MPI_PROC_NULL ? -1 : status->MPI_SOURCE;
}

/* Records the receive that status describes, on local communicator comm, posted for
 * source `posted` (MPI_ANY_SOURCE is marked, record.h). */
static inline void pz_add_received(struct pz_call *c, uint32_t comm, const MPI_Status *status,
                                   int posted)
{
    struct pz_item *it;

    if (status->MPI_SOURCE == MPI_PROC_NULL || !(it = pz_call_item(c, PZ_ITEM_RECV)))
        return;
    it->comm = comm;
    it->peer = status->MPI_SOURCE;
    it->tag = status->MPI_TAG;
    pz_item_keep_status(it, status);
    if (posted == MPI_ANY_SOURCE)
        it->flags |= PZ_ITEM_ANY_SOURCE;
}

/* Remembers a posted send or receive r under the program's request variable and records
 * its post. */
PZ_ALWAYS_INLINE void pz_posted(struct pz_call *c, struct pz_request *r,
                                const MPI_Request *request)
{
    pz_requests_post(c->thread->requests, request, r);
    pz_add_request_event(c, r, r->kind == PZ_REQ_SEND ? PZ_ITEM_ISEND : PZ_ITEM_IRECV_REQUEST);
}

PZ_ALWAYS_INLINE int pz_pre_send(struct pz_call *c, int peer, int tag, MPI_Comm comm)
{
    return pz_is_marker_tag(tag) && pz_pre_send_marker(c, peer, tag, comm);
}

PZ_ALWAYS_INLINE void pz_post_send(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer,
                                   int tag, MPI_Comm comm)
{
    pz_add_send(c, count, type, peer, tag, comm);
}

PZ_ALWAYS_INLINE int pz_pre_recv(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                                 MPI_Status **status)
{
    if (pz_is_marker_tag(tag) && pz_pre_recv_marker(c, peer, tag, comm, *status))
        return 1;
    return pz_stand_in_status(c, status);
}

PZ_ALWAYS_INLINE void pz_post_recv(struct pz_call *c, int peer, MPI_Comm comm,
                                   MPI_Status *status)
{
    pz_add_received(c, pz_comm_ref(comm), status, peer);
}

PZ_ALWAYS_INLINE int pz_pre_isend(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                                  MPI_Request *request)
{
    return pz_is_marker_tag(tag) && pz_pre_isend_marker(c, peer, tag, comm, request);
}

PZ_ALWAYS_INLINE void pz_post_isend(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer,
                                    int tag, MPI_Comm comm, MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_SEND, .peer = peer, .tag = tag };

    if (peer == MPI_PROC_NULL)
        return;
    r.comm = pz_comm_ref(comm);
    r.bytes = pz_bytes(count, type);
    pz_posted(c, &r, request);
}

PZ_ALWAYS_INLINE int pz_pre_irecv(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                                  MPI_Request *request)
{
    return pz_pre_isend(c, peer, tag, comm, request);
}

PZ_ALWAYS_INLINE void pz_post_irecv(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                                    MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_RECV, .peer = peer, .tag = tag };

    if (peer == MPI_PROC_NULL)
        return;
    r.comm = pz_comm_ref(comm);
    pz_posted(c, &r, request);
}

#endif
