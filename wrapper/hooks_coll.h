/* The hooks of collective calls (categories coll, pcoll, nbr and pnbr of mpi_calls.tbl):
 * a collective event with the bytes of coll_bytes.h.  Inline in each collective's
 * wrapper, where the kind of the collective and every argument the function lacks are
 * constants, so that what remains of it is the case of that collective. */
#ifndef PZ_HOOKS_COLL_H
#define PZ_HOOKS_COLL_H

#include "coll_bytes.h"
#include "comms.h"
#include "hooks.h"
#include "requests.h"

/* Per-peer byte lists of the v and w collectives, where the process's counts matter
 * (hooks_coll.c); for calls with a count array (a->scounts or a->rcounts) only.  The
 * counts of these hooks are MPI_Count and their count arrays struct pz_counts
 * (bytes.h), so that the large-count functions (MPI_Alltoallv_c...) share them. */
void pz_coll_count_lists(const struct pz_coll_args *a, int is_root, uint32_t *send,
                         uint32_t *recv);

/* Rank of the process and size of the group data goes to (the remote group of an
 * intercommunicator), in a. */
PZ_ALWAYS_INLINE void pz_coll_group(struct pz_coll_args *a, uint32_t ref, MPI_Comm comm)
{
    const struct pz_comm_info *info;
    int rank, size;

    if (ref == PZ_COMM_UNKNOWN) {
        PMPI_Comm_rank(comm, &rank);
        PMPI_Comm_size(comm, &size);
        a->rank = rank;
        a->size = size;
        a->inter = 0;
        return;
    }
    info = pz_comm_get(ref);
    a->rank = info->rank;
    a->inter = info->remote_size > 0;
    a->size = a->inter ? info->remote_size : info->size;
}

/* The root as the trace records it: its rank in the communicator; on an
 * intercommunicator its rank in its own group, which the other group's members give and
 * the root itself knows (MPI_ROOT), while the rest of its group (MPI_PROC_NULL) record
 * none, -1. */
PZ_ALWAYS_INLINE int pz_coll_recorded_root(const struct pz_coll_args *a, int root, int is_root)
{
    if (a->inter)
        return root >= 0 ? root : is_root ? a->rank : -1;
    return root < 0 ? -1 : root;
}

/* The request of a collective operation: its kind, communicator, root and bytes (with
 * the per-peer byte lists of the v and w collectives), not yet posted. */
PZ_ALWAYS_INLINE struct pz_request pz_coll_request(enum pz_coll_op kind, const void *sbuf,
                                                   MPI_Count scount, MPI_Datatype stype,
                                                   MPI_Count rcount, MPI_Datatype rtype,
                                                   struct pz_counts scounts,
                                                   struct pz_counts rcounts,
                                                   const MPI_Datatype *stypes,
                                                   const MPI_Datatype *rtypes, int root,
                                                   MPI_Comm comm)
{
    /* a reduction has one datatype for both buffers: the table gives it as stype */
    int reduction = rtype == MPI_DATATYPE_NULL && stype != MPI_DATATYPE_NULL;
    uint32_t ref = pz_comm_ref(comm);
    struct pz_coll_args a = { .op = kind, .in_place = sbuf == MPI_IN_PLACE,
                              .s = pz_bytes(scount, stype),
                              .r = pz_bytes(rcount, reduction ? stype : rtype),
                              .scounts = scounts, .rcounts = rcounts, .stypes = stypes,
                              .rtypes = rtypes, .stype = stype, .rtype = rtype };
    struct pz_request r = { .kind = PZ_REQ_COLL, .collective = (uint8_t)kind, .comm = ref,
                            .peer = -1, .send_counts = PZ_NO_COUNTS,
                            .recv_counts = PZ_NO_COUNTS };
    int is_root = 0;

    pz_coll_group(&a, ref, comm);
    if (root != PZ_NO_ROOT) {
        int in_group = a.inter ? root >= 0 : 1;

        is_root = a.inter ? root == MPI_ROOT : root == a.rank;
        pz_coll_rooted_bytes(&a, is_root, in_group, &r.bytes, &r.bytes_received);
        r.peer = pz_coll_recorded_root(&a, root, is_root);
    } else {
        pz_coll_bytes(&a, &r.bytes, &r.bytes_received);
    }
    if (scounts.at || rcounts.at)
        pz_coll_count_lists(&a, is_root, &r.send_counts, &r.recv_counts);
    return r;
}

