/* npbish: the communication patterns of the NAS Parallel Benchmarks (MPI versions), written
 * as they are: every peer is computed from the rank by the program's own formula, on a
 * power-of-two number of processes, without MPI_Cart_create.  One pattern per run:
 *
 *   a  recursive doubling over the world (NPB CG's row reductions on one row): log2(P)
 *      steps, step i with partner rank XOR 2^i, by MPI_Irecv, MPI_Send and MPI_Wait;
 *   b  NPB CG's layout: NPROWS x NPCOLS processes, NPROWS = NPCOLS = 2^(floor(log2 P / 2)),
 *      NPCOLS doubled when log2 P is odd, rank = row * NPCOLS + column; the sum of a
 *      vector segment by recursive doubling within the row (partners rank XOR 2^i,
 *      i < log2 NPCOLS), then the "transpose" exchange with NPB CG's partner
 *      (row <-> column on a square grid, on pairs of ranks on a grid twice as wide; a
 *      process on the diagonal exchanges with itself), then a dot product by recursive
 *      doubling within the row again (one double);
 *   c  NPB LU's layout: XDIM = 2^(floor(log2 P / 2)), doubled when log2 P is odd,
 *      YDIM = P / XDIM, rank = column * XDIM + row; north and south rank -+ 1, west and
 *      east rank -+ XDIM, no neighbour (-1: no call) at the edges; a pipelined lower sweep
 *      over the K planes (receive from the north and the west, relax the plane, send to
 *      the south and the east, MPI_Send and MPI_Recv) and the upper sweep back, then an
 *      MPI_Allreduce of the 5 residual norms;
 *   d  NPB IS: the keys' bucket sizes summed by MPI_Allreduce, each process given a range
 *      of buckets balanced by those sums, the counts to send it by MPI_Alltoall, the keys
 *      by MPI_Alltoallv (their counts the data's), the local ranking, then each process's
 *      largest key sent to rank + 1 (MPI_Irecv from rank - 1, MPI_Send, MPI_Wait);
 *   e  the recursive doubling of a, from the highest bit down: step i with partner rank
 *      XOR 2^(log2(P) - 1 - i), tag i, as NPB CG's reduce_exch_proc orders its steps
 *      (div_factor from NPCOLS halved at each step), here over the world.
 *
 * The problem per process is fixed (weak scaling), a few milliseconds of computation per
 * pass.  Intervals: the passes (1), the computation (2), then per pattern: a: the
 * recursive doubling (3); b: the row sum (3), the transpose exchange (4), the dot product
 * (5); c: the lower sweep (3), the upper sweep (4), the norms (5); d: the bucket sizes (3),
 * the counts (4), the keys (5), the boundary keys (6); e: the recursive doubling (3).  Part of the scaling validation
 * (programs shaped like others' codes, docs/predict.md).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o npbish npbish.c -lm
 *   mpiexec -n 8 ./npbish a|b|c|d|e [PASSES]
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK 32768      /* doubles relaxed per pass */
#define SEGMENT 16384   /* doubles of a pattern b vector over one row of processes */
#define PLANES 8        /* pattern c: the sweeps' K planes */
#define EDGE 640        /* pattern c: doubles a plane sends across a whole side of the grid */
#define KEYS 32768      /* pattern d: keys per process */
#define BUCKETS 1024    /* pattern d: buckets of the key range */
#define MAXKEY (1 << 19)

static int rank, size;

