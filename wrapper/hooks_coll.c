/* Hook of collective calls: the bytes each process sends and receives, counted as the
 * data that moves between different processes by the operation's definition, whatever
 * algorithm MPI uses (docs/trace-format.md). */
#include "calls_gen.h"
#include "comms.h"
#include "hooks.h"
#include "requests.h"

struct coll_args {
    enum pz_collective op;
    int rank, size;            /* size: of the group data goes to (remote group if inter) */
    int inter;
    int in_place;
    uint64_t s, r;             /* one block sent / received, in bytes */
    const int *scounts, *rcounts;
    const MPI_Datatype *stypes, *rtypes;
    MPI_Datatype stype, rtype;
};

/* Sum over peers other than the process itself of counts[i] elements of type. */
static uint64_t sum_others(const struct coll_args *a, const int *counts, MPI_Datatype type,
                           const MPI_Datatype *types)
{
    uint64_t sum = 0;

    if (!counts)
        return 0;
    for (int i = 0; i < a->size; i++)
        if (a->inter || i != a->rank)
            sum += pz_bytes(counts[i], types ? types[i] : type);
    return sum;
}

static uint64_t others(const struct coll_args *a)
{
    return (uint64_t)(a->inter ? a->size : a->size - 1);
}

static void rooted(const struct coll_args *a, int is_root, int in_group, uint64_t *sent,
                   uint64_t *received)
{
    switch (a->op) {
    case PZ_COLL_BCAST:
        *sent = is_root ? others(a) * a->s : 0;
        *received = in_group && !is_root ? a->s : 0;
        break;
    case PZ_COLL_GATHER:
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? others(a) * a->r : 0;
        break;
    case PZ_COLL_GATHERV:
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? sum_others(a, a->rcounts, a->rtype, NULL) : 0;
        break;
    case PZ_COLL_SCATTER:
        *sent = is_root ? others(a) * a->s : 0;
        *received = in_group && !is_root ? a->r : 0;
        break;
    case PZ_COLL_SCATTERV:
        *sent = is_root ? sum_others(a, a->scounts, a->stype, NULL) : 0;
        *received = in_group && !is_root ? a->r : 0;
        break;
    default: /* reduce */
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? others(a) * a->s : 0;
        break;
    }
}

static void unrooted(const struct coll_args *a, uint64_t *sent, uint64_t *received)
{
    uint64_t mine = a->rcounts && !a->inter ? pz_bytes(a->rcounts[a->rank], a->stype) : 0;

    switch (a->op) {
    case PZ_COLL_ALLGATHER:
    case PZ_COLL_ALLTOALL:
        *sent = others(a) * (a->in_place ? a->r : a->s);
        *received = others(a) * a->r;
        break;
    case PZ_COLL_ALLGATHERV:
        *sent = others(a) * (a->in_place && !a->inter && a->rcounts
                                 ? pz_bytes(a->rcounts[a->rank], a->rtype) : a->s);
        *received = sum_others(a, a->rcounts, a->rtype, NULL);
        break;
    case PZ_COLL_ALLTOALLV:
    case PZ_COLL_ALLTOALLW:
        *sent = sum_others(a, a->in_place ? a->rcounts : a->scounts,
                           a->in_place ? a->rtype : a->stype, a->in_place ? a->rtypes : a->stypes);
        *received = sum_others(a, a->rcounts, a->rtype, a->rtypes);
        break;
    case PZ_COLL_REDUCE_SCATTER:
        *sent = sum_others(a, a->rcounts, a->stype, NULL);
        *received = others(a) * mine;
        break;
    case PZ_COLL_REDUCE_SCATTER_BLOCK:
        *sent = *received = others(a) * a->r;
        break;
    case PZ_COLL_SCAN:
    case PZ_COLL_EXSCAN:
        *sent = a->rank < a->size - 1 ? a->s : 0;
        *received = a->rank > 0 ? a->s : 0;
        break;
    case PZ_COLL_ALLREDUCE:
        *sent = *received = a->size > 1 ? a->s : 0;
        break;
    default: /* barrier */
        *sent = *received = 0;
        break;
    }
}

void pz_post_coll(struct pz_call *c, const void *sbuf, int scount, MPI_Datatype stype,
                  int rcount, MPI_Datatype rtype, const int *scounts, const int *rcounts,
                  const MPI_Datatype *stypes, const MPI_Datatype *rtypes, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    uint32_t ref = pz_comm_ref(comm);
    const struct pz_comm_info *info = pz_comm_get(ref);
    struct coll_args a = { .op = pz_calls[c->id].collective, .rank = info->rank,
                           .size = info->size, .inter = info->remote_size > 0,
                           .in_place = sbuf == MPI_IN_PLACE, .s = pz_bytes(scount, stype),
                           .r = pz_bytes(rcount, rtype), .scounts = scounts,
                           .rcounts = rcounts, .stypes = stypes, .rtypes = rtypes,
                           .stype = stype, .rtype = rtype };
    struct pz_request r = { .kind = PZ_REQ_COLL, .collective = (uint8_t)a.op, .comm = ref,
                            .peer = -1 };
    struct pz_item *it;

    if (ref == PZ_COMM_UNKNOWN) {
        PMPI_Comm_rank(comm, &a.rank);
        PMPI_Comm_size(comm, &a.size);
    } else if (a.inter) {
        a.size = info->remote_size;
    }
    if (root != PZ_NO_ROOT) {
        int is_root = a.inter ? root == MPI_ROOT : root == a.rank;
        int in_group = a.inter ? root >= 0 : 1;

        rooted(&a, is_root, in_group, &r.bytes, &r.bytes_received);
        r.peer = a.inter || root < 0 ? -1 : root;
    } else {
        unrooted(&a, &r.bytes, &r.bytes_received);
    }
    if (request) {
        r.id = pz_requests_new_id();
        r.active = 1;
        pz_requests_add(*request, &r);
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
}
