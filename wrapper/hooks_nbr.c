/* The hook of neighborhood collectives (hooks_coll.h): the neighbours of the
 * communicator's topology in MPI's order, and the bytes exchanged with each of them as
 * the per-peer byte lists of an Alltoallv. */
#include <stdlib.h>

#include "hooks_coll.h"
#include "vcounts.h"

/* In- and out-neighbours of comm, in the order of the blocks of a neighborhood
 * collective's buffers; MPI_PROC_NULL stands for a missing Cartesian neighbour.  Each
 * list is allocated; 0, or -1 (nothing allocated) if comm has no topology or memory ran
 * out. */
static int neighbours(MPI_Comm comm, int **in, int *nin, int **out, int *nout)
{
    int topo = MPI_UNDEFINED, rank, ndims, weighted;

    *in = *out = NULL;
    *nin = *nout = 0;
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) {
        PMPI_Cartdim_get(comm, &ndims);
        *nin = *nout = 2 * ndims;
    } else if (topo == MPI_GRAPH) {
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, nin);
        *nout = *nin;
    } else if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, nin, nout, &weighted);
    } else {
        return -1;
    }
    *in = malloc(((size_t)*nin + 1) * sizeof(int));
    *out = malloc(((size_t)*nout + 1) * sizeof(int));
    if (!*in || !*out) {
        free(*in);
        free(*out);
        return -1;
    }
    if (topo == MPI_CART) {
        /* dimension d: the neighbour in the negative direction, then the positive one */
        for (int d = 0; d < ndims; d++)
            PMPI_Cart_shift(comm, d, 1, &(*in)[2 * d], &(*in)[2 * d + 1]);
        for (int k = 0; k < *nin; k++)
            (*out)[k] = (*in)[k];
    } else if (topo == MPI_GRAPH) {
        PMPI_Graph_neighbors(comm, rank, *nin, *in);
        for (int k = 0; k < *nin; k++)
            (*out)[k] = (*in)[k];
    } else {
        /* weights of a weighted graph are asked for: MPI may not accept
         * MPI_UNWEIGHTED for them */
        int *w = weighted ? malloc(((size_t)*nin + (size_t)*nout + 1) * sizeof(int)) : NULL;

        if (weighted && !w) {
            free(*in);
            free(*out);
            return -1;
        }
        PMPI_Dist_graph_neighbors(comm, *nin, *in, weighted ? w : MPI_UNWEIGHTED, *nout, *out,
                                  weighted ? w + *nin : MPI_UNWEIGHTED);
        free(w);
    }
    return 0;
}

/* Adds block k's bytes (counts[k] of types[k] or type, or count of type) to the entry of
 * each neighbour in per_peer; returns the bytes that go to or come from other processes. */
static uint64_t add_blocks(MPI_Count *per_peer, const int *peers, int n, int self,
                           struct pz_counts counts, MPI_Count count, MPI_Datatype type,
                           const MPI_Datatype *types)
{
    uint64_t others = 0;

    for (int k = 0; k < n; k++) {
        uint64_t b = pz_bytes(counts.at ? pz_count_at(counts, k) : count,
                              types ? types[k] : type);

        if (peers[k] == MPI_PROC_NULL || peers[k] < 0)
            continue;
        per_peer[peers[k]] += (MPI_Count)b;
        if (peers[k] != self)
            others += b;
    }
    return others;
}

void pz_nbr_record(struct pz_call *c, struct pz_counts scounts, MPI_Count scount,
                   MPI_Datatype stype, const MPI_Datatype *stypes, struct pz_counts rcounts,
                   MPI_Count rcount, MPI_Datatype rtype, const MPI_Datatype *rtypes,
                   MPI_Comm comm, MPI_Request *request, int persistent)
{
    struct pz_request r = { .kind = PZ_REQ_COLL, .collective = PZ_COLL_ALLTOALLV,
                            .comm = pz_comm_ref(comm), .peer = -1,
                            .send_counts = PZ_NO_COUNTS, .recv_counts = PZ_NO_COUNTS };
    int *in, *out, nin, nout, rank, size;
    MPI_Count *sent, *received;      /* bytes per rank: above 2 GiB with large counts */

    /* before anything that may fail: every member counts each init (comms.h) */
    if (persistent)
        r.comm = pz_comms_persistent(r.comm, (uint16_t)c->id);
    if (neighbours(comm, &in, &nin, &out, &nout) != 0)
        return;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    sent = calloc((size_t)size, sizeof(*sent));
    received = calloc((size_t)size, sizeof(*received));
    if (sent && received) {
        r.bytes = add_blocks(sent, out, nout, rank, scounts, scount, stype, stypes);
        r.bytes_received = add_blocks(received, in, nin, rank, rcounts, rcount, rtype, rtypes);
        r.send_counts = pz_vcounts_intern(pz_wide_counts(sent), MPI_BYTE, NULL, size);
        r.recv_counts = pz_vcounts_intern(pz_wide_counts(received), MPI_BYTE, NULL, size);
        if (persistent) {
            r.persistent = 1;
            pz_requests_add(c->thread->requests, request, &r);
        } else {
            if (request)
                pz_requests_post(c->thread->requests, request, &r);
            pz_add_request_event(c, &r, request ? PZ_ITEM_NBC_REQUEST : PZ_ITEM_COLL);
        }
    }
    free(sent);
    free(received);
    free(in);
    free(out);
}
