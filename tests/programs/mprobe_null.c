/* Matched probes and receives on MPI_PROC_NULL on 2 ranks, as MPICH's test
 * pt2pt/mprobe does them (tests/integration/mprobe_null.sh): MPI_Improbe on
 * MPI_PROC_NULL finds MPI_MESSAGE_NO_PROC at once, whose MPI_Imrecv completes in MPI_Test
 * with no message (or else in MPI_Wait); MPI_Mprobe on MPI_PROC_NULL then MPI_Mrecv
 * likewise.  Between them, one real message from rank 0 to rank 1, received through
 * MPI_Mprobe and MPI_Mrecv, and a barrier: the run completes. */
#include <mpi.h>
#include <stdio.h>

/* MPI_Improbe, MPI_Imrecv and MPI_Test on MPI_PROC_NULL; 0 if MPI says what it must. */
static int improbe_null(void)
{
    int flag = 0, done = 0, buf = 7;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;

    MPI_Improbe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &flag, &msg, &st);
    if (!flag || msg != MPI_MESSAGE_NO_PROC)
        return 1;
    MPI_Imrecv(&buf, 1, MPI_INT, &msg, &req);
    MPI_Test(&req, &done, &st);
    if (!done) /* MPI says it is done; the MPICH test then waits, as here */
        MPI_Wait(&req, &st);
    return st.MPI_SOURCE != MPI_PROC_NULL || buf != 7;
}

/* MPI_Mprobe and MPI_Mrecv on MPI_PROC_NULL. */
static int mprobe_null(void)
{
    int buf = 7;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;

    MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &msg, &st);
    if (msg != MPI_MESSAGE_NO_PROC)
        return 1;
    MPI_Mrecv(&buf, 1, MPI_INT, &msg, &st);
    return st.MPI_SOURCE != MPI_PROC_NULL || buf != 7;
}

int main(int argc, char **argv)
{
    int rank, size, value = 0, wrong = 0;
    MPI_Message msg;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "mprobe_null: run me on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    wrong |= improbe_null();
    if (rank == 0) {
        value = 42;
        MPI_Send(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        MPI_Mprobe(0, 3, MPI_COMM_WORLD, &msg, &st);
        MPI_Mrecv(&value, 1, MPI_INT, &msg, &st);
        wrong |= value != 42;
    }
    wrong |= mprobe_null();
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrong)
        fprintf(stderr, "mprobe_null: rank %d: MPI_PROC_NULL not handled as MPI says\n", rank);
    MPI_Finalize();
    return wrong;
}
