/* Every collective once on 4 ranks, blocking (no argument) or as its nonblocking form
 * followed by MPI_Wait (argument "nonblocking"), with roots, counts and types chosen so
 * that the bytes each rank sends and receives differ from rank to rank and from
 * collective to collective (tests/integration/coll.sh computes them). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define P 4

static int nonblocking;
static MPI_Request req;

/* The nonblocking form's request completes here. */
static void done(void)
{
    if (nonblocking)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
}

#define COLL(blocking_call, nonblocking_call) \
    do {                                      \
        if (nonblocking)                      \
            nonblocking_call;                 \
        else                                  \
            blocking_call;                    \
        done();                               \
    } while (0)

int main(int argc, char **argv)
{
    int rank, size, s[64], r[64], counts[P], displs[P], rcounts[P], rdispls[P];
    double ds[16], dr[16];
    short ss[64], sr[64];
    MPI_Datatype types[P];
    MPI_Comm w = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    nonblocking = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size != P) {
        fprintf(stderr, "coll: run me on %d ranks\n", P);
        MPI_Abort(w, 2);
    }
    memset(s, 0, sizeof(s));
    memset(ds, 0, sizeof(ds));
    memset(ss, 0, sizeof(ss));

    COLL(MPI_Barrier(w), MPI_Ibarrier(w, &req));
    COLL(MPI_Bcast(s, 3, MPI_INT, 2, w), MPI_Ibcast(s, 3, MPI_INT, 2, w, &req));
    COLL(MPI_Gather(s, 2, MPI_INT, r, 2, MPI_INT, 2, w),
         MPI_Igather(s, 2, MPI_INT, r, 2, MPI_INT, 2, w, &req));
    /* rank i gives i+1 ints to root 1 */
    for (int i = 0, d = 0; i < P; d += i + 1, i++) {
        counts[i] = i + 1;
        displs[i] = d;
    }
    COLL(MPI_Gatherv(s, rank + 1, MPI_INT, r, counts, displs, MPI_INT, 1, w),
         MPI_Igatherv(s, rank + 1, MPI_INT, r, counts, displs, MPI_INT, 1, w, &req));
    COLL(MPI_Scatter(ds, 2, MPI_DOUBLE, dr, 2, MPI_DOUBLE, 3, w),
         MPI_Iscatter(ds, 2, MPI_DOUBLE, dr, 2, MPI_DOUBLE, 3, w, &req));
    /* root 0 gives rank i i+1 ints */
    COLL(MPI_Scatterv(s, counts, displs, MPI_INT, r, rank + 1, MPI_INT, 0, w),
         MPI_Iscatterv(s, counts, displs, MPI_INT, r, rank + 1, MPI_INT, 0, w, &req));
    COLL(MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, w),
         MPI_Iallgather(s, 1, MPI_INT, r, 1, MPI_INT, w, &req));
    COLL(MPI_Allgatherv(s, rank + 1, MPI_INT, r, counts, displs, MPI_INT, w),
         MPI_Iallgatherv(s, rank + 1, MPI_INT, r, counts, displs, MPI_INT, w, &req));
    COLL(MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, w),
         MPI_Ialltoall(s, 2, MPI_INT, r, 2, MPI_INT, w, &req));
    /* rank i sends rank j i+j+1 ints */
    for (int j = 0, d = 0, e = 0; j < P; d += rank + j + 1, e += j + rank + 1, j++) {
        counts[j] = rank + j + 1;
        displs[j] = d;
        rcounts[j] = j + rank + 1;
        rdispls[j] = e;
    }
    COLL(MPI_Alltoallv(s, counts, displs, MPI_INT, r, rcounts, rdispls, MPI_INT, w),
         MPI_Ialltoallv(s, counts, displs, MPI_INT, r, rcounts, rdispls, MPI_INT, w, &req));
    /* rank i sends rank j j+1 shorts; displacements of alltoallw are in bytes */
    for (int j = 0, d = 0, e = 0; j < P; d += 2 * (j + 1), e += 2 * (rank + 1), j++) {
        counts[j] = j + 1;
        displs[j] = d;
        rcounts[j] = rank + 1;
        rdispls[j] = e;
        types[j] = MPI_SHORT;
    }
    COLL(MPI_Alltoallw(ss, counts, displs, types, sr, rcounts, rdispls, types, w),
         MPI_Ialltoallw(ss, counts, displs, types, sr, rcounts, rdispls, types, w, &req));
    COLL(MPI_Reduce(ds, dr, 2, MPI_DOUBLE, MPI_SUM, 1, w),
         MPI_Ireduce(ds, dr, 2, MPI_DOUBLE, MPI_SUM, 1, w, &req));
    COLL(MPI_Allreduce(s, r, 3, MPI_INT, MPI_SUM, w),
         MPI_Iallreduce(s, r, 3, MPI_INT, MPI_SUM, w, &req));
    COLL(MPI_Allreduce(MPI_IN_PLACE, r, 5, MPI_INT, MPI_MAX, w),
         MPI_Iallreduce(MPI_IN_PLACE, r, 5, MPI_INT, MPI_MAX, w, &req));
    for (int i = 0; i < P; i++)
        counts[i] = i + 1;
    COLL(MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, w),
         MPI_Ireduce_scatter(s, r, counts, MPI_INT, MPI_SUM, w, &req));
    COLL(MPI_Reduce_scatter_block(s, r, 2, MPI_INT, MPI_SUM, w),
         MPI_Ireduce_scatter_block(s, r, 2, MPI_INT, MPI_SUM, w, &req));
    COLL(MPI_Scan(s, r, 1, MPI_INT, MPI_SUM, w), MPI_Iscan(s, r, 1, MPI_INT, MPI_SUM, w, &req));
    COLL(MPI_Exscan(s, r, 2, MPI_INT, MPI_SUM, w),
         MPI_Iexscan(s, r, 2, MPI_INT, MPI_SUM, w, &req));

    MPI_Finalize();
    return 0;
}
