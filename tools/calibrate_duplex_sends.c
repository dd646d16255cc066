/* The duplex overhead's measurement (calibrate_duplex_sends.h). */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "calibrate_cpu.h"
#include "calibrate_duplex_sends.h"

/* Both ranks: the exchanges back to back with peer, each MPI_Isend's time into times
 * (if not NULL); the trimmed mean of them, NAN without times. */
static double exchange_back_to_back(char *out, char *in, long bytes, int peer, int exchanges)
{
    double *times = malloc((size_t)exchanges * sizeof(*times)), typical;

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < exchanges; i++) {
        MPI_Request req[2];
        MPI_Status status[2];   /* gcc 12 warns on MPI_STATUSES_IGNORE here */
        double start;

        MPI_Irecv(in, (int)bytes, MPI_BYTE, peer, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req[0]);
        start = MPI_Wtime();
        MPI_Isend(out, (int)bytes, MPI_BYTE, peer, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req[1]);
        if (times)
            times[i] = MPI_Wtime() - start;
        MPI_Waitall(2, req, status);
    }
    typical = times ? pz_cal_typical(times, exchanges) : NAN;
    free(times);
    return typical;
}

void pz_cal_lead_duplex_sends(char *out, char *in, long bytes, int exchanges, int sends,
                              double isend[2], double *lone)
{
    pz_cal_order(PZ_CAL_DUPLEX_SENDS, bytes, exchanges, sends);
    isend[0] = exchange_back_to_back(out, in, bytes, 1, exchanges);
    MPI_Recv(&isend[1], 1, MPI_DOUBLE, 1, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    *lone = pz_cal_time_posted_sends(out, bytes, sends, 0);
}

void pz_cal_answer_duplex_sends(char *buf, long bytes, int exchanges, int sends)
{
    double isend = exchange_back_to_back(buf, buf + bytes, bytes, 0, exchanges);

    MPI_Send(&isend, 1, MPI_DOUBLE, 0, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD);
    for (int i = 0; i < sends; i++) {
        MPI_Request req;

        MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req);
        MPI_Send(NULL, 0, MPI_BYTE, 0, PZ_CAL_TAG_READY, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}