static int log2_of(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

/* The pass's own computation: a few relaxations of a local array. */
static double compute(double *a, int n, int sweeps)
{
    double s = 0.0;
    for (int k = 0; k < sweeps; k++)
        for (int i = 1; i < n - 1; i++) {
            a[i] = 0.5 * a[i] + 0.25 * (a[i - 1] + a[i + 1]);
            s += a[i];
        }
    return s;
}

/* Recursive doubling over the STEPS lowest bits of the rank, from the lowest up or (down)
 * from the highest down: the sum of N doubles. */
static void doubling(double *v, double *in, int n, int steps, int down)
{
    for (int i = 0; i < steps; i++) {
        int partner = rank ^ (1 << (down ? steps - 1 - i : i));
        MPI_Request r;
        MPI_Irecv(in, n, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &r);
        MPI_Send(v, n, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int j = 0; j < n; j++)
            v[j] += in[j];
    }
}

static void butterfly(double *v, double *in, int n, int steps)
{
    doubling(v, in, n, steps, 0);
}

/* Patterns a and e: the recursive doubling over the world, up or down. */
static void pattern_a(int passes, double *work, int down)
{
    double v[1024], in[1024];
    for (int j = 0; j < 1024; j++)
        v[j] = rank + j;
    PROGNOZ_BEGIN(1);
    for (int p = 0; p < passes; p++) {
        PROGNOZ_BEGIN(2);
        v[0] += compute(work, WORK, 8) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        doubling(v, in, 1024, log2_of(size), down);
        PROGNOZ_END(3);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("npbish %c: %d ranks, sum %.6g\n", down ? 'e' : 'a', size, v[1]);
}

/* NPB CG's partner of the transpose exchange on an NPROWS x NPCOLS grid. */
static int transpose_partner(int nprows, int npcols)
{
    if (nprows == npcols)
        return (rank % nprows) * nprows + rank / nprows;
    return 2 * (((rank / 2) % nprows) * nprows + rank / 2 / nprows) + rank % 2;
}

static void pattern_b(int passes, double *work)
{
    int l2 = log2_of(size), nprows = 1 << (l2 / 2), npcols = nprows << (l2 % 2);
    int n = SEGMENT / npcols, exch = transpose_partner(nprows, npcols);
    double *v = malloc((size_t)n * sizeof(double)), *in = malloc((size_t)n * sizeof(double));
    double dot = rank, dot_in;
    for (int j = 0; j < n; j++)
        v[j] = rank + j;
    PROGNOZ_BEGIN(1);
    for (int p = 0; p < passes; p++) {
        PROGNOZ_BEGIN(2);
        v[0] += compute(work, WORK, 8) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        butterfly(v, in, n, log2_of(npcols));
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Request r;
        MPI_Irecv(in, n, MPI_DOUBLE, exch, 100, MPI_COMM_WORLD, &r);
        MPI_Send(v, n, MPI_DOUBLE, exch, 100, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        dot = in[0] * 1e-6;
        butterfly(&dot, &dot_in, 1, log2_of(npcols));
        PROGNOZ_END(5);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("npbish b: %d ranks (%d x %d), dot %.6g\n", size, nprows, npcols, dot);
    free(v);
    free(in);
}

/* One plane of a sweep: the faces from the two upstream neighbours (ns values across
 * rows, ew across columns; -1: none at the grid's edge), the plane's computation, the
 * faces to the two downstream ones, tagged tag and tag + 1.  The computation's result. */
static double plane(double *buf, int ns, int ew, int up_ns, int up_ew, int down_ns,
                    int down_ew, int tag, double *work)
{
    double r;

    if (up_ns >= 0)
        MPI_Recv(buf, ns, MPI_DOUBLE, up_ns, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (up_ew >= 0)
        MPI_Recv(buf, ew, MPI_DOUBLE, up_ew, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    r = compute(work, WORK / PLANES, 2) * 1e-9;
    if (down_ns >= 0)
        MPI_Send(buf, ns, MPI_DOUBLE, down_ns, tag, MPI_COMM_WORLD);
    if (down_ew >= 0)
        MPI_Send(buf, ew, MPI_DOUBLE, down_ew, tag + 1, MPI_COMM_WORLD);
    return r;
}

static void pattern_c(int passes, double *work)
{
    int l2 = log2_of(size), xdim = (1 << (l2 / 2)) << (l2 % 2), ydim = size / xdim;
    int row = rank % xdim, col = rank / xdim;
    int north = row > 0 ? rank - 1 : -1, south = row < xdim - 1 ? rank + 1 : -1;
    int west = col > 0 ? rank - xdim : -1, east = col < ydim - 1 ? rank + xdim : -1;
    int ns = 5 * EDGE / ydim, ew = 5 * EDGE / xdim; /* a plane's face along each side */
    double *buf = calloc((size_t)(ns > ew ? ns : ew), sizeof(double));
    double norms[5] = {0.0}, sums[5];
    PROGNOZ_BEGIN(1);
    for (int p = 0; p < passes; p++) {
        PROGNOZ_BEGIN(2);
        buf[0] += compute(work, WORK, 4) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        for (int k = 0; k < PLANES; k++)
            norms[k % 5] += plane(buf, ns, ew, north, west, south, east, 1, work);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        for (int k = PLANES - 1; k >= 0; k--)
            norms[k % 5] += plane(buf, ns, ew, south, east, north, west, 3, work);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        MPI_Allreduce(norms, sums, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        PROGNOZ_END(5);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("npbish c: %d ranks (%d x %d), norm %.6g\n", size, xdim, ydim, sums[0]);
    free(buf);
}

/* NPB IS's keys: the mean of four uniform draws, so the middle buckets are the fullest. */
static void make_keys(int *keys, unsigned seed)
{
    for (int i = 0; i < KEYS; i++) {
        unsigned s = 0;
        for (int j = 0; j < 4; j++) {
            seed = seed * 1103515245u + 12345u;
            s += (seed >> 8) % MAXKEY;
        }
        keys[i] = (int)(s / 4);
    }
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void pattern_d(int passes, double *work)
{
    int *keys = malloc(KEYS * sizeof(int)), *sorted = malloc(KEYS * sizeof(int));
    int *got = malloc((size_t)KEYS * 4 * sizeof(int));
    int local[BUCKETS], total[BUCKETS], owner[BUCKETS];
    int *scount = malloc((size_t)size * sizeof(int)), *rcount = malloc((size_t)size * sizeof(int));
    int *sdispl = malloc((size_t)size * sizeof(int)), *rdispl = malloc((size_t)size * sizeof(int));
    int shift = log2_of(MAXKEY) - log2_of(BUCKETS), largest = 0, checked = 0;
    PROGNOZ_BEGIN(1);
    for (int p = 0; p < passes; p++) {
        PROGNOZ_BEGIN(2);
        make_keys(keys, 1000u * (unsigned)p + (unsigned)rank * 7919u + 17u);
        memset(local, 0, sizeof(local));
        for (int i = 0; i < KEYS; i++)
            local[keys[i] >> shift]++;
        work[0] += compute(work, WORK, 2) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Allreduce(local, total, BUCKETS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        /* the buckets in order, each process given about a P-th of all keys */
        long all = (long)KEYS * size, sum = 0;
        for (int b = 0, q = 0; b < BUCKETS; b++) {
            owner[b] = q;
            sum += total[b];
            while (q < size - 1 && sum > all * (q + 1) / size)
                q++;
        }
        for (int q = 0; q < size; q++)
            scount[q] = 0;
        for (int b = 0; b < BUCKETS; b++)
            scount[owner[b]] += local[b];
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        int next = 0;
        for (int q = 0; q < size; q++)
            sdispl[q] = next, next += scount[q];
        for (int i = 0; i < KEYS; i++)
            sorted[sdispl[owner[keys[i] >> shift]]++] = keys[i];
        next = 0;
        for (int q = 0; q < size; q++)
            sdispl[q] = next, next += scount[q];
        int received = 0;
        for (int q = 0; q < size; q++)
            rdispl[q] = received, received += rcount[q];
        MPI_Alltoallv(sorted, scount, sdispl, MPI_INT, got, rcount, rdispl, MPI_INT, MPI_COMM_WORLD);
        qsort(got, (size_t)received, sizeof(int), compare_ints);
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(6);
        int mine = received > 0 ? got[received - 1] : -1, before = -1;
        MPI_Request r = MPI_REQUEST_NULL;
        if (rank > 0)
            MPI_Irecv(&before, 1, MPI_INT, rank - 1, 1000, MPI_COMM_WORLD, &r);
        if (rank < size - 1)
            MPI_Send(&mine, 1, MPI_INT, rank + 1, 1000, MPI_COMM_WORLD);
        if (rank > 0)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        checked += received == 0 || before <= got[0];
        largest = mine;
        PROGNOZ_END(6);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("npbish d: %d ranks, %d of %d passes in order, largest key %d\n", size, checked,
               passes, largest);
    free(keys);
    free(sorted);
    free(got);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
}

int main(int argc, char **argv)
{
    char pattern = argc > 1 ? argv[1][0] : 'a';
    int passes = argc > 2 ? atoi(argv[2]) : 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size & (size - 1)) {
        if (rank == 0)
            fprintf(stderr, "npbish: %d processes: a power of two is needed\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *work = malloc(WORK * sizeof(double));
    for (int i = 0; i < WORK; i++)
        work[i] = sin(0.001 * (i + rank));
    switch (pattern) {
    case 'a': pattern_a(passes, work, 0); break;
    case 'b': pattern_b(passes, work); break;
    case 'c': pattern_c(passes, work); break;
    case 'd': pattern_d(passes, work); break;
    case 'e': pattern_a(passes, work, 1); break;
    default:
        if (rank == 0)
            fprintf(stderr, "npbish: pattern '%c': expected a, b, c, d or e\n", pattern);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(work);
    MPI_Finalize();
    return 0;
}
