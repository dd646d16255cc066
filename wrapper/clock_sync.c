#include "clock.h"
#include "clock_sync.h"

#define PINGS 10
#define TAG 1

static void measure_from_root(MPI_Comm comm, int peer)
{
    uint64_t best = UINT64_MAX, remote_time, result[2] = { 0, 0 };

    for (int i = 0; i < PINGS; i++) {
        uint64_t t1 = pz_now(), t2;

        PMPI_Send(NULL, 0, MPI_BYTE, peer, TAG, comm);
        PMPI_Recv(&remote_time, 1, MPI_UINT64_T, peer, TAG, comm, MPI_STATUS_IGNORE);
        t2 = pz_now();
        if (t2 - t1 < best) {
            best = t2 - t1;
            result[0] = (uint64_t)((int64_t)(t1 + (t2 - t1) / 2) - (int64_t)remote_time);
            result[1] = best / 2;
        }
    }
    PMPI_Send(result, 2, MPI_UINT64_T, peer, TAG, comm);
}

static struct pz_clock_offset answer_root(MPI_Comm comm)
{
    uint64_t result[2];

    for (int i = 0; i < PINGS; i++) {
        uint64_t now;

        PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG, comm, MPI_STATUS_IGNORE);
        now = pz_now();
        PMPI_Send(&now, 1, MPI_UINT64_T, 0, TAG, comm);
    }
    PMPI_Recv(result, 2, MPI_UINT64_T, 0, TAG, comm, MPI_STATUS_IGNORE);
    return (struct pz_clock_offset){ pz_now(), (int64_t)result[0], (double)result[1] };
}

struct pz_clock_offset pz_clock_sync(MPI_Comm comm, const int *remote)
{
    struct pz_clock_offset none = { pz_now(), 0, 0.0 };
    int rank, size;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            if (remote[r])
                measure_from_root(comm, r);
        return none;
    }
    return remote[rank] ? answer_root(comm) : none;
}
