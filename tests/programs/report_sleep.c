/* prognoz report on a real run (tests/integration/report.sh), on any number of ranks:
 * after a barrier that lines the ranks up, rank r sleeps (r + 1) x 20 ms in interval 1,
 * then every rank enters interval 2 and waits in MPI_Barrier for the last one.  So in
 * interval 1 the last rank has no idle time and rank 0 about 20 (size - 1) ms of it, and
 * in interval 2 rank 0 waits about as long in the barrier.  Each begin marker's line
 * carries a comment "@NAME" by which the test finds the line. */
#include <prognoz.h>
#include <stdio.h>

#include "sleep_ms.h"

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);

    PROGNOZ_BEGIN(1); /* @sleep */
    sleep_ms(20L * (rank + 1));
    PROGNOZ_END(1);

    PROGNOZ_BEGIN(2); /* @barrier */
    MPI_Barrier(MPI_COMM_WORLD);
    PROGNOZ_END(2);

    printf("report_sleep: rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
