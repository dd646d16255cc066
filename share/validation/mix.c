/* mix: the MPI patterns of others' codes that the other kernels do not use, one interval
 * each, in every pass, so that each can be tried alone.  The processes form a ring
 * (rank - 1 and rank + 1); every pass runs, in this order, the patterns PATTERNS names
 * (default "abcdefghi", all but j):
 *   a  a halo on the ring by persistent requests (MPI_Send_init, MPI_Recv_init made
 *      once; MPI_Startall and MPI_Waitall every pass), after a computation
 *   b  completion by polling: MPI_Irecv and MPI_Isend to both neighbours, then a little
 *      computation and MPI_Testall until they completed (the number of MPI_Testall calls
 *      depends on the timing); then a message to the right neighbour, sent after a
 *      computation, that it polls for by a little computation and MPI_Iprobe until it
 *      arrived, then receives (MPI_Recv)
 *   c  receives from both neighbours completed one at a time by MPI_Waitany, then again
 *      by MPI_Waitsome (which may complete both at once)
 *   d  prefix sums and reductions scattered: MPI_Scan, MPI_Exscan (rank 0's result
 *      undefined), MPI_Reduce_scatter_block, and MPI_Reduce_scatter of 8192 doubles
 *      split in blocks (the first 8192 % P ranks a double more)
 *   e  MPI_Ialltoallv and MPI_Iallgatherv of blocks of 8192 doubles, overlapped with a
 *      computation, completed by one MPI_Waitall
 *   f  a shift around the ring by MPI_Sendrecv_replace, then one by MPI_Ssend to a
 *      receive posted before (MPI_Irecv, MPI_Wait)
 *   g  persistent collectives, made once: MPI_Allreduce_init, and
 *      MPI_Neighbor_alltoall_init on a periodic 1-D Cartesian communicator; every pass
 *      starts each (MPI_Start), computes, and completes it (MPI_Wait)
 *   h  the rows and columns of a 2-D Cartesian grid (MPI_Cart_sub, made once): every
 *      pass sums along the rows and along the columns (MPI_Allreduce)
 *   i  the even ranks (MPI_Group_range_incl, MPI_Comm_create_group made once by them):
 *      every pass broadcasts among them (MPI_Bcast)
 *   j  receives from the neighbours of a chain (the ring without its wrap: the ends have
 *      one neighbour, the others two) completed one at a time by MPI_Waitany, one call
 *      per neighbour, each followed by a computation
 * What a pattern makes once (requests, communicators) is made only when it is chosen.
 * Intervals: the passes (1), then a (2), b (3), c (4), d (5), e (6), f (7), g (8), h (9),
 * i (10), j (11).
 * A pass takes a few milliseconds.  Part of the scaling validation (programs shaped like
 * others' codes, docs/predict.md).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o mix mix.c && mpiexec -n 4 ./mix [PASSES [PATTERNS]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HALO 1024     /* doubles of a halo */
#define TOTAL 8192    /* doubles split among the ranks in d and e */
#define WORK 200000   /* steps of a pattern's computation */
#define POLL 2000     /* steps of the computation between two polls */

struct ring {
    int rank, size, left, right;
};

static double sink;  /* keeps the computations from being optimized away */

/* A computation of `steps` dependent floating-point steps. */
static void compute(long steps)
{
    double x = sink + 1.0;

    for (long i = 0; i < steps; i++)
        x = x * 0.999999 + 1e-6;
    sink = x;
}

/* The block of TOTAL doubles rank i holds among `size`. */
static int block(int i, int size)
{
    return TOTAL / size + (i < TOTAL % size);
}

/* a: the halo by persistent requests made by the caller. */
static void persistent_halo(MPI_Request req[4])
{
    MPI_Status st[4];

    compute(WORK);
    MPI_Startall(4, req);
    MPI_Waitall(4, req, st);
}

