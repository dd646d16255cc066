/* The collective overhead's measurement (calibrate_coll.h). */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "calibrate_coll.h"
#include "calibrate_cpu.h"
#include "calibrate_stats.h"

/* Both ranks: the calls back to back, each timed; the trimmed mean, NAN without memory.
 * Each call reduces what the one before returned, so that no call can be skipped. */
static double allreduce_back_to_back(int calls)
{
    double *times = malloc((size_t)(calls > 0 ? calls : 1) * sizeof(*times)), x = 1, typical;

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < calls; i++) {
        double start = MPI_Wtime(), y;

        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (times)
            times[i] = MPI_Wtime() - start;
        x = y / 2;
    }
    typical = times && calls > 0 ? pz_cal_typical(times, calls) : NAN;
    free(times);
    return typical;
}

double pz_cal_lead_allreduce(int calls)
{
    pz_cal_order(PZ_CAL_ALLREDUCE, PZ_CAL_ALLREDUCE_BYTES, calls, 0);
    return allreduce_back_to_back(calls);
}

void pz_cal_answer_allreduce(int calls)
{
    allreduce_back_to_back(calls);
}
