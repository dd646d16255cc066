/* The overheads' probe (calibrate_overhead.h). */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

#include "calibrate_cpu.h"
#include "calibrate_overhead.h"
#include "calibrate_rounds.h"
#include "calibrate_stats.h"

int pz_cal_arrived(double wait_start, double sent, double offset, double lead)
{
    return wait_start - offset >= sent + lead;
}

double pz_cal_overhead_recv_time(const double *kept, const double *all, int n)
{
    double spread, t = pz_cal_round_time(kept, n, &spread);

    return isnan(t) ? pz_cal_round_time(all, n, &spread) : t;
}

/* Computes for `seconds` by the clock, without MPI calls. */
static void spin(double seconds)
{
    double start = MPI_Wtime();

    while (MPI_Wtime() - start < seconds)
        ;
}

/* Rank 0: one try: waits for rank 1's "ready", times MPI_Isend + MPI_Wait into *send,
 * receives rank 1's wait (when it began, how long it took) into wait; returns when its
 * send completed. */
static double try_once(char *out, long bytes, double *send, double wait[2])
{
    MPI_Request req;
    double start, end;

    MPI_Recv(NULL, 0, MPI_BYTE, 1, PZ_CAL_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    start = MPI_Wtime();
    MPI_Isend(out, (int)bytes, MPI_BYTE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    end = MPI_Wtime();
    *send = end - start;
    MPI_Recv(wait, 2, MPI_DOUBLE, 1, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return end;
}

void pz_cal_lead_overhead_arrived(char *out, long bytes, int repetitions, double delay,
                                  double lead, double offset,
                                  struct pz_cal_overhead_probe *p)
{
    int most = PZ_CAL_OVERHEAD_TRIES * repetitions, go = 1;
    double *send = malloc((size_t)most * sizeof(*send));
    double *all = malloc((size_t)most * sizeof(*all));
    double *kept = malloc((size_t)most * sizeof(*kept));

    *p = (struct pz_cal_overhead_probe){ NAN, NAN, NAN, 0, 0 };
    pz_cal_order(PZ_CAL_OVERHEAD_ARRIVED, bytes, 0, (long)(delay * 1e9));
    while (go) {
        double wait[2], s, sent = try_once(out, bytes, &s, wait);

        if (send && all && kept) {
            send[p->tried] = s;
            all[p->tried] = wait[1];
            if (pz_cal_arrived(wait[0], sent, offset, lead))
                kept[p->kept++] = wait[1];
        }
        p->tried++;
        go = p->kept < repetitions && p->tried < most;
        MPI_Send(&go, 1, MPI_INT, 1, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD);
    }
    if (send && all && kept) {
        p->send = pz_cal_typical(send, p->tried);
        p->recv = p->kept > 0 ? pz_cal_typical(kept, p->kept) : NAN;
        p->recv_all = pz_cal_typical(all, p->tried);
    }
    free(send);
    free(all);
    free(kept);
}

void pz_cal_answer_overhead_arrived(char *buf, long bytes, double delay)
{
    int go = 1;

    while (go) {
        MPI_Request req;
        double wait[2];

        MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req);
        MPI_Send(NULL, 0, MPI_BYTE, 0, PZ_CAL_TAG_READY, MPI_COMM_WORLD);
        spin(delay);
        wait[0] = MPI_Wtime();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        wait[1] = MPI_Wtime() - wait[0];
        MPI_Send(wait, 2, MPI_DOUBLE, 0, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD);
        MPI_Recv(&go, 1, MPI_INT, 0, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}