/* b: completion by MPI_Testall in a loop, then a message polled for by MPI_Iprobe. */
static void polling(const struct ring *r, double *out, double *in)
{
    MPI_Request req[4];
    MPI_Status st[4];
    int done = 0;

    MPI_Irecv(in, HALO, MPI_DOUBLE, r->left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in + HALO, HALO, MPI_DOUBLE, r->right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(out, HALO, MPI_DOUBLE, r->right, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(out + HALO, HALO, MPI_DOUBLE, r->left, 1, MPI_COMM_WORLD, &req[3]);
    while (!done) {
        compute(POLL);
        MPI_Testall(4, req, &done, st);
    }

    MPI_Request sent;
    int arrived = 0;
    compute(WORK / 4);
    MPI_Isend(out, 16, MPI_DOUBLE, r->right, 2, MPI_COMM_WORLD, &sent);
    while (!arrived) {
        compute(POLL);
        MPI_Iprobe(r->left, 2, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
    }
    MPI_Recv(in, 16, MPI_DOUBLE, r->left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&sent, MPI_STATUS_IGNORE);
}

/* c: receives completed one by one by MPI_Waitany, then by MPI_Waitsome. */
static void any_some(const struct ring *r, double *out, double *in)
{
    MPI_Request recv[2], send[2];
    MPI_Status st[2];
    int index, got, indices[2];

    for (int pass = 0; pass < 2; pass++) {
        MPI_Irecv(in, HALO, MPI_DOUBLE, r->left, 3, MPI_COMM_WORLD, &recv[0]);
        MPI_Irecv(in + HALO, HALO, MPI_DOUBLE, r->right, 4, MPI_COMM_WORLD, &recv[1]);
        MPI_Isend(out, HALO, MPI_DOUBLE, r->right, 3, MPI_COMM_WORLD, &send[0]);
        MPI_Isend(out + HALO, HALO, MPI_DOUBLE, r->left, 4, MPI_COMM_WORLD, &send[1]);
        if (pass == 0)
            for (int k = 0; k < 2; k++) {
                MPI_Waitany(2, recv, &index, MPI_STATUS_IGNORE);
                compute(WORK / 8);
            }
        else
            for (int left = 2; left > 0; left -= got) {
                MPI_Waitsome(2, recv, &got, indices, st);
                compute(WORK / 8);
            }
        MPI_Waitall(2, send, st);
    }
}

/* j: receives from the neighbours of a chain, completed one by one by MPI_Waitany. */
static void chain_any(const struct ring *r, double *out, double *in)
{
    int peers[2], n = 0, index;
    MPI_Request recv[2], send[2];
    MPI_Status st[2];

    if (r->rank > 0)
        peers[n++] = r->rank - 1;
    if (r->rank < r->size - 1)
        peers[n++] = r->rank + 1;
    for (int k = 0; k < n; k++) {
        /* a message to the right is received from the left (tag 10), and back (11) */
        MPI_Irecv(in + k * HALO, HALO, MPI_DOUBLE, peers[k], peers[k] < r->rank ? 10 : 11,
                  MPI_COMM_WORLD, &recv[k]);
        MPI_Isend(out + k * HALO, HALO, MPI_DOUBLE, peers[k], peers[k] < r->rank ? 11 : 10,
                  MPI_COMM_WORLD, &send[k]);
    }
    for (int k = 0; k < n; k++) {
        MPI_Waitany(n, recv, &index, MPI_STATUS_IGNORE);
        compute(WORK / 8);
    }
    MPI_Waitall(n, send, st);
}

/* d: the prefix sums and the reductions scattered. */
static void scans(const struct ring *r, double *out, double *in)
{
    double mine = r->rank + 1.0, upto = 0.0;
    int count = 100 + r->rank, before = 0, *counts = malloc(r->size * sizeof(int));

    compute(WORK / 2);
    MPI_Scan(&mine, &upto, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(&count, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(out, in, TOTAL / r->size, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < r->size; i++)
        counts[i] = block(i, r->size);
    MPI_Reduce_scatter(out, in, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(counts);
}

/* e: MPI_Ialltoallv and MPI_Iallgatherv overlapped with a computation. */
static void overlapped(const struct ring *r, double *out, double *in, double *all)
{
    int n = r->size, *sc = malloc(4 * n * sizeof(int));
    int *sd = sc + n, *rc = sc + 2 * n, *rd = sc + 3 * n;
    MPI_Request req[2];
    MPI_Status st[2];

    /* rank i sends TOTAL / P^2 doubles (at least one) to every rank */
    for (int i = 0; i < n; i++) {
        sc[i] = rc[i] = TOTAL / (n * n) + 1;
        sd[i] = rd[i] = i * sc[i];
    }
    MPI_Ialltoallv(out, sc, sd, MPI_DOUBLE, in, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD, &req[0]);
    for (int i = 0, at = 0; i < n; i++) {
        rc[i] = block(i, n);
        rd[i] = at;
        at += rc[i];
    }
    MPI_Iallgatherv(out, block(r->rank, n), MPI_DOUBLE, all, rc, rd, MPI_DOUBLE,
                    MPI_COMM_WORLD, &req[1]);
    compute(WORK);
    MPI_Waitall(2, req, st);
    free(sc);
}

/* f: a shift by MPI_Sendrecv_replace, then one by MPI_Ssend to a posted receive. */
static void shifts(const struct ring *r, double *out, double *in)
{
    MPI_Request recv;

    compute(WORK / 2);
    MPI_Sendrecv_replace(out, HALO, MPI_DOUBLE, r->right, 5, r->left, 5, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    MPI_Irecv(in, HALO, MPI_DOUBLE, r->left, 6, MPI_COMM_WORLD, &recv);
    MPI_Ssend(out, HALO, MPI_DOUBLE, r->right, 6, MPI_COMM_WORLD);
    MPI_Wait(&recv, MPI_STATUS_IGNORE);
}

/* g: the persistent collectives made by the caller, started and completed. */
static void persistent_colls(MPI_Request *sum, MPI_Request *nbr)
{
    MPI_Start(sum);
    compute(WORK / 2);
    MPI_Wait(sum, MPI_STATUS_IGNORE);
    MPI_Start(nbr);
    compute(WORK / 2);
    MPI_Wait(nbr, MPI_STATUS_IGNORE);
}

/* h: sums along the rows and along the columns. */
static void slices(MPI_Comm rows, MPI_Comm cols, double *out, double *in)
{
    compute(WORK / 2);
    MPI_Allreduce(out, in, 64, MPI_DOUBLE, MPI_SUM, rows);
    MPI_Allreduce(out, in, 32, MPI_DOUBLE, MPI_SUM, cols);
}

/* i: a broadcast among the even ranks. */
static void evens_bcast(MPI_Comm evens, double *in)
{
    compute(WORK / 2);
    if (evens != MPI_COMM_NULL)
        MPI_Bcast(in, 128, MPI_DOUBLE, 0, evens);
}

int main(int argc, char **argv)
{
    int passes = argc > 1 ? atoi(argv[1]) : 20;
    const char *which = argc > 2 ? argv[2] : "abcdefghi";
    struct ring r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    r.left = (r.rank + r.size - 1) % r.size;
    r.right = (r.rank + 1) % r.size;
    double *out = calloc(TOTAL + 2 * HALO, sizeof(double));
    double *in = calloc(TOTAL + 2 * HALO, sizeof(double));
    double *all = calloc(TOTAL, sizeof(double));

    /* a: the persistent halo's requests */
    MPI_Request halo[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                           MPI_REQUEST_NULL};
    if (strchr(which, 'a')) {
        MPI_Recv_init(in, HALO, MPI_DOUBLE, r.left, 7, MPI_COMM_WORLD, &halo[0]);
        MPI_Recv_init(in + HALO, HALO, MPI_DOUBLE, r.right, 8, MPI_COMM_WORLD, &halo[1]);
        MPI_Send_init(out, HALO, MPI_DOUBLE, r.right, 7, MPI_COMM_WORLD, &halo[2]);
        MPI_Send_init(out + HALO, HALO, MPI_DOUBLE, r.left, 8, MPI_COMM_WORLD, &halo[3]);
    }

    /* g: the persistent collectives, the ring as a periodic 1-D Cartesian communicator */
    int periodic = 1, dims[2] = {0, 0}, no_periods[2] = {0, 0};
    MPI_Comm line = MPI_COMM_NULL, grid = MPI_COMM_NULL, rows = MPI_COMM_NULL;
    MPI_Comm cols = MPI_COMM_NULL, evens = MPI_COMM_NULL;
    MPI_Request sum = MPI_REQUEST_NULL, nbr = MPI_REQUEST_NULL;
    if (strchr(which, 'g')) {
        MPI_Cart_create(MPI_COMM_WORLD, 1, &r.size, &periodic, 0, &line);
        MPI_Allreduce_init(out, in, 16, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &sum);
        MPI_Neighbor_alltoall_init(out, 256, MPI_DOUBLE, in, 256, MPI_DOUBLE, line,
                                   MPI_INFO_NULL, &nbr);
    }

    /* h: the rows and columns of a 2-D grid */
    if (strchr(which, 'h')) {
        MPI_Dims_create(r.size, 2, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, no_periods, 0, &grid);
        MPI_Cart_sub(grid, (int[]){0, 1}, &rows);
        MPI_Cart_sub(grid, (int[]){1, 0}, &cols);
    }

    /* i: the even ranks */
    if (strchr(which, 'i')) {
        MPI_Group world_group, even_group;
        int range[1][3] = {{0, r.size - 1, 2}};

        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_range_incl(world_group, 1, range, &even_group);
        if (r.rank % 2 == 0)
            MPI_Comm_create_group(MPI_COMM_WORLD, even_group, 9, &evens);
        MPI_Group_free(&even_group);
        MPI_Group_free(&world_group);
    }

    PROGNOZ_BEGIN(1);
    for (int pass = 0; pass < passes; pass++) {
        for (const char *p = which; *p; p++) {
            int id = *p - 'a' + 2;
            PROGNOZ_BEGIN(id);
            switch (*p) {
            case 'a': persistent_halo(halo); break;
            case 'b': polling(&r, out, in); break;
            case 'c': any_some(&r, out, in); break;
            case 'd': scans(&r, out, in); break;
            case 'e': overlapped(&r, out, in, all); break;
            case 'f': shifts(&r, out, in); break;
            case 'g': persistent_colls(&sum, &nbr); break;
            case 'h': slices(rows, cols, out, in); break;
            case 'i': evens_bcast(evens, in); break;
            case 'j': chain_any(&r, out, in); break;
            default:
                if (r.rank == 0)
                    fprintf(stderr, "mix: '%c' is not a pattern (a to j)\n", *p);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            PROGNOZ_END(id);
        }
    }
    PROGNOZ_END(1);

    for (int k = 0; k < 4; k++)
        if (halo[k] != MPI_REQUEST_NULL)
            MPI_Request_free(&halo[k]);
    MPI_Comm *comms[] = {&evens, &rows, &cols, &grid, &line};
    for (size_t k = 0; k < sizeof(comms) / sizeof(comms[0]); k++)
        if (*comms[k] != MPI_COMM_NULL)
            MPI_Comm_free(comms[k]);
    if (sum != MPI_REQUEST_NULL)
        MPI_Request_free(&sum);
    if (nbr != MPI_REQUEST_NULL)
        MPI_Request_free(&nbr);
    if (r.rank == 0)
        printf("mix: %d passes of %s on %d processes (%g)\n", passes, which, r.size, sink);
    free(out);
    free(in);
    free(all);
    MPI_Finalize();
    return 0;
}
