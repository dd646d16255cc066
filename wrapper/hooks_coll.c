/* Hook of collective calls: a collective event with the bytes of coll_bytes.h. */
#include "coll_bytes.h"
#include "comms.h"
#include "hooks.h"
#include "requests.h"
#include "vcounts.h"

/* Per-peer byte lists of the v and w collectives, where the process's counts matter. */
static void count_lists(const struct pz_coll_args *a, int is_root, uint32_t *send,
                        uint32_t *recv)
{
    const int *scounts = a->in_place ? a->rcounts : a->scounts;
    MPI_Datatype stype = a->in_place ? a->rtype : a->stype;
    const MPI_Datatype *stypes = a->in_place ? a->rtypes : a->stypes;
    int rooted = a->op == PZ_COLL_GATHERV || a->op == PZ_COLL_SCATTERV;

    *send = *recv = PZ_NO_COUNTS;
    if ((rooted && !is_root) || (!a->scounts && !a->rcounts))
        return;
    if (a->op == PZ_COLL_REDUCE_SCATTER)
        *recv = pz_vcounts_intern(a->rcounts, a->stype, NULL, a->size);
    else if (a->op != PZ_COLL_SCATTERV)
        *recv = pz_vcounts_intern(a->rcounts, a->rtype, a->rtypes, a->size);
    if (a->op == PZ_COLL_ALLTOALLV || a->op == PZ_COLL_ALLTOALLW || a->op == PZ_COLL_SCATTERV)
        *send = pz_vcounts_intern(scounts, stype, stypes, a->size);
}

void pz_post_coll(struct pz_call *c, const void *sbuf, int scount, MPI_Datatype stype,
                  int rcount, MPI_Datatype rtype, const int *scounts, const int *rcounts,
                  const MPI_Datatype *stypes, const MPI_Datatype *rtypes, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    /* a reduction has one datatype for both buffers: the table gives it as stype */
    int reduction = rtype == MPI_DATATYPE_NULL && stype != MPI_DATATYPE_NULL;
    uint32_t ref = pz_comm_ref(comm);
    const struct pz_comm_info *info = pz_comm_get(ref);
    struct pz_coll_args a = { .op = pz_calls[c->id].collective, .rank = info->rank,
                           .size = info->size, .inter = info->remote_size > 0,
                           .in_place = sbuf == MPI_IN_PLACE, .s = pz_bytes(scount, stype),
                           .r = pz_bytes(rcount, reduction ? stype : rtype), .scounts = scounts,
                           .rcounts = rcounts, .stypes = stypes, .rtypes = rtypes,
                           .stype = stype, .rtype = rtype };
    struct pz_request r = { .kind = PZ_REQ_COLL, .collective = (uint8_t)a.op, .comm = ref,
                            .peer = -1 };
    struct pz_item *it;
    int is_root = 0;

    if (ref == PZ_COMM_UNKNOWN) {
        PMPI_Comm_rank(comm, &a.rank);
        PMPI_Comm_size(comm, &a.size);
    } else if (a.inter) {
        a.size = info->remote_size;
    }
    if (root != PZ_NO_ROOT) {
        is_root = a.inter ? root == MPI_ROOT : root == a.rank;
        int in_group = a.inter ? root >= 0 : 1;

        pz_coll_rooted_bytes(&a, is_root, in_group, &r.bytes, &r.bytes_received);
        r.peer = a.inter || root < 0 ? -1 : root;
    } else {
        pz_coll_bytes(&a, &r.bytes, &r.bytes_received);
    }
    count_lists(&a, is_root, &r.send_counts, &r.recv_counts);
    if (request) {
        r.id = pz_requests_new_id();
        r.active = 1;
        pz_requests_add(c->thread->requests, *request, &r);
    }
    it = pz_call_item(c, request ? PZ_ITEM_NBC_REQUEST : PZ_ITEM_COLL);
    if (!it)
        return;
    it->collective = r.collective;
    it->comm = ref;
    it->peer = r.peer;
    it->bytes = r.bytes;
    it->bytes_received = r.bytes_received;
    it->request = r.id;
    it->send_counts = r.send_counts;
    it->recv_counts = r.recv_counts;
}
