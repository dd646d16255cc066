/* prognoz predict on a real run (tests/integration/predict.sh), on 2 ranks: 5 steps in
 * interval 1, each step interval 2: every rank computes 20 ms of its own CPU time, then
 * exchanges one double with its partner (MPI_Sendrecv) and sums one double over all
 * ranks (MPI_Allreduce).  The computation is measured in thread CPU time, so both ranks
 * compute the same whatever the load of the machine, and the run is balanced: on a
 * machine where communication is free it takes its computation and nothing more.  Each
 * begin marker's line carries a comment "@NAME" by which the test finds the line. */
#include <prognoz.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define STEPS 5
#define COMPUTE_MS 20

static uint64_t cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double compute_ms(long ms)
{
    volatile double x = 0.0;
    uint64_t start = cpu_ns();

    while (cpu_ns() - start < (uint64_t)ms * 1000000u)
        for (int i = 0; i < 10000; i++)
            x += 0.5 * i;
    return x;
}

int main(int argc, char **argv)
{
    int rank, size, partner;
    double mine, theirs, sum = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    partner = rank ^ 1;
    if (partner >= size)
        partner = MPI_PROC_NULL;

    PROGNOZ_BEGIN(1); /* @loop */
    for (int step = 0; step < STEPS; step++) {
        PROGNOZ_BEGIN(2); /* @step */
        mine = compute_ms(COMPUTE_MS) > 0 ? rank + step : -1.0;
        MPI_Sendrecv(&mine, 1, MPI_DOUBLE, partner, step, &theirs, 1, MPI_DOUBLE, partner,
                     step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        PROGNOZ_END(2);
    }
    PROGNOZ_END(1);

    printf("predict_balanced: rank %d of %d, last sum %g\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
