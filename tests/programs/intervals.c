/* Interval markers of include/prognoz.h (tests/integration/intervals.sh), on an even
 * number of ranks, pairs of neighbours 2k and 2k + 1.  Interval 1 encloses a loop of N
 * steps; each step is interval 2, around a Sendrecv with the neighbour and two
 * executions of interval 3, the second of them around an Allreduce: so interval 1 runs
 * once, interval 2 N times and interval 3 2N times, three levels deep.  Then id 2 is
 * used again at another line around a Barrier (another interval), and interval 4, in a
 * function called from two places, is one interval entered twice.  Each begin marker's
 * line carries a comment "@NAME" by which the test finds the line.  Every rank prints
 * one line of results, the same with and without the recorder. */
#include <prognoz.h>
#include <stdio.h>

#define N 3

/* One interval whatever the call site: its begin marker is here. */
static void count_up(int *count)
{
    PROGNOZ_BEGIN(4); /* @count */
    ++*count;
    PROGNOZ_END(4);
}

int main(int argc, char **argv)
{
    int rank, size, it, k, mine, theirs = 0, sum = 0, total = 0, count = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 != 0) {
        fprintf(stderr, "intervals: run me on an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    PROGNOZ_BEGIN(1); /* @outer */
    for (it = 0; it < N; it++) {
        PROGNOZ_BEGIN(2); /* @step */
        mine = 10 * rank + it;
        MPI_Sendrecv(&mine, 1, MPI_INT, rank ^ 1, it, &theirs, 1, MPI_INT, rank ^ 1, it,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (k = 0; k < 2; k++) {
            PROGNOZ_BEGIN(3); /* @inner */
            if (k == 0)
                total += theirs;
            else
                MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            PROGNOZ_END(3);
        }
        total += sum;
        PROGNOZ_END(2);
    }
    PROGNOZ_END(1);

    PROGNOZ_BEGIN(2); /* @again */
    MPI_Barrier(MPI_COMM_WORLD);
    count_up(&count);
    PROGNOZ_END(2);
    count_up(&count);

    printf("intervals: rank %d of %d: total %d, count %d\n", rank, size, total, count);
    MPI_Finalize();
    return 0;
}
