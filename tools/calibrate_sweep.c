/* The resume probe's computation: a stream through a buffer larger than the core's
 * caches (calibrate_sweep.h). */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

#include "calibrate_cache.h"
#include "calibrate_sweep.h"

#define LINE_DOUBLES 8   /* a 64-byte cache line */

static double *buffer;
static long doubles, next;

long pz_cal_sweep_bytes(void)
{
    long l2;

    if (buffer)
        return doubles * (long)sizeof(double);
    l2 = (long)pz_cal_cache_level(PZ_CAL_CACHE_SYSFS, 2);
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (l2 <= 0)
        l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    doubles = (l2 > 0 ? 4 * l2 : PZ_CAL_SWEEP_DEFAULT) / (long)sizeof(double);
    buffer = calloc((size_t)doubles, sizeof(double));
    if (!buffer)
        doubles = 0;
    return doubles * (long)sizeof(double);
}

double pz_cal_sweep_cache_seconds(void)
{
    double best = 0;

    if (pz_cal_sweep_bytes() == 0)
        return 0;
    for (int pass = 0; pass < 3; pass++) {
        double start = MPI_Wtime(), took;

        for (long line = 0; line < doubles / 4 / LINE_DOUBLES; line++) {
            buffer[next] += 1.0;
            next = (next + LINE_DOUBLES) % doubles;
        }
        took = MPI_Wtime() - start;
        best = pass == 0 || took < best ? took : best;
    }
    return best;
}

void pz_cal_sweep(double seconds)
{
    double start = MPI_Wtime();

    if (pz_cal_sweep_bytes() == 0) {
        while (MPI_Wtime() - start < seconds)
            ;
        return;
    }
    /* the clock read every 64 lines (4 KiB, well under a microsecond) */
    while (MPI_Wtime() - start < seconds)
        for (int i = 0; i < 64; i++) {
            buffer[next] += 1.0;
            next = (next + LINE_DOUBLES) % doubles;
        }
}
