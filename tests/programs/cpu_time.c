/* Thread CPU times (tests/integration/cpu_time.sh), on any number of ranks: between the
 * first two barriers every rank computes for 50 ms of its own CPU time (inside interval
 * 1, whose markers are no MPI calls); between its MPI_Sendrecv and the last barrier it
 * sleeps 50 ms.  So the CPU time of the first gap is at least 50 ms and that of the
 * second close to 0, whatever the load of the machine.  The begin marker's line carries
 * a comment "@NAME" by which the test finds it. */
#include <prognoz.h>
#include <stdint.h>
#include <time.h>

#include "sleep_ms.h"

static uint64_t cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void compute_ms(long ms)
{
    volatile double x = 0.0;
    uint64_t start = cpu_ns();

    while (cpu_ns() - start < (uint64_t)ms * 1000000u)
        for (int i = 0; i < 10000; i++)
            x += 0.5 * i;
}

int main(int argc, char **argv)
{
    int rank, size, out, in;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    PROGNOZ_BEGIN(1); /* @compute */
    compute_ms(50);
    PROGNOZ_END(1);
    MPI_Barrier(MPI_COMM_WORLD);
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sleep_ms(50);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
