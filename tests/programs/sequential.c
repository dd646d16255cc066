/* Insufficient parallelism on a real run (tests/integration/sequential.sh): after a
 * barrier that lines the ranks up, every rank runs the same 150 ms of work in sequential
 * interval 1 (the duplicated start-up of a program that each process computes whole),
 * then 50 ms of its own share in interval 2 and a barrier.  Each begin marker's line
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

    PROGNOZ_BEGIN_SEQ(1); /* @seq */
    sleep_ms(150);
    PROGNOZ_END(1);

    PROGNOZ_BEGIN(2); /* @par */
    sleep_ms(50);
    MPI_Barrier(MPI_COMM_WORLD);
    PROGNOZ_END(2);

    printf("sequential: rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
