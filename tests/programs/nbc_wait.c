/* The wait of a nonblocking collective on a real run (tests/integration/nbc_waits.sh),
 * on 2 ranks: after a barrier that lines the ranks up, rank 1 sleeps MS milliseconds
 * (the argument) before it posts MPI_Iallreduce, while rank 0 posts it at once and waits
 * for it in MPI_Wait.  So rank 0 waits in MPI_Wait about MS for rank 1's post (Wait at
 * NxN), and rank 1, whose partner posted long before, hardly waits at all. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    int rank, in, sum = 0;
    MPI_Request request;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        sleep_ms(argc > 1 ? atol(argv[1]) : 200);
    in = rank + 1;
    MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("nbc_wait: rank %d: sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
