/* hier: a two-level reduction over node-like groups, as hierarchical codes sum: the world
 * is split into groups of K consecutive ranks (MPI_Comm_split by rank / K; K = 2 by
 * default, the last group smaller when K does not divide the ranks), and the first rank
 * of every group joins the leaders' communicator (MPI_Comm_split by rank % K == 0, the
 * others with MPI_UNDEFINED).  Every iteration relaxes a local vector of N doubles (8192
 * by default; weak scaling), sums 16 values of it to the group's leader (MPI_Reduce),
 * the leaders sum theirs among them (MPI_Allreduce), and each leader hands the total to
 * its group (MPI_Bcast).  Every 10th iteration the ranks sharing memory with each other
 * (MPI_Comm_split_type MPI_COMM_TYPE_SHARED: all of them on one machine) agree on the
 * largest change (MPI_Allreduce MPI_MAX).  Intervals: the iterations (1), the relaxation
 * (2), the group's reduction (3), the leaders' sum (4), the broadcast (5), the check (6).
 * Part of the scaling validation (scripts/scale_validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o hier hier.c && mpiexec -n 8 ./hier [ITERATIONS [N [K]]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define SUMMED 16  /* values summed per iteration */
#define EVERY 10   /* iterations between two checks */

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 100, n = argc > 2 ? atoi(argv[2]) : 8192;
    int k = argc > 3 ? atoi(argv[3]) : 2;
    MPI_Comm group, leaders, shared;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (k < 1)
        k = 1;
    if (n < SUMMED)
        n = SUMMED;
    MPI_Comm_split(MPI_COMM_WORLD, rank / k, rank, &group);
    MPI_Comm_split(MPI_COMM_WORLD, rank % k == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
    double *u = malloc((size_t)n * sizeof(double));
    double part[SUMMED], total[SUMMED], change = 0.0, largest = 0.0;
    for (int i = 0; i < n; i++)
        u[i] = (double)((rank + i) % 11) / 11.0;

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        change = 0.0;
        for (int s = 0; s < 4; s++)
            for (int i = 1; i + 1 < n; i++) {
                double v = (u[i - 1] + 2.0 * u[i] + u[i + 1]) / 4.0;
                change = v - u[i] > change ? v - u[i] : change;
                u[i] = v;
            }
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Reduce(u, part, SUMMED, MPI_DOUBLE, MPI_SUM, 0, group);
        PROGNOZ_END(3);
        if (leaders != MPI_COMM_NULL) {
            PROGNOZ_BEGIN(4);
            MPI_Allreduce(part, total, SUMMED, MPI_DOUBLE, MPI_SUM, leaders);
            PROGNOZ_END(4);
        }
        PROGNOZ_BEGIN(5);
        MPI_Bcast(total, SUMMED, MPI_DOUBLE, 0, group);
        PROGNOZ_END(5);
        u[0] = total[it % SUMMED] / (size * 16.0);
        if ((it + 1) % EVERY == 0) {
            PROGNOZ_BEGIN(6);
            MPI_Allreduce(&change, &largest, 1, MPI_DOUBLE, MPI_MAX, shared);
            PROGNOZ_END(6);
        }
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("hier: %d ranks in groups of %d, %d values each, %d iterations, largest change %.6e\n",
               size, k, n, iters, largest);
    free(u);
    if (leaders != MPI_COMM_NULL)
        MPI_Comm_free(&leaders);
    MPI_Comm_free(&group);
    MPI_Comm_free(&shared);
    MPI_Finalize();
    return 0;
}
