/* Interval markers used wrongly (tests/integration/markers_misuse.sh), the same way on
 * every rank, twice:
 *   - intervals 1, 2, 3 nested, then the end of 1: 3 and 2 end with it;
 *   - then the end of 3, no interval 3 being open: ignored;
 * then interval 6 inside interval 6 (allowed: an end ends the innermost one), on rank 1
 * only the end of 9, never begun (ignored), and intervals 4 and 5 nested, left open at
 * MPI_Finalize.  Each marker's line carries a comment "@NAME" by which the test finds
 * the line.  Rank 0 prints one line, the same with and without the recorder. */
#include <prognoz.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rep, one = 1, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (rep = 0; rep < 2; rep++) {
        PROGNOZ_BEGIN(1); /* @begin-1 */
        PROGNOZ_BEGIN(2); /* @begin-2 */
        PROGNOZ_BEGIN(3); /* @begin-3 */
        MPI_Barrier(MPI_COMM_WORLD);
        PROGNOZ_END(1); /* @end-1 */
        PROGNOZ_END(3); /* @end-3 */
    }
    PROGNOZ_BEGIN(6); /* @begin-6-outer */
    PROGNOZ_BEGIN(6); /* @begin-6-inner */
    PROGNOZ_END(6);
    PROGNOZ_END(6);
    if (rank == 1)
        PROGNOZ_END(9); /* @end-9 */
    PROGNOZ_BEGIN(4); /* @begin-4 */
    PROGNOZ_BEGIN(5); /* @begin-5 */
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("markers_misuse: sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
