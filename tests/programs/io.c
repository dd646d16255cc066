/* MPI-IO on 2 ranks (integration/io.sh): the file given as argument is opened by both,
 * each writes its 4 ints collectively at its own offset, then independently 2 more
 * after a seek; after a sync both read everything back collectively and one block
 * independently, then 2 ints with a nonblocking read and 8 with a split collective
 * read; the file is closed and deleted. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, mine[4], more[2], back[8] = { 0 }, ok;
    MPI_File fh;
    MPI_Status status;
    MPI_Request request;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 4; i++)
        mine[i] = 4 * rank + i;
    more[0] = more[1] = rank;
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                  &fh);
    MPI_File_write_at_all(fh, (MPI_Offset)(rank * sizeof(mine)), mine, 4, MPI_INT, &status);
    MPI_File_seek(fh, (MPI_Offset)(2 * sizeof(mine) + rank * sizeof(more)), MPI_SEEK_SET);
    MPI_File_write(fh, more, 2, MPI_INT, &status);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_read_at_all(fh, 0, back, 8, MPI_INT, &status);
    MPI_File_read_at(fh, (MPI_Offset)sizeof(mine), back, 4, MPI_INT, &status);
    MPI_File_iread_at(fh, 0, back, 2, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_read_at_all_begin(fh, 0, back, 8, MPI_INT);
    MPI_File_read_at_all_end(fh, back, &status);
    MPI_File_close(&fh);
    ok = back[0] == 0 && back[4] == 4 && back[7] == 7;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(argv[1], MPI_INFO_NULL);
    MPI_Finalize();
    return ok ? 0 : 1;
}
