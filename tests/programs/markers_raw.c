/* Interval markers issued by hand, without include/prognoz.h
 * (tests/integration/markers_raw.sh), on an even number of ranks: only under the
 * recorder, since MPI rejects the marker tags.  On each rank:
 *   - interval 5 begins with MPI_Send + MPI_Recv to the rank itself on MPI_COMM_WORLD,
 *   - inside it, interval 258 (id_hi 1, id_lo 2) begins with MPI_Isend + MPI_Irecv +
 *     MPI_Waitall around an MPI_Allreduce, and ends with MPI_Irecv from MPI_ANY_SOURCE
 *     + MPI_Isend + MPI_Waitall,
 *   - interval 5 ends with one MPI_Sendrecv to itself on a communicator in which the
 *     ranks are reversed (its rank there is not its world rank),
 *   - interval 7 begins and ends with MPI_Sendrecv to itself, around an MPI_Barrier and
 *     interval 9, which begins with MPI_Isend + MPI_Irecv among the real MPI_Irecv and
 *     MPI_Isend of a message to the neighbour (rank ^ 1), all completed by one
 *     MPI_Waitall, and ends with MPI_Sendrecv.
 * Each begin marker's line carries a comment "@NAME" by which the test finds the line.
 * The program prints the status of every marker receive and request it completes: the
 * source, the tag (as 32 unsigned bits), the count of MPI_BYTE and the cancelled flag. */
#include <mpi.h>
#include <stdio.h>

#define BEGIN(id) ((int)(0xAA0000AAu | (unsigned)(id) << 8))
#define END(id) ((int)(0xAA0000BBu | (unsigned)(id) << 8))

static void show(int rank, const char *what, const MPI_Status *status)
{
    int count = -1, cancelled = -1;

    MPI_Get_count(status, MPI_BYTE, &count);
    MPI_Test_cancelled(status, &cancelled);
    printf("rank %d: %s: source %d, tag %#x, count %d, cancelled %d\n", rank, what,
           status->MPI_SOURCE, (unsigned)status->MPI_TAG, count, cancelled);
}

int main(int argc, char **argv)
{
    int rank, size, other, rev_rank, one = 1, sum = 0, got = -1;
    MPI_Comm rev;
    MPI_Request req[2], mixed[4];
    MPI_Status st, sts[2], mixed_sts[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 != 0) {
        fprintf(stderr, "markers_raw: run me on an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    other = rank ^ 1;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    MPI_Comm_rank(rev, &rev_rank);

    MPI_Send(NULL, 0, MPI_BYTE, rank, BEGIN(5), MPI_COMM_WORLD); /* @blocking */
    MPI_Recv(NULL, 0, MPI_BYTE, rank, BEGIN(5), MPI_COMM_WORLD, &st);
    show(rank, "1 recv begin 5", &st);

    MPI_Isend(NULL, 0, MPI_BYTE, rank, BEGIN(258), MPI_COMM_WORLD, &req[0]); /* @nonblocking */
    MPI_Irecv(NULL, 0, MPI_BYTE, rank, BEGIN(258), MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    show(rank, "2 isend begin 258", &sts[0]);
    show(rank, "3 irecv begin 258", &sts[1]);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, END(258), MPI_COMM_WORLD, &req[0]);
    MPI_Isend(NULL, 0, MPI_BYTE, rank, END(258), MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    show(rank, "4 irecv any end 258", &sts[0]);
    show(rank, "5 isend end 258", &sts[1]);

    MPI_Sendrecv(NULL, 0, MPI_BYTE, rev_rank, END(5), NULL, 0, MPI_BYTE, rev_rank, END(5), rev,
                 &st);
    show(rank, "6 sendrecv end 5", &st);

    MPI_Sendrecv(NULL, 0, MPI_BYTE, rank, BEGIN(7), /* @sendrecv */
                 NULL, 0, MPI_BYTE, rank, BEGIN(7), MPI_COMM_WORLD, &st);
    show(rank, "7 sendrecv begin 7", &st);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Irecv(&got, 1, MPI_INT, other, 9, MPI_COMM_WORLD, &mixed[0]);
    MPI_Isend(NULL, 0, MPI_BYTE, rank, BEGIN(9), MPI_COMM_WORLD, &mixed[1]); /* @mixed */
    MPI_Irecv(NULL, 0, MPI_BYTE, rank, BEGIN(9), MPI_COMM_WORLD, &mixed[2]);
    MPI_Isend(&rank, 1, MPI_INT, other, 9, MPI_COMM_WORLD, &mixed[3]);
    MPI_Waitall(4, mixed, mixed_sts);
    show(rank, "8 irecv from the other rank", &mixed_sts[0]);
    show(rank, "9 isend begin 9", &mixed_sts[1]);
    show(rank, "10 irecv begin 9", &mixed_sts[2]);
    MPI_Sendrecv(NULL, 0, MPI_BYTE, rank, END(9), NULL, 0, MPI_BYTE, rank, END(9),
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    MPI_Sendrecv(NULL, 0, MPI_BYTE, rank, END(7), NULL, 0, MPI_BYTE, rank, END(7),
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    printf("rank %d: rank %d in the reversed communicator, sum %d, got %d\n", rank, rev_rank,
           sum, got);
    MPI_Comm_free(&rev);
    MPI_Finalize();
    return 0;
}
