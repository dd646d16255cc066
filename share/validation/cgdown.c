/* cgdown: NPB CG's communication with its row sums in CG's own order, from the highest bit
 * of the row down (reduce_exch_proc), as the NPB CG code (MPI version) makes them; npbish.c
 * pattern b sums from the lowest bit up.  P = 2^l processes in NPROWS x NPCOLS, NPROWS =
 * 2^floor(l / 2), NPCOLS = 2^ceil(l / 2), rank = row * NPCOLS + column, no
 * MPI_Cart_create.  Each pass:
 *
 *   - a computation of fixed size per process (weak scaling, a few milliseconds);
 *   - the sum of a vector segment of SEGMENT / NPCOLS doubles within the row: log2(NPCOLS)
 *     steps, step i (tag i) with partner rank XOR NPCOLS / 2^(i + 1) (div_factor halved at
 *     each step, the highest bit of the column first), by MPI_Irecv, MPI_Send, MPI_Wait;
 *   - the "transpose" exchange of the segment with NPB CG's partner: on a square grid the
 *     process at (column, row), on one twice as wide the pairs of ranks taken as one
 *     process of a square grid (a process on the diagonal exchanges with itself), tag
 *     100, MPI_Irecv, MPI_Send, MPI_Wait;
 *   - a dot product: the same row sum of one double.
 *
 * Intervals: the passes (1), the computation (2), the row sum (3), the transpose exchange
 * (4), the dot product (5).  Part of the scaling validation (docs/predict.md, "NPB CG:
 * row sums and the transpose"); it runs alone:
 *
 *   mpicc -g -O2 -I$PREFIX/include -o cgdown cgdown.c -lm
 *   mpiexec -n 8 ./cgdown [PASSES]
 *
 * (PASSES 20 by default; a power of two processes.) */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define WORK 32768      /* doubles relaxed per pass */
#define SEGMENT 16384   /* doubles of the vector over one row of processes */
#define TRANSPOSE_TAG 100

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

/* The sum of v's n doubles over the row of npcols processes, from the highest bit of the
 * column down, as NPB CG's reduce_exch_proc orders its partners. */
static void row_sum(double *v, double *in, int n, int npcols)
{
    int i = 0;
    for (int div_factor = npcols / 2; div_factor >= 1; div_factor /= 2, i++) {
        int partner = rank ^ div_factor;
        MPI_Request r;
        MPI_Irecv(in, n, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &r);
        MPI_Send(v, n, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int j = 0; j < n; j++)
            v[j] += in[j];
    }
}

/* NPB CG's partner of the transpose exchange on an nprows x npcols grid. */
static int transpose_partner(int nprows, int npcols)
{
    if (nprows == npcols)
        return (rank % nprows) * nprows + rank / nprows;
    return 2 * (((rank / 2) % nprows) * nprows + rank / 2 / nprows) + rank % 2;
}

int main(int argc, char **argv)
{
    int passes = argc > 1 ? atoi(argv[1]) : 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size & (size - 1)) {
        if (rank == 0)
            fprintf(stderr, "cgdown: %d processes: a power of two is needed\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int l2 = log2_of(size), nprows = 1 << (l2 / 2), npcols = nprows << (l2 % 2);
    int n = SEGMENT / npcols, exch = transpose_partner(nprows, npcols);
    double *work = malloc(WORK * sizeof(double));
    double *v = malloc((size_t)n * sizeof(double)), *in = malloc((size_t)n * sizeof(double));
    double dot = rank, dot_in;
    if (!work || !v || !in)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < WORK; i++)
        work[i] = sin(0.001 * (i + rank));
    for (int j = 0; j < n; j++)
        v[j] = rank + j;
    PROGNOZ_BEGIN(1);
    for (int p = 0; p < passes; p++) {
        PROGNOZ_BEGIN(2);
        v[0] += compute(work, WORK, 8) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        row_sum(v, in, n, npcols);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Request r;
        MPI_Irecv(in, n, MPI_DOUBLE, exch, TRANSPOSE_TAG, MPI_COMM_WORLD, &r);
        MPI_Send(v, n, MPI_DOUBLE, exch, TRANSPOSE_TAG, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        dot = in[0] * 1e-6;
        row_sum(&dot, &dot_in, 1, npcols);
        PROGNOZ_END(5);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("cgdown: %d ranks (%d x %d), dot %.6g\n", size, nprows, npcols, dot);
    free(work);
    free(v);
    free(in);
    MPI_Finalize();
    return 0;
}
