/* MPI-IO and one-sided communication in one run of 2 ranks, for the HTML report
 * (browser/io_rma.sh): interval 1 around a collective write of each rank's 4 ints
 * (MPI_File_write_all, 16 bytes) at its own 16 bytes of the file named by argv[1];
 * interval 2 around a fence epoch in which each rank puts 2 ints (8 bytes) into the
 * other's window.  Rank 0 deletes the file. */
#include <mpi.h>
#include <prognoz.h>

int main(int argc, char **argv)
{
    int rank, v[4], buf[2] = { 0 };
    MPI_File fh;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 4; i++)
        v[i] = 4 * rank + i;

    PROGNOZ_BEGIN(1);
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                  &fh);
    MPI_File_set_view(fh, (MPI_Offset)sizeof(v) * rank, MPI_INT, MPI_INT, "native",
                      MPI_INFO_NULL);
    MPI_File_write_all(fh, v, 4, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    PROGNOZ_END(1);

    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    PROGNOZ_BEGIN(2);
    MPI_Win_fence(0, win);
    MPI_Put(v, 2, MPI_INT, 1 - rank, 0, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    PROGNOZ_END(2);
    MPI_Win_free(&win);

    if (rank == 0)
        MPI_File_delete(argv[1], MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
