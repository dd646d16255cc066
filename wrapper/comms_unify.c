/* Unification of the communicators of all processes at finalize: rank 0 collects every
 * global id and numbers them in sorted order, so world is 0, self 1 and unknown 2; the
 * leader of each communicator's local group describes its members to rank 0. */
#include <stdlib.h>
#include <string.h>

#include "comms.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

static size_t sort_unique(uint64_t *v, size_t n)
{
    size_t m = 0;

    qsort(v, n, sizeof(*v), cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

static uint32_t find(const uint64_t *v, uint32_t n, uint64_t key)
{
    uint32_t lo = 0, hi = n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Gathers n values of every rank to rank 0; returns them (rank 0) and their total. */
static int64_t *gather_i64(MPI_Comm comm, const int64_t *v, int n, int *total)
{
    int rank, size, *counts = NULL, *displs = NULL;
    int64_t *all = NULL;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    *total = 0;
    if (rank == 0) {
        counts = malloc((size_t)size * sizeof(int));
        displs = malloc((size_t)size * sizeof(int));
    }
    PMPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    if (rank == 0) {
        for (int i = 0; i < size; i++) {
            displs[i] = *total;
            *total += counts[i];
        }
        all = malloc((size_t)(*total ? *total : 1) * sizeof(int64_t));
    }
    PMPI_Gatherv(v, n, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, comm);
    free(counts);
    free(displs);
    return all;
}

/* Every registered global id, numbered; the sorted list ends up on every rank. */
static uint64_t *number_gids(MPI_Comm comm, uint32_t *m)
{
    uint32_t n = pz_comms_count();
    int64_t *mine = malloc(n * sizeof(int64_t)), *all;
    int total, rank, count;
    uint64_t *unique = NULL;

    for (uint32_t r = 0; r < n; r++)
        mine[r] = (int64_t)pz_comm_get(r)->gid;
    all = gather_i64(comm, mine, (int)n, &total);
    free(mine);
    PMPI_Comm_rank(comm, &rank);
    count = rank == 0 ? (int)sort_unique((uint64_t *)all, (size_t)total) : 0;
    PMPI_Bcast(&count, 1, MPI_INT, 0, comm);
    unique = rank == 0 ? (uint64_t *)all : malloc((size_t)count * sizeof(uint64_t));
    PMPI_Bcast(unique, count, MPI_UINT64_T, 0, comm);
    *m = (uint32_t)count;
    return unique;
}

/* Values of a description before its members. */
enum { HEADER = 5 };

/* Values of c's description. */
static size_t description_length(const struct pz_comm_info *c)
{
    return HEADER + (size_t)c->size + (size_t)c->remote_size + 2 * (size_t)c->ndims;
}

/* This process's descriptions of the communicators whose local group it leads:
 * gid, creator, size, remote size, ndims, members, then the topology's ndims sizes and
 * ndims periodicities. */
static int64_t *describe_led(int *len)
{
    uint32_t n = pz_comms_count();
    size_t cap = 0, used = 0;
    int64_t *v;

    for (uint32_t r = 0; r < n; r++)
        cap += description_length(pz_comm_get(r));
    v = malloc((cap ? cap : 1) * sizeof(int64_t));
    for (uint32_t r = 0; r < n; r++) {
        const struct pz_comm_info *c = pz_comm_get(r);

        if (c->rank != 0 || !c->members)
            continue;
        v[used++] = (int64_t)c->gid;
        v[used++] = c->creator;
        v[used++] = c->size;
        v[used++] = c->remote_size;
        v[used++] = c->ndims;
        for (int i = 0; i < c->size + c->remote_size; i++)
            v[used++] = c->members[i];
        for (int i = 0; i < 2 * c->ndims; i++)
            v[used++] = c->cart[i];
    }
    *len = (int)used;
    return v;
}

static struct pz_global_comm *collect(const int64_t *d, int len, const uint64_t *gids,
                                      uint32_t m)
{
    struct pz_global_comm *all = calloc(m ? m : 1, sizeof(*all));

    for (uint32_t i = 0; i < m; i++)
        all[i].gid = gids[i];
    for (int pos = 0; pos < len;) {
        struct pz_global_comm *g = &all[find(gids, m, (uint64_t)d[pos])];
        int size = (int)d[pos + 2], remote = (int)d[pos + 3], ndims = (int)d[pos + 4];
        const int64_t *members = d + pos + HEADER, *cart = members + size + remote;

        if (!g->members) {
            g->creator = (uint16_t)d[pos + 1];
            g->size = size;
            g->remote_size = remote;
            g->members = malloc((size_t)(size + remote) * sizeof(int));
            for (int i = 0; i < size + remote; i++)
                g->members[i] = (int)members[i];
            if (ndims > 0 && (g->cart = malloc(2 * (size_t)ndims * sizeof(int)))) {
                g->ndims = ndims;
                for (int i = 0; i < 2 * ndims; i++)
                    g->cart[i] = (int)cart[i];
            }
        }
        pos += HEADER + size + remote + 2 * ndims;
    }
    return all;
}

int pz_comms_unify(MPI_Comm comm, uint32_t *map, struct pz_global_comm **all,
                   uint32_t *nall)
{
    uint32_t m, n = pz_comms_count();
    uint64_t *gids = number_gids(comm, &m);
    int len, total, rank;
    int64_t *mine, *descriptions;

    if (!gids)
        return -1;
    for (uint32_t r = 0; r < n; r++)
        map[r] = find(gids, m, pz_comm_get(r)->gid);
    mine = describe_led(&len);
    descriptions = gather_i64(comm, mine, len, &total);
    free(mine);
    PMPI_Comm_rank(comm, &rank);
    *all = NULL;
    *nall = 0;
    if (rank == 0) {
        *all = collect(descriptions, total, gids, m);
        *nall = m;
    }
    free(descriptions);
    free(gids);
    return 0;
}

void pz_comms_free_global(struct pz_global_comm *all, uint32_t nall)
{
    for (uint32_t i = 0; all && i < nall; i++) {
        free(all[i].members);
        free(all[i].cart);
    }
    free(all);
}
