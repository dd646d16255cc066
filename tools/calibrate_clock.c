/* The offset between the ranks' clocks (calibrate_clock.h). */
#include <mpi.h>
#include <stdlib.h>

#include "calibrate_clock.h"
#include "calibrate_cpu.h"
#include "calibrate_fit.h"

/* One round trip: how long it took and the offset it gives. */
struct reading {
    double round_trip, offset;
};

static int by_round_trip(const void *a, const void *b)
{
    const struct reading *x = a, *y = b;

    return (x->round_trip > y->round_trip) - (x->round_trip < y->round_trip);
}

double pz_cal_clock_offset(void)
{
    struct reading r[PZ_CAL_CLOCK_ROUND_TRIPS];
    double offsets[PZ_CAL_CLOCK_ROUND_TRIPS];
    int n = 0, k;

    pz_cal_order(PZ_CAL_CLOCK, 0, PZ_CAL_CLOCK_ROUND_TRIPS, 0);
    for (int i = 0; i < PZ_CAL_CLOCK_ROUND_TRIPS; i++) {
        double sent = MPI_Wtime(), theirs, back;

        MPI_Send(NULL, 0, MPI_BYTE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(&theirs, 1, MPI_DOUBLE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        back = MPI_Wtime();
        if (back > sent)   /* else the clock was set back meanwhile */
            r[n++] = (struct reading){ back - sent, theirs - (sent + back) / 2 };
    }
    if (n == 0)
        return 0;
    qsort(r, (size_t)n, sizeof(*r), by_round_trip);
    k = (n + PZ_CAL_CLOCK_SHORTEST - 1) / PZ_CAL_CLOCK_SHORTEST;
    for (int i = 0; i < k; i++)
        offsets[i] = r[i].offset;
    return pz_fit_median(offsets, k);
}

void pz_cal_answer_clock(int count)
{
    for (int i = 0; i < count; i++) {
        double now;

        MPI_Recv(NULL, 0, MPI_BYTE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        now = MPI_Wtime();
        MPI_Send(&now, 1, MPI_DOUBLE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD);
    }
}
