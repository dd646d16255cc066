/* The resume probe's computation (tools/calibrate_sweep.c). */
#include <criterion/criterion.h>
#include <mpi.h>
#include <unistd.h>

#include "calibrate_cache.h"
#include "calibrate_sweep.h"

static void start_mpi(void)
{
    MPI_Init(NULL, NULL);
}

static void stop_mpi(void)
{
    MPI_Finalize();
}

/* Four times the second-level cache, as the kernel describes it here, else as sysconf
 * reports it (1 MiB gives 4 MiB), or the default of 16 MiB when neither tells. */
Test(calibrate_sweep, buffer_is_four_second_level_caches, .init = start_mpi, .fini = stop_mpi)
{
    long l2 = (long)pz_cal_cache_level(PZ_CAL_CACHE_SYSFS, 2);

    if (l2 <= 0)
        l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);

    cr_assert_eq(pz_cal_sweep_bytes(), l2 > 0 ? 4 * l2 : 16L << 20);
}

/* It computes at least the time asked (2 ms), and stops soon after: the clock is read
 * every 64 cache lines (4 KiB), well under a millisecond even from memory; the bound
 * allows a tenth of a second more, as other processes may take the core meanwhile. */
Test(calibrate_sweep, computes_for_the_time_asked, .init = start_mpi, .fini = stop_mpi)
{
    double start = MPI_Wtime(), spent;

    pz_cal_sweep(2e-3);
    spent = MPI_Wtime() - start;
    cr_assert_geq(spent, 2e-3);
    cr_assert_lt(spent, 2e-3 + 0.1);
}
