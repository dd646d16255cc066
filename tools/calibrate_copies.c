/* The local copies of prognoz calibrate, measured (calibrate_copies.h). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_copies.h"
#include "calibrate_fit.h"

/* Seconds of MPI's copy of one block of `bytes` from send to recv: the lower quartile. */
static double copy_time(const char *send, char *recv, int bytes)
{
    double times[PZ_CAL_COPY_REPETITIONS];

    MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_SELF);
    for (int r = 0; r < PZ_CAL_COPY_REPETITIONS; r++) {
        double start = MPI_Wtime();

        MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_SELF);
        times[r] = MPI_Wtime() - start;
    }
    return pz_fit_quantile(times, PZ_CAL_COPY_REPETITIONS, 0.25);
}

int pz_cal_copy_times(double *bytes, double *times)
{
    size_t largest = (size_t)PZ_CAL_COPY_FIRST << 2 * (PZ_CAL_COPY_SIZES - 1);
    char *send = malloc(largest), *recv = malloc(largest);
    int n = 0;

    if (send && recv) {
        memset(send, 1, largest);   /* written, as a program's send buffer is */
        memset(recv, 0, largest);
        for (n = 0; n < PZ_CAL_COPY_SIZES; n++) {
            bytes[n] = PZ_CAL_COPY_FIRST * (double)(1L << 2 * n);
            times[n] = copy_time(send, recv, (int)bytes[n]);
        }
    }
    free(send);
    free(recv);
    return n;
}
