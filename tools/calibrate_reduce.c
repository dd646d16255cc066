/* The time of MPI_SUM on doubles (calibrate_reduce.h). */
#include <mpi.h>
#include <stdlib.h>

#include "calibrate_fit.h"
#include "calibrate_reduce.h"

double pz_cal_reduce_time(void)
{
    size_t n = PZ_CAL_REDUCE_BYTES / sizeof(double);
    double *in = malloc(n * sizeof(double)), *inout = malloc(n * sizeof(double));
    double times[PZ_CAL_REDUCE_REPETITIONS], quartile = -1;

    if (in && inout) {
        for (size_t i = 0; i < n; i++)
            in[i] = inout[i] = (double)(i % 1000) * 0.5;
        MPI_Reduce_local(in, inout, (int)n, MPI_DOUBLE, MPI_SUM);
        for (int r = 0; r < PZ_CAL_REDUCE_REPETITIONS; r++) {
            double start = MPI_Wtime();

            MPI_Reduce_local(in, inout, (int)n, MPI_DOUBLE, MPI_SUM);
            times[r] = MPI_Wtime() - start;
        }
        quartile = pz_fit_quantile(times, PZ_CAL_REDUCE_REPETITIONS, 0.25);
    }
    free(in);
    free(inout);
    return quartile;
}
