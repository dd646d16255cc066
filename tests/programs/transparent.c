/* What a program sees must not change under the recorder
 * (tests/integration/transparent.sh compares runs with and without it).  On 2 ranks,
 * rank 0 prints what MPI returned to it: error codes and classes of calls that fail
 * under MPI_ERRORS_RETURN (a send to a rank that does not exist, a receive with an
 * invalid tag, a broadcast from an invalid root, an Isend to an invalid rank), the
 * statuses of a normal receive, of a wait on a null request and of a wildcard probe,
 * and flags of tests.  Then every rank exits with status 3 after MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank;

static void report(const char *call, int err)
{
    char text[MPI_MAX_ERROR_STRING];
    int class = -1, len = 0;

    if (rank != 0)
        return;
    MPI_Error_class(err, &class);
    if (err != MPI_SUCCESS)
        MPI_Error_string(err, text, &len);
    text[len] = '\0';
    /* MPICH's error codes and messages hold run-dependent bits and addresses: the test
     * masks them */
    printf("%s: code %d class %d%s%s\n", call, err, class, len ? ": " : "", text);
}

static void print_status(const char *call, const MPI_Status *st)
{
    int count = -1;

    if (rank != 0)
        return;
    MPI_Get_count(st, MPI_INT, &count);
    printf("%s: source %d tag %d error %d count %d\n", call, st->MPI_SOURCE, st->MPI_TAG,
           st->MPI_ERROR, count);
}

int main(int argc, char **argv)
{
    int size, peer, flag = -1, a[4] = { 0 }, b[4] = { 1, 2, 3, 4 };
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    MPI_Comm w = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    peer = 1 - rank;
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);

    report("MPI_Send to rank size+5", MPI_Send(b, 1, MPI_INT, size + 5, 1, w));
    report("MPI_Recv with tag -5", MPI_Recv(a, 1, MPI_INT, peer, -5, w, &st));
    report("MPI_Bcast from root size", MPI_Bcast(a, 1, MPI_INT, size, w));
    report("MPI_Isend to rank -7", MPI_Isend(b, 1, MPI_INT, -7, 1, w, &req));
    if (rank == 0)
        printf("request after the failed Isend is null: %d\n", req == MPI_REQUEST_NULL);

    /* a normal exchange: 3 ints from rank 1 with tag 9 */
    if (rank == 1) {
        report("MPI_Send", MPI_Send(b, 3, MPI_INT, 0, 9, w));
    } else {
        report("MPI_Probe", MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, w, &st));
        print_status("MPI_Probe", &st);
        report("MPI_Iprobe", MPI_Iprobe(1, 9, w, &flag, &st));
        printf("MPI_Iprobe flag %d\n", flag);
        report("MPI_Recv", MPI_Recv(a, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, w, &st));
        print_status("MPI_Recv", &st);
        printf("received %d %d %d %d\n", a[0], a[1], a[2], a[3]);
        report("MPI_Iprobe", MPI_Iprobe(1, 9, w, &flag, &st));
        printf("MPI_Iprobe flag %d\n", flag);
    }
    req = MPI_REQUEST_NULL;
    report("MPI_Wait on a null request", MPI_Wait(&req, &st));
    print_status("MPI_Wait on a null request", &st);
    report("MPI_Test on a null request", MPI_Test(&req, &flag, &st));
    if (rank == 0)
        printf("MPI_Test flag %d\n", flag);
    report("MPI_Recv from MPI_PROC_NULL", MPI_Recv(a, 4, MPI_INT, MPI_PROC_NULL, 3, w, &st));
    print_status("MPI_Recv from MPI_PROC_NULL", &st);

    if (rank == 0)
        printf("exiting with 3\n");
    fflush(stdout);
    MPI_Finalize();
    return 3;
}