PZ_ALWAYS_INLINE void pz_post_coll(struct pz_call *c, enum pz_coll_op kind,
                                   const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                                   MPI_Count rcount, MPI_Datatype rtype,
                                   struct pz_counts scounts, struct pz_counts rcounts,
                                   const MPI_Datatype *stypes,
                                   const MPI_Datatype *rtypes, int root, MPI_Comm comm,
                                   MPI_Request *request)
{
    struct pz_request r = pz_coll_request(kind, sbuf, scount, stype, rcount, rtype, scounts,
                                          rcounts, stypes, rtypes, root, comm);

    if (request)
        pz_requests_post(c->thread->requests, request, &r);
    pz_add_request_event(c, &r, request ? PZ_ITEM_NBC_REQUEST : PZ_ITEM_COLL);
}

/* Persistent collectives (MPI_*_init): the collective is remembered with its request,
 * and each MPI_Start of it is a nonblocking collective (hooks_wait.c) on the request's
 * own communicator (pz_comms_persistent), as MPI matches it with the same request on
 * the other members, whatever the order of the starts. */
PZ_ALWAYS_INLINE void pz_post_pcoll(struct pz_call *c, enum pz_coll_op kind,
                                    const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                                    MPI_Count rcount, MPI_Datatype rtype,
                                    struct pz_counts scounts, struct pz_counts rcounts,
                                    const MPI_Datatype *stypes,
                                    const MPI_Datatype *rtypes, int root, MPI_Comm comm,
                                    MPI_Request *request)
{
    struct pz_request r = pz_coll_request(kind, sbuf, scount, stype, rcount, rtype, scounts,
                                          rcounts, stypes, rtypes, root, comm);

    r.persistent = 1;
    r.comm = pz_comms_persistent(r.comm, (uint16_t)c->id);
    pz_requests_add(c->thread->requests, request, &r);
}

/* Neighborhood collectives (hooks_nbr.c): an Alltoallv whose per-peer byte lists have
 * the blocks exchanged with each neighbour of comm's topology and 0 for the others.
 * persistent: MPI_Neighbor_*_init, whose request is started later. */
void pz_nbr_record(struct pz_call *c, struct pz_counts scounts, MPI_Count scount,
                   MPI_Datatype stype, const MPI_Datatype *stypes, struct pz_counts rcounts,
                   MPI_Count rcount, MPI_Datatype rtype, const MPI_Datatype *rtypes,
                   MPI_Comm comm, MPI_Request *request, int persistent);

static inline void pz_post_nbr(struct pz_call *c, MPI_Count scount, MPI_Datatype stype,
                               MPI_Count rcount, MPI_Datatype rtype, struct pz_counts scounts,
                               struct pz_counts rcounts, const MPI_Datatype *stypes,
                               const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request)
{
    pz_nbr_record(c, scounts, scount, stype, stypes, rcounts, rcount, rtype, rtypes, comm,
                  request, 0);
}

static inline void pz_post_pnbr(struct pz_call *c, MPI_Count scount, MPI_Datatype stype,
                                MPI_Count rcount, MPI_Datatype rtype, struct pz_counts scounts,
                                struct pz_counts rcounts, const MPI_Datatype *stypes,
                                const MPI_Datatype *rtypes, MPI_Comm comm,
                                MPI_Request *request)
{
    pz_nbr_record(c, scounts, scount, stype, stypes, rcounts, rcount, rtype, rtypes, comm,
                  request, 1);
}

#endif
