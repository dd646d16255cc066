/* summa: a SUMMA-like product of two N x N matrices of doubles over MPI_Dims_create's 2-D
 * grid of processes, rows x cols, ranks row-major (rank = row * cols + column), as
 * ScaLAPACK's PDGEMM and codes built on SUMMA distribute it: every process holds an
 * N / rows x N / P block of A and an N / P x N / cols block of B.  Its rows and its
 * columns are communicators of their own, made by MPI_Comm_split of MPI_COMM_WORLD
 * (colour: the row, key: the column; then colour: the column, key: the row), and no
 * message shows the grid.  At each of the P steps k of a pass, the block of A is
 * broadcast along every row from its member k mod cols and the block of B along every
 * column from its member k mod rows (the root turns with the step), and each process
 * adds their product to its N / rows x N / cols block of C; after the P steps, the
 * largest of C's first elements is reduced along the rows and then the columns.  N (192,
 * or the second argument) must be a multiple of P, of rows x P and of cols x P.
 * Intervals: the passes (1), the broadcasts of a step (2), its multiplication (3).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o summa summa.c && mpiexec -n 4 ./summa [PASSES [N]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

/* c += a b: a of mr x kb, b of kb x mc, c of mr x mc. */
static void multiply(const double *a, const double *b, double *c, int mr, int kb, int mc)
{
    for (int i = 0; i < mr; i++)
        for (int l = 0; l < kb; l++)
            for (int j = 0; j < mc; j++)
                c[(size_t)i * mc + j] += a[(size_t)i * kb + l] * b[(size_t)l * mc + j];
}

int main(int argc, char **argv)
{
    int rank, size, dims[2] = {0, 0}, passes = argc > 1 ? atoi(argv[1]) : 3;
    int n = argc > 2 ? atoi(argv[2]) : 192;
    MPI_Comm row, column;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    int rows = dims[0], cols = dims[1], y = rank / cols, x = rank % cols;
    int mr = n / rows, mc = n / cols, kb = n / size;

    MPI_Comm_split(MPI_COMM_WORLD, y, x, &row);
    MPI_Comm_split(MPI_COMM_WORLD, x, y, &column);
    double *a = malloc((size_t)mr * kb * sizeof(double));
    double *b = malloc((size_t)kb * mc * sizeof(double));
    double *c = calloc((size_t)mr * mc, sizeof(double));

    PROGNOZ_BEGIN(1);
    for (int pass = 0; pass < passes; pass++) {
        double mine, most;

        for (int k = 0; k < size; k++) {
            for (size_t i = 0; i < (size_t)mr * kb; i++)
                a[i] = (double)((rank + k + (int)i) % 7);
            for (size_t i = 0; i < (size_t)kb * mc; i++)
                b[i] = (double)((rank * 3 + k + (int)i) % 5);
            PROGNOZ_BEGIN(2);
            MPI_Bcast(a, mr * kb, MPI_DOUBLE, k % cols, row);
            MPI_Bcast(b, kb * mc, MPI_DOUBLE, k % rows, column);
            PROGNOZ_END(2);
            PROGNOZ_BEGIN(3);
            multiply(a, b, c, mr, kb, mc);
            PROGNOZ_END(3);
        }
        mine = c[0];
        MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, row);
        MPI_Allreduce(&most, &mine, 1, MPI_DOUBLE, MPI_MAX, column);
        if (rank == 0 && pass == passes - 1)
            printf("summa: %d ranks (%d x %d), %dx%d matrices, %d passes, largest %.1f\n", size,
                   rows, cols, n, n, passes, mine);
    }
    PROGNOZ_END(1);
    free(a);
    free(b);
    free(c);
    MPI_Comm_free(&row);
    MPI_Comm_free(&column);
    MPI_Finalize();
    return 0;
}
