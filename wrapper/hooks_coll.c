/* Hook of collective calls: a collective event with the bytes of coll_bytes.h. */
#include "coll_bytes.h"
#include "comms.h"
#include "hooks.h"
#include "requests.h"

void pz_post_coll(struct pz_call *c, const void *sbuf, int scount, MPI_Datatype stype,
                  int rcount, MPI_Datatype rtype, const int *scounts, const int *rcounts,
                  const MPI_Datatype *stypes, const MPI_Datatype *rtypes, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    uint32_t ref = pz_comm_ref(comm);
    const struct pz_comm_info *info = pz_comm_get(ref);
    struct pz_coll_args a = { .op = pz_calls[c->id].collective, .rank = info->rank,
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

        pz_coll_rooted_bytes(&a, is_root, in_group, &r.bytes, &r.bytes_received);
        r.peer = a.inter || root < 0 ? -1 : root;
    } else {
        pz_coll_bytes(&a, &r.bytes, &r.bytes_received);
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
